import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { chatModel } from '../ai/providers.ts';
import { extractionCache } from '../db/extraction-cache.ts';
import { embeddingCacheStore } from '../db/embeddings.ts';
import { BGE_MODEL } from '../embedding/bge-model.ts';
import { cachedEmbedder } from '../embedding/cached.ts';
import { modelSession } from '../embedding/model-session.ts';
import type { OnnxEmbedder } from '../embedding/onnx-bge.ts';
import { createLlmExtractor } from '../structure/llm-extractor.ts';
import { type NamedTagger, rulesExtractor, type StructureExtractor } from '../structure/paragraph.ts';
import { type HeadsEncoder, headsExtractor } from './heads/extractor.ts';
import { MENTION_FEATURES_VERSION, namedTagger } from './heads/material-tagger.ts';
import { loadHeads, loadMaterialTagger } from './heads/store.ts';

/** Whether the configuration embeds passages with the local model (the encoder the trained heads read). */
export const localModelEmbeds = (cfg: AssayConfig) => !cfg.embedding && cfg.localEmbedder === 'model';

/** The trained material tagger when it is cached in the data folder and switched on (ASSAY_MATERIAL_TAGGER=auto). */
export function configuredMaterialTagger(cfg: AssayConfig): NamedTagger | null {
  const tagged = cfg.materialTagger === 'auto' ? loadMaterialTagger(cfg.dataDir, MENTION_FEATURES_VERSION) : null;
  return tagged ? namedTagger(tagged) : null;
}

/**
 * The structuring backend the configuration asks for (ASSAY_EXTRACTOR), with its concurrency: a language model, or
 * offline — the trained heads over the rules when they are cached in the data folder and the local model embeds
 * passages (ASSAY_STRUCTURING_HEADS=auto), else the rules alone; either with the materials' roles from the trained
 * material tagger when it is cached (ASSAY_MATERIAL_TAGGER=auto, the default).
 */
export function configuredExtractor(
  db: Database,
  cfg: AssayConfig,
  /** reviewAll: the trained heads embed every paragraph they review (`npm run structure`), not a budget's worth. */
  opts: { reviewAll?: boolean } = {},
): { extractor: StructureExtractor; concurrency: number } {
  if (cfg.extractor === 'llm') {
    const chat = chatModel(cfg);
    if (!chat) throw new Error('ASSAY_EXTRACTOR=llm but no model is configured (ASSAY_LLM_BASE_URL, ASSAY_CHAT_MODEL)');
    return { extractor: createLlmExtractor({ chat, cache: extractionCache(db) }), concurrency: cfg.llm!.concurrency };
  }
  const tagger = configuredMaterialTagger(cfg);
  const heads = cfg.structuringHeads === 'auto' && localModelEmbeds(cfg) ? loadHeads(cfg.dataDir, BGE_MODEL.id) : null;
  if (!heads) return { extractor: rulesExtractor(tagger), concurrency: 1 };
  // The model through the database's vector cache, under the id the dense index stores its vectors with.
  let embedder: Promise<ReturnType<typeof cachedEmbedder<OnnxEmbedder>>> | null = null;
  const cached = () => (embedder ??= modelSession(cfg, () => {}).then((model) => cachedEmbedder(model, embeddingCacheStore(db), { batchSize: 64 })));
  const encoder: HeadsEncoder = {
    embed: async (texts) => (await cached()).embed(texts),
    stored: async (texts) => (await cached()).stored!(texts),
  };
  return { extractor: headsExtractor(heads, encoder, { budget: opts.reviewAll ? Number.POSITIVE_INFINITY : undefined, tagger }), concurrency: 1 };
}
