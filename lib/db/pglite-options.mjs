// How Assay opens PGlite, shared by the data folder's database thread (pglite-worker.mjs) and the tests' in-memory
// databases (pglite.ts). Plain JavaScript because the worker thread loads it without the TypeScript loader.
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';

/**
 * PostgreSQL's initdb gives PGlite 128 MB of shared buffers, and PGlite's WebAssembly memory never shrinks: once a
 * few large reads have passed through them, the server holds all 128 MB for good (measured on the shared corpus:
 * 289 MB resident after opening, against 178 MB with 16 MB of buffers; reading every paragraph, record, paper and
 * tuple took 3.3 s against 3.5 s). The data files stay in the operating system's page cache either way.
 */
const SHARED_BUFFERS = '16MB';

/** PGlite's options for `dataDir` (undefined: in memory); pgvector is registered (ASSAY_VECTORS=database creates it). */
export function pgliteOptions(dataDir) {
  return {
    ...(dataDir ? { dataDir } : {}),
    extensions: { vector },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
  };
}
