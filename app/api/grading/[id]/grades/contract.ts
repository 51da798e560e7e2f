import { z } from 'zod';
import { type Contract, idParams, type Json } from '@/lib/common/contract';
import type { saveOwnGrade } from '@/lib/services/grading';
import { marksSchema } from '@/lib/services/vocabulary';

/**
 * PUT /api/grading/[id]/grades {ordinal, marks, submit, revision} → {revision, submitted}: the grader's own grade of
 * one item, autosaved as a draft or submitted.
 */
export const saveGradeContract = {
  params: idParams,
  notFound: 'campaign',
  body: z.object({
    ordinal: z.number().int().min(0).max(100_000),
    marks: marksSchema,
    submit: z.boolean().default(false),
    /** The revision the grader's screen last saw (0 for a new grade). */
    revision: z.number().int().min(0),
  }),
  fieldPaths: true,
} satisfies Contract;
export type SaveGradeBody = z.input<typeof saveGradeContract.body>;
export type SaveGradeResponse = Json<Awaited<ReturnType<typeof saveOwnGrade>>>;
