import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provenanceDetails } from '../answer/provenance.ts';
import { readConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { entityLinks, reviewEntityLink, saveEntityLinks } from '../db/entity-links.ts';
import { allowMerge, undoMerge } from '../db/graph-merges.ts';
import { corpusVersion } from '../db/retrieval-corpus.ts';
import { mergeSameItems } from './same-item-merges.ts';
import { LinkingOffline, runEntityLinking } from '../jobs/entity-links.ts';
import { runIngest } from '../jobs/import-job.ts';
import { createRetrievalService } from '../serving/retrieval-service.ts';
import { openTestDatabase } from '../../scripts/test-support/database.ts';
import { type FakeScholarly, startFakeScholarly } from '../../scripts/test-support/fake-scholarly.ts';
import { corpusPapers, tempDir, writeCorpusJsonl } from '../../scripts/test-support/fixtures.ts';
import { chooseItem, wikidataFormulaKey } from './entity-links.ts';

/**
 * Entity linking against a local fake of Wikidata's action API: compounds linked by their formula, names by label
 * or alias (never to a disambiguation page), links reviewable and reversible, aliases expanding questions, and
 * Wikidata slow, malformed or unreachable failing softly.
 */
let fake: FakeScholarly;
let db: Database;
const cfgFor = (wikidataUrl: string, timeout = '2') =>
  readConfig({ ASSAY_DATA_DIR: tempDir(), ASSAY_LOCAL_EMBEDDER: 'ngram', ASSAY_WIKIDATA_URL: wikidataUrl, ASSAY_SCHOLARLY_TIMEOUT_SECONDS: timeout });

// Invented papers naming MgB2 by its formula only, YSZ and a conductivity.
const papers = [
  {
    ...structuredClone(corpusPapers[1]),
    id: 'link-mgb2',
    doi: '10.9999/link.mgb2',
    title: 'Pressure dependence of superconductivity in MgB2 wires',
    domain: 'superconductors',
    paragraphs: [{ id: null, section: 'Results', text: 'The MgB2 wire has a superconducting transition temperature of 38.6 K at ambient pressure.' }],
  },
  {
    ...structuredClone(corpusPapers[1]),
    id: 'link-ysz',
    doi: '10.9999/link.ysz',
    title: 'Grain boundaries in YSZ electrolytes',
    domain: 'sofc',
    paragraphs: [{ id: null, section: 'Results', text: 'The YSZ electrolyte reached an electrical conductivity of 0.052 S/cm at 800 °C.' }],
  },
];

beforeAll(async () => {
  fake = await startFakeScholarly([]);
  db = await openTestDatabase();
  const dir = tempDir();
  await runIngest(db, readConfig({ ASSAY_DATA_DIR: tempDir() }), [writeCorpusJsonl(dir, 'papers.jsonl', papers)], { trigger: 'cli' });
});
afterAll(async () => {
  await fake?.close();
  await db?.close();
});

describe('entity linking to Wikidata', () => {
  it('tells items apart by formula for compounds and by label or alias for names, never by a disambiguation page', () => {
    expect(wikidataFormulaKey('MgB₂')).toBe('B2Mg');
    expect(wikidataFormulaKey('La₀.₆Sr₀.₄Co₀.₂Fe₀.₈O₃')).not.toBeNull();
    const items = [
      { qid: 'Q2', label: 'magnesium', description: 'element', aliases: ['Mg'], formulas: ['Mg'] },
      { qid: 'Q1', label: 'magnesium diboride', description: 'chemical compound', aliases: ['MgB2'], formulas: ['MgB₂'] },
      { qid: 'Q5', label: 'Conductivity', description: 'Wikimedia disambiguation page', aliases: [], formulas: [] },
    ];
    expect(chooseItem({ key: 'f:B2Mg', label: 'MgB2', kind: 'material', formula: 'MgB2' }, items)?.item.qid).toBe('Q1');
    // A formula entity is never linked by name alone.
    expect(chooseItem({ key: 'f:B2Mg', label: 'MgB2', kind: 'material', formula: 'MgB2' }, [{ ...items[1], formulas: [] }])).toBeNull();
    expect(chooseItem({ key: 'p:conductivity', label: 'conductivity', kind: 'property', formula: null }, items)).toBeNull();
  });

  it('links the graph, keeps each outcome, and lets a curator undo and restore a link', async () => {
    const unlinked = await corpusVersion(db);
    const done = await runEntityLinking(db, cfgFor(fake.wikidataUrl));
    expect(done.total).toBeGreaterThan(0);
    // Linked names expand questions: the index is rebuilt for them.
    expect(await corpusVersion(db)).not.toBe(unlinked);
    expect(done.linked).toBeGreaterThanOrEqual(2);
    const links = await entityLinks(db, ['f:B2Mg', 'm:YSZ']);
    expect(links.get('f:B2Mg')).toMatchObject({ status: 'linked', qid: 'Q900001', method: 'formula', label: 'magnesium diboride', formula: 'MgB₂' });
    expect(links.get('f:B2Mg')?.aliases).toEqual(expect.arrayContaining(['magnesium boride']));
    expect(links.get('m:YSZ')).toMatchObject({ status: 'linked', qid: 'Q900003', method: 'label' });
    // The provenance panel names the items the paragraph's entities are linked to.
    const paragraph = await db.prisma.paragraph.findFirstOrThrow({ where: { paper: { doi: '10.9999/link.mgb2' } } });
    expect((await provenanceDetails(db, { paragraphId: paragraph.id })).links['f:B2Mg']).toEqual({
      qid: 'Q900001',
      label: 'magnesium diboride',
      description: 'chemical compound',
    });
    // Asked once: a second run has nothing left to ask.
    expect((await runEntityLinking(db, cfgFor(fake.wikidataUrl))).total).toBe(0);
    expect(await reviewEntityLink(db, 'm:YSZ', false)).toBe(true);
    expect((await entityLinks(db, ['m:YSZ'])).get('m:YSZ')?.status).toBe('rejected');
    expect((await runEntityLinking(db, cfgFor(fake.wikidataUrl))).total).toBe(0);
    expect(await reviewEntityLink(db, 'm:YSZ', true)).toBe(true);
    expect((await entityLinks(db, ['m:YSZ'])).get('m:YSZ')?.status).toBe('linked');
  });

  it('merges entities linked to one item, into the one a formula names; a rejected link or an undone merge merges nothing', async () => {
    // A name-only link to MgB2's item, as the linking job would store it.
    const linkToMgB2Item = (entityKey: string) =>
      saveEntityLinks(db, [
        {
          entityKey,
          status: 'linked',
          qid: 'Q900001',
          label: 'magnesium diboride',
          description: null,
          aliases: [],
          formula: null,
          method: 'label',
          message: null,
        },
      ]);
    // Another entity linked to MgB2's item (as a name would be: "magnesium diboride wire", say).
    const other = await db.prisma.graphEntity.findFirstOrThrow({ where: { key: { startsWith: 'n:' } }, select: { key: true } });
    await linkToMgB2Item(other.key);
    expect(await mergeSameItems(db)).toEqual({ groups: 1, merged: 1 });
    const rep = await db.prisma.graphEntity.findUniqueOrThrow({ where: { key: 'f:B2Mg' } });
    expect(await db.prisma.graphEntity.findUniqueOrThrow({ where: { key: other.key } })).toMatchObject({ mergedIntoId: rep.id, mergeMethod: 'wikidata' });
    // Rejecting the link undoes the merge; restoring it merges again.
    await reviewEntityLink(db, other.key, false);
    await mergeSameItems(db);
    expect(await db.prisma.graphEntity.findUniqueOrThrow({ where: { key: other.key } })).toMatchObject({ mergedIntoId: null, mergeMethod: null });
    await reviewEntityLink(db, other.key, true);
    await mergeSameItems(db);
    expect((await db.prisma.graphEntity.findUniqueOrThrow({ where: { key: other.key } })).mergedIntoId).toBe(rep.id);
    // A curator's undo on /graph holds.
    await undoMerge(db, other.key);
    expect(await mergeSameItems(db)).toEqual({ groups: 0, merged: 0 });
    expect(await db.prisma.graphEntity.findUniqueOrThrow({ where: { key: other.key } })).toMatchObject({ mergedIntoId: null, mergeMethod: 'undone' });
    await allowMerge(db, other.key);
    await db.prisma.entityLink.delete({ where: { entityKey: other.key } });
    // A property linked to a material's item (a name-only link gone wrong) merges nothing.
    await linkToMgB2Item('p:critical-temperature');
    expect(await mergeSameItems(db)).toEqual({ groups: 0, merged: 0 });
    await db.prisma.entityLink.delete({ where: { entityKey: 'p:critical-temperature' } });
  });

  it('reads a question naming a linked material by an alias as the material, and says so in the trace', async () => {
    const service = createRetrievalService(db, cfgFor(fake.wikidataUrl));
    const result = await service.retrieve('What is the transition temperature of magnesium diboride?', 'hybrid');
    const step = result.trace.find((s) => s.step === 'linked-names');
    expect(step?.detail).toEqual({ expansions: ['magnesium diboride → MgB2 (Wikidata Q900001)'] });
    expect(result.analysis.materials).toEqual(['f:B2Mg']);
    expect(result.evidence[0].doi).toBe('10.9999/link.mgb2');
    expect(result.value?.text).toBe('38.6 K');
    expect(result.abstention.abstain).toBe(false);
  });

  it('fails softly when Wikidata is slow, answers in another shape, or cannot be reached', async () => {
    await db.prisma.entityLink.deleteMany({ where: { entityKey: 'f:B2Mg' } });
    for (const [mode, said] of [
      ['slow', /Wikidata did not answer within 1 s/],
      ['wrong-shape', /Wikidata answered in an unexpected shape/],
      ['not-json', /not JSON/],
    ] as const) {
      fake.mode = mode;
      await runEntityLinking(db, cfgFor(fake.wikidataUrl, '1'), { limit: 1 }).catch((e) => e);
      const row = (await entityLinks(db, ['f:B2Mg'])).get('f:B2Mg');
      expect(row?.status, mode).toBe('error');
      expect(row?.message, mode).toMatch(said);
    }
    fake.mode = 'normal';
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    await db.prisma.entityLink.deleteMany({ where: { status: { not: 'linked' } } });
    const before = await db.prisma.entityLink.count({ where: { status: 'linked' } });
    const version = await corpusVersion(db);
    const error = await runEntityLinking(db, cfgFor(`http://127.0.0.1:${port}`)).catch((e) => e);
    expect(error).toBeInstanceOf(LinkingOffline);
    expect(error.message).toMatch(
      /Wikidata could not be reached for \d+ entit(?:y|ies) in a row \(cannot reach Wikidata at 127\.0\.0\.1:\d+ \(ECONNREFUSED\)\)/,
    );
    expect(await db.prisma.entityLink.count({ where: { status: 'linked' } })).toBe(before);
    // Error rows, and merges as they stood, change nothing retrieval reads: no rebuild waits for the next question.
    expect(await db.prisma.entityLink.count({ where: { status: 'error' } })).toBeGreaterThan(0);
    expect(await corpusVersion(db)).toBe(version);
  });
});
