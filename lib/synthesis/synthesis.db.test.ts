import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerQuestion } from '../answer/answer.ts';
import { answerText } from '../answer/types.ts';
import type { Database } from '../db/database.ts';
import { recipesForTargets } from '../db/records.ts';
import { runIngest } from '../jobs/import-job.ts';
import { readConfig } from '../config.ts';
import { analyseQuestion } from '../retrieval/question.ts';
import { openTestDatabase } from '../../scripts/test-support/database.ts';
import { inventedRecipes, tempDir, writeRecordsJsonl } from '../../scripts/test-support/fixtures.ts';
import { fixtureIndex } from '../../scripts/test-support/retrieval-fixtures.ts';
import type { RetrievalIndex } from '../retrieval/index.ts';
import { CATALOGUE_VERSION, catalogueRecords } from './catalogue.ts';
import { lookupRecipes, recipeLookup, synthesisAsk } from './ask.ts';

let db: Database;
let index: RetrievalIndex;
beforeAll(async () => {
  db = await openTestDatabase();
  await runIngest(db, readConfig({}), [writeRecordsJsonl(tempDir(), 'recipes.jsonl', inventedRecipes())], { trigger: 'cli', structure: false });
  index = await fixtureIndex();
});
afterAll(async () => {
  await db?.close();
});

const ask = (q: string) => {
  const a = synthesisAsk(analyseQuestion(q));
  if (!a) throw new Error(`not read as a synthesis question: ${q}`);
  return a;
};

describe('the recipe catalogue', () => {
  it('is written by the import: each recipe findable by its target however the question writes it, with its method', async () => {
    const rows = await recipesForTargets(db.prisma, ['f:LiMn2O4'], [], 100);
    expect(rows.map((r) => r.method).sort()).toEqual(['sol-gel', 'sol-gel', 'sol-gel', 'sol-gel', 'solid-state-reaction', 'solid-state-reaction']);
    expect(await db.prisma.record.count({ where: { catalogued: { lt: CATALOGUE_VERSION } } })).toBe(0);
  });

  it('catalogues again what an older version (or none) read, and only that', async () => {
    await db.prisma.record.updateMany({ data: { catalogued: 0, targetKeys: [], method: null } });
    const first = await catalogueRecords(db, { page: 3 });
    expect(first.records).toBe(9);
    expect((await catalogueRecords(db)).records).toBe(0);
    expect(await recipesForTargets(db.prisma, ['f:LiMn2O4'], [], 100)).toHaveLength(6);
  });
});

