import { MockLanguageModelV3, MockRerankingModelV3 } from 'ai/test';
import { providerTupleReranker } from '../retrieval/graph-search.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AbstentionModel, answerableProbability, modelFor } from '../retrieval/gate/abstention-model.ts';
import { corpusOf, fixtureIndex, indexOf } from '../../scripts/test-support/retrieval-fixtures.ts';
import type { RetrievalIndex } from '../retrieval/index.ts';
import { PIPELINES } from './registry.ts';
import { quantityMatch } from '../retrieval/facets.ts';
import { retrieve } from './run.ts';
import type { RetrievalResult } from './types.ts';
import { externalIdsOf, paragraphIdsOf, provenanceOf, tupleIdsOf } from '../evidence/model.ts';
import { llmReformulator } from '../retrieval/reformulate.ts';
import { parseQuantities } from '../structure/quantities.ts';

let index: RetrievalIndex;
beforeAll(async () => {
  index = await fixtureIndex();
});

const topPaper = (r: { papers: { paperId: string | null }[] }) => r.papers[0]?.paperId;
const graphTuples = (r: RetrievalResult) => (r.extras?.graphEvidence ?? []).filter((e) => e.kind === 'tuple');

describe('json-qr', () => {
  it('finds a paper from a question in other units (W cm⁻² for mW cm⁻², K for °C) and shows the paragraph', async () => {
    const r = await retrieve(index, 'Find the study in which a cell showed a maximum power output per unit area of 0.45 W cm⁻² at 873 K.', 'json-qr');
    expect(topPaper(r)).toBe('fx-sofc-600');
    expect(externalIdsOf(r.evidence[0])).toEqual(['fx-sofc-600:p2']);
    // The sentence that states the asked facts travels with the paragraph, as a span of its text.
    const [sentence] = provenanceOf(r.evidence[0], 'sentence');
    expect(r.evidence[0].text.slice(sentence.start, sentence.end)).toBe(sentence.text);
    expect(sentence.text).toMatch(/450 mW cm−2 at 600 °C/);
    expect(r.evidence[0].matched.quantities).toEqual(['0.45 W cm⁻²', '873 K']);
    expect(r.abstention.abstain).toBe(false);
  });
  it('prefers the evidence at the asked condition: 1073 K picks the 800 °C paper, 873 K the 600 °C one', async () => {
    const at800 = await retrieve(index, 'Which paper reports a power density of 450 mW cm−2 for La0.6Sr0.4CoO3 at 1073 K?', 'json-qr');
    const at600 = await retrieve(index, 'Which paper reports a power density of 450 mW cm−2 for La0.6Sr0.4CoO3 at 873 K?', 'json-qr');
    expect(topPaper(at800)).toBe('fx-sofc-800');
    expect(topPaper(at600)).toBe('fx-sofc-600');
  });
  it('meets formulas written out as names (strontium carbonate, hematite)', async () => {
    const r = await retrieve(index, 'Find the study that prepares SrTi0.7Fe0.3O3 starting from strontium carbonate, titania and hematite.', 'json-qr');
    expect(topPaper(r)).toBe('fx-synth-srco3');
    expect(r.evidence[0].matched.materials).toEqual(expect.arrayContaining(['f:CO3Sr', 'f:Fe2O3']));
  });
  it('traces every step: optimisation drops the frame, a weak first retrieval is decomposed into ≤ 3 sub-queries', async () => {
    // Two papers on the same cathode tie: no clear leader, so the question is decomposed.
    const r = await retrieve(index, 'Which paper reports a La0.6Sr0.4CoO3 cell with a power density of 700 mW cm−2 in hydrogen?', 'json-qr');
    const steps = r.trace.map((t) => t.step);
    expect(steps.slice(0, 5)).toEqual(['embedder', 'spelling', 'analyse', 'optimise', 'first-json']);
    // The embedder the dense search ran on, with no note when it is the configured one.
    expect(r.trace[0].detail).toEqual({ id: index.embedderId });
    const optimise = r.trace.find((t) => t.step === 'optimise')!.detail as { query: string; removed: string[] };
    expect(optimise.query).not.toMatch(/Which paper/);
    expect(optimise.removed).toEqual(expect.arrayContaining(['Which', 'paper', 'reports']));
    expect(r.trace.find((t) => t.step === 'sufficiency')!.detail).toMatchObject({ sufficient: false });
    expect(steps).toContain('decompose');
    const subs = r.trace.find((t) => t.step === 'decompose')!.detail as { subQueries: string[] };
    expect(subs.subQueries.length).toBeGreaterThan(0);
    expect(subs.subQueries.length).toBeLessThanOrEqual(3);
  });
  it('keeps an insufficient first retrieval whose best paper leads the next by a quarter of its score or more', async () => {
    const r = await retrieve(index, 'Which paper reports an overpotential of 290 mV for NiCo2O4 at 10 mA cm−2 with a degradation of 5% at 25 K?', 'json-qr');
    expect(r.trace.find((t) => t.step === 'sufficiency')!.detail).toMatchObject({ sufficient: false });
    expect(r.trace.map((t) => t.step)).not.toContain('decompose');
    expect(topPaper(r)).toBe('fx-hydrothermal');
  });
  it('skips decomposition when the first retrieval is sufficient', async () => {
    const r = await retrieve(index, 'Which paper reports a proton conductivity of 0.12 S cm−1 at 80 °C?', 'json-qr');
    expect(r.trace.find((t) => t.step === 'sufficiency')!.detail).toMatchObject({ sufficient: true });
    expect(r.trace.map((t) => t.step)).not.toContain('decompose');
  });
  it('answers a value question about a quoted title with the value and the paragraph it comes from', async () => {
    const r = await retrieve(
      index,
      'In "Pressure dependence of superconductivity in a layered nitride", what Tc is reported for Li0.48(THF)yHfNCl?',
      'json-qr',
    );
    expect(r.trace.find((t) => t.step === 'title-filter')!.detail).toMatchObject({ paper: 'Pressure dependence of superconductivity in a layered nitride' });
    expect(r.value?.text).toBe('25.5 K');
    expect(r.value?.evidenceId).toBe('paragraph:fx-supercond:p1');
  });
});

