import type { StoredTuple } from './graph.ts';
import type { Database } from './database.ts';
import { inPages, PAGE_ROWS } from './pages.ts';

/** The graph as its readers see it: tuples with labels and canonical keys for retrieval and display, example tuples. */

export interface RetrievalTupleRow
  extends Pick<
    StoredTuple,
    | 'id'
    | 'subjectKey'
    | 'relation'
    | 'objectKey'
    | 'referenceRelation'
    | 'referenceNode'
    | 'value'
    | 'valueMax'
    | 'unit'
    | 'causal'
    | 'paperId'
    | 'paragraphId'
    | 'recordId'
    | 'sentence'
  > {
  subjectLabel: string;
  /** The representative's key when the subject was merged by canonical clustering, else its own key. */
  subjectCanonical: string;
  /** The representative's label (the canonical entity's name, which canonical retrieval embeds). */
  subjectCanonicalLabel: string;
  objectLabel: string;
  objectCanonical: string;
  objectCanonicalLabel: string;
}

/** Every tuple with its entities' labels and canonical keys (the representative's key for merged entities). */
export async function tuplesForRetrieval(db: Database): Promise<RetrievalTupleRow[]> {
  return inPages((after) => tuplesAfter(db, after));
}

/** The tuples after id `after` (null: from the first) as `tuplesForRetrieval` gives them, one page; empty at the end. */
export function tuplesAfter(db: Database, after: string | null): Promise<RetrievalTupleRow[]> {
  return db.prisma.$queryRawUnsafe<RetrievalTupleRow[]>(
    `SELECT t.id, s.key AS "subjectKey", s.label AS "subjectLabel", coalesce(sm.key, s.key) AS "subjectCanonical", coalesce(sm.label, s.label) AS "subjectCanonicalLabel",
            t.relation, o.key AS "objectKey", o.label AS "objectLabel", coalesce(om.key, o.key) AS "objectCanonical", coalesce(om.label, o.label) AS "objectCanonicalLabel",
            t."referenceRelation", t."referenceNode", t.value, t."valueMax", t.unit, t.causal, t."paperId", t."paragraphId", t."recordId", t.sentence
     FROM "GraphTuple" t JOIN "GraphEntity" s ON s.id = t."subjectId" JOIN "GraphEntity" o ON o.id = t."objectId"
     LEFT JOIN "GraphEntity" sm ON sm.id = s."mergedIntoId" LEFT JOIN "GraphEntity" om ON om.id = o."mergedIntoId"
     WHERE $1::text IS NULL OR t.id > $1 ORDER BY t.id LIMIT $2`,
    after,
    PAGE_ROWS,
  );
}

/** A tuple with its entities' labels and kinds, for display. */
export interface LabelledTuple extends StoredTuple {
  /** The paragraph's position in its paper, when the tuple comes from a paragraph. */
  paragraphOrdinal: number | null;
  subjectLabel: string;
  subjectKind: string;
  /** The key of the entity canonical clustering merged the subject into (null: not merged). */
  subjectMergedInto: string | null;
  objectLabel: string;
  objectKind: string;
  objectMergedInto: string | null;
}

/**
 * The tuples extracted from some paragraphs, with the given ids, or touching the given entity keys (at most
 * `limit`; the tuples named by id first), with their entities' labels and merge representatives.
 */
export async function labelledTuples(
  db: Database,
  where: { paragraphId?: string; paragraphIds?: string[]; ids?: string[]; touching?: string[] },
  limit = 100,
): Promise<LabelledTuple[]> {
  const paragraphIds = [...(where.paragraphId ? [where.paragraphId] : []), ...(where.paragraphIds ?? [])];
  if (!paragraphIds.length && !where.ids?.length && !where.touching?.length) return [];
  return db.prisma.$queryRawUnsafe<LabelledTuple[]>(
    `SELECT t.id, s.key AS "subjectKey", s.label AS "subjectLabel", s.kind AS "subjectKind", sm.key AS "subjectMergedInto", t.relation,
            o.key AS "objectKey", o.label AS "objectLabel", o.kind AS "objectKind", om.key AS "objectMergedInto",
            t."referenceRelation", t."referenceNode", t.value, t."valueMax", t.unit, t.causal, t."paperId", t."paragraphId",
            t."recordId", t.start, t."end", t.sentence, t.stamp, p.ordinal AS "paragraphOrdinal"
     FROM "GraphTuple" t JOIN "GraphEntity" s ON s.id = t."subjectId" JOIN "GraphEntity" o ON o.id = t."objectId"
     LEFT JOIN "GraphEntity" sm ON sm.id = s."mergedIntoId" LEFT JOIN "GraphEntity" om ON om.id = o."mergedIntoId"
     LEFT JOIN "Paragraph" p ON p.id = t."paragraphId"
     WHERE t."paragraphId" = ANY($1::text[]) OR t.id = ANY($2::text[]) OR s.key = ANY($3::text[]) OR o.key = ANY($3::text[])
     ORDER BY (t.id = ANY($2::text[])) DESC, t.start NULLS LAST, t.id LIMIT $4`,
    paragraphIds,
    where.ids ?? [],
    where.touching ?? [],
    limit,
  );
}

