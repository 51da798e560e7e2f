import fs from 'node:fs';
import os from 'node:os';
import { Tokenizer } from '@huggingface/tokenizers';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { BGE_MODEL, type ModelFiles } from './bge-model.ts';
import { normalise, type TextEmbedder } from './embedder.ts';

/**
 * bge-small-en-v1.5 run locally with onnxruntime-node (the CPU binary inside the npm package) and the tokenizer from
 * its jar (@huggingface/tokenizers, pure JavaScript). Sentence vector = the [CLS] token's last hidden state,
 * normalised, as the model card prescribes; questions take the model's retrieval instruction as a prefix, passages
 * do not. Texts are cut at 512 tokens, batched by length so padding stays small, and the session runs off the event
 * loop (onnxruntime's own threads).
 */
const QUERY_PREFIX = 'Represent this sentence for searching relevant passages: ';
const MAX_TOKENS = 512;
const SEP = '[SEP]';

export interface OnnxEmbedder extends TextEmbedder {
  embedQuery(texts: string[]): Promise<Float32Array[]>;
  /** Where the model came from, for the start log, traces and eval output. */
  source: string;
}

export async function createBgeEmbedder(files: ModelFiles, opts: { batchSize?: number; tokenBudget?: number; threads?: number } = {}): Promise<OnnxEmbedder> {
  // Loaded here, not at the top: the native binding is only needed when the model is used.
  const ort = await import('onnxruntime-node');
  const tokenizer = new Tokenizer(JSON.parse(fs.readFileSync(files.tokenizer, 'utf8')), {});
  const threads = opts.threads ?? Math.max(1, Math.min(4, os.availableParallelism()));
  const session: InferenceSession = await ort.InferenceSession.create(files.onnx, { intraOpNumThreads: threads, interOpNumThreads: 1 });
  const sepId = tokenizer.encode(SEP, { add_special_tokens: false }).ids[0] ?? 102;
  const batchSize = opts.batchSize ?? 32;
  const tokenBudget = opts.tokenBudget ?? 4 * MAX_TOKENS;
  const hasTypes = session.inputNames.includes('token_type_ids');

  const encode = (text: string): number[] => {
    const ids = tokenizer.encode(text).ids;
    return ids.length <= MAX_TOKENS ? ids : [...ids.slice(0, MAX_TOKENS - 1), sepId];
  };

  async function run(batch: number[][]): Promise<Float32Array[]> {
    const width = Math.max(...batch.map((ids) => ids.length));
    const ids = new BigInt64Array(batch.length * width);
    const mask = new BigInt64Array(batch.length * width);
    batch.forEach((row, b) => {
      for (let i = 0; i < row.length; i++) {
        ids[b * width + i] = BigInt(row[i]);
        mask[b * width + i] = 1n;
      }
    });
    const dims = [batch.length, width];
    const feeds: Record<string, Tensor> = { input_ids: new ort.Tensor('int64', ids, dims), attention_mask: new ort.Tensor('int64', mask, dims) };
    if (hasTypes) feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(batch.length * width), dims);
    const out = await session.run(feeds);
    const hidden = out[session.outputNames[0]];
    const data = hidden.data as Float32Array;
    const size = hidden.dims[2];
    // The [CLS] vector is the first of each row.
    return batch.map((_, b) => normalise(data.slice(b * width * size, b * width * size + size)));
  }

  async function embedAll(texts: string[]): Promise<Float32Array[]> {
    const encoded = texts.map((t, i) => ({ i, ids: encode(t) }));
    // Similar lengths together: a batch is padded to its longest text.
    encoded.sort((a, b) => a.ids.length - b.ids.length);
    const out = new Array<Float32Array>(texts.length);
    for (let start = 0; start < encoded.length; ) {
      // Up to `batchSize` texts and `tokenBudget` padded tokens: onnxruntime's arena grows to the largest batch it
      // has run (16 × 512 tokens held 1.1 GB, 4 × 512 holds 0.4 GB, at the same throughput).
      let end = start + 1;
      while (end < encoded.length && end - start < batchSize && (end - start + 1) * encoded[end].ids.length <= tokenBudget) end++;
      const batch = encoded.slice(start, end);
      const vectors = await run(batch.map((e) => e.ids));
      for (const [k, e] of batch.entries()) out[e.i] = vectors[k];
      start = end;
    }
    return out;
  }

  return {
    id: `${BGE_MODEL.id}@onnx`,
    dimensions: BGE_MODEL.dimensions,
    source: files.source,
    embed: embedAll,
    embedQuery: (texts) => embedAll(texts.map((t) => QUERY_PREFIX + t)),
  };
}
