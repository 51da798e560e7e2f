import type { PGliteOptions } from '@electric-sql/pglite';
/** PGlite's options for `dataDir` (undefined: in memory): see pglite-options.mjs. */
export function pgliteOptions(dataDir?: string): PGliteOptions;
