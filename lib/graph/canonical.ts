import { dot, sparse, sparseDot } from '../embedding/embedder.ts';
import { timeSlicer } from '../common/yield.ts';

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

/**
 * Deterministic k-means on normalised vectors (farthest-point initialisation, a few Lloyd iterations). Name
 * vectors are mostly zeros, so items are dotted with the dense centres through their non-zeros: skipping zero
 * terms leaves every sum bit-identical to the dense product and cuts the work several times.
 */
export function coarseGroups(items: NameItem[], groupSize = 200, iterations = 8): NameItem[][] {
  const k = Math.max(1, Math.ceil(items.length / groupSize));
  if (k === 1) return [items];
  const sparseItems = items.map((it) => sparse(it.vector));
  const centres: Float32Array[] = [Float32Array.from(items[0].vector)];
  const nearest = sparseItems.map((v) => sparseDot(v, centres[0]));
  while (centres.length < k) {
    let far = 0;
    for (let i = 1; i < items.length; i++) if (nearest[i] < nearest[far]) far = i;
    const centre = Float32Array.from(items[far].vector);
    centres.push(centre);
    for (let i = 0; i < items.length; i++) nearest[i] = Math.max(nearest[i], sparseDot(sparseItems[i], centre));
  }
  const assign = new Int32Array(items.length);
  for (let iter = 0; iter < iterations; iter++) {
    for (let i = 0; i < items.length; i++) {
      let best = 0;
      let bestSim = -Infinity;
      for (let j = 0; j < centres.length; j++) {
        const s = sparseDot(sparseItems[i], centres[j]);
        if (s > bestSim) [best, bestSim] = [j, s];
      }
      assign[i] = best;
    }
    // Sums accumulate in item order per centre, as the dense version did, so the centres come out the same.
    for (const c of centres) c.fill(0);
    for (let i = 0; i < items.length; i++) {
      const c = centres[assign[i]];
      const v = items[i].vector;
      for (let d = 0; d < c.length; d++) c[d] += v[d];
    }
    for (const c of centres) {
      const n = Math.hypot(...c);
      if (n > 0) for (let d = 0; d < c.length; d++) c[d] /= n;
    }
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
 * A and B turns row A into row A + row B, so the whole clustering computes each pair's dot product once.
 * Each row also remembers its nearest later cluster, so a merge rescans only the rows it touched instead of
 * every pair (O(n²) overall in practice instead of O(n³)); ties still go to the first pair in (i, j) order,
 * so the clusters are exactly those of the plain all-pairs scan.
 */
export function averageLinkage(items: NameItem[], threshold = 0.5): NameItem[][] {
  const n = items.length;
  const sums = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    // Through the non-zeros of one side, as in coarseGroups: the same sums, several times fewer products.
    const a = sparse(items[i].vector);
    for (let j = i + 1; j < n; j++) sums[i * n + j] = sums[j * n + i] = sparseDot(a, items[j].vector);
  }
  const members: (NameItem[] | null)[] = items.map((it) => [it]);
  const distance = (i: number, j: number) => 1 - sums[i * n + j] / (members[i]!.length * members[j]!.length);
  const rowBest = new Float64Array(n).fill(Infinity);
  const rowPartner = new Int32Array(n).fill(-1);
  const rescan = (i: number) => {
    let best = Infinity;
    let partner = -1;
    for (let j = i + 1; j < n; j++) {
      if (!members[j]) continue;
      const d = distance(i, j);
      if (d < best) [best, partner] = [d, j];
    }
    rowBest[i] = best;
    rowPartner[i] = partner;
  };
  for (let i = 0; i < n; i++) rescan(i);
  for (;;) {
    let bi = -1;
    let best = Infinity;
    for (let i = 0; i < n; i++) if (members[i] && rowBest[i] < best) [best, bi] = [rowBest[i], i];
    if (bi < 0 || best >= threshold) break;
    const bj = rowPartner[bi];
    members[bi]!.push(...members[bj]!);
    members[bj] = null;
    rowBest[bj] = Infinity;
    for (let k = 0; k < n; k++) if (k !== bi && members[k]) sums[bi * n + k] = sums[k * n + bi] = sums[bi * n + k] + sums[bj * n + k];
    for (let k = 0; k < n; k++) {
      if (!members[k]) continue;
      if (k === bi || rowPartner[k] === bi || rowPartner[k] === bj) rescan(k);
      else if (k < bi) {
        // Only the distance to the merged cluster changed in this row.
        const d = distance(k, bi);
        if (d < rowBest[k] || (d === rowBest[k] && bi < rowPartner[k])) [rowBest[k], rowPartner[k]] = [d, bi];
      }
    }
  }
  return members.filter((m): m is NameItem[] => m !== null);
}

export function canonicalClusters(items: NameItem[], threshold = 0.5): NameCluster[] {
  return [...clusterByGroup(items, threshold)].flat();
}

/** The same clusters, a guard group at a time with a turn for the event loop between groups (the server's graph stage). */
export async function canonicalClustersSliced(items: NameItem[], threshold = 0.5): Promise<NameCluster[]> {
  const slice = timeSlicer();
  const out: NameCluster[] = [];
  for (const clusters of clusterByGroup(items, threshold)) {
    out.push(...clusters);
    await slice();
  }
  return out;
}

function* clusterByGroup(items: NameItem[], threshold: number): Generator<NameCluster[]> {
  const byGuard = new Map<string, NameItem[]>();
  for (const it of items) {
    const group = byGuard.get(it.guard ?? '');
    if (group) group.push(it);
    else byGuard.set(it.guard ?? '', [it]);
  }
  for (const guarded of byGuard.values()) {
    for (const group of coarseGroups(guarded)) {
      const out: NameCluster[] = [];
      for (const members of averageLinkage(group, threshold)) {
        const centroid = new Float32Array(members[0].vector.length);
        for (const m of members) for (let d = 0; d < centroid.length; d++) centroid[d] += m.vector[d] / members.length;
        const norm = Math.hypot(...centroid) || 1;
        const scored = members.map((m) => ({ m, sim: dot(m.vector, centroid) / norm }));
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
      yield out;
    }
  }
}
