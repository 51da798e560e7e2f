import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { corpusPages, loadRetrievalCorpus } from '../db/retrieval-corpus.ts';
import { preloadModel } from '../embedding/model-session.ts';
import { createEmbedders } from '../embedding/select.ts';
import { syncSearchPostings } from '../retrieval/lexical-sources/database.ts';
import { loadSnapshot, restoreIndex } from '../retrieval/index-snapshot.ts';
import { hasSnapshot } from '../retrieval/snapshot-files.ts';
import { buildRetrievalIndex, type RetrievalIndex } from '../retrieval/index.ts';

/** Where a corpus version's index is kept between runs, under which key (lib/retrieval/index-snapshot.ts). */
export interface IndexPlace {
  dir: string;
  key: string;
}

export interface ReadOrBuild {
  /** Read back from its snapshot (true) or built from the database (false). */
  readBack: boolean;
  index: RetrievalIndex;
}

/**
 * The first step of an index's life: the corpus version's index read back from where it is kept, when it is stored
 * under this key with the embedders this process loads, else built from the database; with
 * ASSAY_SEARCH=database, the database's search postings written from it unless they are this version's already. A build in the app (`background`) serves at once on the
 * n-gram stand-in while the model embeds the passages (the index's `pendingEmbedder`); the CLI waits for the model.
 */
export async function readOrBuildIndex(
  db: Database,
  cfg: AssayConfig,
  place: IndexPlace | null,
  opts: {
    log: (line: string) => void;
    onStage?: (stage: string) => void;
    background?: boolean;
    /** Read the stored index as it is (faster) when retrieval workers will serve it and this thread lets go of its copy. */
    forWorkers: boolean;
  },
): Promise<ReadOrBuild> {
  const t0 = performance.now();
  const inDatabase = cfg.search === 'database';
  // The model's session loads on its thread while this one reads the stored index.
  if (place && hasSnapshot(place.dir, place.key)) preloadModel(cfg);
  const stored = place ? loadSnapshot(place.dir, place.key, opts.log, !opts.forWorkers) : null;
  if (stored) {
    opts.onStage?.('reading the stored index');
    const e = await createEmbedders(db, cfg, () => [], opts.log, {}, stored.nameFit);
    if (e.passages.id === stored.embedderId && e.names.id === stored.nameEmbedderId) {
      const lazies = { recordCount: stored.recordCount, ...corpusPages(db) };
      const index = restoreIndex(stored, lazies, { embedder: e.passages, nameEmbedder: e.names, buildSeconds: (performance.now() - t0) / 1000 });
      opts.log(`retrieval index read from its snapshot in ${index.buildSeconds.toFixed(1)} s`);
      if (inDatabase) await writeSearchPostings(db, index, opts.log);
      return { readBack: true, index };
    }
    opts.log(`the stored index was built with ${stored.embedderId}, the embedder now is ${e.passages.id}: it is built again`);
  }
  opts.onStage?.('loading corpus');
  const corpus = await loadRetrievalCorpus(db);
  opts.onStage?.('fitting embedder');
  const embedders = await createEmbedders(db, cfg, () => corpus.paragraphs.map((p) => p.text), opts.log);
  const index = await buildRetrievalIndex(corpus, embedders.passages, {
    onStage: opts.onStage,
    nameEmbedder: embedders.names,
    embedderNote: embedders.note,
    ...(opts.background && embedders.passages !== embedders.names ? { whileCold: embedders.names } : {}),
  });
  if (inDatabase) await writeSearchPostings(db, index, opts.log);
  return { readBack: false, index };
}

/** The database search's postings of this corpus version, written from the index unless another process has. */
async function writeSearchPostings(db: Database, index: RetrievalIndex, log: (line: string) => void): Promise<void> {
  const t0 = performance.now();
  if ((await syncSearchPostings(db, index.version, index.paragraphLexical)) === 'written')
    log(`paragraph search postings written to the database in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
