import { beforeAll, describe, expect, it } from 'vitest';
import { composeAnswer } from '../answer/answer.ts';
import { AppError } from '../common/errors.ts';
import type { RetrievalIndex } from '../retrieval/index.ts';
import { analyseQuestion } from '../retrieval/question.ts';
import { hostileQuestions } from '../../scripts/test-support/hostile-questions.ts';
import { fixtureIndex } from '../../scripts/test-support/retrieval-fixtures.ts';
import { PIPELINES } from './registry.ts';
import { retrieve } from './run.ts';
import type { RetrievalResult } from './types.ts';

/*
 * Hostile but well-formed questions (scripts/test-support/hostile-questions.ts) through every pipeline and the answer: each
 * ends with a result or a clear error. A question of "1," × 995 once never ended (the quantity pattern split it into
 * numbers and separators in 2^n ways): this file then timed out.
 */
const questions = hostileQuestions();
let index: RetrievalIndex;
beforeAll(async () => {
  index = await fixtureIndex();
});

describe('hostile questions', () => {
  it.each(questions.map((q) => [q.kind, q.text] as const))('%s: analysed, retrieved by every pipeline and answered', async (_kind, text) => {
    expect(analyseQuestion(text).question.length).toBeGreaterThan(0);
    for (const pipeline of PIPELINES) {
      const outcome: RetrievalResult | Error = await retrieve(index, text, pipeline).then(
        (r) => r,
        (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
      );
      if (outcome instanceof Error) {
        // A clear error is an outcome; anything else is a failure.
        expect(outcome).toBeInstanceOf(AppError);
        continue;
      }
      expect(outcome.pipeline).toBe(pipeline);
      expect(outcome.abstention.explanation.length).toBeGreaterThan(0);
      const answer = await composeAnswer(outcome);
      // An answer says something: cited sentences, or why the corpus does not support one.
      expect(answer.sentences.length > 0 || answer.abstention.abstain).toBe(true);
    }
  });
});
