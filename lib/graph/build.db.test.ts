import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { graphCounts, tuplesTouching, upsertEntities } from '../db/graph.ts';
import { allowMerge, mergeGroups, undoMerge } from '../db/graph-merges.ts';
import { fitLocalHashEmbedder, localTextEmbedder } from '../embedding/local-hash.ts';
import { canonicalizeEntities } from './canonicalize.ts';
import { readConfig } from '../config.ts';
import { openTestDatabase } from '../../scripts/test-support/database.ts';
import { ingestFixtureCorpus } from '../../scripts/test-support/fixture-corpus.ts';
import { buildGraph } from './build.ts';
import type { TupleExtractor } from './llm-tuples.ts';
import { draft, propertyEntity } from './tuples.ts';
import { answerGraph, startingPoints } from './explore.ts';
import { createEmbeddedGraphStore } from './stores/embedded.ts';

const testConfig = readConfig({});

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
  await ingestFixtureCorpus(db, testConfig);
});
afterAll(async () => {
  await db?.close();
});

describe('startingPoints', () => {
  it('offers the materials with values in the most papers, read once per corpus version', async () => {
    const first = await startingPoints(db);
    expect(first.length).toBeGreaterThan(0);
    expect(first.every((m) => m.key.startsWith('f:') && m.papers >= 1)).toBe(true);
    // Kept: the same answer object until the corpus changes.
    expect(await startingPoints(db)).toBe(first);
    // A write to the graph moves the corpus stamp (per statement, even one changing no row): read again.
    await db.prisma.$executeRawUnsafe(`UPDATE "GraphTuple" SET relation = relation WHERE false`);
    const after = await startingPoints(db);
    expect(after).not.toBe(first);
    expect(after).toEqual(first);
  });
});

describe('buildGraph', () => {
  it('turns structured records and sentences into tuples with provenance, incrementally', async () => {
    // The import ran the graph stage already; an explicit build then re-extracts nothing.
    const afterImport = await graphCounts(db);
    expect(afterImport.tuples).toBeGreaterThan(0);
    const first = await buildGraph(db);
    expect(first.tuplesWritten).toBe(0);
    expect(first.counts).toEqual(afterImport);
    const power = await tuplesTouching(db, ['p:power-density'], 10);
    expect(power).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          subjectKey: 'f:FeLa0.6O3Sr0.4',
          relation: 'has_property',
          value: 812,
          unit: 'mW/cm^2',
          referenceRelation: 'measured_at',
          referenceNode: '700 °C',
        }),
      ]),
    );
    const withSentence = power.find((t) => t.value === 812)!;
    expect(withSentence.sentence).toMatch(/812 mW cm−2 at 700 °C/);
    expect(withSentence.paragraphId).toBeTruthy();
    // The imported recipe for LiMn2O4 (linked by DOI) gives synthesis tuples too.
    const recipe = await tuplesTouching(db, ['f:LiMn2O4'], 20);
    expect(recipe.some((t) => t.relation === 'synthesized_by' && t.objectKey === 'method:sol-gel' && t.recordId)).toBe(true);

    const again = await buildGraph(db);
    expect(again.tuplesWritten).toBe(0);
    expect(again.counts).toEqual(first.counts);
  });

  it('reads the graph behind an answer: the named tuples first, then the tuples of the cited paragraphs', async () => {
    const power = (await tuplesTouching(db, ['p:power-density'], 10)).find((t) => t.value === 812)!;
    const ofParagraph = await answerGraph(db, { tupleIds: [], paragraphIds: [power.paragraphId!] });
    expect(ofParagraph.edges.map((e) => e.id)).toContain(power.id);
    expect(ofParagraph.tuples.every((t) => t.paragraphId === power.paragraphId)).toBe(true);
    const named = await answerGraph(db, { tupleIds: [power.id], paragraphIds: [] });
    expect(named.edges).toEqual([{ id: power.id, source: power.subjectKey, target: power.objectKey, relation: 'has_property' }]);
    expect(named.nodes.map((n) => n.id).sort()).toEqual([power.subjectKey, power.objectKey].sort());
    expect(named.tuples[0]).toMatchObject({ sentence: expect.stringMatching(/812 mW cm−2 at 700 °C/), paragraphId: power.paragraphId });
    expect(await answerGraph(db, { tupleIds: ['no-such-tuple'], paragraphIds: [] })).toEqual({ nodes: [], edges: [], tuples: [] });
  });

  it('removes the tuples of deleted papers and entities nothing uses', async () => {
    await buildGraph(db);
    const before = await graphCounts(db);
    await db.prisma.paper.deleteMany({ where: { sourceId: 'demo-sofc-01' } });
    const r = await buildGraph(db);
    expect(r.orphansRemoved.tuples).toBeGreaterThan(0);
    expect(r.counts.tuples).toBeLessThan(before.tuples);
    expect(await tuplesTouching(db, ['p:power-density'], 10)).toEqual([]);
  });

  it('labels entities afresh when every paper is re-extracted under other rules, keeping merge decisions', async () => {
    // Two extractors that name the same entity with different spellings: the label follows the current one, as a
    // build from nothing would, instead of the spelling an older extractor met first.
    const spelling = (id: string, surface: string): TupleExtractor => ({
      id,
      extract: async (_text, paragraphId) => [
        draft({
          subject: { key: 'n:assaytestwidget', surface, kind: 'concept', formula: null },
          relation: 'has_property',
          object: propertyEntity('size'),
          value: 5,
          unit: 'nm',
          paragraphId,
        }),
      ],
    });
    await buildGraph(db, { extractor: spelling('spelling-a', 'Assay test widget') });
    const label = async () => (await db.prisma.graphEntity.findUnique({ where: { key: 'n:assaytestwidget' } }))!;
    expect((await label()).label).toBe('Assay test widget');
    await db.prisma.graphEntity.update({ where: { key: 'n:assaytestwidget' }, data: { mergeMethod: 'undone' } });
    await buildGraph(db, { extractor: spelling('spelling-b', 'assay test widgets') });
    expect(await label()).toMatchObject({ label: 'assay test widgets', surfaces: { 'assay test widgets': expect.any(Number) }, mergeMethod: 'undone' });
    // Papers whose stamps are current keep the label: an incremental build does not relabel.
    await buildGraph(db, { extractor: spelling('spelling-b', 'Assay test widget') });
    expect((await label()).label).toBe('assay test widgets');
    // The label is the commonest spelling, whatever order the papers come in; a tie goes to code-point order.
    const spellings = (id: string, surfaces: string[]): TupleExtractor => ({
      id,
      extract: async (_text, paragraphId) =>
        surfaces.map((surface) =>
          draft({
            subject: { key: 'n:assaytestwidget', surface, kind: 'concept', formula: null },
            relation: 'has_property',
            object: propertyEntity('size'),
            value: 5,
            unit: 'nm',
            paragraphId,
          }),
        ),
    });
    await buildGraph(db, { extractor: spellings('spelling-c', ['widget B', 'widget A', 'widget A']) });
    expect((await label()).label).toBe('widget A');
    await buildGraph(db, { extractor: spellings('spelling-d', ['widget B', 'widget A']) });
    expect((await label()).label).toBe('widget A');
    await buildGraph(db);
  });

  it('is traversed by the embedded store', async () => {
    const store = createEmbeddedGraphStore(db);
    const paths = await store.paths('f:LiMn2O4', 'method:sol-gel', 2);
    expect(paths[0]?.tupleIds.length).toBe(1);
  });
});

