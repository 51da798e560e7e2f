/**
 * A value built on first use and shared by every later caller; a failed build is forgotten so the next caller
 * tries again (e.g. after the database comes back).
 */
export function lazyOnce<T>(build: () => Promise<T>): () => Promise<T> {
  let built: Promise<T> | null = null;
  return () => {
    if (!built) {
      const attempt = build();
      built = attempt;
      attempt.catch(() => {
        if (built === attempt) built = null;
      });
    }
    return built;
  };
}

/**
 * Runs `run` once: when the returned function is first called, or `afterMs` from now if it is not called by then
 * (work that should wait for a cue, such as a first answer, but not forever). The timer does not keep the process alive.
 */
export function onCueOrAfter(run: () => void, afterMs: number): () => void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    run();
  };
  const timer = setTimeout(once, afterMs);
  timer.unref?.();
  return once;
}
