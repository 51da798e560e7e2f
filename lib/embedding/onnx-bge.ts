import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { BGE_MODEL, type ModelFiles } from './bge-model.ts';
import type { TextEmbedder } from './embedder.ts';

/**
 * bge-small-en-v1.5 run locally with onnxruntime-node (the CPU binary inside the npm package) and the tokenizer from
 * its jar (@huggingface/tokenizers, pure JavaScript), on a thread of its own (lib/embedding/onnx-worker.mjs):
 * onnxruntime-node computes on the thread that calls `run`, so in-process a background pass over a corpus would hold
 * the request thread for a batch at a time. Sentence vector = the [CLS] token's last hidden state, normalised, as the
 * model card prescribes; questions take the model's retrieval instruction as a prefix, passages do not, and go ahead
 * of passages on the thread. Texts are cut at `BGE_MODEL.maxTokens` tokens and batched by length so padding stays small.
 */
export interface OnnxEmbedder extends TextEmbedder {
  embedQuery(texts: string[]): Promise<Float32Array[]>;
  /** Where the model came from, for the start log, traces and eval output. */
  source: string;
  /** Ends the thread (tests; the app keeps one per process). */
  close(): Promise<void>;
  /**
   * Ends the thread once the batch it is running has finished (at most `ms`), failing what waits: a process that
   * exits while onnxruntime computes a batch is aborted by it (see onnx-worker.mjs).
   */
  stop(ms?: number): Promise<void>;
}

type Reply =
  | { id: number; vectors?: Float32Array[]; error?: { name: string; message: string } }
  | { ready: boolean; error?: { name: string; message: string } }
  | { stopped: true };

/** Beside this module in the source tree, which the app, the CLI and the tests run from (as for the database thread). */
const workerFile = () => path.join(/* turbopackIgnore: true */ process.cwd(), 'lib', 'embedding', 'onnx-worker.mjs');

export async function createBgeEmbedder(
  files: ModelFiles,
  opts: { batchSize?: number; tokenBudget?: number; threads?: number; maxTokens?: number } = {},
): Promise<OnnxEmbedder> {
  const threads = opts.threads ?? Math.max(1, Math.min(4, os.availableParallelism()));
  const maxTokens = opts.maxTokens ?? BGE_MODEL.maxTokens;
  const worker = new Worker(workerFile(), {
    workerData: { files: { onnx: files.onnx, tokenizer: files.tokenizer }, batchSize: opts.batchSize, tokenBudget: opts.tokenBudget, threads, maxTokens },
  });
  const pending = new Map<number, { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let stopped: Error | null = null;
  // The thread keeps the process alive only while a call waits on it: a CLI that has finished exits as before.
  worker.unref();
  const toError = (e: { name: string; message: string }) => Object.assign(new Error(e.message), { name: e.name });
  let onStopped = () => {};
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (reply: Reply) => {
      if ('stopped' in reply) return onStopped();
      if ('ready' in reply) {
        if (reply.ready) resolve();
        else reject(toError(reply.error ?? { name: 'Error', message: 'the embedding model did not load' }));
        return;
      }
      const call = pending.get(reply.id);
      if (!call) return;
      pending.delete(reply.id);
      if (pending.size === 0) worker.unref();
      if (reply.error) call.reject(toError(reply.error));
      else call.resolve(reply.vectors!);
    });
    const fail = (error: Error) => {
      // A thread ended by `stop` stays stopped for that reason.
      stopped ??= error;
      reject(error);
      for (const call of pending.values()) call.reject(stopped);
      pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the embedding model's thread stopped (exit code ${code})`)));
  });

  const call = (texts: string[], query: boolean): Promise<Float32Array[]> => {
    if (stopped) return Promise.reject(stopped);
    if (texts.length === 0) return Promise.resolve([]);
    const id = nextId++;
    worker.ref();
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, texts, query });
    });
  };

  return {
    // The cut is part of the name: vectors cached under another cut are not these.
    id: `${BGE_MODEL.id}@onnx:${maxTokens}`,
    dimensions: BGE_MODEL.dimensions,
    source: files.source,
    embed: (texts) => call(texts, false),
    embedQuery: (texts) => call(texts, true),
    close: async () => {
      await worker.terminate();
    },
    stop: async (ms = 3000) => {
      if (stopped) return;
      stopped = new Error('the embedding model stopped: the app is shutting down');
      const quiet = new Promise<void>((resolve) => {
        onStopped = resolve;
      });
      // Kept alive until it has said so (its last answers unref it).
      worker.ref();
      worker.postMessage({ stop: true });
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([quiet, new Promise((r) => (timer = setTimeout(r, ms)))]);
      clearTimeout(timer);
      await worker.terminate();
    },
  };
}
