/**
 * The long-lived objects of this process, in one place: the database, the job queue's worker, the embedding model's
 * sessions, the retrieval services and their prestarted workers, auth, the corpus counts, the foreground questions.
 *
 * Why one registry on `globalThis`: Next.js loads the server's start (instrumentation.ts) and the route handlers as
 * separate module instances, and its dev server reloads modules; a module-level variable would give each instance
 * its own database (PGlite opened twice), model session (the weights loaded twice) or worker pool. Every such object
 * is kept here instead, created once on first use under a name its owner declares with its type:
 *
 *   declare module '../common/process-registry.ts' {
 *     interface ProcessObjects { database: Promise<Database> }
 *   }
 *
 * Tests start from a clean process through one call, `forgetProcessObjects()`. Closing what an object holds (a
 * database, worker threads) stays its owner's business (`closeDatabase`, `stopModelSessions`, a service's `close`).
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each owner through declaration merging (see above).
export interface ProcessObjects {}

export type ProcessObjectName = keyof ProcessObjects;

const registry: Map<ProcessObjectName, unknown> = ((globalThis as unknown as { __assayProcess?: Map<ProcessObjectName, unknown> }).__assayProcess ??=
  new Map());

/** The process's `name` object, made by `create` the first time it is asked for. */
export function processObject<N extends ProcessObjectName>(name: N, create: () => ProcessObjects[N]): ProcessObjects[N] {
  if (!registry.has(name)) registry.set(name, create());
  return registry.get(name) as ProcessObjects[N];
}

/** The process's `name` object if one has been made (undefined otherwise: nothing is created). */
export function existingProcessObject<N extends ProcessObjectName>(name: N): ProcessObjects[N] | undefined {
  return registry.get(name) as ProcessObjects[N] | undefined;
}

/** Forgets the `name` object when it is still `value` (a failed open, say): the next ask makes a new one. */
export function forgetProcessObject<N extends ProcessObjectName>(name: N, value?: ProcessObjects[N]): void {
  if (value === undefined || registry.get(name) === value) registry.delete(name);
}

/**
 * A promise kept as the `name` object until it fails: a rejected open (the database locked by another process, a
 * model that could not be loaded) is forgotten so the next caller tries again.
 */
export function processPromise<N extends PromisedName>(name: N, open: () => ProcessObjects[N]): ProcessObjects[N] {
  return processObject(name, () => {
    const pending = open();
    (pending as Promise<unknown>).catch(() => forgetProcessObject(name, pending));
    return pending;
  });
}

/** The names whose objects are promises (opened asynchronously). */
type PromisedName = { [N in ProcessObjectName]: ProcessObjects[N] extends Promise<unknown> ? N : never }[ProcessObjectName];

/** Tests: forgets every object of the process (or those named), so the next ask makes new ones. */
export function forgetProcessObjects(names?: ProcessObjectName[]): void {
  if (!names) registry.clear();
  else for (const name of names) registry.delete(name);
}
