import { type Contract, idParams, type Json } from '@/lib/common/contract';
import type { storedAnswer } from '@/lib/services/answers';

/** GET /api/answers/[id] → a stored answer, as it was given. */
export const storedAnswerContract = { params: idParams, notFound: 'answer' } satisfies Contract;
export type StoredAnswerResponse = Json<{ answer: NonNullable<Awaited<ReturnType<typeof storedAnswer>>> }>;
