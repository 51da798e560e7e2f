import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { DenseIndex } from '../retrieval/dense-index.ts';
import { fitLocalHashEmbedder, LocalHashEmbedder, localTextEmbedder } from './local-hash.ts';

describe('LocalHashEmbedder', () => {
  const texts = ['La0.6Sr0.4Co0.2Fe0.8O3 cathode', 'yttria-stabilized zirconia', 'Ni-YSZ anode cermet', 'LSCF', 'gadolinia-doped ceria'];
  const fitted = fitLocalHashEmbedder(texts);

  it('weighs rare n-grams above common ones', () => {
    const [lscf, ysz] = [fitted.embedOne('LSCF cathode'), fitted.embedOne('YSZ')];
    const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);
    expect(dot(lscf, fitted.embedOne('LSCF'))).toBeGreaterThan(dot(lscf, ysz));
  });

  it('embeds the same from its fit read back from a snapshot (weights kept as typed arrays)', () => {
    const fit = fitted.fit();
    expect(fit.idf).toMatchObject({ features: expect.any(Float64Array), weights: expect.any(Float64Array) });
    const restored = new LocalHashEmbedder(v8.deserialize(v8.serialize(fit)));
    expect(restored.modelId).toBe(fitted.modelId);
    for (const t of [...texts, 'a text no fit saw: BaZr0.8Y0.2O3']) expect(restored.embedOne(t)).toEqual(fitted.embedOne(t));
  });

  it('takes its weights as a Map too, as they were given before', () => {
    const idf = new Map([
      [3, 0.5],
      [1, 2],
    ]);
    const fromMap = new LocalHashEmbedder({ idf, dimensions: 8 });
    const fromTable = new LocalHashEmbedder(fromMap.fit());
    expect(fromTable.embedOne('nickel oxide')).toEqual(fromMap.embedOne('nickel oxide'));
  });

  it('gives a question the same vector each time it is asked for, so the dense index searches for it once', async () => {
    const embedder = localTextEmbedder(fitted);
    const [first] = await embedder.embedQuery!(['LSCF cathode']);
    const [again, other] = await embedder.embedQuery!(['LSCF cathode', 'ceria anode']);
    expect(again).toBe(first);
    expect(other).not.toBe(first);
    expect([...first]).toEqual([...(await embedder.embed(['LSCF cathode']))[0]]);
    const dense = new DenseIndex(texts, await embedder.embed(texts), fitted.dimensions);
    const scans: number[] = [];
    const scan = (dense as unknown as { scan: (...a: unknown[]) => unknown }).scan.bind(dense);
    (dense as unknown as { scan: (...a: unknown[]) => unknown }).scan = (...a: unknown[]) => {
      scans.push(1);
      return scan(...a);
    };
    expect(dense.query(first, 3)).toEqual(dense.query(again, 2).concat(dense.query(first, 3).slice(2)));
    expect(scans).toHaveLength(1);
    // Bounded: after 64 other questions the first is embedded again, as equal values in a new array.
    for (let i = 0; i < 64; i++) await embedder.embedQuery!([`question ${i}`]);
    const [later] = await embedder.embedQuery!(['LSCF cathode']);
    expect(later).not.toBe(first);
    expect([...later]).toEqual([...first]);
  });
});
