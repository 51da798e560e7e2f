import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config.ts';
import { chatModel, rerankingModel } from './providers.ts';
import { createLlmExtractor } from '../structure/llm-extractor.ts';
import { memoryCache } from '../db/extraction-cache.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../../scripts/test-support/fake-openai.ts';

let fake: FakeOpenAI;
let base: string;
let bodies: FakeOpenAI['bodies'];
beforeAll(async () => {
  fake = await startFakeOpenAI(() => ({ reasoning: 'Reports results.', role: 'performance', method: null, entities: [] }));
  ({ base, bodies } = fake);
});
afterAll(() => fake.close());

describe('chatModel (provider registry)', () => {
  it('is null when no model is configured, so the app stays offline', () => {
    expect(chatModel(readConfig({}))).toBeNull();
  });
  it('refuses ASSAY_EXTRACTOR=llm without a model', () => {
    expect(() => readConfig({ ASSAY_EXTRACTOR: 'llm' })).toThrow(/ASSAY_LLM_BASE_URL/);
  });
  it('talks to an OpenAI-compatible server through chat completions', async () => {
    const chat = chatModel(readConfig({ ASSAY_LLM_BASE_URL: base, ASSAY_CHAT_MODEL: 'fake-model', ASSAY_LLM_API_KEY: 'k' }))!;
    expect(chat.id).toBe(`${new URL(base).host}/fake-model`);
    const s = await createLlmExtractor({ chat, cache: memoryCache() }).structureParagraph('The cell reached 1.2 W cm−2 power density at 700 °C.');
    expect(s.role).toBe('performance');
    expect(s.performance[0]).toMatchObject({ property: 'power density', canonical: [1200] });
    expect(bodies[0].model).toBe('fake-model');
    expect(JSON.stringify(bodies[0].response_format)).toContain('json');
  });
});

describe('rerankingModel (provider registry)', () => {
  it('is null without ASSAY_RERANK_MODEL; uses the LLM server or its own base URL; refuses a model without a server', () => {
    expect(rerankingModel(readConfig({}))).toBeNull();
    expect(rerankingModel(readConfig({ ASSAY_LLM_BASE_URL: 'http://llm.local:8000/v1', ASSAY_RERANK_MODEL: 'bge-reranker-v2-m3' }))).toMatchObject({
      id: 'llm.local:8000/bge-reranker-v2-m3',
      model: { modelId: 'bge-reranker-v2-m3' },
    });
    expect(rerankingModel(readConfig({ ASSAY_RERANK_BASE_URL: 'http://tei.local/', ASSAY_RERANK_MODEL: 'ms-marco' }))!.id).toBe('tei.local/ms-marco');
    expect(() => readConfig({ ASSAY_RERANK_MODEL: 'bge' })).toThrow(/ASSAY_RERANK_BASE_URL or ASSAY_LLM_BASE_URL/);
  });
});
