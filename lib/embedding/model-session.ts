import type { AssayConfig } from '../config.ts';
import { ensureModel } from './bge-model.ts';
import { createBgeEmbedder, type OnnxEmbedder } from './onnx-bge.ts';
import { processObject } from '../common/process-registry.ts';

declare module '../common/process-registry.ts' {
  interface ProcessObjects {
    modelSessions: Map<string, Promise<OnnxEmbedder>>;
  }
}

// A process object: Next.js loads the server start (which preloads the model at a restart) and the route handlers as
// separate module instances, and a second session would load the weights twice.
const sessions = processObject('modelSessions', () => new Map());

/**
 * The local model's session, loaded once per process: every import changes the corpus and rebuilds the index, and
 * a session holds its weights and arena in native memory that is not given back.
 */
export async function modelSession(
  cfg: AssayConfig,
  log: (line: string) => void,
  fetching: { localRepository?: string | null; fetchImpl?: typeof fetch } = {},
): Promise<OnnxEmbedder> {
  const files = await ensureModel(cfg.dataDir, cfg.modelRepository, { log, ...fetching });
  let model = sessions.get(files.onnx);
  if (!model) {
    model = createBgeEmbedder(files);
    sessions.set(files.onnx, model);
    model.catch(() => sessions.delete(files.onnx));
  }
  return model;
}

/**
 * Starts loading the local model (when it is the configured passage embedder: no provider, not the n-gram one)
 * without waiting for it: a restart reads its stored index meanwhile, and its first question needs the model's
 * vector. Failures are left to `createEmbedders`, which reports them.
 */
export function preloadModel(cfg: AssayConfig): void {
  if (cfg.embedding || cfg.localEmbedder === 'ngram') return;
  modelSession(cfg, () => {}).catch(() => {});
}

/**
 * Stops this process's model sessions, each once the batch it computes has finished: the server's shutdown, before
 * it exits (an exit in the middle of a batch aborts the process; see onnx-worker.mjs).
 */
export async function stopModelSessions(): Promise<void> {
  const loaded = [...sessions.values()];
  sessions.clear();
  await Promise.all(loaded.map((session: Promise<OnnxEmbedder>) => session.then((s) => s.stop()).catch(() => {})));
}
