import v8 from 'node:v8';
import vm from 'node:vm';

let collect: (() => void) | null | undefined;

/**
 * Full garbage collection, for a thread that has just built or read a large structure (an index, from its
 * snapshot) or let go of one. Loading leaves as much garbage as it keeps (the snapshot's decoded form, the index
 * structures rebuilt from it, warm-up intermediates), and V8 keeps the pages it grew into committed long after: measured on
 * the shared corpus, a retrieval worker's heap stayed at 643 MB for minutes with 445 MB live, and two collections
 * brought it to 462–571 MB (the second compacts what the first freed: one alone left 601 MB). Node exposes `gc`
 * only behind the --expose-gc flag, which would have to be on every command that starts the app (npm start,
 * next start, the tests' servers); setting the flag from here and taking `gc` from a fresh context (which is
 * created with it) works wherever the code runs. False where it is refused. `collections`: one is enough where no
 * compacting of what it freed is needed (a long build that collects as it goes).
 */
export function releaseMemory(collections = 2): boolean {
  if (collect === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc');
      collect = vm.runInNewContext('gc') as () => void;
    } catch {
      collect = null;
    }
  }
  if (!collect) return false;
  for (let i = 0; i < collections; i++) collect();
  return true;
}
