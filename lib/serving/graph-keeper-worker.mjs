// The graph keeper's entry under tsx (see retrieval-worker.mjs): registers tsx's loader, then loads graph-keeper-worker.ts.
import { register } from 'tsx/esm/api';

register();
await import('./graph-keeper-worker.ts');
