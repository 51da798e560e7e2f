import { expect, test } from '@playwright/test';
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
