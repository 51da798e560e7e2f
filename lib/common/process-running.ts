/**
 * Whether a process of this machine with this pid may still be running: false only when the system says there is
 * none (ESRCH). One it may not signal (EPERM) runs; anything else is not taken as proof that it stopped, since the
 * callers then take over what it held (a database lock, a job, a half-written index).
 */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
