import { guarded } from '@/lib/auth/guard';
import { readJsonAs } from '@/lib/common/json-body';
import { createUIMessageStreamResponse } from 'ai';
import { askRequestSchema } from '@/lib/answer/request';
import { askAndStore } from '@/lib/answer/service';
import { answerStream } from '@/lib/answer/stream';
import { publicError } from '@/lib/common/errors';
import { config } from '@/lib/config';
import { getDatabase } from '@/lib/db/client';
import { getRetrievalService } from '@/lib/pipelines/service';

export const dynamic = 'force-dynamic';

/** POST {question, pipeline?, mode?, filters?} → the answer as a UI message stream (lib/answer/stream.ts). */
export const POST = guarded(
  'ask',
  async (request: Request) => {
    const input = await readJsonAs(request, askRequestSchema);
    const cfg = config();
    const db = await getDatabase();
    const service = getRetrievalService(db, cfg);
    const stream = answerStream(
      (events) => askAndStore(db, service, cfg, input, { signal: request.signal, events }),
      (error) => publicError(error, 'answer').message,
    );
    return createUIMessageStreamResponse({ stream });
  },
  'answer',
);