describe('abstention', () => {
  it('says "not in this corpus" for a material the corpus never mentions, with the reason', async () => {
    const r = await retrieve(index, 'What is the overpotential of FeMoS4/CoP to reach 10 mA cm−2 for OER?', 'json-qr');
    expect(r.abstention.abstain).toBe(true);
    expect(r.abstention.reasons).toContain('no-matching-entity');
    expect(r.abstention.explanation).toMatch(/FeMoS4\/CoP/);
  });
  it('flags conditions the best paper does not state', async () => {
    const r = await retrieve(index, 'Which paper reports a proton conductivity of 0.12 S cm−1 at 150 °C?', 'json-qr');
    expect(r.abstention.reasons).toContain('conditions-not-met');
    expect(r.abstention.confidence).toBeLessThan(1);
  });
  it('answers confidently when everything named is stated', async () => {
    const r = await retrieve(index, 'Which paper reports a proton conductivity of 0.12 S cm−1 at 80 °C?', 'json-qr');
    expect(r.abstention).toMatchObject({ abstain: false, confidence: 1, reasons: [] });
  });
  it('abstains on a paper described by words its best match never uses, and names them; not on one described by its own words', async () => {
    const other = await retrieve(
      index,
      'What is the DOI of the paper that grows NiCo2O4 nanowires on nickel foam as a sulfonated proton membrane for superconducting cathodes under hydrostatic pressure?',
      'json-qr',
    );
    expect(other.analysis.intent).toBe('which-paper');
    expect(other.abstention.abstain).toBe(true);
    expect(other.abstention.reasons).toContain('unmatched-terms');
    expect(other.abstention.explanation).toMatch(/the closest paper never mentions .*(sulfonated|superconducting|hydrostatic)/);
    const own = await retrieve(index, 'What is the DOI of the paper that grows NiCo2O4 nanowires on nickel foam from nitrates in deionized water?', 'json-qr');
    expect(own.abstention.reasons).not.toContain('unmatched-terms');
    expect(own.abstention.abstain).toBe(false);
    // Asked in a reviewer's words: courtesies, verbs of asking, adverbs and unit words are no part of the description.
    const polite = await retrieve(
      index,
      'I recall a paper that roughly grew NiCo2O4 nanowires on nickel foam from nitrates in deionized water; could you please point me to it?',
      'json-qr',
      { abstentionModel: null },
    );
    expect(polite.abstention.reasons).not.toContain('unmatched-terms');
    expect(polite.abstention.abstain).toBe(false);
  });
  it('finds an element the question names where the paper writes its symbol ("nickel" in "Ni-YSZ supports")', async () => {
    const r = await retrieve(index, 'Which paper reports a La0.6Sr0.4CoO3 cathode on nickel supports delivering 450 mW cm−2 at 600 °C?', 'json-qr');
    expect(r.analysis.materials).toContain('f:Ni');
    expect(topPaper(r)).toBe('fx-sofc-600');
    expect(r.abstention).toMatchObject({ abstain: false, confidence: 1, reasons: [] });
    // A symbol inside a composite the question writes is not a name: "La0.6Sr0.4CoO3/Ni" is not met by "Ni-YSZ".
    const composite = await retrieve(index, 'Which paper reports a La0.6Sr0.4CoO3/Ni cathode delivering 450 mW cm−2 at 600 °C?', 'json-qr');
    expect(composite.abstention.reasons).toContain('no-matching-entity');
    expect(composite.abstention.explanation).toMatch(/does not mention Ni/);
  });
  it('abstains on a near miss with a changed value, and says what the best paper states instead', async () => {
    const r = await retrieve(index, 'Which paper reports a La0.6Sr0.4CoO3 cathode cell delivering 1900 mW cm−2 at 600 °C?', 'json-qr');
    expect(r.abstention.abstain).toBe(true);
    expect(r.abstention.reasons).toContain('conditions-not-met');
    expect(r.abstention.explanation).toMatch(/states 450 mW cm−2 where the question has 1900 mW cm−2/);
    expect(r.abstention.differences).toContainEqual({ facet: 'value', asked: '1900 mW cm−2', stated: '450 mW cm−2' });
  });
  it('abstains on another condition and names it; not on the same condition in another scale, or the value rounded or given loosely', async () => {
    const other = await retrieve(index, 'Which paper reports a power density of 450 mW cm−2 for a La0.6Sr0.4CoO3 cathode at 700 °C?', 'json-qr');
    expect(other.abstention.abstain).toBe(true);
    expect(other.abstention.differences?.map((d) => d.facet)).toContain('condition');
    for (const q of [
      'Which paper reports a power density of 0.45 W/cm2 for a La0.6Sr0.4CoO3 cathode at 873 K?',
      'Which paper reports a power density of about 440 mW cm−2 for a La0.6Sr0.4CoO3 cathode at 600 °C?',
      'Which paper reports a power density of roughly 0.46 W cm−2 for a La1−xSrxCoO3 cathode at 600 °C?',
    ]) {
      const r = await retrieve(index, q, 'json-qr');
      expect(r.abstention.abstain, q).toBe(false);
      expect(topPaper(r), q).toBe('fx-sofc-600');
    }
  });
  it('abstains on another dopant or host and says what the paper states in its place', async () => {
    const dopant = await retrieve(index, 'Which paper reports SrTi0.7Co0.3O3 prepared from SrCO3 by solid-state reaction?', 'json-qr');
    expect(dopant.abstention.abstain).toBe(true);
    expect(dopant.abstention.differences).toContainEqual({ facet: 'material', asked: 'SrTi0.7Co0.3O3', stated: 'SrTi0.7Fe0.3O3' });
  });
  it('answers when the best paper names the material and property but says nothing of a value, lower and naming it', async () => {
    const plain = await retrieve(index, 'Which paper reports the peak power density of a La0.6Sr0.4CoO3 cathode cell at 600 °C?', 'json-qr');
    const r = await retrieve(
      index,
      'Which paper reports the peak power density of a La0.6Sr0.4CoO3 cathode cell at 600 °C with a 12 µm thick electrolyte?',
      'json-qr',
    );
    expect(topPaper(r)).toBe('fx-sofc-600');
    expect(r.abstention.unverified).toContainEqual({ facet: 'value', asked: '12 µm', note: 'the paper states no value of it' });
    expect(r.abstention.confidence).toBeLessThan(plain.abstention.confidence);
    expect(r.abstention.differences).toEqual([]);
  });
  it('abstains on a near miss with a changed route, naming the technique missing and the one used', async () => {
    const r = await retrieve(index, 'Which paper reports NiCo2O4 nanowires on nickel foam made by electrospinning?', 'json-qr');
    expect(r.abstention.abstain).toBe(true);
    expect(r.abstention.reasons).toContain('unmatched-method');
    expect(r.abstention.explanation).toMatch(/does not use electrospinning \(it uses hydrothermal/);
    const own = await retrieve(index, 'Which paper reports NiCo2O4 nanowires on nickel foam made hydrothermally?', 'json-qr');
    expect(own.abstention.abstain).toBe(false);
  });
  it('finds the same paper for typed variants: typos, ASCII units, keyword style, approximate values', async () => {
    const canonical = await retrieve(index, 'Which paper reports a proton conductivity of 0.12 S cm−1 at 80 °C?', 'json-qr');
    const paper = canonical.papers[0].paperId;
    for (const q of [
      'sulfonated polyimde membrane proton conductvity 0.12 S/cm at 80C',
      'proton conductivity 0.12 S/cm 80 deg C membrane',
      'which paper has a proton conductivity of about 0.118 S/cm at 80 °C?',
    ]) {
      const r = await retrieve(index, q, 'json-qr');
      expect(r.papers[0].paperId, q).toBe(paper);
      expect(r.abstention.abstain, q).toBe(false);
    }
    const typo = await retrieve(index, 'sulfonated polyimde membrane proton conductvity', 'json-qr');
    expect(typo.trace.find((t) => t.step === 'spelling')?.detail).toMatchObject({ corrections: ['polyimde → polyimide', 'conductvity → conductivity'] });
  });
  it('decides abstention by the fitted model for its embedder, and by the hand rules without one', async () => {
    const q = 'Which paper reports a proton conductivity of 0.12 S cm−1 at 80 °C?';
    const fitted = await retrieve(index, q, 'json-qr');
    const model = modelFor(index.embedderId);
    if (model) {
      expect(fitted.abstention.decidedBy).toBe('model');
      expect(fitted.abstention.calibrated).toBeCloseTo(answerableProbability(model, fitted.abstention.model!.signals), 2);
      expect(fitted.abstention.abstain).toBe(fitted.abstention.calibrated < model.threshold);
    }
    // A model that always says "not answered" abstains with a reason, whatever the rules say.
    const never: AbstentionModel = { features: ['facetCoverage'], mean: [0], scale: [1], weights: [0], bias: -5, threshold: 0.5, l2: 0, fittedOn: 'test' };
    const refused = await retrieve(index, q, 'json-qr', { abstentionModel: never });
    expect(refused.abstention).toMatchObject({ abstain: true, decidedBy: 'model' });
    expect(refused.abstention.reasons.length).toBeGreaterThan(0);
    const rules = await retrieve(index, q, 'json-qr', { abstentionModel: null });
    expect(rules.abstention).toMatchObject({ abstain: false, decidedBy: 'rules' });
    expect(rules.abstention.calibrated).toBe(rules.abstention.confidence);
  });
  it('abstains when a quoted title matches no paper', async () => {
    const r = await retrieve(index, 'In "Entirely unrelated work on quantum gravity and dark matter", what temperature was used?', 'json-qr');
    expect(r.abstention.abstain).toBe(true);
    expect(r.abstention.reasons).toContain('unknown-paper');
  });
});

describe('all pipelines', () => {
  it.each(PIPELINES)('%s returns ranked papers, evidence and a trace', async (pipeline) => {
    const r = await retrieve(index, 'Which paper reports a proton conductivity of 0.12 S cm−1 at 80 °C for sulfonated polyimide?', pipeline);
    expect(r.pipeline).toBe(pipeline);
    expect(r.trace.length).toBeGreaterThan(1);
    expect(r.latencyMs).toBeGreaterThanOrEqual(0);
    // records holds no polymer recipe; aria reasons over causal paths, not which paper reports a value.
    if (pipeline !== 'records' && pipeline !== 'aria') expect(topPaper(r)).toBe('fx-polymer');
  });
  it('vector returns k = 8 section chunks by default, records finds an imported recipe by its target formula', async () => {
    const v = await retrieve(index, 'power density of cathodes', 'vector');
    expect(v.evidence.every((e) => e.kind === 'chunk')).toBe(true);
    expect(v.evidence.length).toBeLessThanOrEqual(8);
    const rec = await retrieve(index, 'Which paper synthesizes BaCe0.8Y0.2O3 from BaCO3, CeO2 and Y2O3?', 'records');
    expect(rec.evidence[0]).toMatchObject({ kind: 'record', id: 'record:fx-record-1' });
    expect(rec.papers[0].doi).toBe('10.9999/fx.recipe.only');
  });
});

describe('quantityMatch', () => {
  const q = (s: string) => parseQuantities(s)[0];
  const facet = (s: string) => parseQuantities(s).map((x) => ({ dimension: x.dimension, values: x.canonical, range: x.kind === 'range', text: x.text }));
  it('scores an equal value in another unit 1, a value inside a stated range ½, anything else 0', () => {
    expect(quantityMatch(facet('at 600 °C'), q('873 K'))).toBe(1);
    expect(quantityMatch(facet('between 550–650 °C'), q('873 K'))).toBe(0.5);
    expect(quantityMatch(facet('at 700 °C'), q('873 K'))).toBe(0);
    expect(quantityMatch(facet('0.51, 0.48 and 0.42 Ω cm2'), q('0.45 Ω cm2'))).toBe(0); // a list is not a range
    expect(quantityMatch(facet('450–550 °C'), q('723–823 K'))).toBe(1);
    expect(quantityMatch(facet('873 K'), q('600 °C'))).toBe(1);
    expect(quantityMatch(facet('873 nm'), q('600 °C'))).toBe(0);
    // A sweep over orders of magnitude states none of the values in it.
    expect(quantityMatch(facet('measured from 0.3 to 300 K'), q('25 K'))).toBe(0);
    expect(quantityMatch(facet('from 2 to 15 K'), q('9 K'))).toBe(0.5);
  });
});

describe('reformulation with a model', () => {
  const jsonModel = (answers: unknown[]) => {
    let call = 0;
    return new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [{ type: 'text', text: JSON.stringify(answers[Math.min(call++, answers.length - 1)]) }],
        finishReason: { unified: 'stop', raw: undefined },
        usage: {
          inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 10, text: 10, reasoning: undefined },
        },
        warnings: [],
      }),
    });
  };
  it('uses the model’s optimised query and sub-queries, and records it in the trace', async () => {
    const model = jsonModel([
      { reasoning: 'keep values', query: 'La0.6Sr0.4CoO3 power density 450 mW cm−2 873 K', keywords: ['La0.6Sr0.4CoO3'] },
      { reasoning: 'split', subQueries: ['La0.6Sr0.4CoO3 power density', '450 mW cm−2 873 K'] },
    ]);
    const reformulator = llmReformulator({ model, id: 'mock/model' });
    const r = await retrieve(index, 'Could you tell me who measured 450 mW cm−2 with La0.6Sr0.4CoO3 at 873 K?', 'json-qr', { reformulator });
    const optimise = r.trace.find((t) => t.step === 'optimise')!.detail;
    expect(optimise).toMatchObject({ query: 'La0.6Sr0.4CoO3 power density 450 mW cm−2 873 K', by: 'llm:mock/model:reformulate-v1' });
    expect(topPaper(r)).toBe('fx-sofc-600');
    expect(model.doGenerateCalls.length).toBeGreaterThanOrEqual(1);
  });
  it('falls back to the rules, visibly, when the model returns malformed JSON', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [{ type: 'text', text: 'not json at all' }],
        finishReason: { unified: 'stop', raw: undefined },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
        warnings: [],
      }),
    });
    const r = await retrieve(index, 'Which paper reports a proton conductivity of 0.12 S cm−1 at 80 °C?', 'json-qr', {
      reformulator: llmReformulator({ model, id: 'mock/broken' }),
    });
    const optimise = r.trace.find((t) => t.step === 'optimise')!.detail as { by: string; error?: string };
    expect(optimise.by).toBe('rules');
    expect(optimise.error).toMatch(/model failed, rules used/);
    expect(topPaper(r)).toBe('fx-polymer');
  });
});

