import { createUIMessageStream } from 'ai';
import { paperOf } from '../evidence/model.ts';
import type { AnswerEvents } from './answer.ts';
import type { AnswerClaim } from './claims.ts';
import { citationLabel } from './pool.ts';
import type { Answer } from './types.ts';

/** The data parts of an answer's stream: each sentence as soon as it is checked, then the stored answer. */
export type AnswerStreamData = { claim: AnswerClaim; answer: { id: string; answer: Answer } };

/**
 * An answer as the AI SDK's UI message stream: the citable pool first, one `source-document` part per item whose
 * title starts with its label ("E3: <paper title>"), then the text as it is written, a `data-claim` part per
 * sentence as soon as it is checked (replaced in place, same id, when its verdict is redone or judged), then a
 * `data-answer` part with the stored answer. `run` answers and stores, reporting through the events it is given.
 */
export function answerStream(run: (events: AnswerEvents) => Promise<{ id: string; answer: Answer }>, onError: (error: unknown) => string) {
  return createUIMessageStream({
    execute: async ({ writer }) => {
      let open = false;
      const stored = await run({
        onEvidence: (pool) => {
          pool.forEach((e, n) => {
            writer.write({ type: 'source-document', sourceId: e.id, mediaType: 'text/plain', title: `${citationLabel(n)}: ${paperOf(e)?.title ?? e.kind}` });
          });
        },
        onDelta: (delta) => {
          if (!open) writer.write({ type: 'text-start', id: 'answer' });
          open = true;
          writer.write({ type: 'text-delta', id: 'answer', delta });
        },
        onClaim: (claim) => writer.write({ type: 'data-claim', id: `claim-${claim.index}`, data: claim }),
      });
      if (open) writer.write({ type: 'text-end', id: 'answer' });
      writer.write({ type: 'data-answer', id: 'answer', data: stored });
    },
    onError,
  });
}
