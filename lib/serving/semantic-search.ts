import { processObject } from '../common/process-registry.ts';
import { type EmbeddingProgress, percentDone, type TextEmbedder } from '../embedding/embedder.ts';

declare module '../common/process-registry.ts' {
  interface ProcessObjects {
    semanticSearch: { model: TextEmbedder | null };
  }
}

/**
 * Whether semantic (dense) search is complete in this process: while the embedding model embeds the corpus for the
 * first time in the background (minutes, hours at scale), dense search runs on the character n-gram stand-in, and
 * the import banner, `/api/health` and every question's trace say how far the model has got.
 */
const state = () => processObject('semanticSearch', () => ({ model: null }));

/** The model now embedding the corpus in the background (the retrieval service says when it starts). */
export function semanticSearchPending(model: TextEmbedder): void {
  state().model = model;
}

/** That model has finished (or failed): unless a newer build's model embeds by now, semantic search is complete. */
export function semanticSearchDone(model: TextEmbedder): void {
  if (state().model === model) state().model = null;
}

export interface SemanticSearchProgress extends EmbeddingProgress {
  model: string;
  /** Whole percent of the passages embedded so far. */
  percent: number;
  /** Whole percent of the papers dense search covers, when it takes them in as their vectors land (embedding shards). */
  papersPercent?: number;
}

/** How far the model has got, or null when semantic search is complete (or no model embeds in the background). */
export function semanticSearchProgress(): SemanticSearchProgress | null {
  const { model } = state();
  if (!model) return null;
  const p = model.progress?.() ?? { done: 0, total: 0 };
  return { model: model.id, ...p, percent: percentDone(p), ...(p.papers ? { papersPercent: percentDone(p.papers) } : {}) };
}
