import { dot } from '../embedding/embedder.ts';

/**
 * Canonical entities (method B): names are embedded, split coarsely by k-means, then merged within each coarse
 * group by average-linkage agglomerative clustering while the average cosine distance between two clusters is
 * below the threshold (0.5 in the paper). The member nearest the cluster centroid becomes its label; a cluster
 * whose members are mostly numbers (> 60 %) is labelled `numerical_value`. Entities whose key is already
 * canonical (formulas, lexicon materials, properties, methods, values) are not clustered: normalisation has
 * merged their spellings exactly.
 */

export interface NameItem {
  id: string;
  label: string;
  vector: Float32Array;
  /** Items with different guards are never merged (e.g. names that state different formulas). */
  guard?: string;
}

export interface NameCluster {
  representative: string;
  label: string;
  numeric: boolean;
  members: { id: string; distance: number }[];
}

const isNumeric = (label: string) => /^[~<>≈±+\-−]?\s*\d[\d.,\s]*(?:[eE][-+]?\d+)?\s*[%a-zA-Zµ°/^\-−0-9·]*$/.test(label.trim());

/** Deterministic k-means on normalised vectors (farthest-point initialisation, a few Lloyd iterations). */
export function coarseGroups(items: NameItem[], groupSize = 200, iterations = 8): NameItem[][] {
  const k = Math.max(1, Math.ceil(items.length / groupSize));
  if (k === 1) return [items];
  const centres: Float32Array[] = [Float32Array.from(items[0].vector)];
  const nearest = items.map((it) => dot(it.vector, centres[0]));
  while (centres.length < k) {
    let far = 0;
    for (let i = 1; i < items.length; i++) if (nearest[i] < nearest[far]) far = i;
    centres.push(Float32Array.from(items[far].vector));
    items.forEach((it, i) => {
      nearest[i] = Math.max(nearest[i], dot(it.vector, centres[centres.length - 1]));
    });
  }
  let assign = new Array<number>(items.length).fill(0);
  for (let iter = 0; iter < iterations; iter++) {
    assign = items.map((it) => {
      let best = 0;
      let bestSim = -Infinity;
      centres.forEach((c, j) => {
        const s = dot(it.vector, c);
        if (s > bestSim) [best, bestSim] = [j, s];
      });
      return best;
    });
    centres.forEach((c, j) => {
      c.fill(0);
      items.forEach((it, i) => {
        if (assign[i] === j) for (let d = 0; d < c.length; d++) c[d] += it.vector[d];
      });
      const n = Math.hypot(...c);
      if (n > 0) for (let d = 0; d < c.length; d++) c[d] /= n;
    });
  }
  const groups: NameItem[][] = centres.map(() => []);
  items.forEach((it, i) => {
    groups[assign[i]].push(it);
  });
  return groups.filter((g) => g.length > 0);
}

/**
 * Average-linkage agglomerative clustering on normalised vectors. With unit vectors the mean pairwise cosine of
 * two clusters is dot(sumA, sumB) / (|A|·|B|); the dot products of cluster sums are kept in a matrix, and merging
 * A and B turns row A into row A + row B, so the whole clustering computes each pair's dot product once
 * (O(n²) dots and O(n³) cheap scans instead of O(n³) dots — the difference between 5 minutes and seconds on
 * the clause graph's 17k names).
 */
export function averageLinkage(items: NameItem[], threshold = 0.5): NameItem[][] {
  const n = items.length;
  const sums = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) sums[i * n + j] = sums[j * n + i] = dot(items[i].vector, items[j].vector);
  const members: (NameItem[] | null)[] = items.map((it) => [it]);
  for (;;) {
    let bi = -1;
    let bj = -1;
    let best = Infinity;
    for (let i = 0; i < n; i++) {
      const a = members[i];
      if (!a) continue;
      for (let j = i + 1; j < n; j++) {
        const b = members[j];
        if (!b) continue;
        const d = 1 - sums[i * n + j] / (a.length * b.length);
        if (d < best) [best, bi, bj] = [d, i, j];
      }
    }
    if (bi < 0 || best >= threshold) break;
    members[bi]!.push(...members[bj]!);
    members[bj] = null;
    for (let k = 0; k < n; k++) if (k !== bi && members[k]) sums[bi * n + k] = sums[k * n + bi] = sums[bi * n + k] + sums[bj * n + k];
  }
  return members.filter((m): m is NameItem[] => m !== null);
}

export function canonicalClusters(items: NameItem[], threshold = 0.5): NameCluster[] {
  const out: NameCluster[] = [];
  const byGuard = new Map<string, NameItem[]>();
  for (const it of items) byGuard.set(it.guard ?? '', [...(byGuard.get(it.guard ?? '') ?? []), it]);
  for (const group of [...byGuard.values()].flatMap((g) => coarseGroups(g))) {
    for (const members of averageLinkage(group, threshold)) {
      const centroid = new Float32Array(members[0].vector.length);
      for (const m of members) for (let d = 0; d < centroid.length; d++) centroid[d] += m.vector[d] / members.length;
      const scored = members.map((m) => ({ m, sim: dot(m.vector, centroid) / (Math.hypot(...centroid) || 1) }));
      scored.sort((x, y) => y.sim - x.sim || (x.m.label < y.m.label ? -1 : 1));
      const rep = scored[0].m;
      const numeric = members.filter((m) => isNumeric(m.label)).length / members.length > 0.6;
      out.push({
        representative: rep.id,
        label: numeric ? 'numerical_value' : rep.label,
        numeric,
        members: scored.map(({ m }) => ({ id: m.id, distance: Math.max(0, 1 - dot(m.vector, rep.vector)) })),
      });
    }
  }
  return out;
}
