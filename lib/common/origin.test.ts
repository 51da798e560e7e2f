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
});
