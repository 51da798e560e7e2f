import { expect, test } from '@playwright/test';
import { PIPELINES } from '../lib/pipelines/registry.ts';
import { shots, waitForCorpus } from './helpers.ts';

test.beforeEach(async ({ page }) => {
  await waitForCorpus(page);
});

test('find evidence: a paraphrased question in other units finds the paper, its paragraph and the trace', async ({ page }) => {
  await page.goto('/search');
  await page.getByLabel('Question').fill('Which paper reports a peak power density of 0.812 W cm−2 at 973 K?');
  await page.getByLabel('Pipeline').selectOption('json-qr');
  await page.getByRole('button', { name: 'Search' }).click();
  const result = page.getByTestId('retrieval-result');
  await expect(result.getByRole('status')).toContainText('Best paper');
  await expect(result.getByRole('status').getByRole('link')).toHaveText('Cobalt-free perovskite cathodes for intermediate-temperature fuel cells');
  const evidence = result.getByRole('region', { name: 'Evidence' }).getByRole('listitem').first();
  await expect(evidence).toContainText('812 mW cm−2 at 700 °C');
  await expect(evidence).toContainText('0.812 W cm−2');
  await expect(result.getByText(/^Trace: json-qr/)).toBeVisible();
  await expect(result.getByTestId('trace-step').filter({ hasText: 'optimise' })).toBeVisible();
  await page.screenshot({ path: `${shots}/search-answer.png`, fullPage: true });
  // The question is in the URL, so the page can be shared and reloaded.
  expect(new URL(page.url()).searchParams.get('pipeline')).toBe('json-qr');

  await page.getByLabel('Question').fill('What is the Tafel slope of CoFeMoP/NF in 1 M KOH?');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(result.getByRole('status')).toContainText('Not in this corpus');
  await expect(result.getByRole('status')).toContainText('CoFeMoP/NF');
  await page.screenshot({ path: `${shots}/search-abstain.png`, fullPage: true });
});

test('reasoning: an inverse-design question returns materials meeting the target with their evidence; explain mode shows the tiers', async ({ page }) => {
  await page.goto('/search');
  await page.getByLabel('Question').fill('How can we obtain a cathode with a power density above 500 mW cm−2?');
  await page.getByLabel('Pipeline').selectOption('aria');
  await expect(page.getByLabel('Question mode')).toHaveValue('auto');
  await page.getByRole('button', { name: 'Search' }).click();
  const design = page.getByRole('region', { name: 'Inverse design' });
  await expect(design.getByTestId('tier')).toContainText(/Tier [12]/);
  await expect(design).toContainText('power density ≥ 500 mW/cm²');
  const row = design.getByRole('table', { name: 'Suggestions' }).getByRole('row').filter({ hasText: 'La0.6Sr0.4FeO3' });
  await expect(row).toContainText('812 mW/cm²');
  await expect(row).toContainText('meets');
  await expect(row.getByRole('link')).toHaveAttribute('href', /\/papers\/.+#p0$/);
  await page.screenshot({ path: `${shots}/search-inverse-design.png`, fullPage: true });
  expect(new URL(page.url()).searchParams.get('mode')).toBe('auto');

  // The same question forced into explain mode: the tiered reasoning panel instead of suggestions.
  await page.getByLabel('Question mode').selectOption('explain');
  await page.getByRole('button', { name: 'Search' }).click();
  const reasoning = page.getByRole('region', { name: 'Reasoning' });
  await expect(reasoning.getByTestId('tier')).toContainText(/Tier [123]/);
  await expect(page.getByRole('region', { name: 'Inverse design' })).toHaveCount(0);
});

test('find evidence: a too-short question gets a clear message', async ({ page }) => {
  const res = await page.request.post('/api/retrieve', { data: { question: 'a', pipeline: 'json-qr' } });
  expect(res.status()).toBe(400);
  expect((await res.json()).error).toMatch(/at least 3 characters/);
  const bad = await page.request.post('/api/retrieve', { data: { question: 'Which paper?', pipeline: 'nope' } });
  expect(bad.status()).toBe(400);
});

test('evaluation: start a run from the page, see charts and tables, drill into a question', async ({ page }) => {
  await page.goto('/evaluation/runs');
  await expect(page.getByLabel('Question set')).toHaveValue('fixture-questions.jsonl');
  await page.getByRole('button', { name: 'Run evaluation' }).click();
  const runs = page.getByRole('table', { name: 'Runs' });
  await expect(runs.getByRole('row').nth(1)).toContainText('succeeded', { timeout: 60_000 });
  await expect(runs.getByRole('row').nth(1)).toContainText(`fixture-questions.jsonl (3) × ${PIPELINES.length}`);
  await runs.getByRole('row').nth(1).getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`fixture-questions.jsonl: 3 questions × ${PIPELINES.length} pipelines`);
  await expect(page.getByRole('img', { name: /Chart of doi@1/ })).toBeVisible();
  const summary = page.getByRole('table', { name: 'Pipeline' }).first();
  await expect(summary.getByRole('row', { name: /json-qr/ })).toContainText('1.000');
  await page.screenshot({ path: `${shots}/evaluation-run.png`, fullPage: true });

  await page.getByRole('link', { name: 'json-qr', exact: true }).click();
  await expect(page).toHaveURL(/pipeline=json-qr/);
  await page.getByRole('link', { name: 'hit', exact: true }).click();
  await expect(page).toHaveURL(/outcome=hit/);
  await expect(page.getByRole('table', { name: 'Results' }).getByRole('row')).toHaveCount(4);
  await page.getByRole('link', { name: /peak power density of 0.812 W/ }).click();
  await expect(page.getByRole('heading', { name: 'Gold' })).toBeVisible();
  await expect(page.getByText('← gold')).toBeVisible();
  await expect(page.getByText('gold paragraph').first()).toBeVisible();
  await page.screenshot({ path: `${shots}/evaluation-question.png`, fullPage: true });
});
