import { Prisma } from './generated/client.ts';
import type { Database } from './database.ts';

/**
 * The DenseVector table: passage vectors in pgvector, for ASSAY_VECTORS=database
 * (lib/retrieval/dense-sources/database.ts). Created here at run time rather than by a migration, because its column
 * type exists only where the `vector` extension does (PGlite ships it; Debian's PostgreSQL 15 does not) and its
 * dimension is the embedder's. One row per passage and space, all written for one index key (corpus version and
 * embedder): a build writes a staging table and swaps it in, so questions read the old vectors until the new are
 * complete. Spaces above `HNSW_FROM` vectors get an HNSW index of their own (a partial index per space).
 */
export type DenseSpace = 'raw' | 'json';

const TABLE = '"DenseVector"';
const STAGING = '"DenseVectorStaging"';
const BATCH = 500;

/**
 * Vectors per space from which an approximate HNSW index is built. Below it an exact scan is cheap (8.8k × 384 in
 * about 10 ms on PGlite) and gives exactly the in-process results; above it the scan grows linearly with the corpus
 * while HNSW stays near 3 ms, at the price of minutes of build time and a recall just under 1.
 */
export const HNSW_FROM = 50_000;
/** HNSW's candidate list while searching: at least the deepest `k` asked for (its default, 40, caps results at 40). */
const EF_SEARCH = 200;

/** The space as an SQL literal: the partial HNSW index is used only when the predicate is a constant. */
function spaceLiteral(space: DenseSpace): Prisma.Sql {
  if (space !== 'raw' && space !== 'json') throw new Error(`unknown vector space ${space}`);
  return Prisma.raw(`'${space}'`);
}

/** pgvector's text form of a vector. */
export const vectorText = (v: Float32Array) => `[${Array.from(v).join(',')}]`;

/**
 * Makes the `vector` extension available, or says why it cannot be: installed on the server (a managed PostgreSQL
 * lists it among its extensions; the role needs CREATE on the database) or not.
 */
