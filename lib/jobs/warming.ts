/**
 * Whether the server is still reading or building its indexes after its start (warmOnStart in background.ts sets
 * it, `/api/health` says it). Apart from background.ts so that the health check does not load the import pipeline
 * with it: its route is a restart's first request, and loading its modules is on the way to the first answer.
 */
import { processObject } from '../common/process-registry.ts';

declare module '../common/process-registry.ts' {
  interface ProcessObjects {
    warming: { indexes: boolean };
  }
}

// A process object: the server start sets it, the health route (another module instance under Next.js) reads it.
const warming = () => processObject('warming', () => ({ indexes: false }));

export const setWarmingIndexes = (on: boolean): void => {
  warming().indexes = on;
};

export const warmingIndexes = (): boolean => warming().indexes;
