/**
 * Whether the server is still reading or building its indexes after its start (warmOnStart in background.ts sets
 * it, `/api/health` says it). Apart from background.ts so that the health check does not load the import pipeline
 * with it: its route is a restart's first request, and loading its modules is on the way to the first answer.
 */
// On globalThis: Next.js loads the server start and the route handlers as separate module instances.
const warming = globalThis as unknown as { __assayWarmingIndexes?: boolean };

export const setWarmingIndexes = (on: boolean): void => {
  warming.__assayWarmingIndexes = on;
};

export const warmingIndexes = (): boolean => warming.__assayWarmingIndexes === true;
