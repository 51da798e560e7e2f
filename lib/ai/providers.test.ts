import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config.ts';
import { chatModel, rerankingModel } from './providers.ts';
import { createLlmExtractor } from '../structure/llm-extractor.ts';
import { memoryCache } from '../db/extraction-cache.ts';

/** A local stand-in for an OpenAI-compatible server (chat completions), to test the real provider path. */
let server: http.Server;
let base: string;
const bodies: { model: string; messages: unknown[]; response_format?: unknown }[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url !== '/v1/chat/completions') {
        res.statusCode = 404;
        return res.end();
      }
      bodies.push(JSON.parse(body));
      const answer = { reasoning: 'Reports results.', role: 'performance', method: null, entities: [] };
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 0,
          model: 'fake-model',
          choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(answer) }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

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
    expect(rerankingModel(readConfig({ ASSAY_LLM_BASE_URL: 'http://llm.local:8000/v1', ASSAY_RERANK_MODEL: 'bge-reranker-v2-m3' }))).toMatchObject({ id: 'llm.local:8000/bge-reranker-v2-m3', model: { modelId: 'bge-reranker-v2-m3' } });
    expect(rerankingModel(readConfig({ ASSAY_RERANK_BASE_URL: 'http://tei.local/', ASSAY_RERANK_MODEL: 'ms-marco' }))!.id).toBe('tei.local/ms-marco');
    expect(() => readConfig({ ASSAY_RERANK_MODEL: 'bge' })).toThrow(/ASSAY_RERANK_BASE_URL or ASSAY_LLM_BASE_URL/);
  });
});
