import { describe, expect, it } from 'vitest';
import { handleErrors } from './errors.ts';
import { readJson } from './json-body.ts';
import { isCrossSite } from './origin.ts';

const req = (method: string, headers: Record<string, string>, body?: string) =>
  new Request('http://127.0.0.1:3000/api/x', { method, headers: { host: '127.0.0.1:3000', ...headers }, body });

describe('isCrossSite', () => {
  it('refuses state changes a browser sends from another site', () => {
    expect(isCrossSite(req('POST', { origin: 'http://evil.example' }))).toBe(true);
    expect(isCrossSite(req('POST', { origin: 'null' }))).toBe(true);
    expect(isCrossSite(req('POST', { 'sec-fetch-site': 'cross-site' }))).toBe(true);
    // Another port on the same host is another origin (same-site is not enough).
    expect(isCrossSite(req('DELETE', { 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:4000' }))).toBe(true);
  });
  it('lets this site, tools without a browser, and reads through', () => {
    expect(isCrossSite(req('POST', { origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin' }))).toBe(false);
    expect(isCrossSite(req('POST', {}))).toBe(false);
    expect(isCrossSite(req('GET', { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' }))).toBe(false);
  });
});

describe('handleErrors', () => {
  it('answers a cross-site state change with 403 before the handler runs', async () => {
    let ran = false;
    const route = handleErrors(async (_r: Request) => {
      ran = true;
      return new Response('done');
    });
    const res = await route(req('POST', { origin: 'http://evil.example', 'content-type': 'text/plain' }, '{"questionSet":"x"}'));
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: 'requests that change data are accepted only from this site', code: 'forbidden' });
    expect(ran).toBe(false);
    expect((await route(req('POST', { origin: 'http://127.0.0.1:3000' }))).status).toBe(200);
  });
});

describe('readJson', () => {
  it('reads only bodies declared as JSON, and says what is wrong otherwise', async () => {
    expect(await readJson(req('POST', { 'content-type': 'application/json; charset=utf-8' }, '{"a":1}'))).toEqual({ a: 1 });
    await expect(readJson(req('POST', { 'content-type': 'text/plain' }, '{"a":1}'))).rejects.toMatchObject({ status: 415 });
    await expect(readJson(req('POST', { 'content-type': 'application/json' }, '{"a":'))).rejects.toMatchObject({
      status: 400,
      message: 'the request body is not valid JSON',
    });
  });

  it('stops reading a body past the limit, declared or streamed, with 413', async () => {
    const json = { 'content-type': 'application/json' };
    const big = JSON.stringify({ question: 'x'.repeat(5_000) });
    await expect(readJson(req('POST', { ...json, 'content-length': String(big.length) }, big), 1_024)).rejects.toMatchObject({ status: 413 });
    // Streamed with no declared length: refused once the count passes the limit, the rest never read.
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled > 1_000) controller.close();
        else controller.enqueue(new TextEncoder().encode(' '.repeat(1_000)));
      },
    });
    const streamed = new Request('http://127.0.0.1:3000/api/x', { method: 'POST', headers: json, body: stream, duplex: 'half' } as RequestInit);
    await expect(readJson(streamed, 10_000)).rejects.toMatchObject({ status: 413, code: 'payload-too-large' });
    expect(pulled).toBeLessThan(20);
    expect(await readJson(req('POST', json, '{"ok":true}'), 1_024)).toEqual({ ok: true });
  });
});
