import { describe, expect, it } from 'vitest';
import { DenseIndex } from './dense-index.ts';
import { fitLocalHashEmbedder } from '../embedding/local-hash.ts';

const unit = (...xs: number[]) => {
  const n = Math.hypot(...xs);
  return Float32Array.from(xs.map((x) => x / n));
};

describe('DenseIndex', () => {
  it('returns the k nearest by cosine, best first, honouring a filter', () => {
    const idx = new DenseIndex(
      ['a', 'b', 'c', 'd', 'e'],
      [unit(1, 0, 0, 0, 0), unit(1, 1, 0, 0, 0), unit(0, 1, 0, 0, 0), unit(0, 0, 1, 0, 0), unit(1, 0.1, 0, 0, 0)],
      5,
    );
    const q = unit(1, 0, 0, 0, 0);
    expect(idx.query(q, 3).map((h) => h.id)).toEqual(['a', 'e', 'b']);
    expect(idx.query(q, 2, (id) => id !== 'a').map((h) => h.id)).toEqual(['e', 'b']);
    expect(idx.query(q, 3)[0].score).toBeCloseTo(1, 6);
  });
  it('answers several queries in one pass exactly as one by one', () => {
    const vecs = Array.from({ length: 40 }, (_, i) => unit(Math.sin(i), Math.cos(i), Math.sin(2 * i), 1, i % 3));
    const idx = new DenseIndex(
      vecs.map((_, i) => `v${i}`),
      vecs,
      5,
    );
    const qs = [unit(1, 0, 0, 0, 0), unit(0, 1, 1, 0, 0), unit(0, 0, 0, 1, 1)];
    expect(idx.queryMany(qs, 7, (id) => id !== 'v3')).toEqual(qs.map((q) => idx.query(q, 7, (id) => id !== 'v3')));
  });
  it('answers a repeated search of the same question vector from its last scan, whatever k is asked', () => {
    const vecs = Array.from({ length: 300 }, (_, i) => unit(Math.sin(i), Math.cos(i), Math.sin(3 * i), Math.cos(5 * i), (i % 7) / 7));
    const ids = vecs.map((_, i) => `v${i}`);
    const remembering = new DenseIndex(ids, vecs, 5);
    const q = unit(0.3, 1, 0, 0.5, 0.2);
    const fresh = (k: number) => new DenseIndex(ids, vecs, 5).query(q, k);
    expect(remembering.query(q, 5)).toEqual(fresh(5));
    expect(remembering.query(q, 20)).toEqual(fresh(20));
    // Deeper than any scan kept: scanned again, and still exact.
    expect(remembering.query(q, 250)).toEqual(fresh(250));
    expect(remembering.query(q, 5)).toEqual(fresh(5));
    // A filter is never answered from the unfiltered scan.
    expect(remembering.query(q, 5, (id) => id !== fresh(1)[0].id)[0].id).toBe(fresh(2)[1].id);
  });
  it('finds by the native scan what the JavaScript scan finds, alone and in a batch', () => {
    // Random 384-dimensional unit vectors, as the passage model gives: the native (unfiltered) and the JavaScript
    // (filtered, the filter letting everything through) scans must agree on the neighbours and their cosines.
    let seed = 7;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
    const vector = () => {
      const v = Float32Array.from({ length: 384 }, rand);
      const n = Math.hypot(...v);
      return v.map((x) => x / n);
    };
    const vecs = Array.from({ length: 2000 }, vector);
    const idx = new DenseIndex(
      vecs.map((_, i) => `p${i}`),
      vecs,
      384,
    );
    const qs = [vector(), vector(), vecs[17]];
    for (const q of qs) {
      const native = idx.query(q, 50);
      const js = idx.query(q, 50, () => true);
      expect(native.map((h) => h.id)).toEqual(js.map((h) => h.id));
      for (const [i, h] of native.entries()) expect(h.score).toBeCloseTo(js[i].score, 5);
    }
    expect(idx.query(vecs[17], 1)[0]).toMatchObject({ id: 'p17' });
    expect(idx.queryMany(qs, 20).map((hits) => hits.map((h) => h.id))).toEqual(qs.map((q) => idx.query(q, 20, () => true).map((h) => h.id)));
    // More neighbours asked than vectors held: all of them, best first.
    expect(new DenseIndex(['a', 'b'], [unit(1, 0), unit(0, 1)], 2).query(unit(1, 0.2), 10).map((h) => h.id)).toEqual(['a', 'b']);
    expect(new DenseIndex([], [], 2).query(unit(1, 0), 3)).toEqual([]);
    // A matrix that is a view into a larger buffer (a snapshot read back) is searched from its own first row.
    const buffer = new Float32Array(6);
    buffer.set([9, 9, 1, 0, 0, 1]);
    const view = new DenseIndex(['a', 'b'], new Float32Array(buffer.buffer, 8, 4), 2);
    expect(view.query(unit(1, 0), 2)).toEqual([
      { id: 'a', score: 1 },
      { id: 'b', score: 0 },
    ]);
  });
  it('holds int8 codes at a quarter of the memory, ranking and scoring as the float vectors do within quantization', () => {
    // 384 dimensions as the model gives, 2,000 passages, seeded.
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5;
    const d = 384;
    const vecs = Array.from({ length: 2000 }, () => {
      const v = Float32Array.from({ length: d }, rnd);
      const n = Math.hypot(...v);
      return v.map((x) => x / n);
    });
    const ids = vecs.map((_, i) => `p${i}`);
    const float = new DenseIndex(ids, vecs, d);
    const int8 = new DenseIndex(ids, vecs, d, { precision: 'int8' });
    expect(int8.toData().codes?.byteLength).toBe(float.toData().matrix!.byteLength / 4);
    // Questions near some passages, as real ones are: the same nearest passages first, nine of the ten neighbours at
    // least (the rest of random vectors lie within 0.01 of each other, where quantization may swap them), scores
    // within 0.01.
    for (const [a, b] of [
      [5, 9],
      [100, 1500],
      [42, 43],
    ]) {
      const q = vecs[a].map((x, i) => 0.7 * x + 0.3 * vecs[b][i]);
      const fq = float.query(q, 10);
      const iq = int8.query(q, 10);
      expect(iq.slice(0, 2).map((h) => h.id)).toEqual(fq.slice(0, 2).map((h) => h.id));
      expect(iq.filter((h) => fq.some((f) => f.id === h.id)).length).toBeGreaterThanOrEqual(9);
      for (const [i, h] of iq.entries()) expect(Math.abs(h.score - fq[i].score)).toBeLessThan(0.01);
      // The JavaScript scan (a filtered question) finds what the native one does; the similarities agree.
      expect(int8.query(q, 10, () => true).map((h) => h.id)).toEqual(iq.map((h) => h.id));
      expect(int8.similarities(q, [ids[a]])[0]).toBeCloseTo(float.similarities(q, [ids[a]])[0], 2);
    }
    // Read back from its data (a snapshot) without quantizing again; pgvector is given the floats back.
    const back = DenseIndex.fromData(int8.toData());
    const q = vecs[3];
    expect(back.query(q, 5)).toEqual(int8.query(q, 5));
    const floats = int8.floatMatrix();
    expect(Math.abs(floats[0] - vecs[0][0])).toBeLessThan(0.005);
  });

  it('rejects vectors of the wrong size', () => {
    expect(() => new DenseIndex(['a'], [unit(1, 0)], 3)).toThrow(/2 dimensions/);
  });
});

