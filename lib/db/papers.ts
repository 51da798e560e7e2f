import { Prisma, type PrismaClient } from './generated/client.ts';
import type { ParsedPaper } from '../ingest/types.ts';
import { insertParagraphs, paperContentHash, paperFingerprint, paragraphRows } from './paragraphs.ts';
import type { Database } from './database.ts';
import { orderedId } from '../common/ordered-id.ts';
import { keepVersion } from './paper-versions.ts';
import { MATCH_END, MATCH_START } from '../search-markers.ts';
import { webSearchText } from './web-search.ts';
import type { ResolvedPaperFilters } from '../structure/paper-filters.ts';

/** Owns all queries on Paper and Paragraph. */

type Known = { id: string; doi: string | null; contentHash: string; fingerprint: string };
/** In-memory view of stored papers' identities, so each ingested paper costs no lookup query. */
export interface PaperIdentityIndex {
  byDoi: Map<string, Known>;
  bySource: Map<string, Known>;
  byHash: Map<string, Known>;
}

const sourceKey = (source: string, sourceId: string) => `${source}\u0000${sourceId}`;

export async function loadPaperIdentities(prisma: PrismaClient): Promise<PaperIdentityIndex> {
  const rows = await prisma.paper.findMany({ select: { id: true, doi: true, source: true, sourceId: true, contentHash: true, fingerprint: true } });
  const index: PaperIdentityIndex = { byDoi: new Map(), bySource: new Map(), byHash: new Map() };
  for (const r of rows) remember(index, r);
  return index;
}

function remember(
  index: PaperIdentityIndex,
  r: { id: string; doi: string | null; source: string; sourceId: string | null; contentHash: string; fingerprint: string },
) {
  const known = { id: r.id, doi: r.doi, contentHash: r.contentHash, fingerprint: r.fingerprint };
  if (r.doi) index.byDoi.set(r.doi, known);
  if (r.sourceId) index.bySource.set(sourceKey(r.source, r.sourceId), known);
  if (!index.byHash.has(r.contentHash)) index.byHash.set(r.contentHash, known);
}

export type SaveOutcome = 'added' | 'updated' | 'unchanged';

/** A paper's stored columns apart from its id and extras (`meta`), the same whichever way it is written. */
function paperColumns(p: ParsedPaper) {
  return {
    doi: p.doi,
    title: p.title,
    authors: p.authors,
    journal: p.journal,
    year: p.year,
    license: p.license,
    source: p.source,
    sourceId: p.sourceId,
    domain: p.domain,
    abstract: p.abstract,
    format: p.format,
    contentHash: paperContentHash(p),
    fingerprint: paperFingerprint(p),
  };
}

/**
 * Whether `savePaper` would add `p` as a new paper: no stored paper has its DOI or source id, and none has its text
 * (or one does under another DOI, which is kept as a paper of its own).
 */
export function isNewPaper(index: PaperIdentityIndex, p: ParsedPaper): boolean {
  if ((p.doi && index.byDoi.has(p.doi)) || (p.sourceId && index.bySource.has(sourceKey(p.source, p.sourceId)))) return false;
  const sameText = index.byHash.get(paperContentHash(p));
  return !sameText || (!!p.doi && !!sameText.doi && sameText.doi !== p.doi);
}

/** The identities of a paper, to tell whether two papers of one batch could be the same paper. */
export function paperIdentities(p: ParsedPaper): string[] {
  return [...(p.doi ? [`doi:${p.doi}`] : []), ...(p.sourceId ? [`source:${sourceKey(p.source, p.sourceId)}`] : []), `text:${paperContentHash(p)}`];
}

/**
 * Adds papers that are all new (`isNewPaper`) and share no identity among themselves, with their paragraphs, in one
 * statement: what `savePaper` does for each in four round trips (an import of new papers is mostly this). One
 * statement is one transaction, so an import stopped at any moment has stored all of a batch or none of it.
 */
