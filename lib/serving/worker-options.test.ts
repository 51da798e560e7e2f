import { describe, expect, it } from 'vitest';
import { readConfig } from '../config.ts';
import { configuredOptions } from '../pipelines/configured.ts';
import { workerOptions } from './worker-options.ts';

describe('a retrieval worker’s options', () => {
  it('are the configured options, without a model or Neo4j and with them', async () => {
    const offline = readConfig({});
    expect(await workerOptions(offline)).toEqual(configuredOptions(offline));
    const models = readConfig({
      ASSAY_LLM_BASE_URL: 'http://127.0.0.1:9/v1',
      ASSAY_CHAT_MODEL: 'chat',
      ASSAY_REFORMULATION: 'llm',
      ASSAY_RERANK_BASE_URL: 'http://127.0.0.1:9/v1',
      ASSAY_RERANK_MODEL: 'rerank',
    });
    const [worker, server] = [await workerOptions(models), configuredOptions(models)];
    expect(worker.modelConfigured).toBe(true);
    expect(worker.reformulator.id).toMatch(/^llm:/);
    expect(worker.reformulator.id).toBe(server.reformulator.id);
    expect(worker.tupleReranker?.id).toBe(server.tupleReranker?.id);
    expect(worker.tupleReranker).toBeDefined();
  });
});
