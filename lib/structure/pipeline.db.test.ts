import { resolveScope } from '../answer/service.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { runIngest } from '../jobs/import-job.ts';
import { readConfig } from '../config.ts';
import { searchPapers, type SearchField } from '../db/papers.ts';
import { type PaperFilters, resolvePaperFilters } from './paper-filters.ts';

type PaperSearch = PaperFilters & { q?: string; field?: SearchField };
import { getPaperRecord } from '../db/structure.ts';
import { runStructuring } from './pipeline.ts';
import { offlineExtractor } from './paragraph.ts';
import { corpusPapers, recipeRows, tempDir, writeCorpusJsonl, writeRecordsJsonl } from '../../scripts/test-support/fixtures.ts';
import { openTestDatabase, testDatabaseKind } from '../../scripts/test-support/database.ts';

// The rules alone, as runStructuring's default: a tagger a developer trained into ./.assay is not this test's.
const testConfig = readConfig({ ASSAY_MATERIAL_TAGGER: 'off' });

// Invented papers: a synthesis paragraph with conditions, and a performance paragraph.
const synthesisPaper = {
  ...structuredClone(corpusPapers[0]),
  id: 'struct-1',
  doi: '10.9999/struct.1',
  title: 'NiCo LDH on nickel foam',
  paragraphs: [
    {
      id: 'struct-1:p1',
      section: 'Experimental',
      text: 'In a typical synthesis, 2 mmol of Ni(NO3)2·6H2O and 10 mmol of urea were dissolved in 30 mL of deionized water, transferred to a Teflon-lined autoclave with a piece of nickel foam and heated at 120 °C for 6 h, giving NiCo-LDH/NF.',
    },
    {
      id: 'struct-1:p2',
      section: 'Results',
      text: 'The NiCo-LDH/NF electrode exhibited a low overpotential of 250 mV at 10 mA cm−2 and a Tafel slope of 48 mV dec−1.',
    },
    { id: 'struct-1:p3', section: 'Results', text: 'XRD patterns of the yttria-stabilised zirconia reference show the cubic fluorite phase.' },
  ],
};

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
  const dir = tempDir();
  await runIngest(db, testConfig, [writeCorpusJsonl(dir, 'p.jsonl', [...corpusPapers, synthesisPaper]), writeRecordsJsonl(dir, 'sol-gel.jsonl', recipeRows)], {
    trigger: 'cli',
  });
});
afterAll(async () => {
  await db?.close();
});

