import type { Database } from '../../db/database.ts';
import {
  type DenseSpace,
  denseVectorCounts,
  denseVectorKey,
  denseVectorSimilarities,
  ensurePgvector,
  HNSW_FROM,
  nearestDenseVectors,
  replaceDenseVectors,
} from '../../db/dense-vectors.ts';
import { DenseIndex, type DenseView } from '../dense-index.ts';
import type { RetrievalIndex } from '../index.ts';
import type { ScoredId } from '../lexical-index.ts';

/**
 * Dense search run by pgvector (ASSAY_VECTORS=database): the index's passage vectors are written to the database
 * once per corpus version and embedder (db/dense-vectors.ts) and the process lets go of its copy, so several app
 * processes share one set and none holds it. Same results contract as `DenseIndex` — ids best first by cosine, at
 * most `k`, only ids the filter admits — which dense-sources/parity.db.test.ts holds both to. Up to `HNSW_FROM`
 * vectors per space the database scans exactly (the in-process neighbours, same order); above it pgvector's HNSW
 * index answers approximately.
 */

/** How deep a filtered search reads at first (the filter is a predicate the database cannot apply). */
const FILTER_DEPTH = 20;

/** The key the stored vectors are written under: a new corpus version or embedder writes them anew. */
export const denseVectorsKeyOf = (index: Pick<RetrievalIndex, 'version' | 'embedderId'>) => `${index.version}|${index.embedderId}`;

/** The spaces an index holds in the process (one when the structured space shares the plain one's vectors). */
function localSpaces(index: RetrievalIndex): { space: DenseSpace; dense: DenseIndex }[] {
  const spaces: { space: DenseSpace; dense: DenseIndex }[] = [];
  if (index.raw.dense instanceof DenseIndex) spaces.push({ space: 'raw', dense: index.raw.dense });
  if (index.json.dense !== index.raw.dense && index.json.dense instanceof DenseIndex) spaces.push({ space: 'json', dense: index.json.dense });
  return spaces;
}

/** Writes the index's vectors unless the database holds them for its key already. */
export async function syncDenseVectors(db: Database, index: RetrievalIndex, opts: { hnswFrom?: number } = {}): Promise<'written' | 'current'> {
  await ensurePgvector(db);
  const key = denseVectorsKeyOf(index);
  if ((await denseVectorKey(db)) === key) return 'current';
  const spaces = localSpaces(index);
  if (spaces.length === 0) throw new Error('the index holds no vectors in the process to write');
  const dimensions = spaces[0].dense.dimensions;
  await replaceDenseVectors(
    db,
    key,
    dimensions,
    spaces.map(({ space, dense }) => ({ space, ids: dense.ids, matrix: dense.floatMatrix() })),
    opts,
  );
  return 'written';
}

/** One space searched in the database: `size` vectors of `dimensions`, with an HNSW index from `HNSW_FROM` on. */
export function databaseDense(db: Database, space: DenseSpace, size: number, dimensions: number, opts: { hnswFrom?: number } = {}): DenseView {
  const approximate = size >= (opts.hnswFrom ?? HNSW_FROM);
  const query = async (q: Float32Array, k: number, filter?: (id: string) => boolean): Promise<ScoredId[]> => {
    if (!filter) return nearestDenseVectors(db, space, q, k, { approximate });
    // Read deeper, filter here, and read everything if the filter admitted too few (a narrow scope).
    let depth = Math.min(size, k * FILTER_DEPTH);
    for (;;) {
      const kept = (await nearestDenseVectors(db, space, q, depth, { exact: true })).filter((h) => filter(h.id));
      if (kept.length >= k || depth >= size) return kept.slice(0, k);
      depth = size;
    }
  };
  return {
    where: 'pgvector',
    size,
    dimensions,
    query,
    queryMany: (queries, k, filter) => Promise.all(queries.map((q) => query(q, k, filter))),
    similarities: (q, ids) => denseVectorSimilarities(db, space, q, ids),
  };
}

/**
 * The index with its dense searches run by pgvector over the vectors `syncDenseVectors` wrote. The returned index
 * holds no vectors of its own: the process's copy is left to the garbage collector.
 */
export async function withDatabaseVectors(index: RetrievalIndex, db: Database, opts: { hnswFrom?: number } = {}): Promise<RetrievalIndex> {
  const counts = await denseVectorCounts(db);
  const dimensions = index.raw.dense.dimensions;
  const raw = databaseDense(db, 'raw', counts.raw ?? 0, dimensions, opts);
  const json = counts.json === undefined ? raw : databaseDense(db, 'json', counts.json, dimensions, opts);
  return { ...index, raw: { ...index.raw, dense: raw }, json: { ...index.json, dense: json } };
}
