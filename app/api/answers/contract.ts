import { z } from 'zod';
import type { Contract, Json } from '@/lib/common/contract';
import { textParam } from '@/lib/common/params';
import type { recentAnswers } from '@/lib/services/answers';
import type { ask } from '@/lib/services/ask';
import { askRequestSchema } from '@/lib/services/vocabulary';

/** GET /api/answers?q= → the latest stored answers (newest first), those whose question contains q when given. */
export const recentAnswersContract = {
  // Read leniently, as every page's search box is: cut to 200 characters, control characters dropped.
  query: z.object({
    q: z
      .union([z.string(), z.array(z.string())])
      .optional()
      .transform((q) => textParam(q, 200) || undefined),
  }),
} satisfies Contract;
export type RecentAnswersResponse = Json<{ answers: Awaited<ReturnType<typeof recentAnswers>> }>;

/** POST /api/answers {question, pipeline?, mode?, filters?} → {id, answer}: the whole answer as JSON, stored. */
export const askContract = { body: askRequestSchema } satisfies Contract;
export type AskBody = z.input<typeof askRequestSchema>;
export type AskResponse = Json<Awaited<ReturnType<typeof ask>>>;
