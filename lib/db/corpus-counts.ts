import type { Database } from './database.ts';
import { countPapersAndParagraphs } from './papers.ts';
import { countRecords } from './records.ts';
import { corpusVersion, stampNumber } from './retrieval-corpus.ts';
import { processObject } from '../common/process-registry.ts';

export interface CorpusCounts {
  papers: number;
  paragraphs: number;
  records: number;
}

interface Counted {
  version: string;
  counts: Promise<CorpusCounts>;
}

declare module '../common/process-registry.ts' {
  interface ProcessObjects {
    corpusCounts: WeakMap<Database, Counted>;
  }
}

// A process object, one entry per database: Next.js loads the server's start and the route handlers as separate
// module instances, and the start counts ahead for the routes (see `corpusCounts`).
const counted = () => processObject('corpusCounts', () => new WeakMap());

/**
 * How many papers, paragraphs and records the library holds, counted once per corpus version: the stamp moves with
 * every statement that writes those tables (retrieval-corpus.ts), so counts made after a stamp read hold for that
 * version. They are kept in this process and in the database (the CorpusCounts row, with the version they were
 * counted at), so a restart reads them. Counting is not free: PostgreSQL counts by reading every row, and 46,000
 * records took PGlite's one thread 50–100 ms — for every health check (a restart's first request, and what load
 * benches and tests poll) and every library page, while questions waited behind it on that thread. Concurrent
 * callers share one count.
 *
 * The stamp is read before the counting starts, so a write in between gives counts newer than the version they are
 * kept under, never older; the next call reads the newer stamp and counts again.
 */
export async function corpusCounts(db: Database): Promise<CorpusCounts> {
  const version = await corpusVersion(db);
  const kept = counted().get(db);
  if (kept?.version === version) return kept.counts;
  const counts = storedOrCounted(db, BigInt(stampNumber(version)));
  const entry = { version, counts };
  counted().set(db, entry);
  // A failed count is not kept: the next caller counts again.
  counts.catch(() => {
    if (counted().get(db) === entry) counted().delete(db);
  });
  return counts;
}

async function storedOrCounted(db: Database, version: bigint): Promise<CorpusCounts> {
  const stored = await db.prisma.corpusCounts.findUnique({ where: { id: 1 } });
  if (stored?.version === version) return { papers: stored.papers, paragraphs: stored.paragraphs, records: stored.records };
  const [totals, records] = await Promise.all([countPapersAndParagraphs(db.prisma), countRecords(db.prisma)]);
  const counts = { ...totals, records };
  // Another process may store its own meanwhile: whichever is kept, its version says what it counted.
  await db.prisma.corpusCounts.upsert({ where: { id: 1 }, create: { id: 1, version, ...counts }, update: { version, ...counts, at: new Date() } });
  return counts;
}
