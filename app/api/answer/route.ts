import { guarded } from '@/lib/auth/guard';
import { readJsonAs } from '@/lib/common/json-body';
import { createUIMessageStream, createUIMessageStreamResponse } from 'ai';
import { askRequestSchema } from '@/lib/answer/request';
import { askAndStore } from '@/lib/answer/service';
import { publicError } from '@/lib/common/errors';
import { config } from '@/lib/config';
import { getDatabase } from '@/lib/db/client';
import { paperOf } from '@/lib/evidence/model';
import { getRetrievalService } from '@/lib/pipelines/service';

export const dynamic = 'force-dynamic';

/**
 * POST {question, pipeline?, mode?, filters?} → a UI message stream (the AI SDK's): the evidence first, as source-document
 * parts ([E1] … with their titles), then the answer's text as it is written with a `data-claim` part for each sentence
 * as soon as it is checked (its citations and verdict), then a `data-answer` part with the stored answer (id,
 * sentences with citations and verdicts, table, abstention, notice, tokens and cost).
 */
export const POST = guarded(
  'ask',
  async (request: Request) => {
    const input = await readJsonAs(request, askRequestSchema);
    const cfg = config();
    const db = await getDatabase();
    const service = getRetrievalService(db, cfg);
    const stream = createUIMessageStream({
      execute: async ({ writer }) => {
        let open = false;
        const { id, answer } = await askAndStore(db, service, cfg, input, {
          signal: request.signal,
          events: {
            onEvidence: (pool) => {
              pool.forEach((e, n) => {
                writer.write({ type: 'source-document', sourceId: e.id, mediaType: 'text/plain', title: `E${n + 1}: ${paperOf(e)?.title ?? e.kind}` });
              });
            },
            onDelta: (delta) => {
              if (!open) writer.write({ type: 'text-start', id: 'answer' });
              open = true;
              writer.write({ type: 'text-delta', id: 'answer', delta });
            },
            // One data part per sentence, replaced in place (same id) when its verdict is redone or judged.
            onClaim: (claim) => writer.write({ type: 'data-claim', id: `claim-${claim.index}`, data: claim }),
          },
        });
        if (open) writer.write({ type: 'text-end', id: 'answer' });
        writer.write({ type: 'data-answer', id: 'answer', data: { id, answer } });
      },
      onError: (error) => publicError(error, 'answer').message,
    });
    return createUIMessageStreamResponse({ stream });
  },
  'answer',
);
