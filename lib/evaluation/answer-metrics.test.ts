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
  it("value confidence sets the value answers' share right against the mean confidence they showed", () => {
    const lead = (text: string) => [sentence(text, ['paragraph:a'], 'supported')];
    const right = scoreAnswer(valueQ, answer({ sentences: lead('Tc of MgB2: 39 K.'), confidence: 0.9 }));
    const wrong = scoreAnswer(valueQ, answer({ sentences: lead('Tc of MgB2: 12 K.'), confidence: 0.9 }));
    const refused = { ...wrong, abstained: true, confidence: 0 };
    const m = aggregateAnswers([
      { type: 'value', answer: right },
      { type: 'value', answer: wrong },
      { type: 'value', answer: refused },
    ]);
    // Two answered (the refusal shows no confidence), one right, both at 0.9: ECE |0.5 − 0.9|.
    expect(m.value_confidence).toEqual({ answered: 2, right: 0.5, mean_confidence: 0.9, ece: 0.4 });
    const paper = scoreAnswer({ id: 'd', type: 'doi', question: '?', source: 'S' }, answer({ sentences: lead('x'), confidence: 0.9 }));
    expect(aggregateAnswers([{ type: 'doi', answer: paper }]).value_confidence).toBeNull();
  });
});
