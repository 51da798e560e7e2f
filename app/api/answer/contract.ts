import type { Contract } from '@/lib/common/contract';
import { askRequestSchema } from '@/lib/services/vocabulary';

/** POST /api/answer {question, pipeline?, mode?, filters?} → the answer as a UI message stream (lib/answer/stream.ts). */
export const answerStreamContract = { body: askRequestSchema } satisfies Contract;
