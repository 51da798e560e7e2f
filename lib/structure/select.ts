import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { chatModel } from '../ai/providers.ts';
import { extractionCache } from '../db/extraction-cache.ts';
import { createLlmExtractor } from './llm-extractor.ts';
import { offlineExtractor, type StructureExtractor } from './paragraph.ts';

/** The structuring backend the configuration asks for (ASSAY_EXTRACTOR), with its concurrency. */
export function configuredExtractor(db: Database, cfg: AssayConfig): { extractor: StructureExtractor; concurrency: number } {
  if (cfg.extractor === 'llm') {
    const chat = chatModel(cfg);
    if (!chat) throw new Error('ASSAY_EXTRACTOR=llm but no model is configured (ASSAY_LLM_BASE_URL, ASSAY_CHAT_MODEL)');
    return { extractor: createLlmExtractor({ chat, cache: extractionCache(db) }), concurrency: cfg.llm!.concurrency };
  }
  return { extractor: offlineExtractor, concurrency: 1 };
}
