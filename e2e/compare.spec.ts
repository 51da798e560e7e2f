import { expect, test } from '@playwright/test';
import { shots, waitForCorpus } from './helpers.ts';

test.beforeEach(async ({ page }) => {
  await waitForCorpus(page);
});

test('example questions are drawn from the corpus, one per kind, and kept only when answered well', async ({ page }) => {
  // They are checked by answering them once per corpus version, in the background: the page shows them once checked.
  const examples = page.getByRole('region', { name: 'Example questions' }).getByRole('button');
  await expect
    .poll(
      async () => {
        await page.goto('/');
        return examples.count();
      },
      { timeout: 60_000 },
    )
    .toBeGreaterThanOrEqual(2);
  const kinds = await examples.evaluateAll((buttons) => buttons.map((b) => b.getAttribute('title')?.split(',')[0]));
  expect(new Set(kinds).size).toBe(kinds.length);
  expect(kinds).toContain('synthesis');
  await page.screenshot({ path: `${shots}/ask-examples.png`, fullPage: true });
  const first = (await examples.first().textContent()) ?? '';
  await examples.first().click();
  await expect(page.getByLabel('Question', { exact: true })).toHaveValue(first);
  const answer = page.getByRole('region', { name: 'Answer', exact: true });
  await expect(answer.getByTestId('answer')).not.toHaveAttribute('data-shape', 'abstain');
  await expect(answer.getByRole('button', { name: /^E1: show its provenance/ }).first()).toBeVisible();
});

test('filters scope a question to papers of a domain; an unreadable condition is refused with a clear message', async ({ page }) => {
  await page.goto('/');
  const question = page.getByLabel('Question', { exact: true });
  await page.getByText('Filters', { exact: true }).click();
  await page.getByLabel('Domain').selectOption('battery');
  await question.fill('Which cathode was prepared at high temperature?');
  await question.press('Enter');
  const answer = page.getByRole('region', { name: 'Answer', exact: true });
  await expect(answer.getByTestId('answer-scope')).toContainText('domain battery');
  const papers = answer.getByTestId('evidence-paper').getByRole('heading');
  await expect(papers.first()).toBeVisible();
  for (const title of await papers.allTextContents()) expect(title).toBe('Sol-gel synthesis of spinel LiMn2O4 for lithium-ion batteries');
  // The trace, folded by default, names the filters and the reformulation.
  await answer.getByText('How it was found').click();
  await expect(answer.getByTestId('answer-trace')).toContainText('domain battery');
  await expect(answer.getByTestId('answer-trace')).toContainText('Optimised query');
  await page.screenshot({ path: `${shots}/ask-filtered.png`, fullPage: true });

  await page.getByLabel('Condition range, with its unit').fill('hot');
  await question.fill('Which cathode was prepared at high temperature?');
  await question.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'The answer failed' })).toHaveText(
    /^The answer failed: write the condition as a value or range with its unit, e\.g\. 600–800 °C or ≥ 1073 K/,
  );
});

test('compare: three pipelines answer side by side, differences first, the comparison reopens from its URL', async ({ page }) => {
  await page.goto('/');
  // The pipeline choice is an advanced setting, folded away by default.
  await page.getByText('Advanced: how evidence is found and the answer written').click();
  await page.getByLabel('Pipeline').selectOption('compare');
  const pick = page.getByRole('group', { name: 'Pipelines to compare (two or three)' });
  await expect(pick.getByLabel('hybrid')).toBeChecked();
  await expect(pick.getByLabel('graph', { exact: true })).toBeChecked();
  await expect(pick.getByLabel('vector')).toBeChecked();
  // A fourth cannot be added.
  await expect(pick.getByLabel('bm25')).toBeDisabled();
  const question = page.getByLabel('Question', { exact: true });
  await question.fill('Which paper reports a peak power density of 0.812 W cm−2 at 973 K?');
  await page.getByRole('button', { name: 'Compare' }).click();
  await page.waitForURL(/\/compare\?q=.+&p=hybrid&p=graph&p=vector/);
  const columns = page.getByTestId('compare-column');
  await expect(columns).toHaveCount(3);
  for (const name of ['hybrid', 'graph', 'vector']) {
    await expect(page.getByRole('region', { name: `Answer by ${name}` }).getByTestId('answer')).toBeVisible();
  }
  const summary = page.getByTestId('compare-summary');
  await expect(summary).toContainText('Cobalt-free perovskite cathodes for intermediate-temperature fuel cells');
  await expect(
    page
      .getByRole('region', { name: 'Answer by hybrid' })
      .getByText(/paper also cited by (graph|vector)/)
      .first(),
  ).toBeVisible();
  await page.screenshot({ path: `${shots}/compare.png`, fullPage: true });

  // The URL is the comparison: reopened, it answers again; each answer also has its own permanent link.
  await page.reload();
  await expect(page.getByTestId('compare-summary')).toContainText('Cobalt-free perovskite cathodes');
  await page.getByRole('region', { name: 'Answer by graph' }).getByRole('link', { name: 'Permanent link to this answer' }).click();
  await page.waitForURL(/\/answers\/[a-z0-9]+$/);
  await expect(page.getByTestId('answer-mode')).toContainText('pipeline graph');
});

test('compare refuses a URL with fewer than two pipelines', async ({ page }) => {
  await page.goto('/compare?q=What%20is%20the%20band%20gap%20of%20TiO2%3F&p=hybrid');
  await expect(page.getByRole('alert').filter({ hasText: 'pipelines' })).toContainText('Choose two or three pipelines to compare.');
});
