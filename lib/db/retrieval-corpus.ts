import type { Database } from './database.ts';
import { tuplesAfter, type RetrievalTupleRow } from './graph-views.ts';
import { PAGE_ROWS } from './pages.ts';
import { countRecords } from './records.ts';
import { type AbbreviatedFormula, abbreviatedFormulasOf, type RecordTarget, recordTargetsOf } from './abbreviated-formulas.ts';

/**
 * Owns the read queries the retrieval index is built from: every paragraph with its paper and structure, the
 * imported records, and a cheap version stamp that changes whenever any of them does (so a cached index knows
 * it is stale).
 */

export interface CorpusParagraph {
  id: string;
  paperId: string;
  ordinal: number;
  externalId: string | null;
  section: string | null;
  kind: string;
  text: string;
  role: string | null;
  method: string | null;
}

export interface CorpusPaper {
  id: string;
  doi: string | null;
  title: string | null;
  sourceId: string | null;
  source: string;
  year: number | null;
  /** The paper's tables as its reader kept them (`meta.tables`, see lib/ingest/tables.ts), or null. */
  tables?: unknown;
}

export interface CorpusEntity {
  paragraphId: string;
  role: string;
  text: string;
  key: string | null;
  formula: string | null;
}

export interface CorpusRecord {
  id: string;
  kind: string;
  source: string;
  doi: string | null;
  paperId: string | null;
  title: string | null;
  data: unknown;
}

export interface RetrievalCorpus {
  version: string;
  papers: CorpusPaper[];
  paragraphs: CorpusParagraph[];
  entities: CorpusEntity[];
  /** Materials linked to Wikidata: the graph label, the item and its aliases (question expansion). */
  linkedMaterials?: { label: string; qid: string; aliases: string[] }[];
  /** Formulas written before a short form in brackets ("LiFePO4/C (LFP)"), in the papers and the records' texts. */
  abbreviatedFormulas?: AbbreviatedFormula[];
  /** The records' target formulas with their recipe counts (short forms spelled from them: material-abbreviations.ts). */
  recordTargets?: RecordTarget[];
  /** Imported records, loaded only when the records index is first needed (hundreds of thousands of JSON rows at scale). */
  recordCount: number;
  /** The records after id `after` (null: from the first) in id order, one page of rows; an empty page is the end. */
  loadRecords(after: string | null): Promise<CorpusRecord[]>;
  /**
   * Knowledge-graph tuples with entity labels, loaded when a graph pipeline first needs them: those after id `after`
   * (null: from the first) in id order, one page; an empty page is the end.
   */
  loadTuples(after: string | null): Promise<RetrievalTupleRow[]>;
}

const STAMP = 'stamp-';

/**
 * Changes when papers, paragraphs, their structure, records, the graph or a linked entity change: the stamp database
 * triggers bump on every statement that writes those tables (see the corpus_stamp migration; entity links count only
 * when a linked row changes). One row read, so a question costs retrieval, not bookkeeping.
 */
export async function corpusVersion(db: Database): Promise<string> {
  const stamp = await db.prisma.corpusStamp.findUnique({ where: { id: 1 }, select: { version: true } });
  return `${STAMP}${stamp?.version ?? 0}`;
}

/** The stamp's count in a version `corpusVersion` gave: the later of two versions has the larger. */
export const stampNumber = (version: string): number => Number(version.slice(STAMP.length)) || 0;

