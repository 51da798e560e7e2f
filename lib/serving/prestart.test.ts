import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { existingProcessObject } from '../common/process-registry.ts';
import { readConfig } from '../config.ts';

// What a restart's head start sets going, without threads or a model: the workers' start, the model's session
// (counted by the sessions created) and the bundle are stood in for.
const stored = vi.hoisted(() => ({ key: null as string | null }));
vi.mock('./retrieval-pool.ts', () => ({ prestartRetrievalWorkers: vi.fn(() => stored.key) }));
vi.mock('./worker-bundle.ts', () => ({ makeRetrievalWorkerBundle: vi.fn(async () => null) }));
vi.mock('../embedding/bge-model.ts', () => ({ ensureModel: vi.fn(async () => ({ onnx: '/models/bge.onnx' })) }));
vi.mock('../embedding/onnx-bge.ts', () => ({ createBgeEmbedder: vi.fn(() => new Promise(() => {})) }));

const sessions = () => existingProcessObject('modelSessions');

describe('a restart’s head start (prestartRetrieval)', () => {
  beforeEach(() => {
    vi.resetModules();
    sessions()?.clear();
  });
  afterEach(() => vi.clearAllMocks());

  it('starts loading the local model with the workers when an index is stored, so the first question does not wait for it', async () => {
    stored.key = 'k1';
    const { prestartRetrieval } = await import('./prestart.ts');
    prestartRetrieval(readConfig({ ASSAY_DATA_DIR: '/tmp/assay-prestart' }));
    await vi.waitFor(() => expect(sessions()?.size).toBe(1));
    // The route handlers' module instance finds the same session (one set of weights per process).
    vi.resetModules();
    const { modelSession } = await import('../embedding/model-session.ts');
    void modelSession(readConfig({ ASSAY_DATA_DIR: '/tmp/assay-prestart' }), () => {});
    const { createBgeEmbedder } = await import('../embedding/onnx-bge.ts');
    await vi.waitFor(() => expect(sessions()?.size).toBe(1));
    expect(createBgeEmbedder).toHaveBeenCalledTimes(1);
  });

  it('loads no model without a stored index, with the n-gram embedder, or with a provider', async () => {
    const { prestartRetrieval } = await import('./prestart.ts');
    stored.key = null;
    prestartRetrieval(readConfig({ ASSAY_DATA_DIR: '/tmp/assay-prestart' }));
    stored.key = 'k1';
    prestartRetrieval(readConfig({ ASSAY_DATA_DIR: '/tmp/assay-prestart', ASSAY_LOCAL_EMBEDDER: 'ngram' }));
    prestartRetrieval(readConfig({ ASSAY_DATA_DIR: '/tmp/assay-prestart', ASSAY_LLM_BASE_URL: 'http://127.0.0.1:9/v1', ASSAY_EMBEDDING_MODEL: 'embed' }));
    await new Promise((r) => setTimeout(r, 20));
    expect(sessions()?.size ?? 0).toBe(0);
  });
});