export async function addNewPapers(db: Database, index: PaperIdentityIndex, papers: ParsedPaper[]): Promise<{ paragraphs: number }> {
  if (papers.length === 0) return { paragraphs: 0 };
  // As Prisma stores a paper without extras (Prisma.JsonNull): the JSON null (below), not SQL NULL.
  const rows = papers.map((p) => ({ id: orderedId(), ...paperColumns(p), meta: p.meta ?? null }));
  const paragraphs = papers.flatMap((p, i) => paragraphRows(p).map((r) => ({ ...r, paperId: rows[i].id })));
  await db.bulkExecute(
    `WITH papers AS (
       INSERT INTO "Paper" (id, doi, title, authors, journal, year, license, source, "sourceId", domain, abstract, format, "contentHash", fingerprint, meta, "updatedAt")
       SELECT x.id, x.doi, x.title, ARRAY(SELECT jsonb_array_elements_text(x.authors)), x.journal, x.year, x.license, x.source, x."sourceId", x.domain,
              x.abstract, x.format, x."contentHash", x.fingerprint, COALESCE(x.meta, 'null'::jsonb), now()
       FROM jsonb_to_recordset($1::jsonb) AS x(id text, doi text, title text, authors jsonb, journal text, year int, license text, source text,
            "sourceId" text, domain text, abstract text, format text, "contentHash" text, fingerprint text, meta jsonb)
       RETURNING id)
     INSERT INTO "Paragraph" (id, "paperId", ordinal, "externalId", section, kind, page, text)
     SELECT y.id, y."paperId", y.ordinal, y."externalId", y.section, y.kind, y.page, y.text
     FROM jsonb_to_recordset($2::jsonb) AS y(id text, "paperId" text, ordinal int, "externalId" text, section text, kind text, page int, text text)`,
    [JSON.stringify(rows), JSON.stringify(paragraphs)],
  );
  for (const r of rows) remember(index, r);
  return { paragraphs: paragraphs.length };
}

/**
 * Stores one paper in one transaction. Identity: DOI, else (source, sourceId), else content hash. A paper
 * found only by identical text from another channel (say a TEI file of a corpus paper) is the same paper: its
 * missing metadata is filled in, nothing is overwritten. A different file claiming a stored paper's DOI or
 * source id replaces it, but never silently: the paper as it was is kept as a `PaperVersion` (restorable), and
 * `change` says what was replaced, for the import report.
 */
export async function savePaper(
  prisma: PrismaClient,
  index: PaperIdentityIndex,
  p: ParsedPaper,
  opts: { runId?: string } = {},
): Promise<{ outcome: SaveOutcome; id: string; paragraphs: number; change?: string }> {
  const byKey = (p.doi && index.byDoi.get(p.doi)) || (p.sourceId && index.bySource.get(sourceKey(p.source, p.sourceId))) || null;
  const fields = { ...paperColumns(p), meta: (p.meta ?? Prisma.JsonNull) as Prisma.InputJsonValue };
  const { contentHash, fingerprint } = fields;

  if (byKey) {
    if (byKey.fingerprint === fingerprint) return { outcome: 'unchanged', id: byKey.id, paragraphs: 0 };
    const textChanged = byKey.contentHash !== contentHash;
    const change = await prisma.$transaction(async (tx) => {
      const kept = await keepVersion(tx, byKey.id, p, opts.runId ?? null);
      await tx.paper.update({ where: { id: byKey.id }, data: fields });
      if (textChanged) {
        await tx.paragraph.deleteMany({ where: { paperId: byKey.id } });
        await insertParagraphs(tx, byKey.id, p);
      }
      return kept;
    });
    remember(index, { id: byKey.id, ...fields });
    return { outcome: 'updated', id: byKey.id, paragraphs: textChanged ? p.paragraphs.length : 0, change };
  }

  // Same text under two different DOIs happens in real data (a dataset pasting one abstract twice): keep both.
  const sameText = index.byHash.get(contentHash);
  if (sameText && (!p.doi || !sameText.doi || sameText.doi === p.doi)) {
    const current = await prisma.paper.findUniqueOrThrow({ where: { id: sameText.id } });
    const fill: Prisma.PaperUpdateInput = {};
    if (!current.doi && p.doi) fill.doi = p.doi;
    if (!current.title && p.title) fill.title = p.title;
    if (current.authors.length === 0 && p.authors.length) fill.authors = p.authors;
    if (!current.journal && p.journal) fill.journal = p.journal;
    if (!current.year && p.year) fill.year = p.year;
    if (!current.license && p.license) fill.license = p.license;
    if (!current.domain && p.domain) fill.domain = p.domain;
    if (Object.keys(fill).length === 0) return { outcome: 'unchanged', id: current.id, paragraphs: 0 };
    const updated = await prisma.paper.update({ where: { id: current.id }, data: fill });
    remember(index, updated);
    return { outcome: 'updated', id: current.id, paragraphs: 0 };
  }

  const created = await prisma.$transaction(async (tx) => {
    const paper = await tx.paper.create({ data: fields });
    await insertParagraphs(tx, paper.id, p);
    return paper;
  });
  remember(index, created);
  return { outcome: 'added', id: created.id, paragraphs: p.paragraphs.length };
}

