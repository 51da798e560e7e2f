import { describe, expect, it } from 'vitest';
import { cachedEmbedder } from '../embedding/cached.ts';
import type { EmbeddingCacheStore, TextEmbedder } from '../embedding/embedder.ts';
import { embedderNoteNow } from '../retrieval/index.ts';
import { semanticSearchDone, semanticSearchPending, semanticSearchProgress } from './semantic-search.ts';

const store = (): EmbeddingCacheStore => {
  const rows = new Map<string, Float32Array>();
  return {
    get: async (model, hashes) => new Map(hashes.filter((h) => rows.has(`${model}:${h}`)).map((h) => [h, rows.get(`${model}:${h}`)!])),
    has: async (model, hashes) => new Set(hashes.filter((h) => rows.has(`${model}:${h}`))),
    put: async (model, list) => {
      for (const r of list) rows.set(`${model}:${r.hash}`, r.vector);
    },
  };
};

/** A model that embeds one batch each time the test lets it. */
function steppedModel() {
  const waiting: (() => void)[] = [];
  const model: TextEmbedder = {
    id: 'slow-model',
    dimensions: 1,
    embed: async (texts) => {
      await new Promise<void>((resolve) => waiting.push(resolve));
      return texts.map((t) => Float32Array.from([t.length]));
    },
  };
  const step = async () => {
    while (!waiting.length) await new Promise((r) => setTimeout(r, 1));
    waiting.shift()!();
    await new Promise((r) => setTimeout(r, 5));
  };
  return { model, step };
}

describe('semantic search while the model embeds the corpus', () => {
  it('says how far the model has got, in the trace’s note and the status the UI polls, and nothing once it is done', async () => {
    const { model, step } = steppedModel();
    const embedder = cachedEmbedder(model, store(), { batchSize: 2 });
    const texts = ['a', 'bb', 'ccc', 'dddd', 'eeeee'];
    const index = { embedderNote: 'slow-model is embedding 5 passages for the first time', pendingEmbedder: embedder, embedderId: 'local-hash' };
    expect(embedder.progress?.()).toBeNull();
    expect(semanticSearchProgress()).toBeNull();

    semanticSearchPending(embedder);
    expect(semanticSearchProgress()).toEqual({ model: 'slow-model', done: 0, total: 0, percent: 0 });
    const embedding = embedder.embed(texts);
    await step();
    expect(embedder.progress?.()).toEqual({ done: 2, total: 5 });
    expect(semanticSearchProgress()).toEqual({ model: 'slow-model', done: 2, total: 5, percent: 40 });
    expect(embedderNoteNow(index)).toMatch(
      /slow-model has embedded 2 of 5 passages \(40%\) in the background; until it has finished, dense search runs on the character n-gram stand-in/,
    );
    await step();
    expect(semanticSearchProgress()).toMatchObject({ done: 4, percent: 80 });
    await step();
    await embedding;
    expect(embedder.progress?.()).toBeNull();
    // Between the model's last batch and the swap the index keeps the note it was built with.
    expect(embedderNoteNow(index)).toBe(index.embedderNote);

    // A newer build's model is not cleared by the older one ending; its own end clears it.
    const newer = cachedEmbedder(steppedModel().model, store());
    semanticSearchPending(newer);
    semanticSearchDone(embedder);
    expect(semanticSearchProgress()).toMatchObject({ model: 'slow-model' });
    semanticSearchDone(newer);
    expect(semanticSearchProgress()).toBeNull();
  });
});
