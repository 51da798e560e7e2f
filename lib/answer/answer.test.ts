import { beforeAll, describe, expect, it } from 'vitest';
import type { Evidence } from '../evidence/model.ts';
import type { RetrievalIndex } from '../retrieval/index.ts';
import { fromCanonical, lookupUnit } from '../structure/quantities.ts';
import { fixtureIndex } from '../../scripts/test-support/retrieval-fixtures.ts';
import { answerQuestion } from './answer.ts';
import { retrieve } from '../pipelines/run.ts';
import { guardCitations } from './citations.ts';
import { labelledItems } from './pool.ts';
import { askedUnit } from './shapes/value.ts';
import { disagreementNote } from './shapes/table.ts';
import { answerText, type ValueRow } from './types.ts';
import { checkClaim, verdictOf, verifySentences } from './verify.ts';

let index: RetrievalIndex;
beforeAll(async () => {
  index = await fixtureIndex();
});

const poolIds = (a: { evidence: Evidence[] }) => new Set(a.evidence.map((e) => e.id));
const citationsValid = (a: { evidence: Evidence[]; sentences: { citations: string[] }[] }) =>
  a.sentences.every((s) => s.citations.every((c) => poolIds(a).has(c)));

describe('extractive answers (no model)', () => {
  it('value: the value with its conditions, cited to the sentence that states it, and supported', async () => {
    const a = await answerQuestion(index, 'In "Pressure dependence of superconductivity in a layered nitride", what Tc is reported for Li0.48(THF)yHfNCl?');
    expect(a).toMatchObject({ mode: 'extractive', modelId: null, shape: 'value', pipeline: 'hybrid' });
    expect(a.sentences[0].text).toMatch(/25\.5 K/);
    expect(a.sentences[1].text).toMatch(/Tc = 25\.5 K under ambient pressure/);
    expect(a.sentences.every((s) => s.verdict === 'supported')).toBe(true);
    expect(a.sentences[0].citations).toEqual(['paragraph:fx-supercond:p1']);
    expect(citationsValid(a)).toBe(true);
    expect(answerText(a)).toMatch(/25\.5 K.*\[E1\]/);
  });

  it('value: how the value changes with what else the question names, when a sentence says so', async () => {
    const a = await answerQuestion(index, 'What is the superconducting transition temperature of Li0.48(THF)yHfNCl under pressure?');
    expect(a.shape).toBe('value');
    expect(a.sentences[0].text).toMatch(/25\.5 K/);
    expect(a.sentences.at(-1)?.text).toMatch(/also states: “Under hydrostatic pressure Tc decreases linearly, at dTc\/dp = −0\.8 K\/GPa/);
    expect(a.sentences.at(-1)?.citations).toEqual(['paragraph:fx-supercond:p1']);
    const plain = await answerQuestion(index, 'In "Pressure dependence of superconductivity in a layered nitride", what Tc is reported for Li0.48(THF)yHfNCl?');
    expect(plain.sentences).toHaveLength(2);
  });

  it('a value question whose evidence states no value of the asked kind says so before the closest passages, at no confidence', async () => {
    const a = await answerQuestion(index, 'What power density is reported for the NiCo2O4 nanowires grown on nickel foam?');
    expect(a.shape).toBe('descriptive');
    expect(a.sentences[0]).toMatchObject({ citations: [], verdict: 'uncited' });
    expect(a.sentences[0].text).toMatch(/^No retrieved passage states a power density value for NiCo2O4/);
    expect(a.sentences.length).toBeGreaterThan(1);
    // The passages shown answer none of what was asked: no confidence, whatever the retrieval's.
    expect(a.confidence).toBe(0);
  });

  it('reads well before a property that starts with a vowel: "an area-specific resistance value", not "a area-…"', async () => {
    const a = await answerQuestion(index, 'What area-specific resistance is reported for the NiCo2O4 nanowires grown on nickel foam?');
    expect(a.sentences[0].text).toMatch(/^No retrieved passage states an area-specific resistance value/);
  });

  it('value: conditions of the stating sentence, and the unit the question asks in', async () => {
    const a = await answerQuestion(index, 'What proton conductivity did the sulfonated polyimide membrane reach, in mS/cm?');
    expect(a.shape).toBe('value');
    expect(a.sentences[0].text).toMatch(/0\.12 S cm−1 \(120 mS\/cm\), at 80 °C, 90%/);
  });

  it('design (tiered reasoning): the suggestions as sentences with their tier, cited to their tuples, and as a table', async () => {
    const a = await answerQuestion(index, 'How can we obtain a cathode with a power density above 400 mW cm-2?', { pipeline: 'aria' });
    expect(a.shape).toBe('design');
    expect(a.sentences[0].text).toMatch(/^Tier 2 \(by analogy\)/);
    expect(a.sentences[1].text).toMatch(/La0\.6Sr0\.4CoO3 reaches 450 mW\/cm\^2, meeting the target/);
    expect(a.sentences[1].citations[0]).toMatch(/^tuple:/);
    expect(citationsValid(a)).toBe(true);
    expect(a.table?.[0]).toMatchObject({ material: 'La0.6Sr0.4CoO3', paperTitle: expect.stringContaining('La0.6Sr0.4CoO3') });
    expect(a.table?.[0].evidenceId).toBe(a.sentences[1].citations[0]);
  });

  it('which paper: the paper and the sentence of it that states the asked facts', async () => {
    const a = await answerQuestion(index, 'Which paper reports a power density of 0.45 W cm⁻² for La0.6Sr0.4CoO3 at 873 K?');
    expect(a.shape).toBe('which-paper');
    expect(a.sentences[1].text).toMatch(/450 mW cm−2 at 600 °C/);
    expect(a.sentences[1].citations).toEqual(['paragraph:fx-sofc-600:p2']);
    expect(a.sentences[1].verdict).toBe('supported');
    // Both retrievers stand behind it: the paragraph also carries the graph tuple that states the value.
    expect(a.evidence[0].provenance.some((p) => p.kind === 'tuple' && p.tupleId === 'g1')).toBe(true);
  });

  it('a property across papers: a table of values with conditions, sorted, each row cited', async () => {
    const a = await answerQuestion(index, 'What power density values are reported for La0.6Sr0.4CoO3 cathodes?');
    expect(a.shape).toBe('table');
    expect(a.table?.map((r) => `${r.value} @ ${r.conditions.join(' ')}`)).toEqual(
      expect.arrayContaining(['450 mW cm−2 @ at 600 °C', '450 mW cm−2 @ at 800 °C']),
    );
    expect(a.disagreement).toBeNull();
    expect(citationsValid(a)).toBe(true);
  });

  it('how does … change …: the sentence that says how, named however the question names the material', async () => {
    const a = await answerQuestion(index, 'How does strontium doping change the electrical conductivity of lanthanum manganite cathodes?');
    expect(a.shape).toBe('descriptive');
    expect(a.sentences[1].text).toMatch(/^Replacing La by Sr in LaMnO3 creates Mn4\+ holes, so the electronic conductivity of the cathode rises/);
    expect(a.sentences[1].citations).toEqual(['paragraph:fx-lsm:p1']);
  });

  it('how / why: informative sentences grouped by paper, each cited', async () => {
    const a = await answerQuestion(index, 'How were the NiCo2O4 nanowires grown on nickel foam?');
    expect(a.shape).toBe('descriptive');
    expect(a.sentences.some((s) => /grown on nickel foam/.test(s.text))).toBe(true);
    expect(a.sentences.every((s) => s.citations.length === 1)).toBe(true);
    expect(citationsValid(a)).toBe(true);
    // The line naming each paper frames its sentences and states nothing: it cites the paper but has no verdict.
    const frames = a.sentences.filter((s) => s.text.endsWith('reports:'));
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.every((s) => s.flags.includes('frame') && s.verdict === 'uncited' && s.check === null)).toBe(true);
    expect(a.sentences.filter((s) => !s.flags.includes('frame')).every((s) => s.verdict !== 'uncited')).toBe(true);
  });

  it('not in the corpus: abstains with reason codes and says what the corpus does hold', async () => {
    const a = await answerQuestion(index, 'Which paper reports a power density of 912 mW cm−2 for La0.6Sr0.4CoO3 at 700 °C?');
    expect(a.shape).toBe('abstain');
    expect(a.abstention.abstain).toBe(true);
    expect(a.abstention.reasons).toContain('conditions-not-met');
    expect(a.abstention.corpusHolds).toMatch(/closest evidence is in “.+”/);
    expect(a.confidence).toBe(0);
  });
});