describe('local hashing embedder', () => {
  const texts = ['yttria-stabilized zirconia electrolyte', 'nickel foam substrate for water splitting', 'superconducting transition temperature of cuprates'];
  const model = fitLocalHashEmbedder(texts, 256);
  it('gives normalised vectors, stable for the same text, with a model id naming the fit', () => {
    const a = model.embedOne(texts[0]);
    expect(a.length).toBe(256);
    expect(Math.hypot(...a)).toBeCloseTo(1, 5);
    expect(Array.from(model.embedOne(texts[0]))).toEqual(Array.from(a));
    expect(model.modelId).toMatch(/^local-hash-256@[0-9a-f]{10}$/);
  });
  it('puts spelling variants closer than unrelated text', () => {
    const dot = (x: Float32Array, y: Float32Array) => x.reduce((s, v, i) => s + v * y[i], 0);
    const q = model.embedOne('yttria stabilised zirconium oxide');
    expect(dot(q, model.embedOne(texts[0]))).toBeGreaterThan(dot(q, model.embedOne(texts[1])));
  });
  it('serves the AI SDK embedding-model interface', async () => {
    const r = await model.doEmbed({ values: ['a b', 'c d'] });
    expect(r.embeddings).toHaveLength(2);
    expect(model.specificationVersion).toBe('v3');
  });
});
