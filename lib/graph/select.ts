import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { chatModel } from '../ai/providers.ts';
import { extractionCache } from '../db/extraction-cache.ts';
import { offlineTupleExtractor } from './build.ts';
import { createLlmTupleExtractor, type TupleExtractor } from './llm-tuples.ts';

/** The paragraph tuple backend: the model when ASSAY_GRAPH_EXTRACTOR=llm, else the offline sentence patterns. */
export function configuredTupleExtractor(db: Database, cfg: AssayConfig): TupleExtractor {
  const chat = cfg.graphExtractor === 'llm' ? chatModel(cfg) : null;
  return chat ? createLlmTupleExtractor({ chat, cache: extractionCache(db) }) : offlineTupleExtractor;
}
