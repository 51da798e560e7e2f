import type { Database } from './database.ts';

/**
 * The SearchDoc table: paragraphs as PostgreSQL full-text documents (tsvector), for search run by the database
 * (ASSAY_SEARCH=database; lib/retrieval/lexical-sources/database.ts). The vectors are written from the terms Assay's
 * analyzer made (never PostgreSQL's parser: the terms are matched exactly as the in-process index matches them),
 * with a position per term occurrence and the weight of its field, so ts_rank sees term frequency and fields.
 */
export type SearchSpace = 'raw' | 'json';

export interface SearchDocRow {
  space: SearchSpace;
  id: string;
  /** tsvector input text: 'term':1A,7B 'other':2B … */
  tsv: string;
}

const BATCH = 1000;

/** The corpus versions the stored documents were written for (one when they are current). */
export async function searchDocVersions(db: Database): Promise<string[]> {
  const rows = await db.prisma.$queryRaw<{ corpusVersion: string }[]>`SELECT DISTINCT "corpusVersion" FROM "SearchDoc"`;
  return rows.map((r) => r.corpusVersion);
}

/** Replaces every stored document with `rows`, written for corpus version `version`, in one transaction. */
export async function replaceSearchDocs(db: Database, version: string, rows: SearchDocRow[]): Promise<void> {
  await db.prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`DELETE FROM "SearchDoc"`;
      for (let i = 0; i < rows.length; i += BATCH) {
        const batch = rows.slice(i, i + BATCH);
        await tx.$executeRaw`
          INSERT INTO "SearchDoc" (space, id, "corpusVersion", tsv)
          SELECT s, d, ${version}, t::tsvector FROM unnest(${batch.map((r) => r.space)}::text[], ${batch.map((r) => r.id)}::text[], ${batch.map((r) => r.tsv)}::text[]) AS x(s, d, t)`;
      }
    },
    { timeout: 600_000, maxWait: 60_000 },
  );
}

/**
 * The best `limit` documents of `space` for the terms (any may match), scored Σ idf(term) · ts_rank(field weights,
 * document, term, length-normalised), best first. `terms` are quoted tsquery lexemes with their idf.
 */
export async function searchDocs(
  db: Database,
  space: SearchSpace,
  terms: { lexeme: string; idf: number }[],
  limit: number,
): Promise<{ id: string; score: number }[]> {
  if (terms.length === 0) return [];
  const any = terms.map((t) => t.lexeme).join(' | ');
  const rows = await db.prisma.$queryRaw<{ id: string; score: number }[]>`
    WITH q AS (SELECT tq::tsquery AS tq, idf FROM unnest(${terms.map((t) => t.lexeme)}::text[], ${terms.map((t) => t.idf)}::float8[]) AS x(tq, idf)),
    cand AS (SELECT id, tsv FROM "SearchDoc" WHERE space = ${space} AND tsv @@ ${any}::tsquery)
    SELECT cand.id, sum(q.idf * ts_rank('{0.2,0,0.67,1}', cand.tsv, q.tq, 1))::float8 AS score
    FROM cand JOIN q ON cand.tsv @@ q.tq
    GROUP BY cand.id ORDER BY score DESC, cand.id LIMIT ${limit}`;
  return rows.map((r) => ({ id: r.id, score: Number(r.score) }));
}
