import { AsyncLocalStorage } from 'node:async_hooks';
import { processObject } from './process-registry.ts';

/**
 * Questions being retrieved in this process now, and which async work belongs to one. A process object: Next.js loads
 * the route handlers and the server start (where import jobs run) as separate module instances.
 */
interface Foreground {
  running: number;
  wake: Set<() => void>;
  question: AsyncLocalStorage<true>;
}
declare module './process-registry.ts' {
  interface ProcessObjects {
    foreground: Foreground;
  }
}
const foreground: Foreground = processObject('foreground', () => ({ running: 0, wake: new Set(), question: new AsyncLocalStorage<true>() }));

/**
 * Runs a question's retrieval as foreground work: while one runs, long work sliced by `timeSlicer` outside it (an
 * import's structuring and graph, an index build) waits up to `GIVE_WAY_MS` at each slice's end. A request takes
 * several turns of the event loop, and each waited for a slice of the import: one client's p95 was 2.7 times idle.
 */
export async function inForeground<T>(work: () => Promise<T>): Promise<T> {
  foreground.running++;
  try {
    return await foreground.question.run(true, work);
  } finally {
    if (--foreground.running === 0) {
      for (const wake of foreground.wake) wake();
      foreground.wake.clear();
    }
  }
}

/** How long background work waits for the questions at the end of a slice: it still gets a third of the thread. */
const GIVE_WAY_MS = 20;

/** Resolves when no question runs, or after `ms`. */
function questionsDone(ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      foreground.wake.delete(done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    foreground.wake.add(done);
  });
}

/**
 * Long CPU work on the thread that answers requests (building the retrieval indexes, embedding a corpus) gives the
 * event loop a turn every `sliceMs` (10 ms: a page's request takes several turns, each of which may wait one slice): a page asked for meanwhile waits one slice, not the whole build. Await the
 * returned function inside the loop; it costs a microtask until a slice is used up, then yields once with
 * setImmediate (timers and I/O run before the loop goes on), and gives way to questions being retrieved (`inForeground`)
 * unless it runs for one of them itself (a graph index built on a question's first use).
 */
export function timeSlicer(sliceMs = 10): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (foreground.running > 0 && !foreground.question.getStore()) await questionsDone(GIVE_WAY_MS);
    since = performance.now();
  };
}
