import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

/** `n` processes of `npm run worker` (lib/cli/worker.ts) on `env`'s database, resolved once each takes jobs. */
export async function startWorkers(n: number, env: NodeJS.ProcessEnv): Promise<ChildProcess[]> {
  const root = path.join(import.meta.dirname, '../..');
  return Promise.all(
    Array.from({ length: n }, () => {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'lib/cli/worker.ts')], {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      return new Promise<ChildProcess>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (d) => {
          out += d;
          if (out.includes('takes jobs from the queue')) resolve(child);
        });
        child.once('exit', (code) => reject(new Error(`a worker exited (${code}) before taking jobs:\n${out}`)));
      });
    }),
  );
}

/** SIGTERM to each worker, resolved once all have exited. */
export const stopWorkers = (children: ChildProcess[]) =>
  Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null) return resolve();
          c.once('exit', () => resolve());
          c.kill('SIGTERM');
        }),
    ),
  );
