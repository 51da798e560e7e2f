import { z } from 'zod';
import type { Contract, Json } from '@/lib/common/contract';
import type { retrieveEvidence } from '@/lib/services/retrieve';
import { PIPELINES, QUESTION_MODES, questionText } from '@/lib/services/vocabulary';

/** POST /api/retrieve {question, pipeline?, k?, mode?} → the retrieval result: papers, evidence, value, abstention, trace. */
export const retrieveContract = {
  body: z.object({
    question: questionText,
    pipeline: z.enum(PIPELINES).default('json-qr'),
    k: z.number().int().min(1).max(50).optional(),
    /** aria only: auto (detected from the wording), explain, forward (prediction) or inverse (design). */
    mode: z.enum(QUESTION_MODES).optional(),
  }),
} satisfies Contract;
export type RetrieveBody = z.input<typeof retrieveContract.body>;
export type RetrieveResponse = Json<Awaited<ReturnType<typeof retrieveEvidence>>>;
