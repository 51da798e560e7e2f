// bge-small-en-v1.5 on its own thread (started by lib/embedding/onnx-bge.ts). onnxruntime-node's `session.run`
// computes on the thread that calls it (its promise only defers the call with setImmediate), so a batch of 4 × 512
// tokens would hold the thread that answers requests for a few hundred milliseconds: here it holds only this one.
// Plain JavaScript, like lib/db/pglite-worker.mjs, so the app, the CLI and the tests start it the same way.
//
// Messages in: { id, texts, query }; out: { id, vectors } (Float32Array buffers transferred) or { id, error }.
// { stop: true } (the process is exiting): no batch starts after the one running, which finishes first, and the
// thread answers { stopped: true }. Ending the thread while onnxruntime runs a batch aborted the whole process
// (onnxruntime-node's addon threw into an environment being torn down: "terminate called after throwing an
// instance of 'Napi::Error'").
// Questions (query: true) go ahead of passages: between two batches of a long passage request the thread looks at
// its inbox, so a question waits for at most one batch of a background pass, never for the pass.
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';

const QUERY_PREFIX = 'Represent this sentence for searching relevant passages: ';
// A batch of at most 1,024 padded tokens (4 texts of 256): measured on the shared corpus on 2 cores, 18 paragraphs/s
// against 15 at 2,048 and 4,096, and onnxruntime's arena, which grows to the largest batch it has run, stays small.
const { files, batchSize = 32, tokenBudget = 1024, threads = 2, maxTokens: MAX_TOKENS = 256 } = workerData;
const tokenizer = new Tokenizer(JSON.parse(fs.readFileSync(files.tokenizer, 'utf8')), {});
const sepId = tokenizer.encode('[SEP]', { add_special_tokens: false }).ids[0] ?? 102;

function encode(text) {
  const ids = tokenizer.encode(text).ids;
  return ids.length <= MAX_TOKENS ? ids : [...ids.slice(0, MAX_TOKENS - 1), sepId];
}

function normalise(v) {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  const n = Math.sqrt(s);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i] /= n;
  return v;
}

let session;
let querySession;
let hasTypes = false;

async function run(batch, active = session) {
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
  const feeds = { input_ids: new ort.Tensor('int64', ids, dims), attention_mask: new ort.Tensor('int64', mask, dims) };
  if (hasTypes) feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(batch.length * width), dims);
  const out = await active.run(feeds);
  const hidden = out[active.outputNames[0]];
  const data = hidden.data;
  const size = hidden.dims[2];
  // Sentence vector = the [CLS] token's last hidden state (the first of each row), normalised: the model card's pooling.
  return batch.map((_, b) => normalise(data.slice(b * width * size, b * width * size + size)));
}

/** Embeds texts in batches of similar length (a batch is padded to its longest text), at most `tokenBudget` padded tokens each. */
async function embedAll(texts, active = session) {
  const encoded = texts.map((t, i) => ({ i, ids: encode(t) }));
  encoded.sort((a, b) => a.ids.length - b.ids.length);
  const out = new Array(texts.length);
  for (let start = 0; start < encoded.length; ) {
    if (stopping) throw new Error('the embedding model stopped: the app is shutting down');
    // onnxruntime's arena grows to the largest batch it has run (16 × 512 tokens held 1.1 GB, 4 × 512 held 0.4 GB).
    let end = start + 1;
    while (end < encoded.length && end - start < batchSize && (end - start + 1) * encoded[end].ids.length <= tokenBudget) end++;
    const batch = encoded.slice(start, end);
    const vectors = await run(
      batch.map((e) => e.ids),
      active,
    );
    for (const [k, e] of batch.entries()) out[e.i] = vectors[k];
    start = end;
    // Questions that arrived meanwhile are answered before the next batch of passages.
    if (start < encoded.length) {
      await new Promise((resolve) => setImmediate(resolve));
      while (queries.length) await serve(queries.shift());
    }
  }
  return out;
}

const queries = [];
const passages = [];
let busy = false;
let stopping = false;

async function serve(job) {
  try {
    const vectors = job.query
      ? await embedAll(
          job.texts.map((t) => QUERY_PREFIX + t),
          querySession,
        )
      : await embedAll(job.texts, await passageSession());
    parentPort.postMessage(
      { id: job.id, vectors },
      vectors.map((v) => v.buffer),
    );
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: { name: error?.name ?? 'Error', message: error?.message ?? String(error) } });
  }
}

async function next() {
  if (busy) return;
  busy = true;
  try {
    for (let job = queries.shift() ?? passages.shift(); job; job = queries.shift() ?? passages.shift()) await serve(job);
  } finally {
    busy = false;
    if (stopping) parentPort.postMessage({ stopped: true });
  }
}

// Passages run on a session of their own, with both threads (a background pass is throughput), created when the first
// passage arrives: a server whose corpus is embedded already (its vectors are cached) never embeds one, and a second
// session holds another copy of the weights and its own arena (retrieval process RSS over the n-gram stand-in, index
// read back and warm: +174 MB with it, +124–133 MB without).
let creating;
function passageSession() {
  creating ??= ort.InferenceSession.create(files.onnx, { intraOpNumThreads: threads, interOpNumThreads: 1 }).then((s) => (session = s));
  return creating;
}

try {
  // Questions run on a session of one thread: a question's vector is computed while the request's own thread
  // searches, and two onnxruntime threads beside it on two cores wait for each other (bench retrieval, natural
  // wording, json-qr p95 68 → 47 ms, bm25 55 → 38 ms, the embedding included; the question alone takes 23 ms instead
  // of 15).
  querySession = await ort.InferenceSession.create(files.onnx, { intraOpNumThreads: 1, interOpNumThreads: 1 });
  hasTypes = querySession.inputNames.includes('token_type_ids');
  parentPort.on('message', (job) => {
    if (job.stop) {
      stopping = true;
      // Idle: nothing runs. Busy: said once the running batch has finished (next's finally); the jobs queued behind it fail.
      if (!busy) parentPort.postMessage({ stopped: true });
      return;
    }
    (job.query ? queries : passages).push(job);
    next();
  });
  parentPort.postMessage({ ready: true });
} catch (error) {
  parentPort.postMessage({ ready: false, error: { name: error?.name ?? 'Error', message: error?.message ?? String(error) } });
}
