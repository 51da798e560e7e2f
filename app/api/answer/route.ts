import { createUIMessageStreamResponse } from 'ai';
import { readInput } from '@/lib/common/contract';
import { publicError } from '@/lib/common/errors';
import { guarded } from '@/lib/services/access';
import { ask, askerOf, chargeStoredAnswer, refuseWhenBusy } from '@/lib/services/ask';
import { answerStream } from '@/lib/services/vocabulary';
import { answerStreamContract } from './contract';

export const dynamic = 'force-dynamic';

/** POST {question, pipeline?, mode?, filters?} → the answer as a UI message stream (lib/answer/stream.ts). */
export const POST = guarded(
  'ask',
  async (request: Request, _ctx: unknown, viewer) => {
    const { body: input } = await readInput(request, undefined, answerStreamContract);
    chargeStoredAnswer(viewer, request.headers);
    // Once the stream has started its status is 200: a full line is refused before, with 503 and Retry-After.
    await refuseWhenBusy(askerOf(request.headers));
    const stream = answerStream(
      (events) => ask(input, { signal: request.signal, events, client: askerOf(request.headers) }),
      (error) => publicError(error, 'answer').message,
    );
    return createUIMessageStreamResponse({ stream });
  },
  'answer',
);
