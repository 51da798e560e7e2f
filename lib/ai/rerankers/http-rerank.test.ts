import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { APICallError } from '@ai-sdk/provider';
import { rerank } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpRerankingModel } from './http-rerank.ts';

// A local fake of a /rerank server (Cohere/Jina shape): scores documents by how many query words they contain.
let server: http.Server;
let baseUrl = '';
const requests: { auth: string | undefined; body: { model: string; query: string; documents: string[]; top_n: number } }[] = [];
let mode: 'ok' | 'error' | 'garbage' = 'ok';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw);
      requests.push({ auth: req.headers.authorization, body });
      if (req.url !== '/v1/rerank') return res.writeHead(404).end('not found');
      if (mode === 'error') return res.writeHead(503).end('model loading');
      if (mode === 'garbage') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"data": []}');
      const words = body.query.toLowerCase().split(/\W+/);
      const results = body.documents.map((d: string, index: number) => ({
        index,
        relevance_score: words.filter((w: string) => w && d.toLowerCase().includes(w)).length / words.length,
      }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'r1',
          results: results.sort((a: { relevance_score: number }, b: { relevance_score: number }) => b.relevance_score - a.relevance_score).slice(0, body.top_n),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('httpRerankingModel', () => {
  it('posts the query and documents to /rerank and returns the ranking through the AI SDK', async () => {
    mode = 'ok';
    const model = httpRerankingModel({ baseUrl, apiKey: 'secret', model: 'bge-reranker' });
    const docs = ['LSCF has property power density', 'YSZ used as electrolyte', 'power density of LSCF at 800 °C'];
    const r = await rerank({ model, query: 'LSCF power density 800', documents: docs });
    expect(requests.at(-1)).toEqual({
      auth: 'Bearer secret',
      body: { model: 'bge-reranker', query: 'LSCF power density 800', documents: docs, top_n: 3, return_documents: false },
    });
    expect(r.ranking.map((x) => x.originalIndex)).toEqual([2, 0, 1]);
    expect(r.ranking[0].score).toBe(1);
  });
  it('reports server errors and malformed answers as APICallErrors (5xx retryable)', async () => {
    const model = httpRerankingModel({ baseUrl, model: 'bge-reranker' });
    mode = 'error';
    const failed = await model.doRerank({ query: 'q', documents: { type: 'text', values: ['a'] } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(APICallError.isInstance(failed)).toBe(true);
    expect(failed).toMatchObject({ statusCode: 503, isRetryable: true });
    expect(requests.at(-1)!.auth).toBeUndefined();
    mode = 'garbage';
    await expect(model.doRerank({ query: 'q', documents: { type: 'text', values: ['a'] } })).rejects.toMatchObject({
      isRetryable: false,
      message: expect.stringMatching(/unexpected body/),
    });
  });
});
