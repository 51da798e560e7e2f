/**
 * Work the server process runs after a request returns (imports, evaluations, downloads), each under an abort
 * signal that shutdown triggers, so a stop lets every job end its current step and store where it is.
 * Kept on globalThis so that Next.js dev reloads see the same registry.
 */
const registry = globalThis as unknown as { __assayRuns?: Map<string, AbortController> };
const running = () => (registry.__assayRuns ??= new Map());

/** Runs `work` in the background under an abort signal that shutdown can trigger. */
export function startTracked(id: string, work: (signal: AbortSignal) => Promise<unknown>) {
  const controller = new AbortController();
  running().set(id, controller);
  work(controller.signal)
    .catch((error) => console.error(`[assay] background run ${id} failed:`, error))
    .finally(() => running().delete(id));
}

export function stopAllBackgroundWork() {
  for (const c of running().values()) c.abort();
}

export function activeBackgroundWork(): number {
  return running().size;
}
