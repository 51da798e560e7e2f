import type { MessagePort } from 'node:worker_threads';
import type { TextEmbedder } from '../embedding/embedder.ts';
import { LocalHashEmbedder, type LocalHashEmbedderOptions, localTextEmbedder } from '../embedding/local-hash.ts';
import type { PoolMessage, ToWorker, WorkerAsks } from './retrieval-pool.ts';

type Ask = Extract<PoolMessage, { type: 'ask' }>;
type Answer = Extract<ToWorker, { type: 'answer' }>;

/**
 * A worker thread's side of asking the server's thread (retrieval-pool.ts answers): `ask` posts a question about
 * vectors or database rows, and `answered` settles it when the answer comes back on the port.
 */
export function askingPort(port: MessagePort) {
  let asked = 0;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  return {
    ask<T>(what: Ask['what'], texts?: string[], after?: string | null): Promise<T> {
      const id = ++asked;
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        port.postMessage({ type: 'ask', id, what, texts, after } satisfies Ask);
      });
    },
    answered(m: Answer): void {
      const w = waiting.get(m.id);
      waiting.delete(m.id);
      if (m.error !== undefined) w?.reject(new Error(m.error));
      else w?.resolve(m.value);
    },
  };
}

/** The names' embedder a worker uses: the n-gram fit it was given, else the server thread's (asked for each batch). */
export function workerNameEmbedder(
  fit: LocalHashEmbedderOptions | null,
  lent: { id: string; dimensions: number },
  ask: ReturnType<typeof askingPort>['ask'],
): TextEmbedder {
  return fit
    ? localTextEmbedder(new LocalHashEmbedder(fit))
    : { ...lent, embed: (texts) => ask<Float32Array[]>('embedNames' satisfies keyof WorkerAsks, texts) };
}