describe('graph pipelines', () => {
  it('graph: canonical retrieval, value agreement in canonical units and provenance back to the paragraph', async () => {
    const r = await retrieve(index, 'Which paper reports a power density of 0.45 W cm⁻² for La0.6Sr0.4CoO3 at 873 K?', 'graph');
    const [best] = graphTuples(r);
    expect(best).toMatchObject({ id: 'tuple:g1', kind: 'tuple' });
    expect(paragraphIdsOf(best)).toEqual(['fx-sofc-600:p2']);
    expect(tupleIdsOf(r.evidence[0])).toContain('g1');
    expect(topPaper(r)).toBe('fx-sofc-600');
    const canonical = r.trace.find((t) => t.step === 'canonical-retrieval')!.detail as { exactEntities: string[] };
    expect(canonical.exactEntities).toEqual(expect.arrayContaining(['f:CoLa0.6O3Sr0.4', 'p:power-density']));
    expect(r.trace.map((t) => t.step)).toEqual(expect.arrayContaining(['string-retrieval', 'hybrid', 'multi-hop', 'rerank']));
  });
  it('graph: a provider cross-encoder re-ranks the candidates when configured; on failure the offline one stands in', async () => {
    const q = 'Which paper reports a power density of 0.45 W cm⁻² for La0.6Sr0.4CoO3 at 873 K?';
    let seen: string[] = [];
    // The mock prefers the 800 °C tuple (g2), which the offline re-ranker puts second.
    const model = new MockRerankingModelV3({
      doRerank: async ({ documents, query }) => {
        expect(query).toBe(q);
        seen = documents.values as string[];
        return {
          ranking: seen.map((text, index) => ({ index, relevanceScore: text.includes('800') ? 0.9 : 0.1 })).sort((a, b) => b.relevanceScore - a.relevanceScore),
        };
      },
    });
    const r = await retrieve(index, q, 'graph', { tupleReranker: providerTupleReranker(model, 'mock/cross-encoder') });
    expect(seen.length).toBeGreaterThan(1);
    expect(graphTuples(r)[0].id).toBe('tuple:g2');
    expect(r.trace.find((t) => t.step === 'rerank')!.detail).toMatchObject({ reranker: 'mock/cross-encoder' });
    const broken = new MockRerankingModelV3({ doRerank: async () => Promise.reject(new Error('connection refused')) });
    const fallback = await retrieve(index, q, 'graph', { tupleReranker: providerTupleReranker(broken, 'mock/down') });
    expect((fallback.trace.find((t) => t.step === 'rerank')!.detail as { reranker: string }).reranker).toMatch(
      /^offline \(re-ranker mock\/down failed: .*connection refused/,
    );
    expect(graphTuples(fallback)[0].id).toBe('tuple:g1');
  });
  it('graph: tuples on multi-hop paths between the question entities are marked and boosted', async () => {
    const r = await retrieve(index, 'How is NiCo2O4 related to the electrode through nickel foam?', 'graph');
    const onPath = graphTuples(r)
      .filter((t) => t.onPath)
      .map((t) => t.id);
    expect(onPath).toEqual(expect.arrayContaining(['tuple:g6']));
  });
  it('graph-keyword: lemmas of nouns, adjectives and verbs select tuples', async () => {
    const r = await retrieve(index, 'Which membrane reached a high proton conductivity?', 'graph-keyword');
    const sel = r.trace.find((t) => t.step === 'keyword-selection')!.detail as { keywords: string[] };
    expect(sel.keywords).toEqual(expect.arrayContaining(['membran', 'proton', 'conduct']));
    expect(topPaper(r)).toBe('fx-polymer');
  });
});

describe('hybrid while the graph index is still being built', () => {
  it("answers a visitor's question from the paragraphs and says so, instead of waiting out its time; with the graph ready it fuses both", async () => {
    const q = 'Which paper reports a power density of 0.45 W cm⁻² for La0.6Sr0.4CoO3 at 873 K?';
    let built: (g: Awaited<ReturnType<RetrievalIndex['graph']['get']>>) => void = () => {};
    const building = new Promise<Awaited<ReturnType<RetrievalIndex['graph']['get']>>>((resolve) => (built = resolve));
    const warming = { ...index, graph: { get: () => building } };
    const r = await retrieve(warming, q, 'hybrid', { budgetMs: 1000 });
    expect(topPaper(r)).toBe('fx-sofc-600');
    expect(r.abstention.abstain).toBe(false);
    expect(r.indexNotice).toMatch(/knowledge graph is still being prepared/);
    expect(r.evidence.every((e) => tupleIdsOf(e).length === 0)).toBe(true);
    expect(r.trace.find((t) => t.step === 'wait-graph-index')?.detail).toEqual({ ready: false });
    // Built: the next question gets the graph's tuples fused in, and no notice.
    built(await index.graph.get());
    const after = await retrieve(warming, q, 'hybrid', { budgetMs: 1000 });
    expect(after.indexNotice).toBeUndefined();
    expect(tupleIdsOf(after.evidence[0])).toContain('g1');
    // Without a deadline (the CLI, the evaluation) the graph is waited for, whatever it takes.
    let late: (g: Awaited<ReturnType<RetrievalIndex['graph']['get']>>) => void = () => {};
    const slowBuild = new Promise<Awaited<ReturnType<RetrievalIndex['graph']['get']>>>((resolve) => (late = resolve));
    const slow = { ...index, graph: { get: () => slowBuild } };
    const untimed = retrieve(slow, q, 'hybrid');
    setTimeout(async () => late(await index.graph.get()), 1500);
    expect(tupleIdsOf((await untimed).evidence[0])).toContain('g1');
  });
});

describe('a material typed by a short form the corpus defines', () => {
  it('is read as its formula in a synthesis question, before the question is analysed, and the trace says so', async () => {
    const withShortForms = { ...index, materialAbbreviations: new Map([['LSQ', { formula: 'La0.6Sr0.4CoO3', uses: 3, total: 3 }]]) };
    const r = await retrieve(withShortForms, 'How do I make the LSQ cathode powder by sol-gel?', 'json-qr');
    expect(r.analysis.materials).toContain('f:CoLa0.6O3Sr0.4');
    expect(r.trace.find((t) => t.step === 'material-abbreviations')?.detail).toEqual({ expansions: ['LSQ → La0.6Sr0.4CoO3 (3 of 3 uses in the corpus)'] });
    // Another question searches the short form as typed (papers that write only it still state what it asks).
    const value = await retrieve(withShortForms, 'What is the peak power density of the LSQ cathode at 600 °C?', 'json-qr');
    expect(value.trace.find((t) => t.step === 'material-abbreviations')?.detail).toEqual({ expansions: [] });
    // A short form that already names a material (the lexicon's LSC) is left as typed.
    const lexicon = await retrieve(
      { ...index, materialAbbreviations: new Map([['LSC', { formula: 'LaSrCoO3', uses: 3, total: 3 }]]) },
      'How is the LSC cathode made?',
      'json-qr',
    );
    expect(lexicon.trace.find((t) => t.step === 'material-abbreviations')?.detail).toEqual({ expansions: [] });
  });
});

describe('a question for papers in the plural', () => {
  it('counts the papers of the corpus that name its materials, for the list to say what it leaves out', async () => {
    const r = await retrieve(index, 'Which papers report the power density of La0.6Sr0.4CoO3?', 'json-qr');
    const naming = [...index.papers.keys()].filter((id) =>
      index.papers.get(id)!.paragraphIds.some((pid) => index.paragraphs.get(pid)!.facets.materials.has('f:CoLa0.6O3Sr0.4')),
    );
    expect(naming.length).toBeGreaterThan(1);
    expect(r.papersNaming).toBe(naming.length);
    expect((await retrieve(index, 'Which paper reports the power density of La0.6Sr0.4CoO3?', 'json-qr')).papersNaming).toBeUndefined();
  });
});

describe('a scoped question (the ask screen filters)', () => {
  const scope = (ids: string[]) => ({ paperIds: new Set(ids), description: 'test filters' });
  it('keeps only evidence from the scoped papers, for every kind of pipeline', async () => {
    for (const name of ['json-qr', 'graph', 'hybrid'] as const) {
      const r = await retrieve(index, 'Which paper reports a power density of 450 mW cm−2 for La0.6Sr0.4CoO3 at 1073 K?', name, {
        scope: scope(['fx-sofc-600']),
      });
      expect(r.evidence.length, name).toBeGreaterThan(0);
      expect(new Set(r.evidence.map((e) => e.paperId)), name).toEqual(new Set(['fx-sofc-600']));
      expect(
        (r.extras?.graphEvidence ?? []).every((e) => e.paperId === 'fx-sofc-600'),
        name,
      ).toBe(true);
      expect(r.scope).toBe('test filters');
      expect(r.trace.find((s) => s.step === 'scope')?.detail).toMatchObject({ papers: 1 });
    }
  });
  it('searches the scoped papers themselves when the whole-corpus ranking does not reach them', async () => {
    const r = await retrieve(index, 'Which paper reports a power density of 450 mW cm−2 for La0.6Sr0.4CoO3 at 1073 K?', 'json-qr', {
      scope: scope(['fx-lsm']),
    });
    expect(r.evidence.map((e) => e.paperId)).toContain('fx-lsm');
    expect(r.trace.find((s) => s.step === 'scope')?.detail).toMatchObject({ addedFromScopedSearch: expect.any(Number) });
  });
  it('says the filters matched nothing when no paper is in scope', async () => {
    const r = await retrieve(index, 'What is the peak power density of La0.6Sr0.4CoO3 at 600 °C?', 'hybrid', { scope: scope([]) });
    expect(r.evidence).toEqual([]);
    expect(r.abstention.abstain).toBe(true);
    expect(r.abstention.explanation).toMatch(/no paper matching the filters \(test filters\)/);
  });
});

describe('a value the top evidence does not state', () => {
  it('is read from deeper in the ranking, and its paragraph joins the evidence after the top ones', async () => {
    // Six paragraphs discuss ZrB12's Tc without a value and rank first; the one that states it ranks below them.
    const discussion = [
      'The Tc of ZrB12 depends on pressure in the ZrB12 crystals; the Tc of ZrB12 was followed on compression.',
      'Impurities in ZrB12 shift the Tc of ZrB12, and the Tc of ZrB12 samples varied from batch to batch.',
      'The Tc of ZrB12 in thin films was compared with the Tc of bulk ZrB12 in this study of ZrB12.',
      'The isotope effect on the Tc of ZrB12 is small, and the Tc of ZrB12 follows the phonon spectrum of ZrB12.',
      'Specific heat of ZrB12 near the Tc of ZrB12 shows a jump; the Tc of ZrB12 is sharp in ZrB12 crystals.',
      'The penetration depth of ZrB12 below the Tc of ZrB12 was measured in ZrB12 single crystals.',
    ];
    const stated =
      'Single crystals were grown by the floating zone method in argon, cut, polished and annealed, and their resistivity, ' +
      'magnetisation and heat capacity were measured in a commercial system: ZrB12 becomes superconducting with a Tc of 6.0 K.';
    const index = await indexOf(
      corpusOf([
        { id: 'zrb12', doi: '10.9999/zrb12', title: 'Superconductivity in a dodecaboride', paragraphs: [...discussion, stated].map((text) => ({ text })) },
      ]),
    );
    const r = await retrieve(index, 'What is the Tc of ZrB12?', 'json-qr', { k: 5 });
    expect(r.evidence.slice(0, 5).some((e) => e.text === stated)).toBe(false);
    expect(r.value?.text).toBe('6.0 K');
    expect(r.evidence.at(-1)?.text).toBe(stated);
    expect(r.trace.find((t) => t.step === 'extract-value')?.detail).toMatchObject({ value: '6.0 K', readTo: 20 });
  });
});