describe('canonicalizeEntities', () => {
  it('records merges on the merged entities, keeps their spellings, and respects an undo', async () => {
    const names = ['cathode material', 'cathode materials', 'sintering temperature'];
    await upsertEntities(
      db,
      names.map((n) => ({ key: `n:${n.replace(/ /g, '')}`, label: n, kind: 'concept', formula: null, surfaces: { [n]: 1 } })),
    );
    const embedder = localTextEmbedder(fitLocalHashEmbedder(names));
    const r = await canonicalizeEntities(db, embedder, 0.5);
    expect(r.merged).toBeGreaterThanOrEqual(1);
    const merged = await db.prisma.graphEntity.findMany({ where: { key: { in: ['n:cathodematerial', 'n:cathodematerials'] } }, orderBy: { key: 'asc' } });
    const child = merged.find((e) => e.mergedIntoId)!;
    expect(child).toMatchObject({ mergeMethod: 'embedding' });
    expect(merged.map((e) => e.id)).toContain(child.mergedIntoId);
    expect(Object.keys(child.surfaces as object)).toHaveLength(1);

    // The merge is listed for inspection: its group, method, distance and spellings.
    const listed = await mergeGroups(db, { q: 'cathode' });
    const group = listed.groups.find((g) => g.members.some((m) => m.key === child.key))!;
    expect(group.representative.key).not.toBe(child.key);
    expect(group.members.find((m) => m.key === child.key)).toMatchObject({ method: 'embedding', surfaces: child.surfaces });
    expect((await mergeGroups(db, { q: 'no such name' })).groups).toEqual([]);

    await undoMerge(db, child.key);
    await canonicalizeEntities(db, embedder, 0.5);
    expect(await db.prisma.graphEntity.findUnique({ where: { key: child.key } })).toMatchObject({ mergedIntoId: null, mergeMethod: 'undone' });
    expect((await mergeGroups(db)).undone.map((m) => m.key)).toContain(child.key);

    // Allowed again, the next clustering may merge it again.
    await allowMerge(db, child.key);
    await canonicalizeEntities(db, embedder, 0.5);
    expect(await db.prisma.graphEntity.findUnique({ where: { key: child.key } })).toMatchObject({ mergeMethod: 'embedding' });
  });
});
