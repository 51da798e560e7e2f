import { expect, test } from '@playwright/test';
import { shots, waitForCorpus } from './helpers.ts';

test.beforeEach(async ({ page }) => {
  await waitForCorpus(page);
});

test('answers: ask, get a cited extractive answer at its own URL, open the evidence, find it again in the history', async ({ page }) => {
  await page.goto('/answers');
  await page.getByLabel('Question', { exact: true }).fill('Which paper reports a peak power density of 0.812 W cm−2 at 973 K?');
  await expect(page.getByLabel('Answer mode')).toContainText('extractive (no model configured)');
  await page.getByRole('button', { name: 'Ask' }).click();
  await page.waitForURL(/\/answers\/[a-z0-9]+$/);
  const answer = page.getByTestId('answer');
  await expect(answer).toHaveAttribute('data-shape', 'which-paper');
  await expect(page.getByTestId('answer-mode')).toContainText('Extractive answer: composed from the evidence, no language model');
  const sentences = answer.getByRole('list', { name: 'Answer sentences' }).getByRole('listitem');
  await expect(sentences.first()).toContainText('Cobalt-free perovskite cathodes for intermediate-temperature fuel cells');
  await expect(sentences.nth(1)).toContainText('812 mW cm−2 at 700 °C');
  await expect(sentences.nth(1)).toContainText('supported');
  await page.screenshot({ path: `${shots}/answer.png`, fullPage: true });
  // A citation label leads to its evidence, with the stating sentence marked.
  await sentences.nth(1).getByRole('link', { name: 'E1' }).click();
  await expect(page.locator('#E1 mark')).toContainText('812 mW cm−2');
  const url = page.url();

  await page.goto('/answers?q=0.812');
  await page
    .getByTestId('answer-history')
    .getByRole('link', { name: /0\.812 W cm−2/ })
    .first()
    .click();
  await page.waitForURL(url.replace(/#.*$/, ''));
  await expect(page.getByTestId('answer')).toHaveAttribute('data-shape', 'which-paper');

  await page.goto('/answers');
  await page.getByLabel('Question', { exact: true }).fill('What is the Tafel slope of CoFeMoP/NF in 1 M KOH?');
  await page.getByRole('button', { name: 'Ask' }).click();
  await page.waitForURL(/\/answers\/[a-z0-9]+$/);
  await expect(page.getByTestId('answer')).toHaveAttribute('data-shape', 'abstain');
  await expect(page.getByTestId('answer').getByRole('status')).toContainText('Not answered from this corpus');
});

test('POST /api/answer streams the evidence first, then the text, then the stored answer', async ({ request }) => {
  const res = await request.post('/api/answer', {
    data: { question: 'Which paper reports a peak power density of 0.812 W cm−2 at 973 K?', mode: 'extractive' },
  });
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('text/event-stream');
  const events = (await res.text())
    .split('\n\n')
    .map((e) => e.replace(/^data: /, '').trim())
    .filter((e) => e && e !== '[DONE]')
    .map((e) => JSON.parse(e));
  const types = events.map((e) => e.type);
  expect(types.indexOf('source-document')).toBeGreaterThanOrEqual(0);
  expect(types.indexOf('source-document')).toBeLessThan(types.indexOf('text-delta'));
  const final = events.find((e) => e.type === 'data-answer');
  expect(final.data.answer.sentences[1].citations[0]).toBe(events.find((e) => e.type === 'source-document').sourceId);
  const stored = await (await request.get(`/api/answers/${final.data.id}`)).json();
  expect(stored.answer.sentences).toEqual(final.data.answer.sentences);
  expect((await request.get('/api/answers/nosuchanswer00')).status()).toBe(404);
  expect((await request.post('/api/answer', { data: { question: 'x' } })).status()).toBe(400);
});