/** The corpus ids (`sourceId`) of these papers, by paper id (papers without one are left out). */
export async function sourceIdsOf(prisma: PrismaClient, paperIds: string[]): Promise<Map<string, string>> {
  const papers = await prisma.paper.findMany({ where: { id: { in: paperIds } }, select: { id: true, sourceId: true } });
  return new Map(papers.filter((p) => p.sourceId).map((p) => [p.id, p.sourceId as string]));
}

/** The corpus id (`sourceId`) of every paper that has one, by paper id (the benchmarks score retrieval by it). */
export async function allSourceIds(prisma: PrismaClient): Promise<Map<string, string>> {
  const papers = await prisma.paper.findMany({ where: { sourceId: { not: null } }, select: { id: true, sourceId: true } });
  return new Map(papers.map((p) => [p.id, p.sourceId as string]));
}

/** Whether the library holds any paper: one row read, not a count of them all (a server's start asks). */
export async function hasPapers(prisma: PrismaClient): Promise<boolean> {
  return (await prisma.paper.findFirst({ select: { id: true } })) !== null;
}

export async function countPapersAndParagraphs(prisma: PrismaClient) {
  const [papers, paragraphs] = await Promise.all([prisma.paper.count(), prisma.paragraph.count()]);
  return { papers, paragraphs };
}

// ---------------------------------------------------------------------------------------------------------
// Library search

export type SearchField = 'all' | 'title' | 'author' | 'doi' | 'fulltext';
/** A library search as the database runs it: the filters resolved (lib/structure/paper-filters.ts). */
export interface PaperSearchSpec extends ResolvedPaperFilters {
  q?: string;
  field?: SearchField;
  page?: number;
  pageSize?: number;
}
/** What the library holds of a paper's publication: who wrote it, where and when (a bibliographic question's answer). */
export interface PaperBibliography {
  id: string;
  title: string | null;
  doi: string | null;
  authors: string[];
  journal: string | null;
  year: number | null;
}

/** A paper as a row of the library list (the retrieval ranking has its own `PaperHit`, lib/retrieval/papers.ts). */
export interface LibraryPaper extends PaperBibliography {
  source: string;
  domain: string | null;
  paragraphCount: number;
  recordCount: number;
  /** Best-matching paragraph with the matched words between \u0001 and \u0002. */
  snippet: string | null;
}

/** SQL conditions on `"Paper" p` for the resolved filters; an unreadable condition matches nothing. */
function paperFilterSql(s: ResolvedPaperFilters): Prisma.Sql[] {
  const filters: Prisma.Sql[] = [];
  if (s.domain) filters.push(Prisma.sql`p.domain = ${s.domain}`);
  if (s.source) filters.push(Prisma.sql`p.source = ${s.source}`);
  if (s.yearFrom) filters.push(Prisma.sql`p.year >= ${s.yearFrom}`);
  if (s.yearTo) filters.push(Prisma.sql`p.year <= ${s.yearTo}`);
  if (s.role) filters.push(Prisma.sql`EXISTS (SELECT 1 FROM "Paragraph" r WHERE r."paperId" = p.id AND r.role = ${s.role})`);
  if (s.method) filters.push(Prisma.sql`EXISTS (SELECT 1 FROM "Paragraph" r WHERE r."paperId" = p.id AND r.method = ${s.method})`);
  if (s.material) {
    const m = s.material;
    filters.push(Prisma.sql`(EXISTS (SELECT 1 FROM "Mention" mm WHERE mm."paperId" = p.id AND mm.kind = 'entity' AND mm.key = ${m.key})
      OR EXISTS (SELECT 1 FROM "Paragraph" mg WHERE mg."paperId" = p.id AND mg.text ~* ${m.regex})
      OR p.title ~* ${m.regex})`);
  }
  const condition = s.condition;
  if (condition === 'unreadable') filters.push(Prisma.sql`false`);
  else if (condition) {
    const { min: lo, max: hi } = condition;
    filters.push(Prisma.sql`EXISTS (SELECT 1 FROM "Mention" q WHERE q."paperId" = p.id AND q.kind = 'quantity' AND q.type = ${condition.dimension}
      AND (${hi}::double precision IS NULL OR q."valueMin" <= ${hi}) AND (${lo}::double precision IS NULL OR q."valueMax" >= ${lo})
      ${s.role ? Prisma.sql`AND EXISTS (SELECT 1 FROM "Paragraph" qr WHERE qr.id = q."paragraphId" AND qr.role = ${s.role})` : Prisma.empty})`);
  }
  return filters;
}

