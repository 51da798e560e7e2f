import { expect, test } from '@playwright/test';
import { hostileQuestions } from '../scripts/test-support/hostile-questions.ts';
import { waitForCorpus } from './helpers.ts';

test.beforeEach(async ({ page }) => {
  await waitForCorpus(page);
});

test('every response carries the security headers', async ({ request }) => {
  for (const path of ['/', '/library', '/api/health']) {
    const headers = (await request.get(path)).headers();
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).toContain("default-src 'self'");
    expect(headers['content-security-policy']).toContain("object-src 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('same-origin');
    expect(headers['x-powered-by']).toBeUndefined();
  }
});

test('pages run under the CSP without a violation', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content[- ]Security[- ]Policy|violates the following/i.test(m.text())) violations.push(m.text());
  });
  await page.goto('/');
  await page.getByLabel('Question', { exact: true }).fill('Which paper reports a peak power density of 0.812 W cm−2 at 973 K?');
  await page.getByLabel('Question', { exact: true }).press('Enter');
  await expect(page.getByRole('region', { name: 'Answer', exact: true }).getByTestId('answer')).toBeVisible();
  await page.getByTestId('answer-graph').getByText('Graph behind this answer').click();
  await expect(page.getByTestId('answer-graph').locator('canvas').first()).toBeVisible();
  await page.goto('/graph');
  await page.goto('/library?q=ceria');
  expect(violations).toEqual([]);
});

test('a cross-site form post starts nothing: no import, no evaluation, no download', async ({ request }) => {
  const before = (await (await request.get('/api/evaluation/runs')).json()).runs.length;
  const evil = { origin: 'http://evil.example' };
  // A form on another site can send text/plain or multipart without a preflight; both are refused.
  const evaluation = await request.post('/api/evaluation/runs', {
    headers: { ...evil, 'content-type': 'text/plain' },
    data: JSON.stringify({ questionSet: 'fixture-questions', pipelines: ['bm25'] }),
  });
  expect(evaluation.status()).toBe(403);
  expect((await evaluation.json()).error).toBe('requests that change data are accepted only from this site');
  const upload = await request.post('/api/import', {
    headers: evil,
    multipart: { files: { name: 'x.jsonl', mimeType: 'application/json', buffer: Buffer.from('{}\n') } },
  });
  expect(upload.status()).toBe(403);
  expect((await request.post('/api/corpus/fetch', { headers: { 'sec-fetch-site': 'cross-site' } })).status()).toBe(403);
  expect((await (await request.get('/api/evaluation/runs')).json()).runs.length).toBe(before);
  // Same site but not declared as JSON: refused too, so a form can never pass for a JSON request.
  const plain = await request.post('/api/evaluation/runs', {
    headers: { 'content-type': 'text/plain' },
    data: JSON.stringify({ questionSet: 'fixture-questions', pipelines: ['bm25'] }),
  });
  expect(plain.status()).toBe(415);
});

