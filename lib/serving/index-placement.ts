import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { syncDenseVectors, withDatabaseVectors } from '../retrieval/dense-sources/database.ts';
import { withDatabaseSearch } from '../retrieval/lexical-sources/database.ts';
import type { RetrievalIndex } from '../retrieval/index.ts';

/**
 * Where an index's searches run. With ASSAY_SEARCH=database, paragraph search runs in the database over documents
 * each build writes there; with ASSAY_VECTORS=database, dense search runs in pgvector over the vectors written there
 * (not the stand-in's while the model embeds in the background). A database that cannot hold them leaves dense
 * search in the process. Otherwise the index searches in memory, as it is.
 */
export async function placeIndex(index: RetrievalIndex, db: Database, cfg: AssayConfig, log: (line: string) => void): Promise<RetrievalIndex> {
  const served = cfg.search === 'database' ? withDatabaseSearch(index, db, log) : index;
  if (cfg.vectors !== 'database' || index.pendingEmbedder) return served;
  try {
    const t0 = performance.now();
    if ((await syncDenseVectors(db, index)) === 'written') log(`passage vectors written to pgvector in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return await withDatabaseVectors(served, db);
  } catch (error) {
    log(`dense search stays in this process: ${(error as Error).message}`);
    return served;
  }
}