describe(`structuring stage (${testDatabaseKind()})`, () => {
  it('runs as part of ingestion: roles, methods, mentions and one record per paper', async () => {
    const paras = await db.prisma.paragraph.findMany({ where: { paper: { doi: '10.9999/struct.1' } }, orderBy: { ordinal: 'asc' } });
    expect(paras.map((p) => [p.role, p.method])).toEqual([
      ['synthesis', 'hydro-solvothermal'],
      ['performance', null],
      ['others', null],
    ]);
    expect(paras.every((p) => p.structuredBy?.startsWith('offline@'))).toBe(true);
    const mentions = await db.prisma.mention.findMany({ where: { paragraphId: paras[0].id }, orderBy: { start: 'asc' } });
    expect(mentions.filter((m) => m.kind === 'entity').map((m) => `${m.type}:${m.text}`)).toEqual([
      'precursor:Ni(NO3)2·6H2O',
      'additive:urea',
      'solvent:deionized water',
      'substrate:nickel foam',
      'target:NiCo-LDH/NF',
    ]);
    const temp = mentions.find((m) => m.type === 'temperature')!;
    expect([temp.valueMin, temp.valueMax, temp.unit]).toEqual([393.15, 393.15, 'K']);
    expect(await db.prisma.paperRecord.count()).toBe(await db.prisma.paper.count());
  });

  it('builds the hierarchical record with synthesis entries, performance claims and mapped recipes', async () => {
    const paper = await db.prisma.paper.findUniqueOrThrow({ where: { doi: '10.9999/struct.1' } });
    const record = (await getPaperRecord(db, paper.id))!.record as any;
    expect(record.schema).toBe('assay.paper-record/1');
    expect(record.synthesis[0]).toMatchObject({ source: 'paragraph', method: 'hydro-solvothermal', targets: [{ text: 'NiCo-LDH/NF' }] });
    expect(record.synthesis[0].conditions.temperature[0]).toMatchObject({ canonical: [393.15], unit: 'K', step: 'hydro/solvothermal' });
    expect(record.performance.map((p: any) => [p.property, p.canonical, p.canonicalUnit])).toEqual([
      ['overpotential', [0.25], 'V'],
      ['Tafel slope', [48], 'mV'],
    ]);
    const battery = await db.prisma.paper.findUniqueOrThrow({ where: { doi: '10.9999/demo.battery.2019.002' } });
    const recipes = ((await getPaperRecord(db, battery.id))!.record as any).synthesis.filter((s: any) => s.source === 'record');
    expect(recipes).toHaveLength(2);
    expect(recipes[0]).toMatchObject({ method: 'sol-gel', targets: [{ text: 'LiMn2O4', formula: 'LiMn2O4' }] });
    expect(recipes[0].conditions.temperature[0].canonical).toEqual([1023.15]);
  });

  it('is incremental: an unchanged corpus is not redone, a changed paragraph is', async () => {
    const again = await runStructuring(db);
    expect(again.paragraphsStructured).toBe(0);
    expect(again.papersRecorded).toBe(0);
    const changed = structuredClone(synthesisPaper);
    changed.paragraphs[1].text = 'The electrode showed an overpotential of 270 mV at 10 mA cm−2.';
    await runIngest(db, testConfig, [writeCorpusJsonl(tempDir(), 'v2.jsonl', [changed])], { trigger: 'cli', structure: false });
    const after = await runStructuring(db);
    expect(after.paragraphsStructured).toBe(3); // the updated paper's paragraphs were rewritten
    expect(after.papersRecorded).toBe(1);
  });

  it('filters the library by role, method, material in any spelling and conditions in any unit', async () => {
    const titles = async (s: PaperSearch) => (await searchPapers(db.prisma, resolvePaperFilters(s))).hits.map((h) => h.title).sort();
    expect(await titles({ method: 'hydro-solvothermal' })).toEqual(['NiCo LDH on nickel foam']);
    expect(await titles({ material: 'YSZ' })).toEqual(['NiCo LDH on nickel foam']);
    expect(await titles({ material: 'Ni foam' })).toEqual(['NiCo LDH on nickel foam']);
    expect(await titles({ condition: '110–130 °C', role: 'synthesis' })).toEqual(['NiCo LDH on nickel foam']);
    expect(await titles({ condition: '383–403 K', role: 'synthesis' })).toEqual(await titles({ condition: '110–130 °C', role: 'synthesis' }));
    expect(await titles({ condition: '≥ 1500 K' })).toEqual([]);
    expect(await titles({ condition: 'no unit here' })).toEqual([]);
  });

  it('resolves the ask screen filters to the same papers, and refuses a condition it cannot read', async () => {
    const nico = (await searchPapers(db.prisma, { method: 'hydro-solvothermal' })).hits.map((h) => h.id);
    const scope = await resolveScope(db, { method: 'hydro-solvothermal', condition: '383–403 K' });
    expect(scope?.description).toBe('method hydro-solvothermal · condition 383–403 K');
    expect([...(scope?.paperIds ?? [])]).toEqual(nico);
    expect(await resolveScope(db, { material: '  ', condition: '' })).toBeUndefined();
    expect((await resolveScope(db, { condition: '≥ 1500 K' }))?.paperIds.size).toBe(0);
    await expect(resolveScope(db, { condition: 'hot' })).rejects.toThrow(/could not read the condition "hot"/);
  });
});

describe(`structuring with a failing extractor (${testDatabaseKind()})`, () => {
  it('records failures, leaves those paragraphs unstamped and retries them on the next run', async () => {
    const { extractionCache, extractionErrors } = await import('../db/extraction-cache.ts');
    const cache = extractionCache(db);
    await cache.putError('k1', 'structure', 'mock', 'model answered nonsense');
    expect((await extractionErrors(db)).map((e) => e.error)).toContain('model answered nonsense');
    await cache.putOk('k1', 'structure', 'mock', { role: 'others' });
    expect(await cache.get('k1')).toEqual({ role: 'others' });

    let fail = true;
    const flaky = {
      id: 'flaky@1',
      structureParagraph(text: string) {
        if (fail && text.includes('overpotential')) throw new Error('model unavailable');
        return offlineExtractor.structureParagraph(text);
      },
    };
    const first = await runStructuring(db, { extractor: flaky });
    expect(first.failures).toBeGreaterThan(0);
    expect(first.failureSamples).toEqual(['model unavailable']);
    const unstamped = await db.prisma.paragraph.count({ where: { NOT: { structuredBy: { startsWith: 'flaky@1' } } } });
    expect(unstamped).toBe(first.failures);
    fail = false;
    const second = await runStructuring(db, { extractor: flaky });
    expect(second).toMatchObject({ failures: 0, paragraphsStructured: first.failures });
  });
});
