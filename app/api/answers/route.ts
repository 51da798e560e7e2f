import { readInput } from '@/lib/common/contract';
import { guarded } from '@/lib/services/access';
import { recentAnswers } from '@/lib/services/answers';
import { ask, askerOf, chargeStoredAnswer } from '@/lib/services/ask';
import { askContract, recentAnswersContract } from './contract';

export const dynamic = 'force-dynamic';

/** GET ?q= → the latest stored answers (newest first), those whose question contains q when given. */
export const GET = guarded(
  'read',
  async (request: Request) => {
    const { query } = await readInput(request, undefined, recentAnswersContract);
    return Response.json({ answers: await recentAnswers({ query: query.q, take: 50 }) });
  },
  'answers',
);

/**
 * POST {question, pipeline?, mode?, filters?} → {id, answer}: the whole answer as JSON, stored like a streamed one
 * (what the compare screen asks each pipeline with; `/api/answer` streams the same answer).
 */
export const POST = guarded(
  'ask',
  async (request: Request, _ctx: unknown, viewer) => {
    const { body } = await readInput(request, undefined, askContract);
    chargeStoredAnswer(viewer, request.headers);
    return Response.json(await ask(body, { signal: request.signal, client: askerOf(request.headers) }));
  },
  'answers',
);
