// The retrieval worker's entry: a worker thread does not take `--import tsx` from its execArgv, so it registers
// tsx's loader itself and then loads the TypeScript worker (retrieval-worker.ts).
import { register } from 'tsx/esm/api';

register();
await import('./retrieval-worker.ts');