/** Ids of every paper the filters admit (null when no filter is set: every paper). */
export async function paperIdsMatching(prisma: PrismaClient, s: ResolvedPaperFilters): Promise<string[] | null> {
  const filters = paperFilterSql(s);
  if (filters.length === 0) return null;
  const rows = await prisma.$queryRaw<{ id: string }[]>`SELECT p.id FROM "Paper" p WHERE ${Prisma.join(filters, ' AND ')}`;
  return rows.map((r) => r.id);
}

/**
 * A page of the papers matching a search. The words go to PostgreSQL's full-text search as `webSearchText` makes them
 * readable (a run of dashes failed it), matched against each paragraph's stored tsvector (`tsv`); the title, DOI and
 * author matches read them as typed.
 */
export async function searchPapers(
  prisma: Prisma.TransactionClient,
  s: PaperSearchSpec,
): Promise<{ total: number; page: number; pageSize: number; hits: LibraryPaper[]; wordsLeftOut: number }> {
  const pageSize = Math.min(Math.max(s.pageSize ?? 20, 1), 100);
  const page = Math.max(s.page ?? 1, 1);
  const q = (s.q ?? '').trim().slice(0, 500);
  const field = s.field ?? 'all';
  const filters = paperFilterSql(s);

  const words = webSearchText(q);
  const tsq = Prisma.sql`websearch_to_tsquery('english', ${words.text})`;
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const matchers: Prisma.Sql[] = [];
  if (q) {
    if (field === 'all' || field === 'title') {
      matchers.push(Prisma.sql`to_tsvector('english', coalesce(p.title, '')) @@ ${tsq}`, Prisma.sql`p.title ILIKE ${like}`);
    }
    if (field === 'all' || field === 'doi') matchers.push(Prisma.sql`p.doi ILIKE ${like}`);
    if (field === 'all' || field === 'author') matchers.push(Prisma.sql`array_to_string(p.authors, ' ') ILIKE ${like}`);
    if (field === 'all' || field === 'fulltext') matchers.push(Prisma.sql`hits."paperId" IS NOT NULL`);
  }
  const useText = words.text && (field === 'all' || field === 'fulltext');
  const hitsCte = useText
    ? Prisma.sql`SELECT g."paperId", max(ts_rank(g.tsv, ${tsq})) AS rank
                 FROM "Paragraph" g WHERE g.tsv @@ ${tsq} GROUP BY g."paperId"`
    : Prisma.sql`SELECT NULL::text AS "paperId", 0::real AS rank WHERE false`;
  const where = [...filters, ...(matchers.length ? [Prisma.sql`(${Prisma.join(matchers, ' OR ')})`] : [])];
  const whereSql = where.length ? Prisma.sql`WHERE ${Prisma.join(where, ' AND ')}` : Prisma.empty;
  const titleBoost = q ? Prisma.sql`CASE WHEN p.title ILIKE ${like} OR p.doi ILIKE ${like} THEN 1 ELSE 0 END DESC,` : Prisma.empty;

  const [countRow] = await prisma.$queryRaw<{ n: bigint }[]>`
    WITH hits AS (${hitsCte})
    SELECT count(*) AS n FROM "Paper" p LEFT JOIN hits ON hits."paperId" = p.id ${whereSql}`;
  const rows = await prisma.$queryRaw<(Omit<LibraryPaper, 'snippet' | 'paragraphCount' | 'recordCount'> & { paragraphCount: bigint; recordCount: bigint })[]>`
    WITH hits AS (${hitsCte})
    SELECT p.id, p.title, p.doi, p.authors, p.journal, p.year, p.source, p.domain,
           (SELECT count(*) FROM "Paragraph" x WHERE x."paperId" = p.id) AS "paragraphCount",
           (SELECT count(*) FROM "Record" r WHERE r."paperId" = p.id) AS "recordCount"
    FROM "Paper" p LEFT JOIN hits ON hits."paperId" = p.id
    ${whereSql}
    ORDER BY ${titleBoost} coalesce(hits.rank, 0) DESC, p.year DESC NULLS LAST, p.title ASC NULLS LAST, p.id
    LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`;

  const snippets = new Map<string, string>();
  if (useText && rows.length) {
    const ids = rows.map((r) => r.id);
    const best = await prisma.$queryRaw<{ paperId: string; snippet: string }[]>`
      SELECT DISTINCT ON (g."paperId") g."paperId",
             ts_headline('english', g.text, ${tsq}, ${`StartSel=${MATCH_START}, StopSel=${MATCH_END}, MaxWords=40, MinWords=15, MaxFragments=2`}) AS snippet
      FROM "Paragraph" g
      WHERE g."paperId" = ANY(${ids}) AND g.tsv @@ ${tsq}
      ORDER BY g."paperId", ts_rank(g.tsv, ${tsq}) DESC`;
    for (const b of best) snippets.set(b.paperId, b.snippet);
  }
  return {
    total: Number(countRow?.n ?? 0),
    page,
    pageSize,
    hits: rows.map((r) => ({ ...r, paragraphCount: Number(r.paragraphCount), recordCount: Number(r.recordCount), snippet: snippets.get(r.id) ?? null })),
    wordsLeftOut: useText ? words.dropped : 0,
  };
}

