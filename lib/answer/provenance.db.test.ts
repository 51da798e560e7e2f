import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { tuplesTouching } from '../db/graph.ts';
import { findEntities, mergeFamily } from '../db/graph-merges.ts';
import { openTestDatabase } from '../../scripts/test-support/database.ts';
import { ingestFixtureCorpus } from '../../scripts/test-support/fixture-corpus.ts';
import { neighbourhood } from '../graph/explore.ts';
import { provenanceDetails } from './provenance.ts';

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
  await ingestFixtureCorpus(db);
});
afterAll(async () => {
  await db?.close();
});

describe('provenanceDetails', () => {
  it('gives the paper, the paragraph in context with the cited sentence, its tuples with sentences and their subgraph', async () => {
    const [tuple] = (await tuplesTouching(db, ['p:power-density'], 10)).filter((t) => t.value === 812);
    const paragraph = await db.prisma.paragraph.findUniqueOrThrow({ where: { id: tuple.paragraphId! }, select: { text: true, paperId: true } });
    const start = paragraph.text.indexOf('We report');
    const end = paragraph.text.indexOf('°C.', start) + 3;
    const d = await provenanceDetails(db, { paragraphId: tuple.paragraphId, sentence: { start, end } });
    expect(d.paper).toMatchObject({ id: paragraph.paperId, title: 'Cobalt-free perovskite cathodes for intermediate-temperature fuel cells' });
    expect(d.paper?.doi).toBe('10.9999/demo.sofc.2021.001');
    expect(d.paragraph?.text.slice(d.paragraph.sentence!.start, d.paragraph.sentence!.end)).toMatch(/^We report .*812 mW cm−2 at 700 °C\.$/);
    expect(d.paragraph?.before).toBeNull();
    expect(d.graph.tuples.map((t) => t.id)).toContain(tuple.id);
    const shown = d.graph.tuples.find((t) => t.id === tuple.id)!;
    expect(shown).toMatchObject({ relation: 'has_property', value: '812 mW/cm^2', object: { id: 'p:power-density' } });
    expect(shown.sentence).toMatch(/812 mW cm−2/);
    expect(shown.paragraphOrdinal).toBe(0);
    expect(d.graph.nodes.map((n) => n.id)).toEqual(expect.arrayContaining([shown.subject.id, 'p:power-density']));
    expect(d.graph.edges).toContainEqual({ id: tuple.id, source: shown.subject.id, target: 'p:power-density', relation: 'has_property' });
  });
  it('gives an entity’s neighbourhood: the tuples touching it, as nodes and edges', async () => {
    const g = await neighbourhood(db, 'p:power-density');
    expect(g.edges.length).toBeGreaterThan(0);
    expect(g.edges.every((e) => e.source === 'p:power-density' || e.target === 'p:power-density')).toBe(true);
    expect(g.nodes.map((n) => n.id)).toContain('p:power-density');
    expect(g.tuples.map((t) => t.id).sort()).toEqual(g.edges.map((e) => e.id).sort());
  });
  it('finds entities by name for the explorer, most connected first, taking LIKE wildcards literally', async () => {
    const found = await findEntities(db, 'POWER');
    expect(found[0]).toMatchObject({ key: 'p:power-density', kind: 'property' });
    expect(found[0].tuples).toBeGreaterThan(0);
    expect(await findEntities(db, '%')).toEqual([]);
    expect(await mergeFamily(db, 'p:power-density')).toEqual(['p:power-density']);
    expect(await mergeFamily(db, 'f:NoSuchThing')).toEqual(['f:NoSuchThing']);
  });
  it('ignores a sentence span outside the paragraph, and gives a tuple alone by its id', async () => {
    const [tuple] = await tuplesTouching(db, ['p:power-density'], 1);
    const d = await provenanceDetails(db, { paragraphId: tuple.paragraphId, sentence: { start: 0, end: 10_000_000 } });
    expect(d.paragraph?.sentence).toBeNull();
    const alone = await provenanceDetails(db, { tupleIds: [tuple.id] });
    expect(alone.paragraph).toBeNull();
    expect(alone.graph.tuples.map((t) => t.id)).toEqual([tuple.id]);
  });
});
