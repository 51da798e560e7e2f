import { z } from 'zod';
import { type Contract, type Json, queryList } from '@/lib/common/contract';
import type { graphBehindAnswer } from '@/lib/services/graph';
import { ANSWER_GRAPH_MAX_PARAGRAPHS, ANSWER_GRAPH_MAX_TUPLES } from '@/lib/services/vocabulary';

const id = z.string().regex(/^[\w:.-]{1,200}$/, 'malformed id');

/** GET /api/graph/answer?tuple=…&paragraph=… → the graph behind an answer. */
export const answerGraphContract = {
  query: z
    .object({
      tuple: queryList(id, { max: ANSWER_GRAPH_MAX_TUPLES, tooMany: `at most ${ANSWER_GRAPH_MAX_TUPLES} tuples` }),
      paragraph: queryList(id, { max: ANSWER_GRAPH_MAX_PARAGRAPHS, tooMany: `at most ${ANSWER_GRAPH_MAX_PARAGRAPHS} paragraphs` }),
    })
    .refine((q) => q.tuple.length + q.paragraph.length > 0, 'name a tuple or a paragraph'),
} satisfies Contract;
export type AnswerGraphQuery = z.input<typeof answerGraphContract.query>;
export type AnswerGraphResponse = Json<Awaited<ReturnType<typeof graphBehindAnswer>>>;