export async function libraryFacets(prisma: PrismaClient) {
  const [domains, sources, years] = await Promise.all([
    prisma.paper.groupBy({ by: ['domain'], _count: { _all: true }, orderBy: { domain: 'asc' } }),
    prisma.paper.groupBy({ by: ['source'], _count: { _all: true }, orderBy: { source: 'asc' } }),
    prisma.paper.aggregate({ _min: { year: true }, _max: { year: true } }),
  ]);
  return {
    domains: domains.filter((d) => d.domain).map((d) => ({ value: d.domain as string, count: d._count._all })),
    sources: sources.map((s) => ({ value: s.source, count: s._count._all })),
    yearMin: years._min.year,
    yearMax: years._max.year,
  };
}

export async function getPaper(prisma: PrismaClient, id: string) {
  return prisma.paper.findUnique({
    where: { id },
    include: {
      paragraphs: { orderBy: { ordinal: 'asc' }, include: { mentions: { orderBy: { start: 'asc' } } } },
      structure: true,
    },
  });
}

/** A paper's metadata and its structured record (the provenance panel's Source and Record tabs). */
export async function paperWithStructure(prisma: PrismaClient, paperId: string) {
  return prisma.paper.findUnique({
    where: { id: paperId },
    select: {
      id: true,
      title: true,
      authors: true,
      journal: true,
      year: true,
      doi: true,
      license: true,
      source: true,
      meta: true,
      structure: { select: { extractor: true, record: true } },
    },
  });
}

/** Papers the library holds under any of these DOIs (lower-cased) or source ids (PMC ids): identifier → paper. */
export async function papersByIdentifiers(
  prisma: PrismaClient,
  ids: { dois: string[]; sourceIds: string[] },
): Promise<Map<string, { id: string; title: string | null; source: string }>> {
  const out = new Map<string, { id: string; title: string | null; source: string }>();
  if (ids.dois.length === 0 && ids.sourceIds.length === 0) return out;
  const rows = await prisma.paper.findMany({
    where: { OR: [{ doi: { in: ids.dois } }, { sourceId: { in: ids.sourceIds } }] },
    select: { id: true, title: true, source: true, doi: true, sourceId: true },
  });
  for (const r of rows) {
    if (r.doi) out.set(r.doi, r);
    if (r.sourceId) out.set(r.sourceId, r);
  }
  return out;
}

export async function bibliographyOf(prisma: PrismaClient, paperIds: string[]): Promise<Map<string, PaperBibliography>> {
  if (paperIds.length === 0) return new Map();
  const rows = await prisma.paper.findMany({
    where: { id: { in: paperIds } },
    select: { id: true, title: true, doi: true, authors: true, journal: true, year: true },
  });
  return new Map(rows.map((r) => [r.id, r]));
}