/** `pageRows`: paragraphs read per query (tests read in small pages). */
export async function loadRetrievalCorpus(db: Database, pageRows = PAGE_ROWS): Promise<RetrievalCorpus> {
  const version = await corpusVersion(db);
  const papers = (
    await db.prisma.paper.findMany({
      select: { id: true, doi: true, title: true, sourceId: true, source: true, year: true, meta: true },
      orderBy: { id: 'asc' },
    })
  ).map(({ meta, ...p }) => ({ ...p, tables: (meta as { tables?: unknown } | null)?.tables ?? null }));
  // A page at a time: PGlite's WebAssembly memory grows to hold a whole result and never shrinks, and every paragraph's
  // text in one result left the embedded database about 200 MB larger for good at ten times the shared corpus.
  const paragraphs: CorpusParagraph[] = [];
  for (let cursor: { paperId: string; ordinal: number } | null = null; ; ) {
    const page: CorpusParagraph[] = await db.prisma.paragraph.findMany({
      select: { id: true, paperId: true, ordinal: true, externalId: true, section: true, kind: true, text: true, role: true, method: true },
      orderBy: [{ paperId: 'asc' }, { ordinal: 'asc' }],
      take: pageRows,
      ...(cursor ? { cursor: { paperId_ordinal: cursor }, skip: 1 } : {}),
    });
    for (const p of page) paragraphs.push(p);
    if (page.length < pageRows) break;
    cursor = { paperId: page[page.length - 1].paperId, ordinal: page[page.length - 1].ordinal };
  }
  // Entity mentions only: quantities are re-read from the text by the index (lists keep all their values).
  const mentions = await db.prisma.mention.findMany({
    where: { kind: 'entity' },
    select: { paragraphId: true, type: true, text: true, key: true, formula: true },
  });
  const entities: CorpusEntity[] = mentions.map((m) => ({ paragraphId: m.paragraphId, role: m.type, text: m.text, key: m.key, formula: m.formula }));
  const links = await db.prisma.$queryRaw<{ label: string; qid: string; aliases: unknown }[]>`
    SELECT e.label, l.qid, l.aliases FROM "EntityLink" l JOIN "GraphEntity" e ON e.key = l."entityKey"
    WHERE l.status = 'linked' AND l.qid IS NOT NULL AND e.kind = 'material'`;
  const linkedMaterials = links.map((l) => ({ label: l.label, qid: l.qid, aliases: Array.isArray(l.aliases) ? (l.aliases as string[]) : [] }));
  const abbreviatedFormulas = await abbreviatedFormulasOf(db.prisma);
  const recordTargets = await recordTargetsOf(db.prisma);
  return {
    version,
    papers,
    paragraphs,
    entities,
    linkedMaterials,
    abbreviatedFormulas,
    recordTargets,
    recordCount: await countRecords(db.prisma),
    ...corpusPages(db),
  };
}

/** The texts of these papers' paragraphs, as an index embeds them (an embedding shard's work: lib/embedding/shards.ts). */
export async function paragraphTextsOf(db: Database, paperIds: string[]): Promise<{ paperId: string; text: string }[]> {
  if (paperIds.length === 0) return [];
  return db.prisma.paragraph.findMany({
    where: { paperId: { in: paperIds } },
    select: { paperId: true, text: true },
    orderBy: [{ paperId: 'asc' }, { ordinal: 'asc' }],
  });
}

/**
 * What an index loads on first use, a page at a time: records, tuples. Without the number of records, which a build
 * counts (loadRetrievalCorpus) and a stored index keeps: a restart's first answer waited for that count on the
 * database's one thread (46,000 records: about 0.1 s there, while it was still busy with the start-up's statements).
 */
export function corpusPages(db: Database): Pick<RetrievalCorpus, 'loadRecords' | 'loadTuples'> {
  return { loadRecords: (after) => recordsAfter(db, after), loadTuples: (after) => tuplesAfter(db, after) };
}

/** A page of the records after id `after` (null: from the first), in id order, up to id `upTo` (null: to the last). */
export function recordsAfter(db: Database, after: string | null, upTo: string | null = null): Promise<CorpusRecord[]> {
  return db.prisma.record.findMany({
    select: { id: true, kind: true, source: true, doi: true, paperId: true, title: true, data: true },
    where: { id: { ...(after ? { gt: after } : {}), ...(upTo ? { lte: upTo } : {}) } },
    orderBy: { id: 'asc' },
    take: PAGE_ROWS,
  });
}

/**
 * Ranges of about `perRange` records each, in id order, as the ids they end at: range i holds the ids after bound
 * i - 1 up to bound i, the last one those after the last bound (one range: no bounds). The database's order of ids,
 * the order `recordsAfter` reads them in, decides what a range holds.
 */
export async function recordRangeBounds(db: Database, perRange: number): Promise<string[]> {
  const rows = await db.prisma.$queryRaw<{ id: string }[]>`
    SELECT id FROM (SELECT id, row_number() OVER (ORDER BY id) AS n, count(*) OVER () AS total FROM "Record") r
    WHERE n % ${perRange} = 0 AND n < total ORDER BY id`;
  return rows.map((r) => r.id);
}

/** Every paper's id and DOI, in id order (what the records index reads a record's paper by). */
export function paperDois(db: Database): Promise<{ id: string; doi: string | null }[]> {
  return db.prisma.paper.findMany({ select: { id: true, doi: true }, orderBy: { id: 'asc' } });
}
