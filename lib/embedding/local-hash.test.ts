import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { fitLocalHashEmbedder, LocalHashEmbedder } from './local-hash.ts';

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
});
