import type { Database } from './database.ts';

/**
 * The SearchPosting and SearchParagraph tables: the postings of paragraph search kept in the database
 * (ASSAY_SEARCH=database; lib/retrieval/lexical-sources/database.ts). Per search space and term one packed posting
 * list (its format is the retrieval side's), and per document number its paragraph id. A question reads its terms'
 * lists by primary key; the process scores them.
 */
export type SearchSpace = 'raw' | 'json';

export interface StoredPostingList {
  space: SearchSpace;
  term: string;
  postings: Uint8Array;
}

/** Bytes of posting lists written per statement. */
const BYTES_PER_STATEMENT = 4 << 20;
const PARAGRAPHS_PER_STATEMENT = 5_000;
/** One lock for every process that may write the postings at once (several app processes starting together). */
const WRITE_LOCK = 84_001;

/** The corpus versions the stored postings were written for (one when they are current), read by `client` (a transaction's too). */
async function versionsIn(client: Pick<Database['prisma'], '$queryRaw'>): Promise<string[]> {
  const rows = await client.$queryRaw<{ corpusVersion: string }[]>`SELECT DISTINCT "corpusVersion" FROM "SearchParagraph"`;
  return rows.map((r) => r.corpusVersion);
}

export const searchPostingVersions = (db: Database): Promise<string[]> => versionsIn(db.prisma);

/**
 * Replaces the stored postings with those of corpus `version`, in one transaction (questions read the previous
 * ones until it commits), unless another process wrote that version's while this one waited for the lock (then
 * false). `paragraphs[doc]` is document `doc`'s id; `lists` yields the lists one at a time, so they are not all held.
 */
export async function replaceSearchPostings(
  db: Database,
  version: string,
  paragraphs: readonly string[],
  lists: Iterable<StoredPostingList>,
): Promise<boolean> {
  return db.prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${WRITE_LOCK}::int8)`;
      const stored = await versionsIn(tx);
      if (stored.length === 1 && stored[0] === version) return false;
      await tx.$executeRaw`DELETE FROM "SearchPosting"`;
      await tx.$executeRaw`DELETE FROM "SearchParagraph"`;
      for (let from = 0; from < paragraphs.length; from += PARAGRAPHS_PER_STATEMENT) {
        const ids = paragraphs.slice(from, from + PARAGRAPHS_PER_STATEMENT);
        const docs = ids.map((_, i) => from + i);
        await tx.$executeRaw`
          INSERT INTO "SearchParagraph" (doc, id, "corpusVersion") SELECT d, i, ${version} FROM unnest(${docs}::int4[], ${ids}::text[]) AS x(d, i)`;
      }
      let batch: StoredPostingList[] = [];
      let bytes = 0;
      const flush = async () => {
        if (batch.length === 0) return;
        await tx.$executeRaw`
          INSERT INTO "SearchPosting" (space, term, postings)
          SELECT * FROM unnest(${batch.map((b) => b.space)}::text[], ${batch.map((b) => b.term)}::text[], ${batch.map((b) => Buffer.from(b.postings.buffer, b.postings.byteOffset, b.postings.byteLength))}::bytea[])`;
        batch = [];
        bytes = 0;
      };
      for (const list of lists) {
        batch.push(list);
        bytes += list.postings.byteLength;
        if (bytes >= BYTES_PER_STATEMENT) await flush();
      }
      await flush();
      return true;
    },
    { timeout: 3_600_000, maxWait: 3_600_000 },
  );
}

/**
 * The stored posting lists of `terms` in `space` (a term no paragraph holds has none), or null when the stored
 * postings are not corpus `version`'s (another process has written a newer corpus's: their document numbers are not
 * this reader's). One statement: the lists by primary key, the version by the first paragraph's row.
 */
export async function searchPostingLists(db: Database, space: SearchSpace, terms: readonly string[], version: string): Promise<Map<string, Uint8Array> | null> {
  const rows = await db.prisma.$queryRaw<{ term: string | null; postings: Uint8Array | null }[]>`
    SELECT p.term, p.postings FROM (SELECT 1 FROM "SearchParagraph" WHERE doc = 0 AND "corpusVersion" = ${version}) AS current(one)
    LEFT JOIN "SearchPosting" p ON p.space = ${space} AND p.term = ANY(${terms as string[]}::text[])`;
  if (rows.length === 0) return null;
  return new Map(rows.filter((r) => r.term !== null && r.postings !== null).map((r) => [r.term!, r.postings!]));
}

/** The paragraph id of every document number of the stored postings (index: document number). */
export async function searchPostingParagraphs(db: Database): Promise<string[]> {
  const rows = await db.prisma.$queryRaw<{ doc: number; id: string }[]>`SELECT doc, id FROM "SearchParagraph" ORDER BY doc`;
  const ids: string[] = [];
  for (const r of rows) ids[r.doc] = r.id;
  return ids;
}
