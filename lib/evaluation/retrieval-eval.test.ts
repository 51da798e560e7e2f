import { beforeAll, describe, expect, it } from 'vitest';
import type { RetrievalIndex } from '../retrieval/index.ts';
import { fixtureIndex } from '../../scripts/test-support/retrieval-fixtures.ts';
import { runRetrievalEvaluation } from './retrieval-eval.ts';
import type { EvaluationQuestion } from './questions.ts';

let index: RetrievalIndex;
beforeAll(async () => {
  index = await fixtureIndex();
});

describe('the evaluation’s answers', () => {
  it('are scored as a person is shown them: the off-topic guard refuses what retrieval alone answered', async () => {
    // The guard's own case (topic-guard.test.ts): retrieval finds NiCo2O4 and melting points, the answer refuses. Two
    // materials named: retrieval's own check of an off-topic-looking question's other words does not decide it.
    const question: EvaluationQuestion = { id: 'melting', type: 'unanswerable', question: 'What is the melting point of NiCo2O4 on a YSZ substrate?' };
    const { scores } = await runRetrievalEvaluation(index, [question], ['hybrid'], { answers: true });
    const [score] = scores.get('hybrid')!;
    expect(score.answer?.abstained).toBe(true);
    // The retrieval's own figure stays the pipeline's: it did not refuse.
    expect(score.abstained).toBe(false);
    // A baseline's answers are not prepared (as answerQuestion leaves them): the extractive answer of the retrieval itself.
    const baseline = await runRetrievalEvaluation(index, [question], ['hybrid'], { answers: true, baseline: true });
    expect(baseline.scores.get('hybrid')![0].answer?.abstained).toBe(false);
  });
});