/** A tuple read from a paper's text, with its domain: what the ask screen's example questions are written from. */
export interface ExampleTuple {
  domain: string | null;
  subject: string;
  relation: string;
  object: string;
  value: number | null;
  valueMax: number | null;
  unit: string | null;
}

/**
 * Up to three tuples per domain of each listed relation read from paragraphs (not from records), one per domain
 * first, spread by a hash of the tuple id so the choice is stable for a corpus but not biased to its first papers.
 */
export async function exampleTuples(db: Database, relations: string[]): Promise<ExampleTuple[]> {
  // Pick the tuples first (ids, relation and domain only), then read the labels of the few picked.
  return db.prisma.$queryRawUnsafe<ExampleTuple[]>(
    `WITH picked AS (
       SELECT * FROM (
         SELECT t.id, t.relation, p.domain,
                row_number() OVER (PARTITION BY t.relation, p.domain ORDER BY md5(t.id)) AS in_domain
         FROM "GraphTuple" t JOIN "Paper" p ON p.id = t."paperId"
         WHERE t."paragraphId" IS NOT NULL AND t.relation = ANY($1::text[])
       ) x WHERE in_domain <= 3
     )
     SELECT k.domain, s.label AS subject, t.relation, o.label AS object, t.value, t."valueMax", t.unit
     FROM picked k JOIN "GraphTuple" t ON t.id = k.id JOIN "GraphEntity" s ON s.id = t."subjectId" JOIN "GraphEntity" o ON o.id = t."objectId"
     WHERE length(s.label) BETWEEN 2 AND 40
     ORDER BY t.relation, k.in_domain, md5(t.id)`,
    relations,
  );
}

/** Subjects of property tuples read from the text of at least two papers, most papers first: "which papers" examples. */
export async function subjectsOfSeveralPapers(db: Database, take = 12): Promise<{ subject: string; papers: number }[]> {
  const rows = await db.prisma.$queryRawUnsafe<{ subject: string; papers: bigint | number }[]>(
    `SELECT s.label AS subject, count(DISTINCT t."paperId") AS papers
     FROM "GraphTuple" t JOIN "GraphEntity" s ON s.id = t."subjectId"
     WHERE t."paragraphId" IS NOT NULL AND t.relation = 'has_property' AND length(s.label) BETWEEN 2 AND 40
     GROUP BY s.label HAVING count(DISTINCT t."paperId") >= 2
     ORDER BY papers DESC, s.label LIMIT ${Math.max(1, Math.floor(take))}`,
  );
  return rows.map((r) => ({ subject: r.subject, papers: Number(r.papers) }));
}

/**
 * Materials with values read from the most papers' text (then the most values): where a first look at the graph
 * starts. Formula-named materials only, most papers first; the caller drops reactant gases and solvents.
 */
export async function materialsWithMostValues(db: Database, take = 20): Promise<{ key: string; label: string; papers: number; values: number }[]> {
  const rows = await db.prisma.$queryRawUnsafe<{ key: string; label: string; papers: bigint | number; values: bigint | number }[]>(
    `SELECT e.key, min(e.label) AS label, count(DISTINCT t."paperId") AS papers, count(*) AS values
     FROM "GraphTuple" t JOIN "GraphEntity" e ON e.id = t."subjectId"
     WHERE e.kind = 'material' AND e.key LIKE 'f:%' AND e."mergedIntoId" IS NULL AND t.relation = 'has_property'
       AND t.value IS NOT NULL AND t."paragraphId" IS NOT NULL
     GROUP BY e.key ORDER BY papers DESC, values DESC, e.key LIMIT $1`,
    take,
  );
  return rows.map((r) => ({ key: r.key, label: r.label, papers: Number(r.papers), values: Number(r.values) }));
}
