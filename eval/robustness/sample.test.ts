import { beforeAll, describe, expect, it } from 'vitest';
import { formatRobustnessTable, type Outcome, type RobustnessCaseOutcome, robustnessTable } from '../../lib/evaluation/robustness.ts';
import { retrieve } from '../../lib/pipelines/run.ts';
import type { RetrievalIndex } from '../../lib/retrieval/index.ts';
import { fixtureIndex } from '../../scripts/test-support/retrieval-fixtures.ts';
import { generateCases } from './generate.ts';
import { TRANSFORMS } from './registry.ts';

/**
 * A quick sample of the robustness suite, run in CI on the fixture corpus: its questions rewritten by every transform
 * that applies, through json-qr, with the table printed. The full suite runs on the shared corpus with
 * `npm run eval -- --robustness`.
 */
const QUESTIONS = [
  { id: 'pd-600', question: 'Which paper reports a peak power density of 450 mW cm−2 for a La0.6Sr0.4CoO3 cathode at 600 °C?' },
  { id: 'pd-800', question: 'Which paper reports a peak power density of 450 mW cm−2 for a La0.6Sr0.4CoO3 cathode at 800 °C?' },
  { id: 'srti', question: 'Which paper prepared SrTi0.7Fe0.3O3 from SrCO3 by solid-state reaction at 1100 °C?' },
  { id: 'nico', question: 'Which paper grew NiCo2O4 nanowires on Ni foam from Ni(NO3)2·6H2O at 120 °C?' },
  { id: 'oer', question: 'Which paper reports an overpotential of 290 mV at 10 mA cm−2 for NiCo2O4 in 1 M KOH?' },
  { id: 'polymer', question: 'Which paper reports a proton conductivity of 0.12 S cm−1 for a sulfonated polyimide membrane at 80 °C?' },
];

let index: RetrievalIndex;
beforeAll(async () => {
  index = await fixtureIndex();
});

const outcomeOf = async (question: string): Promise<Outcome> => {
  const r = await retrieve(index, question, 'json-qr');
  return { abstained: r.abstention.abstain, paper: r.papers[0]?.paperId ?? null, valueRight: null, right: null, confidence: r.abstention.calibrated };
};

describe('the robustness suite on the fixture corpus (json-qr)', () => {
  it('keeps the outcome under meaning-keeping rewrites and changes it under meaning-changing ones', async () => {
    const bases = QUESTIONS.map((q) => ({ ...q, answerable: true }));
    const base = new Map<string, { answerable: boolean; outcome: Outcome }>();
    for (const q of bases) base.set(q.id, { answerable: true, outcome: await outcomeOf(q.question) });
    // Every question is answered as written.
    expect([...base.values()].filter((b) => b.outcome.abstained)).toEqual([]);
    const cases = generateCases(bases, { acronyms: new Map() });
    const outcomes: RobustnessCaseOutcome[] = [];
    for (const c of cases) outcomes.push({ ...c, outcome: await outcomeOf(c.question) });
    const rows = robustnessTable(TRANSFORMS, base, outcomes);
    console.log(formatRobustnessTable('json-qr on the fixture corpus', rows));
    const invariant = outcomes.filter((o) => o.kind === 'invariant');
    const changed = outcomes.filter((o) => o.kind === 'change');
    const kept = invariant.filter((o) => !o.outcome.abstained && o.outcome.paper === base.get(o.baseId)!.outcome.paper).length / invariant.length;
    const refused = changed.filter((o) => o.outcome.abstained).length / changed.length;
    console.log(`sample: ${invariant.length} meaning-keeping rewrites, ${kept.toFixed(3)} kept; ${changed.length} changes, ${refused.toFixed(3)} refused`);
    expect(invariant.length).toBeGreaterThan(30);
    expect(changed.length).toBeGreaterThan(10);
    expect(kept).toBeGreaterThanOrEqual(0.9);
    expect(refused).toBeGreaterThanOrEqual(0.8);
  });
});
