import { mergeGuard } from './canonicalize.ts';
import { describe, expect, it } from 'vitest';
import { fitLocalHashEmbedder } from '../embedding/local-hash.ts';
import { averageLinkage, canonicalClusters, coarseGroups, type NameItem } from './canonical.ts';

const unit = (...xs: number[]) => {
  const n = Math.hypot(...xs);
  return Float32Array.from(xs.map((x) => x / n));
};

describe('averageLinkage', () => {
  it('merges while the mean pairwise cosine distance stays under the threshold', () => {
    const items: NameItem[] = [
      { id: 'a', label: 'a', vector: unit(1, 0, 0) },
      { id: 'b', label: 'b', vector: unit(0.95, 0.31, 0) },
      { id: 'c', label: 'c', vector: unit(0, 0, 1) },
    ];
    expect(averageLinkage(items, 0.5).map((c) => c.map((i) => i.id).sort())).toEqual([['a', 'b'], ['c']]);
    expect(averageLinkage(items, 0.01).length).toBe(3);
    expect(averageLinkage(items, 1.01).length).toBe(1);
  });
});

/** The plain all-pairs average linkage the incremental one must reproduce exactly (ties to the first pair). */
function allPairsLinkage(items: NameItem[], threshold: number): string[][] {
  let clusters = items.map((it) => [it]);
  const mean = (a: NameItem[], b: NameItem[]) => {
    let s = 0;
    for (const x of a) for (const y of b) s += x.vector.reduce((acc, v, d) => acc + v * y.vector[d], 0);
    return 1 - s / (a.length * b.length);
  };
  for (;;) {
    let best = Infinity;
    let pair: [number, number] | null = null;
    for (let i = 0; i < clusters.length; i++)
      for (let j = i + 1; j < clusters.length; j++) {
        const d = mean(clusters[i], clusters[j]);
        if (d < best - 1e-12) [best, pair] = [d, [i, j]];
      }
    if (!pair || best >= threshold) break;
    const [i, j] = pair;
    clusters = clusters.map((c, k) => (k === i ? [...c, ...clusters[j]] : c)).filter((_, k) => k !== j);
  }
  return clusters.map((c) => c.map((it) => it.id).sort()).sort();
}

describe('averageLinkage against the all-pairs scan', () => {
  // Seeded pseudo-random sparse vectors in a few directions: many merges, chains and near-ties.
  let seed = 7;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const items: NameItem[] = Array.from({ length: 60 }, (_, i) => {
    const v = new Array(12).fill(0);
    v[i % 4] = 1;
    for (let k = 0; k < 3; k++) v[Math.floor(rand() * 12)] += rand() * 0.8;
    return { id: `n${i}`, label: `n${i}`, vector: unit(...v) };
  });
  it.each([0.1, 0.25, 0.5, 0.8])('gives the same clusters at threshold %s', (threshold) => {
    const fast = averageLinkage(items, threshold)
      .map((c) => c.map((it) => it.id).sort())
      .sort();
    expect(fast).toEqual(allPairsLinkage(items, threshold));
    expect(fast.length).toBeGreaterThan(1);
    expect(fast.length).toBeLessThan(items.length);
  });
});

describe('coarseGroups', () => {
  it('splits large sets into k-means groups and keeps every item once', () => {
    const items = Array.from({ length: 30 }, (_, i) => ({ id: String(i), label: String(i), vector: unit(i % 2 ? 1 : 0.01, i % 2 ? 0.01 : 1, (i % 5) / 10) }));
    const groups = coarseGroups(items, 10);
    expect(groups.length).toBe(3);
    expect(
      groups
        .flat()
        .map((i) => i.id)
        .sort(),
    ).toEqual(items.map((i) => i.id).sort());
  });
});

describe('canonicalClusters', () => {
  const labels = ['cathode material', 'cathode materials', 'anode support layer', 'anode support layers', '1.5', '2.0', '3.7 K'];
  const model = fitLocalHashEmbedder(labels, 256);
  const items = labels.map((l, i) => ({ id: `e${i}`, label: l, vector: model.embedOne(l) }));
  it('merges spelling variants, picks a representative and keeps the distances', () => {
    const clusters = canonicalClusters(items, 0.5);
    const cathode = clusters.find((c) => c.members.some((m) => m.id === 'e0'))!;
    expect(cathode.members.map((m) => m.id).sort()).toEqual(['e0', 'e1']);
    expect(['e0', 'e1']).toContain(cathode.representative);
    expect(cathode.members.find((m) => m.id === cathode.representative)!.distance).toBeCloseTo(0, 5);
  });
  it('labels mostly numeric clusters numerical_value', () => {
    const numbers = canonicalClusters(items.slice(4), 1.5);
    expect(numbers).toHaveLength(1);
    expect(numbers[0]).toMatchObject({ numeric: true, label: 'numerical_value' });
  });
  it('never merges items with different guards', () => {
    const guarded = items.slice(0, 2).map((it, i) => ({ ...it, guard: i === 0 ? 'Pt' : 'Au' }));
    expect(canonicalClusters(guarded, 0.9)).toHaveLength(2);
  });
});

describe('mergeGuard', () => {
  it('keeps apart names that differ in a formula, a number, the kind of a quantity or the doping type', () => {
    expect(mergeGuard('sample 35')).not.toBe(mergeGuard('sample 40'));
    expect(mergeGuard('about 2 μm')).not.toBe(mergeGuard('About 2 g'));
    expect(mergeGuard('n-type 4H-SiC epilayer')).not.toBe(mergeGuard('p-type 4H-SiC epilayer'));
    expect(mergeGuard('TiO2 + g-C3N4')).not.toBe(mergeGuard('g-C3N4 + Pt'));
    expect(mergeGuard('grain boundary conductivity')).toBe(mergeGuard('grain boundary conductivities'));
  });

  it('keeps a substance apart from the process or agent of its stem, and a degree word matters except in a property', () => {
    const guards = ['Oxide', 'oxidation', 'oxidant', 'oxidizer', 'oxidation peaks'].map(mergeGuard);
    // Oxidant and oxidizer (both agents) may still merge; the substance, the process and the peaks may not.
    expect(new Set(guards).size).toBe(4);
    expect(mergeGuard('Anode')).not.toBe(mergeGuard('anodization'));
    expect(mergeGuard('oxidation')).toBe(mergeGuard('oxidation reaction'));
    expect(mergeGuard('best sample')).not.toBe(mergeGuard('sample'));
    expect(mergeGuard('average particle')).not.toBe(mergeGuard('particle'));
    expect(mergeGuard('high temperature')).toBe(mergeGuard('temperature'));
    expect(mergeGuard('high ionic conductivity')).toBe(mergeGuard('ionic conductivity'));
  });

  it('keeps apart a thing and a word about it, names with different head words, and a kind from its bare head', () => {
    expect(mergeGuard('magnetic susceptibility')).not.toBe(mergeGuard('susceptible'));
    expect(mergeGuard('hardness')).not.toBe(mergeGuard('hard'));
    expect(mergeGuard('solar cell')).not.toBe(mergeGuard('solar energy'));
    expect(mergeGuard('phase structure')).not.toBe(mergeGuard('structure'));
    // Spellings of one name still may merge.
    expect(mergeGuard('solar cells')).toBe(mergeGuard('solar cell'));
    expect(mergeGuard('crystal structure')).toBe(mergeGuard('crystal structures'));
  });
});
