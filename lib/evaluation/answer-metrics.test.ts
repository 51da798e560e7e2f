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

  it('answer confidence covers every shape: the gold paper cited first is right, any answer to an unanswerable question wrong', () => {
    const cites = (paperId: string, doi: string | null, confidence: number, shape: Answer['shape'] = 'which-paper') =>
      answer({
        shape,
        evidence: [{ id: `paragraph:${paperId}`, paperId, doi } as Evidence],
        sentences: [sentence('x', [`paragraph:${paperId}`], 'supported')],
        confidence,
      });
    const doiQ: EvaluationQuestion = { id: 'd', type: 'doi', question: '?', answer_doi: '10.1/A', answer_paper_id: 'src-a', source: 'S' };
    const sourceOf = (id: string) => ({ a: 'src-a', b: 'src-b' })[id];
    expect(scoreAnswer(doiQ, cites('a', '10.1/a', 0.9), sourceOf).right).toBe(true);
    expect(scoreAnswer(doiQ, cites('a', null, 0.9), sourceOf).right).toBe(true);
    expect(scoreAnswer(doiQ, cites('b', '10.1/b', 0.8, 'descriptive'), sourceOf).right).toBe(false);
    const near: EvaluationQuestion = { id: 'n', type: 'unanswerable', question: '?', source: 'near-miss' };
    const m = aggregateAnswers([
      { type: 'doi', answer: scoreAnswer(doiQ, cites('a', '10.1/a', 0.9), sourceOf) },
      { type: 'doi', answer: scoreAnswer(doiQ, cites('b', '10.1/b', 0.3), sourceOf) },
      { type: 'unanswerable', answer: scoreAnswer(near, cites('a', '10.1/a', 0.4), sourceOf) },
      { type: 'unanswerable', answer: scoreAnswer(near, cites('a', '10.1/a', 0.7), sourceOf) },
      { type: 'unanswerable', answer: { ...scoreAnswer(near, cites('a', '10.1/a', 0)), abstained: true, right: null } },
    ]);
    expect(m.answer_confidence).toMatchObject({ answered: 4, right: 0.25, mean_confidence: 0.575 });
    // The one right answer (0.9) is shown above every wrong one (0.3, 0.4, 0.7).
    expect(m.answer_confidence?.auroc).toBe(1);
    expect(m.unanswerable_outcomes).toEqual({ refused: 0.333, below_half: 0.333, above_half: 0.333 });
  });
});
