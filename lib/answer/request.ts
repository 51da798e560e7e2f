import { hasControlChars } from '../common/params.ts';
import { z } from 'zod';
import { PIPELINES } from '../pipelines/registry.ts';
import { SYNTHESIS_METHODS } from '../structure/classify.ts';
import { parseCondition } from '../structure/paper-filters.ts';
import { ANSWER_MODES } from './modes.ts';

/** An empty form field is "no filter", not an invalid one. */
const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !hasControlChars(s), 'filters must not contain control characters (such as NUL)')
    .transform((s) => s.trim() || undefined)
    .optional();

/** A question as every route accepts it: 3 to 2,000 characters, no control characters. */
export const questionText = z
  .string()
  .trim()
  .min(3, 'ask a question of at least 3 characters')
  .max(2000, 'questions are limited to 2,000 characters')
  .refine((s) => !hasControlChars(s), 'the question must not contain control characters (such as NUL)');

/** The filters of a question as the ask screen and the API accept them. */
export const askFiltersSchema = z.object({
  domain: optionalText(100),
  material: optionalText(200),
  method: z
    .union([z.literal(''), z.enum(SYNTHESIS_METHODS)])
    .transform((s) => s || undefined)
    .optional(),
  condition: optionalText(200).refine(
    (c) => c === undefined || parseCondition(c) !== null,
    'write the condition as a value or range with its unit, e.g. 600–800 °C or ≥ 1073 K',
  ),
});

/**
 * One question to answer: the one schema the answer routes (stream and JSON), the ask form's server action, the
 * compare page and `npm run ask` read a question with.
 */
export const askRequestSchema = z.object({
  question: questionText,
  pipeline: z.enum(PIPELINES).optional(),
  mode: z.enum(ANSWER_MODES).default('auto'),
  filters: askFiltersSchema.optional(),
});
export type AskRequest = z.infer<typeof askRequestSchema>;

/** What is wrong with a request, in a sentence for the person who sent it. */
export function requestProblem(error: z.ZodError): string {
  return error.issues.map((i) => (i.path[0] === 'pipeline' ? 'unknown pipeline' : i.path[0] === 'mode' ? 'unknown answer mode' : i.message)).join('; ');
}
