/**
 * Long CPU work on the thread that answers requests (building the retrieval indexes, embedding a corpus) gives the
 * event loop a turn every `sliceMs` (10 ms: a page's request takes several turns, each of which may wait one slice): a page asked for meanwhile waits one slice, not the whole build. Await the
 * returned function inside the loop; it costs a microtask until a slice is used up, then yields once with
 * setImmediate (timers and I/O run before the loop goes on).
 */
export function timeSlicer(sliceMs = 10): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}
