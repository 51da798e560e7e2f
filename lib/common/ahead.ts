/**
 * Starts `work` now and hands back a function that waits for its outcome later. The stages of an import overlap a
 * page's database reads and writes (run by the database's own thread) with the CPU work on another page in this
 * one; a failure in between is kept, not reported as an unhandled rejection, and is thrown where it is awaited.
 */
export function startedNow<T>(work: () => Promise<T>): () => Promise<T> {
  const outcome = work().then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  return async () => {
    const o = await outcome;
    if (!o.ok) throw o.error;
    return o.value;
  };
}