describe('a list of papers', () => {
  it('says how many more papers of the corpus name what it asks about than it lists', async () => {
    const q = 'Which papers report the power density of La0.6Sr0.4CoO3?';
    const listed = await answerQuestion(index, q);
    expect(listed.shape).toBe('which-paper');
    expect(answerText(listed)).not.toMatch(/more papers? in the corpus/);
    // With more papers naming it in the corpus than the list holds, the list says how many more.
    const more = await answerQuestion(async (question, pipeline, opts) => ({ ...(await retrieve(index, question, pipeline, opts)), papersNaming: 20 }), q);
    expect(answerText(more)).toMatch(/\d+ more papers in the corpus name La0\.6Sr0\.4CoO3; ask about one of them by its title\./);
  });
});

describe('citation guard', () => {
  const pool = labelledItems([{ id: 'paragraph:a' }, { id: 'tuple:b' }] as Evidence[]);
  it('keeps markers of retrieved items and removes fabricated or copied ones, flagging the sentence', () => {
    const s = guardCitations('Tc is 39 K [E1]. It drops under pressure [E99]. See ref. [12] for details. No citation here.', pool);
    expect(s.map((x) => x.text)).toEqual(['Tc is 39 K.', 'It drops under pressure.', 'See ref. for details.', 'No citation here.']);
    expect(s.map((x) => x.citations)).toEqual([['paragraph:a'], [], [], []]);
    expect(s.map((x) => x.flags)).toEqual([[], ['citation-removed'], ['citation-removed'], []]);
  });
  it('reads lists of markers', () => {
    expect(guardCitations('Both agree [E1, E2].', pool)[0].citations).toEqual(['paragraph:a', 'tuple:b']);
  });
  it('accepts only the labels a model was shown, which keep their pool numbers', () => {
    const shown = pool.slice(1);
    const s = guardCitations('First [E1]. Second [E2].', shown);
    expect(s.map((x) => x.citations)).toEqual([[], ['tuple:b']]);
    expect(s[0].flags).toEqual(['citation-removed']);
  });
});

