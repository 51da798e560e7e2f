import { describe, expect, it } from 'vitest';
import { paragraphEvidence } from '../../scripts/test-support/retrieval-fixtures.ts';
import type { RetrievalResult } from '../pipelines/types.ts';
import { analyseQuestion } from '../retrieval/question.ts';
import { gateAnswer, UNSURE_BELOW } from './gate.ts';
import type { AnswerSentence } from './types.ts';

const retrieval = (question: string, over: Partial<RetrievalResult['abstention']> = {}): Pick<RetrievalResult, 'abstention' | 'analysis'> => ({
  analysis: analyseQuestion(question),
  abstention: { abstain: false, confidence: 0.9, calibrated: 0.95, reasons: [], explanation: '', unverified: [], ...over },
});
const said = (text: string, id: string): AnswerSentence => ({ text, citations: [id], flags: [], verdict: 'supported', check: null });

describe('the answer gate', () => {
  const question = 'Which paper reports a Tc of 3.8 K for CeOBiS2 at 1.62 GPa?';
  const stated = paragraphEvidence('a', 'The Tc of CeOBiS2 reached 3.8 K at 1.62 GPa.');
  const elsewhere = paragraphEvidence('b', 'Single crystals of CeOBiS2 were grown from a CsCl/KCl flux.');

  it('shows an answer whose citations do not state the asked values lower than one whose citations do', () => {
    const draft = { shape: 'which-paper' as const };
    const grounded = gateAnswer(retrieval(question), draft, [said('It states the Tc.', stated.id)], [stated]);
    const ungrounded = gateAnswer(retrieval(question), draft, [said('It grew crystals.', elsewhere.id)], [elsewhere]);
    expect(grounded.reading.grounding).toMatchObject({ material: 1, value: 1 });
    expect(ungrounded.reading.grounding).toMatchObject({ material: 1, value: 0 });
    expect(grounded.reading.fitted).toBe(true);
    expect(ungrounded.confidence).toBeLessThan(grounded.confidence);
  });

  it('an answer whose paper neither states nor contradicts a stated fact stands below one half and names it', () => {
    const unverified = [{ facet: 'condition' as const, asked: '1.62 GPa', note: 'the paper does not say under what condition' }];
    const gate = gateAnswer(retrieval(question, { unverified }), { shape: 'which-paper' }, [said('It states the Tc.', stated.id)], [stated]);
    expect(gate.confidence).toBeLessThan(UNSURE_BELOW);
    expect(gate.unverified).toEqual(unverified);
    // Below one half it also names what its citations do not state (and the paper's fact once).
    const unsure = gateAnswer(retrieval(question, { unverified }), { shape: 'which-paper' }, [said('It grew crystals.', elsewhere.id)], [elsewhere]);
    expect(unsure.confidence).toBeLessThan(UNSURE_BELOW);
    expect(unsure.unverified.map((u) => u.asked)).toEqual(['1.62 GPa', 'Tc', '3.8 K']);
  });

  it('an answer citing nothing says what it lacks itself: no notes on what its citations do not state', () => {
    const none = gateAnswer(
      retrieval(question),
      { shape: 'comparison', answered: 0 },
      [{ text: 'No value of either side.', citations: [], flags: [], verdict: 'uncited', check: null }],
      [stated],
    );
    expect(none.confidence).toBe(0);
    expect(none.unverified).toEqual([]);
  });

  it('an answer that says its evidence does not meet an asked fact is capped as an unverified one, and names it', () => {
    const unmet = gateAnswer(retrieval(question), { shape: 'which-paper', unmet: 'the 1.62 GPa asked' }, [said('It states the Tc.', stated.id)], [stated]);
    expect(unmet.reading.signals.unverified).toBe(1);
    expect(unmet.confidence).toBeLessThan(UNSURE_BELOW);
    expect(unmet.unverified.map((u) => u.asked)).toContain('the 1.62 GPa asked');
  });
});