export async function ensurePgvector(db: Database): Promise<void> {
  const available = await db.prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_available_extensions WHERE name = 'vector'`;
  if (!available[0]?.n)
    throw new Error(
      `the database (${db.location}) has no pgvector extension: install it on the server (e.g. postgresql-<version>-pgvector) or set ASSAY_VECTORS=memory`,
    );
  await db.prisma.$executeRawUnsafe('CREATE EXTENSION IF NOT EXISTS vector');
}

/** The index key the stored vectors were written for, or null when none are stored. */
export async function denseVectorKey(db: Database): Promise<string | null> {
  const exists = await db.prisma.$queryRaw<{ t: string | null }[]>`SELECT to_regclass('"DenseVector"')::text AS t`;
  if (!exists[0]?.t) return null;
  const rows = await db.prisma.$queryRawUnsafe<{ k: string }[]>(`SELECT "indexKey" AS k FROM ${TABLE} LIMIT 1`);
  return rows[0]?.k ?? null;
}

/** Vectors stored per space (for the views' sizes and for knowing whether a space has an HNSW index). */
export async function denseVectorCounts(db: Database): Promise<Partial<Record<DenseSpace, number>>> {
  const rows = await db.prisma.$queryRawUnsafe<{ space: DenseSpace; n: number }[]>(`SELECT space, count(*)::int AS n FROM ${TABLE} GROUP BY space`);
  return Object.fromEntries(rows.map((r) => [r.space, r.n]));
}

/**
 * Replaces every stored vector with these spaces' (`matrix` row i the vector of `ids[i]`), written for `key`. The
 * rows go into a staging table (bulk statements outside Prisma, see Database.bulkExecute), which replaces the live
 * table in one short transaction.
 */
export async function replaceDenseVectors(
  db: Database,
  key: string,
  dimensions: number,
  spaces: { space: DenseSpace; ids: string[]; matrix: Float32Array }[],
  opts: { hnswFrom?: number } = {},
): Promise<void> {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 16_000) throw new Error(`cannot store vectors of ${dimensions} dimensions`);
  await db.bulkExecute(`DROP TABLE IF EXISTS ${STAGING}`, []);
  await db.bulkExecute(
    `CREATE TABLE ${STAGING} (space text NOT NULL, id text NOT NULL, "indexKey" text NOT NULL, embedding vector(${dimensions}) NOT NULL)`,
    [],
  );
  // Unnamed, so PostgreSQL names it afresh: the live table's index keeps the name it had as staging.
  await db.bulkExecute(`CREATE UNIQUE INDEX ON ${STAGING} (space, id)`, []);
  for (const { space, ids, matrix } of spaces) {
    spaceLiteral(space);
    for (let i = 0; i < ids.length; i += BATCH) {
      const batch = ids.slice(i, i + BATCH);
      const texts = batch.map((_, j) => vectorText(matrix.subarray((i + j) * dimensions, (i + j + 1) * dimensions)));
      await db.bulkExecute(
        `INSERT INTO ${STAGING} (space, id, "indexKey", embedding) SELECT $1, d, $2, v::vector FROM unnest($3::text[], $4::text[]) AS x(d, v)`,
        [space, key, batch, texts],
      );
    }
    // An approximate index only where an exact scan has become the slow part (see HNSW_FROM).
    if (ids.length >= (opts.hnswFrom ?? HNSW_FROM))
      await db.bulkExecute(`CREATE INDEX ON ${STAGING} USING hnsw (embedding vector_ip_ops) WHERE space = '${space}'`, []);
  }
  // Statistics for the planner, which otherwise takes the table for empty and never reads the HNSW index.
  await db.bulkExecute(`ANALYZE ${STAGING}`, []);
  await db.prisma.$transaction([
    db.prisma.$executeRawUnsafe(`DROP TABLE IF EXISTS ${TABLE}`),
    db.prisma.$executeRawUnsafe(`ALTER TABLE ${STAGING} RENAME TO ${TABLE}`),
  ]);
}

/**
 * The `limit` stored vectors of `space` nearest `q` (inner product = cosine for normalised vectors), best first.
 * `exact` forces a full scan even where an HNSW index exists (a filtered search reads deeper than the index's
 * candidate list reaches); otherwise the planner uses the space's HNSW index when there is one.
 */
export async function nearestDenseVectors(
  db: Database,
  space: DenseSpace,
  q: Float32Array,
  limit: number,
  opts: { exact?: boolean; approximate?: boolean } = {},
): Promise<{ id: string; score: number }[]> {
  const v = vectorText(q);
  const s = spaceLiteral(space);
  // `+ 0` hides the operator from the planner, so no index serves the ORDER BY: an exact scan.
  const order = opts.exact ? Prisma.sql`(embedding <#> ${v}::vector) + 0` : Prisma.sql`embedding <#> ${v}::vector`;
  const query = db.prisma.$queryRaw<{ id: string; score: number }[]>`
    SELECT id, -(embedding <#> ${v}::vector)::float8 AS score FROM "DenseVector" WHERE space = ${s} ORDER BY ${order} LIMIT ${limit}`;
  const rows =
    opts.approximate && !opts.exact
      ? (await db.prisma.$transaction([db.prisma.$executeRawUnsafe(`SET LOCAL hnsw.ef_search = ${Math.max(EF_SEARCH, limit)}`), query]))[1]
      : await query;
  return rows.map((r) => ({ id: r.id, score: Number(r.score) }));
}

/** The cosine between `q` and each of `ids`' vectors in `space` (0 for an id without one), in their order. */
export async function denseVectorSimilarities(db: Database, space: DenseSpace, q: Float32Array, ids: string[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.prisma.$queryRaw<{ id: string; score: number }[]>`
    SELECT id, -(embedding <#> ${vectorText(q)}::vector)::float8 AS score FROM "DenseVector" WHERE space = ${spaceLiteral(space)} AND id = ANY(${ids}::text[])`;
  const byId = new Map(rows.map((r) => [r.id, Number(r.score)]));
  return ids.map((id) => byId.get(id) ?? 0);
}