describe('claim verification', () => {
  const cited = [
    { id: 'paragraph:x', kind: 'paragraph', text: 'MgB2 becomes superconducting at 39 K; Tc decreases at 1.11 K/GPa under pressure.', provenance: [] },
  ] as unknown as Evidence[];
  it('values in canonical units, materials in any spelling, content words', () => {
    expect(verdictOf(checkClaim('MgB2 has a Tc of 39 K.', cited))).toBe('supported');
    expect(verdictOf(checkClaim('MgB2 has a Tc of -234.15 °C.', cited))).toBe('supported');
    expect(checkClaim('MgB2 has a Tc of 93 K.', cited).quantities.missing).toEqual(['93 K']);
    expect(verdictOf(checkClaim('YBa2Cu3O7 has a Tc of 93 K.', cited))).toBe('unsupported');
  });
  it('a sentence that cites nothing is uncited', () => {
    const [s] = verifySentences([{ text: 'Tc is 39 K.', citations: [], flags: [] }], new Map(cited.map((e) => [e.id, e])));
    expect(s.verdict).toBe('uncited');
  });
});

describe('helpers', () => {
  it('converts canonical values back to the unit a question asks in', () => {
    expect(askedUnit('What is the power density in W/cm2?', 'power-density')).toBe('W/cm2');
    expect(askedUnit('What is the power density?', 'power-density')).toBeNull();
    expect(askedUnit('What is the power density in mW/cm2 of the LSCF cell at 700 °C?', 'power-density')).toBe('mW/cm2');
    expect(askedUnit('Tc in K of MgB2 in "Some title"?', 'temperature')).toBe('K');
    expect(askedUnit('What is the conductivity in air of BZCY?', 'conductivity')).toBeNull();
    expect(fromCanonical(450, lookupUnit('W/cm2')!)).toBeCloseTo(0.45, 9);
    expect(fromCanonical(373.15, lookupUnit('°C')!)).toBeCloseTo(100, 9);
  });
  it('notes papers that disagree under comparable conditions only', () => {
    const row = (paperId: string, v: number, at: string): ValueRow => ({
      material: null,
      value: `${v} S/cm`,
      canonical: [v],
      canonicalUnit: 'S/cm',
      conditions: [at],
      paperId,
      paperTitle: paperId,
      evidenceId: `paragraph:${paperId}`,
    });
    expect(disagreementNote([row('a', 0.01, '600 °C'), row('b', 0.05, '605 °C')])).toMatch(
      /disagree at about 873 K: 0.01 S\/cm in “a” against 0.05 S\/cm in “b”/,
    );
    expect(disagreementNote([row('a', 0.01, '400 °C'), row('b', 0.05, '800 °C')])).toBeNull();
    expect(disagreementNote([row('a', 0.01, '600 °C'), row('b', 0.015, '600 °C')])).toBeNull();
  });
});
