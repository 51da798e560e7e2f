import { embeddingModel } from '../ai/providers.ts';
import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { embeddingCacheStore } from '../db/embeddings.ts';
import { BGE_MODEL } from './bge-model.ts';
import { cachedEmbedder } from './cached.ts';
import type { TextEmbedder } from './embedder.ts';
import { fitLocalHashEmbedderSliced, LocalHashEmbedder, localTextEmbedder } from './local-hash.ts';
import { modelSession } from './model-session.ts';
import { providerTextEmbedder } from './provider.ts';

/**
 * The configured embedder for names (entity labels, canonical clustering): the provider's embedding model (vectors
 * cached in the database) when ASSAY_EMBEDDING_MODEL is set, else the local hashing embedder fitted on `texts` (read
 * only in that case). Never the local model: its cosine between short names does not tell synonyms from distinct
 * materials (AUC 0.54 measured on GO/rGO, YSZ/Ni-YSZ, rGO/"reduced graphene oxide").
 */
export async function createEmbedder(db: Database, cfg: AssayConfig, texts: () => Iterable<string>, fit?: LocalHashFit | null): Promise<TextEmbedder> {
  const provider = embeddingModel(cfg);
  if (provider) return providerTextEmbedder({ model: provider.model, id: provider.id, cache: embeddingCacheStore(db) });
  // A fit read back from the index's snapshot is the same embedder without reading the corpus again.
  return localTextEmbedder(fit ? new LocalHashEmbedder(fit) : await fitLocalHashEmbedderSliced(texts()));
}

type LocalHashFit = ReturnType<LocalHashEmbedder['fit']>;

/** What decides which embedders an index is built with (part of its snapshot's key). */
export const embedderChoice = (cfg: AssayConfig): string => `${cfg.embedding?.model ?? ''}|${cfg.localEmbedder}|${BGE_MODEL.id}`;

export interface Embedders {
  /** Passages and questions. */
  passages: TextEmbedder;
  /** Entity names. */
  names: TextEmbedder;
  /** Why the passages are not embedded by the configured model (it could not be had), for logs, traces and eval output. */
  note: string | null;
}

/**
 * The embedders a retrieval index needs. Passages: the provider when one is set; else, with ASSAY_LOCAL_EMBEDDER=model,
 * the local model (fetched once into the data folder, vectors cached in the database by text hash so a corpus is
 * embedded once); else, or when the model cannot be had, the n-gram embedder — and `note` says so.
 */
export async function createEmbedders(
  db: Database,
  cfg: AssayConfig,
  texts: () => Iterable<string>,
  log: (line: string) => void = () => {},
  fetching: { localRepository?: string | null; fetchImpl?: typeof fetch } = {},
  nameFit?: LocalHashFit | null,
): Promise<Embedders> {
  const names = await createEmbedder(db, cfg, texts, nameFit);
  if (embeddingModel(cfg) || cfg.localEmbedder === 'ngram') return { passages: names, names, note: null };
  const model = await localModelEmbedder(db, cfg, log, fetching);
  return { passages: model.embedder ?? names, names, note: model.note };
}

/** The local model as the passages' embedder (vectors cached in the database), or why it could not be had. */
async function localModelEmbedder(
  db: Database,
  cfg: AssayConfig,
  log: (line: string) => void,
  fetching: { localRepository?: string | null; fetchImpl?: typeof fetch } = {},
): Promise<{ embedder: TextEmbedder | null; note: string | null }> {
  try {
    const model = await modelSession(cfg, log, fetching);
    return { embedder: cachedEmbedder(model, embeddingCacheStore(db), { batchSize: 64 }), note: null };
  } catch (error) {
    const note = `the embedding model ${BGE_MODEL.id} could not be had (${(error as Error).message}): passages are embedded by the character n-gram stand-in`;
    log(note);
    return { embedder: null, note };
  }
}

/**
 * The embedders this process lends to retrieval workers that hold a stored index: the workers hold the n-gram
 * embedder's fit themselves, so only a model or a provider is made here — `passages` and `names` are null where
 * they are the n-gram embedder (or the model could not be had: `note` says so, and the stored index, built with it,
 * cannot be served). Nothing reads the corpus.
 */
export async function createLentEmbedders(db: Database, cfg: AssayConfig, log: (line: string) => void = () => {}): Promise<LentEmbedders> {
  const provider = embeddingModel(cfg);
  if (provider) {
    const embedder = await createEmbedder(db, cfg, () => []);
    return { passages: embedder, names: embedder, note: null };
  }
  if (cfg.localEmbedder === 'ngram') return { passages: null, names: null, note: null };
  const model = await localModelEmbedder(db, cfg, log);
  return { passages: model.embedder, names: null, note: model.note };
}

export interface LentEmbedders {
  passages: TextEmbedder | null;
  names: TextEmbedder | null;
  note: string | null;
}