test('NUL bytes, absurd page numbers and malformed ids get a page, a 400 or a 404, never a 500', async ({ request }) => {
  // A control character in a page's query is refused as it is in a JSON body: 400, saying why (the proxy).
  const withNul = [
    '/library?q=a%00b',
    '/library?material=%00&condition=%00',
    '/answers?q=%00',
    '/graph?q=%00',
    '/graph?explore=%00',
    '/search?q=%00',
    '/compare?q=%00&p=hybrid&p=graph',
    '/library?q=ok&%01=x',
  ];
  for (const path of withNul) {
    const res = await request.get(path);
    expect({ path, status: res.status() }).toEqual({ path, status: 400 });
    expect(await res.text()).toMatch(/must not contain control characters \(such as NUL\)/);
    expect(res.headers()['content-security-policy']).toBeTruthy();
  }
  const apiNul = await request.get('/api/answers?q=%00');
  expect(apiNul.status()).toBe(400);
  expect(await apiNul.json()).toMatchObject({ code: 'bad-request', error: expect.stringMatching(/control characters/) });
  for (const path of ['/library?page=999999999999999999999', '/graph?page=999999999999999999999', '/library?q=tab%09and%0Anewline'])
    expect({ path, status: (await request.get(path)).status() }).toEqual({ path, status: 200 });
  for (const path of ['/papers/%00', '/answers/%00', '/evaluation/runs/%00', '/api/answers/%00', '/api/ingest-runs/%00', '/api/evaluation/runs/%00'])
    expect({ path, status: (await request.get(path)).status() }).toEqual({ path, status: 404 });
  for (const path of ['/api/provenance?paper=%00', '/api/graph/neighbourhood?key=f:%00', '/api/graph/answer?tuple=%00'])
    expect({ path, status: (await request.get(path)).status() }).toEqual({ path, status: 400 });
  const bodies = [
    { route: '/api/answers', data: { question: 'What is the Tc\u0000 of MgB2?' } },
    { route: '/api/answer', data: { question: 'What is the Tc\u0000 of MgB2?' } },
    { route: '/api/answers', data: { question: 'What is the Tc of MgB2?', filters: { material: 'MgB2\u0000' } } },
    { route: '/api/retrieve', data: { question: 'What is the Tc\u0000 of MgB2?' } },
    { route: '/api/evaluation/runs', data: { questionSet: 'fixture\u0000', pipelines: ['bm25'] } },
  ];
  for (const { route, data } of bodies) {
    const res = await request.post(route, { data });
    expect({ route, status: res.status() }).toEqual({ route, status: 400 });
    expect((await res.json()).error).toMatch(/control characters|no question set/);
  }
});

test('hostile but well-formed questions and searches get an answer or a clear error, never a 500, and the health check keeps answering', async ({
  request,
}) => {
  test.setTimeout(300_000);
  // One of each kind (a formula, unit, range, exponent or ± repeated to the limit, runs of dashes and brackets …): a
  // question of "1," × 995 once held the retrieval worker for good, and "- " × 250 failed the library's search with
  // PostgreSQL's "tsquery stack too small". `npm run bench -- fuzz-questions` times the same on a production corpus.
  const routes: [string, (text: string) => Promise<{ status: () => number }>][] = [
    ['retrieve', (text) => request.post('/api/retrieve', { data: { question: text, pipeline: 'hybrid' } })],
    ['answers', (text) => request.post('/api/answers', { data: { question: text } })],
    ['library', (text) => request.get(`/library?${new URLSearchParams({ q: text })}`)],
    ['library condition', (text) => request.get(`/library?${new URLSearchParams({ condition: text.slice(0, 200) })}`)],
    ['graph', (text) => request.get(`/graph?${new URLSearchParams({ q: text.slice(0, 200) })}`)],
  ];
  const outcomes: string[] = [];
  for (const { kind, text } of hostileQuestions(undefined, 2))
    for (const [route, send] of routes) {
      const status = (await send(text)).status();
      if (!(status === 200 || status === 422 || status === 503)) outcomes.push(`${kind} → ${route}: ${status}`);
    }
  expect(outcomes).toEqual([]);
  expect((await request.get('/api/health')).status()).toBe(200);
});

test('runs name their files relative to the data or corpus folder, never by absolute server path', async ({ request }) => {
  const absolute = (value: unknown): string[] =>
    typeof value === 'string'
      ? /(^|[\s(])\/(tmp|home|work|srv|var|root|usr|opt|etc)\//.test(value)
        ? [value]
        : []
      : Array.isArray(value)
        ? value.flatMap(absolute)
        : value && typeof value === 'object'
          ? Object.values(value).flatMap(absolute)
          : [];
  const runs = (await (await request.get('/api/ingest-runs')).json()).runs;
  expect(runs.length).toBeGreaterThan(0);
  expect(runs[runs.length - 1].inputs[0]).toMatch(/^assay-e2e-corpus-/);
  expect(absolute(runs)).toEqual([]);
  for (const run of runs) {
    expect(run.options).toBeUndefined();
    expect(absolute(await (await request.get(`/api/ingest-runs/${run.id}`)).json())).toEqual([]);
  }
  expect(absolute(await (await request.get('/api/evaluation/runs')).json())).toEqual([]);
});
