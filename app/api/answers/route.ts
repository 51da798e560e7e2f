import { guarded } from '@/lib/services/access';
import { textParam } from '@/lib/common/params';
import { readJsonAs } from '@/lib/common/json-body';
import { askRequestSchema } from '@/lib/services/vocabulary';
import { recentAnswers } from '@/lib/services/answers';
import { ask } from '@/lib/services/ask';

export const dynamic = 'force-dynamic';

/** GET ?q= → the latest stored answers (newest first), those whose question contains q when given. */
export const GET = guarded(
  'read',
  async (request: Request) => {
    const q = textParam(new URL(request.url).searchParams.get('q') ?? undefined, 200) || undefined;
    return Response.json({ answers: await recentAnswers({ query: q, take: 50 }) });
  },
  'answers',
);

/**
 * POST {question, pipeline?, mode?, filters?} → {id, answer}: the whole answer as JSON, stored like a streamed one
 * (what the compare screen asks each pipeline with; `/api/answer` streams the same answer).
 */
export const POST = guarded(
  'ask',
  async (request: Request) => {
    const input = await readJsonAs(request, askRequestSchema);
    return Response.json(await ask(input, { signal: request.signal }));
  },
  'answers',
);
