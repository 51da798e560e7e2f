import { describe, expect, it } from 'vitest';
import type { Answer, AnswerSentence } from '../answer/types.ts';
import type { Evidence } from '../evidence/model.ts';
import { aggregateAnswers, scoreAnswer } from './answer-metrics.ts';
import type { EvaluationQuestion } from './questions.ts';

const item = (id: string) => ({ id }) as Evidence;
const sentence = (text: string, citations: string[], verdict: AnswerSentence['verdict']): AnswerSentence => ({
  text,
  citations,
  verdict,
  check: null,
  flags: [],
});
const answer = (over: Partial<Answer>): Answer =>
  ({
    shape: 'value',
    sentences: [],
    evidence: [item('paragraph:a')],
    abstention: { abstain: false, reasons: [], explanation: '', corpusHolds: null },
    ...over,
  }) as Answer;
const valueQ: EvaluationQuestion = { id: 'v', type: 'value', question: 'What Tc?', answer_value: '39 K', source: 'S' };

describe('answer metrics', () => {
  it('value accuracy reads only the lead sentence of a value answer, in canonical units', () => {
    const right = answer({
      sentences: [sentence('Tc of MgB2: -234.15 °C.', ['paragraph:a'], 'supported'), sentence('It states “Tc = 39 K”.', ['paragraph:a'], 'supported')],
    });
    const wrong = answer({
      sentences: [sentence('Tc of MgB2: 12 K.', ['paragraph:a'], 'partial'), sentence('It states “from 12 K to 39 K”.', ['paragraph:a'], 'supported')],
    });
    expect(scoreAnswer(valueQ, right).valueCorrect).toBe(true);
    expect(scoreAnswer(valueQ, wrong).valueCorrect).toBe(false);
  });
  it('citation validity counts citations of items not retrieved for the question; support counts citing sentences', () => {
    const a = answer({
      shape: 'descriptive',
      sentences: [sentence('x', ['paragraph:a', 'paragraph:zz'], 'supported'), sentence('y', [], 'uncited'), sentence('z', ['paragraph:a'], 'partial')],
    });
    const s = scoreAnswer({ id: 'd', type: 'doi', question: '?', source: 'S' }, a);
    expect(s).toMatchObject({ citations: 3, validCitations: 2, citingSentences: 2, supportedSentences: 1, valueCorrect: null });
    const m = aggregateAnswers([
      { type: 'doi', answer: s },
      { type: 'unanswerable', answer: { ...s, abstained: true } },
    ]);
    expect(m).toMatchObject({
      citation_validity: 0.667,
      claim_support_rate: 0.5,
      answer_abstain_rate_unanswerable: 1,
      answer_false_abstain_rate: 0,
      answer_value_acc: null,
    });
  });
});
