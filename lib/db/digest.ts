import type { Database } from './database.ts';

/*
 * Digests of a database's contents, for tests and benchmarks that compare two databases (an import run twice, one
 * interrupted and resumed, PGlite against PostgreSQL): here because every query of a table belongs to lib/db.
 */

/** Everything a user can see of the stored literature, in a stable order: equal digests = equal databases. */
export async function databaseDigest(db: Database) {
  const papers = await db.prisma.paper.findMany({
    orderBy: [{ doi: 'asc' }, { source: 'asc' }, { sourceId: 'asc' }, { contentHash: 'asc' }],
    select: {
      doi: true,
      title: true,
      authors: true,
      journal: true,
      year: true,
      license: true,
      source: true,
      sourceId: true,
      domain: true,
      abstract: true,
      format: true,
      contentHash: true,
      fingerprint: true,
      paragraphs: { orderBy: { ordinal: 'asc' }, select: { ordinal: true, text: true, section: true, kind: true, externalId: true, page: true } },
      records: { orderBy: { contentHash: 'asc' }, select: { contentHash: true } },
    },
  });
  const records = await db.prisma.record.findMany({
    orderBy: [{ source: 'asc' }, { contentHash: 'asc' }],
    select: { kind: true, source: true, contentHash: true, doi: true, title: true, data: true },
  });
  return { papers, records };
}

/**
 * What the structuring and graph stages stored, in a stable order and without generated ids or timestamps:
 * equal digests = the same structured paragraphs, paper records, entities, merges and tuples.
 */
export async function enrichmentDigest(db: Database) {
  const paragraphs = await db.prisma.paragraph.findMany({
    orderBy: [{ paper: { doi: 'asc' } }, { paper: { sourceId: 'asc' } }, { ordinal: 'asc' }],
    select: {
      ordinal: true,
      role: true,
      method: true,
      structuredBy: true,
      paper: { select: { doi: true, sourceId: true } },
      mentions: { select: { type: true, text: true, start: true, end: true }, orderBy: [{ start: 'asc' }, { end: 'asc' }, { type: 'asc' }] },
    },
  });
  const records = await db.prisma.paperRecord.findMany({ select: { extractor: true, record: true, paper: { select: { doi: true, sourceId: true } } } });
  const entities = await db.prisma.graphEntity.findMany({
    orderBy: { key: 'asc' },
    select: { key: true, label: true, kind: true, mergeMethod: true, mergedInto: { select: { key: true } } },
  });
  const tuples = await db.prisma.graphTuple.findMany({
    select: {
      relation: true,
      referenceRelation: true,
      referenceNode: true,
      value: true,
      valueMax: true,
      unit: true,
      causal: true,
      subject: { select: { key: true } },
      object: { select: { key: true } },
      paperId: true,
      paragraphId: true,
    },
  });
  const paperKey = new Map((await db.prisma.paper.findMany({ select: { id: true, doi: true, sourceId: true } })).map((p) => [p.id, `${p.doi}|${p.sourceId}`]));
  const paragraphKey = new Map(
    (await db.prisma.paragraph.findMany({ select: { id: true, ordinal: true, paperId: true } })).map((p) => [p.id, `${paperKey.get(p.paperId)}#${p.ordinal}`]),
  );
  const tupleRows = tuples
    .map((t) =>
      JSON.stringify({ ...t, paperId: t.paperId ? paperKey.get(t.paperId) : null, paragraphId: t.paragraphId ? paragraphKey.get(t.paragraphId) : null }),
    )
    .sort();
  // Generated ids (paper, paragraph, record) differ between two databases holding the same content.
  const withoutIds = (_key: string, value: unknown) => (_key === 'id' || _key === 'paragraphId' || _key === 'recordId' ? undefined : value);
  const recordRows = records.map((r) => JSON.stringify(r, withoutIds)).sort();
  return { paragraphs, records: recordRows, entities, tuples: tupleRows };
}
