import { describe, expect, it } from 'vitest';
import { cachedEmbedder } from './cached.ts';
import type { EmbeddingCacheStore, TextEmbedder } from './embedder.ts';

/** A store in memory, as lib/db/embeddings.ts keeps vectors in the database. */
function memoryStore(): EmbeddingCacheStore & { rows: Map<string, Float32Array> } {
  const rows = new Map<string, Float32Array>();
  return {
    rows,
    get: async (model, hashes) => new Map(hashes.filter((h) => rows.has(`${model}:${h}`)).map((h) => [h, rows.get(`${model}:${h}`)!])),
    has: async (model, hashes) => new Set(hashes.filter((h) => rows.has(`${model}:${h}`))),
    put: async (model, list) => {
      for (const r of list) rows.set(`${model}:${r.hash}`, r.vector);
    },
  };
}

function recordingModel() {
  const passageCalls: string[][] = [];
  const queryCalls: string[][] = [];
  const vector = (t: string) => Float32Array.from([t.length, 1]);
  const model: TextEmbedder = {
    id: 'rec',
    dimensions: 2,
    embed: async (texts) => {
      passageCalls.push(texts);
      return texts.map(vector);
    },
    embedQuery: async (texts) => {
      queryCalls.push(texts);
      await new Promise((r) => setTimeout(r, 5));
      return texts.map(vector);
    },
  };
  return { model, passageCalls, queryCalls };
}

describe('the cached embedder', () => {
  it('embeds each passage once, shortest first so a slice holds texts of similar length, and counts what is missing', async () => {
    const { model, passageCalls } = recordingModel();
    const store = memoryStore();
    const cached = cachedEmbedder(model, store, { batchSize: 2 });
    const texts = ['a long paragraph here', 'mid text', 'x', 'mid text'];
    expect(await cached.missing!(texts)).toBe(3);
    const vectors = await cached.embed(texts);
    expect(passageCalls).toEqual([['x', 'mid text'], ['a long paragraph here']]);
    expect(vectors.map((v) => v[0])).toEqual([21, 8, 1, 8]);
    expect(await cached.missing!(texts)).toBe(0);
    await cached.embed(texts);
    expect(passageCalls).toHaveLength(2);
  });

  it('asks for a question once even when it is asked again while its vector is on its way', async () => {
    const { model, queryCalls } = recordingModel();
    const cached = cachedEmbedder(model, memoryStore());
    const early = cached.embedQuery!(['what is the anode made of']);
    const later = cached.embedQuery!(['what is the anode made of', 'and the cathode']);
    const [[a], [b, c]] = await Promise.all([early, later]);
    expect(queryCalls).toEqual([['what is the anode made of'], ['and the cathode']]);
    expect(a).toBe(b);
    expect(c[0]).toBe(15);
  });

  it('forgets a question whose call failed, so the next asks again', async () => {
    let fail = true;
    const calls: string[][] = [];
    const flaky: TextEmbedder = {
      id: 'flaky',
      dimensions: 1,
      embed: async (t) => t.map(() => Float32Array.from([1])),
      embedQuery: async (t) => {
        calls.push(t);
        if (fail) throw new Error('the model thread stopped');
        return t.map(() => Float32Array.from([1]));
      },
    };
    const cached = cachedEmbedder(flaky, memoryStore());
    await expect(cached.embedQuery!(['q'])).rejects.toThrow('the model thread stopped');
    fail = false;
    await expect(cached.embedQuery!(['q'])).resolves.toHaveLength(1);
    expect(calls).toHaveLength(2);
  });
});