describe('synthesis questions', () => {
  it('reads how-is-it-made questions in many wordings, and not questions about one paper', () => {
    for (const q of [
      'How is LiMn2O4 synthesized by the sol-gel method?',
      'how do you make LiMn2O4',
      'Give me a recipe for LiMn2O4',
      'What precursors are used for LiMn2O4?',
      'What is the calcination temperature of LiMn2O4 by sol-gel?',
      'synthesis route to LiMn2O4',
      // Wordings the reader reads as synthesis by their construction, with no "how is it made" in them.
      'I want to make LiMn2O4 by sol-gel. Which reagents should I start from?',
      'Give me the steps to prepare LiMn2O4 using sol-gel.',
      'What heat treatment (temperature and time) is reported for LiMn2O4 prepared by sol-gel?',
    ])
      expect(synthesisAsk(analyseQuestion(q))?.keys, q).toEqual(['f:LiMn2O4']);
    expect(ask('How is LiMn2O4 synthesized by the sol-gel method?').method).toBe('sol-gel');
    // Precursors named first, the material wanted after a verb of making.
    expect(ask("I've got LiNO3 and MnO2 in the cupboard; what firing schedule do people use to get LiMn2O4 by sol-gel?").keys).toEqual(['f:LiMn2O4']);
    expect(ask('What is the calcination temperature of LiMn2O4 by sol-gel?').focus).toBe('temperature');
    // Papers in the plural that made it are the records' to list; the word order "how X is made" is a how-is-it-made too.
    expect(ask('Which papers report LiMn2O4 synthesized by sol-gel?')).toMatchObject({ keys: ['f:LiMn2O4'], method: 'sol-gel', papers: true });
    expect(ask('List the studies that prepared LiMn2O4 via sol-gel')).toMatchObject({ method: 'sol-gel', papers: true });
    expect(ask('Explain how LiMn2O4 is synthesized').papers).toBeUndefined();
    // A material made as part of another is not the one the records' recipes make.
    for (const q of [
      'What is the capacity of LiMn2O4?',
      'Which paper synthesizes LiMn2O4 from LiNO3?',
      'How was LiMn2O4 prepared in the paper by Smith?',
      'acrylic rubber/LiMn2O4 hybrids by sol gel, drying time?',
      'How is a LiMn2O4-graphene nanocomposite made by sol-gel?',
    ])
      expect(synthesisAsk(analyseQuestion(q)), q).toBeNull();
  });

  it('summarises the recipes of the method asked: counts, usual precursors, steps as median and range, typical recipes from different papers', async () => {
    const r = await lookupRecipes(db.prisma, ask('How is LiMn2O4 synthesized by the sol-gel method?'));
    expect(r?.held.map((h) => `${h.count} ${h.name}`)).toEqual(['6 sol-gel', '2 solid-state']);
    const s = r!.summary!;
    // Four of LiMn2O4 itself, two variants (Li-rich, Ni-doped); LiMnPO4 (solid-state) is another material. The
    // figures are counted from the four of the material itself; the variants are counted apart.
    expect({ total: s.total, exact: s.exact, basis: s.basis, counted: s.counted, variants: s.variants.map((v) => v.name).sort(), papers: s.papers }).toEqual({
      total: 6,
      exact: 4,
      basis: 'own',
      counted: 4,
      variants: ['Li1.05Mn2O4', 'LiMn1.9Ni0.1O4'],
      papers: 4,
    });
    expect(s.precursors.slice(0, 3).map((p) => `${p.name} ${p.count}`)).toEqual(['C6H8O7 4', 'LiNO3 3', 'Mn(CH3COO)2 2']);
    // The firing that forms the phase is each recipe's hottest, not its last (a recipe anneals at 400 °C after it).
    const final = s.steps.find((x) => x.label === 'firing that forms the phase')!;
    expect(final.temperatureC).toMatchObject({ median: 750, min: 700, max: 800, n: 4 });
    expect(final.hours).toMatchObject({ median: 8, min: 6, max: 12 });
    expect(final.atmospheres.map((a) => `${a.name} ${a.count}`)).toEqual(['air 3', 'O2 1']);
    // The procedure of the recipes sharing the most common precursors: their mixing and their firing.
    expect(s.procedure).toMatchObject({ sharing: 2, mixing: 'dissolved', temperatureC: 750, hours: 10, atmosphere: 'air', word: 'calcined' });
    expect(s.procedure!.precursors.map((p) => p.name)).toEqual(['C6H8O7', 'LiNO3', 'Mn(NO3)2']);
    // A min–max with no listed value (70–90 °C) counts as its middle.
    expect(s.steps.find((x) => x.label === 'drying')!.temperatureC).toMatchObject({ min: 80, max: 120, n: 4 });
    expect(new Set(s.typical.map((t) => t.doi)).size).toBe(s.typical.length);
  });

  it('summarises only the recipes starting from the precursors the question names, or says that none does', async () => {
    const from = ask('How is LiMn2O4 made by sol-gel from lithium nitrate and C6H8O7?');
    expect(from.precursors?.map((p) => p.name)).toEqual(['lithium nitrate', 'C6H8O7']);
    const r = await lookupRecipes(db.prisma, from);
    // Five of the six sol-gel recipes (variants among them) start from LiNO3 and citric acid: the figures are theirs.
    expect(r?.startingFrom).toEqual({ names: ['lithium nitrate', 'C6H8O7'], recipes: 5, of: 6 });
    expect(r!.summary!.precursors.find((p) => p.name === 'LiNO3')?.count).toBe(3);
    const a = await answerQuestion(index, 'How is LiMn2O4 made by sol-gel from lithium nitrate and C6H8O7?', { recipes: recipeLookup(db.prisma) });
    expect(answerText(a)).toContain('5 of the 6 recipes start from lithium nitrate and C6H8O7; the figures below are theirs.');
    const none = await answerQuestion(index, 'How is LiMn2O4 made by sol-gel from MnSO4?', { recipes: recipeLookup(db.prisma) });
    expect(answerText(none)).toContain('None of the 6 recipes starts from MnSO4; the figures below are of every recipe.');
    // It answers half of what was asked, as the gate reads it, and is shown below one half, naming what it lacks.
    expect(none.gate?.signals.answered).toBe(0.5);
    expect(none.confidence).toBeLessThan(0.5);
    expect(none.unverified?.map((u) => u.asked)).toContain('made from MnSO4');
    // A material named without a word of making from it is no precursor asked for.
    expect(ask('How is LiMn2O4 made by sol-gel for cathodes on LiNO3?').precursors).toBeUndefined();
  });

  it('answers from the records with every line cited to them, and refuses a method the records do not hold, saying what they hold', async () => {
    const recipes = (a: Parameters<typeof lookupRecipes>[1]) => lookupRecipes(db.prisma, a);
    const a = await answerQuestion(index, 'How is LiMn2O4 synthesized by the sol-gel method?', { recipes });
    expect(a.shape).toBe('synthesis');
    expect(a.abstention.abstain).toBe(false);
    const text = answerText(a);
    expect(text).toMatch(/The records hold 4 sol-gel recipes for LiMn2O4 from 4 papers, and 2 of variants such as .*, not counted below\./);
    // It opens with a procedure a chemist could follow.
    expect(a.sentences[1].text).toBe(
      'Procedure (2 of 4 recipes use exactly these precursors): start from C6H8O7, LiNO3 and Mn(NO3)2 (dissolved), then fire at 750 °C for 10 h in air (calcined).',
    );
    expect(text).toMatch(/Usual precursors: C6H8O7 \(4 of 4\), LiNO3 \(3 of 4\)/);
    expect(text).toMatch(
      /Firing that forms the phase \(calcined\): temperature median 750 °C, half of them 700 °C to 750 °C, all 700 °C to 800 °C \(4 of 4\); time median 8 h, half of them 6 h to 10 h, all 6 h to 12 h \(4 of 4\); atmosphere air \(3\), O2 \(1\)\./,
    );
    expect(text).toMatch(/A typical recipe \(doi:10\.9999\/recipe\.sg\.\d\): LiMn2O4 \(sol-gel\) from /);
    const claims = a.sentences.filter((s) => !s.flags.includes('frame'));
    expect(claims.every((s) => s.citations.length > 0 && s.citations.every((c) => c.startsWith('record:')))).toBe(true);
    expect(claims.filter((s) => s.verdict !== 'supported').map((s) => [s.text, JSON.stringify(s.check)])).toEqual([]);
    // Only the recipes it cites are in its evidence, not every recipe counted.
    expect(a.evidence.filter((e) => e.kind === 'record').length).toBeLessThanOrEqual(12);
    expect(a.trace.find((t) => t.step === 'recipes')?.detail).toMatchObject({ material: 'LiMn2O4', method: 'sol-gel', summarised: 6 });

    const refused = await answerQuestion(index, 'How is LiMn2O4 made hydrothermally?', { recipes });
    expect(refused.abstention).toMatchObject({ abstain: true, reasons: ['unmatched-method'] });
    expect(refused.abstention.corpusHolds).toBe('The records hold 6 sol-gel, 2 solid-state recipes for LiMn2O4, none by hydrothermal.');
    expect(refused.confidence).toBe(0);
  });

  it('lists every paper whose recipes made the material by the route asked, each line checked against the record it cites', async () => {
    const a = await answerQuestion(index, 'Which papers report LiMn2O4 synthesized by sol-gel?', { recipes: recipeLookup(db.prisma) });
    expect(a.shape).toBe('synthesis');
    const lines = a.sentences.filter((s) => /^doi:10\.9999\/recipe\.sg\.\d: /.test(s.text));
    // Six sol-gel papers, those of LiMn2O4 itself first, each naming what its recipe made and from what.
    expect(lines).toHaveLength(6);
    expect(lines.slice(0, 4).every((s) => /: LiMn2O4 \(sol-gel\) from /.test(s.text))).toBe(true);
    expect(lines.every((s) => s.verdict === 'supported' && s.citations.length === 1 && s.citations[0].startsWith('record:'))).toBe(true);
  });

  it('a refusal about a material the records hold says so, instead of calling it absent from the corpus', async () => {
    const a = await answerQuestion(index, 'What is the specific capacity of LiMn2O4?', { recipes: recipeLookup(db.prisma) });
    expect(a.abstention.abstain).toBe(true);
    expect(a.abstention.explanation).not.toMatch(/not in the corpus: LiMn2O4/);
    expect(a.abstention.corpusHolds).toMatch(/The records hold 6 recipes for LiMn2O4: they say how it is made, not what was asked\.$/);
  });
});
