import { expect, test } from '@playwright/test';
import { shots, waitForCorpus } from './helpers.ts';

test.beforeEach(async ({ page }) => {
  await waitForCorpus(page);
});

test('graph page: counts, a merge with its spellings and distance, undo and allow again', async ({ page }) => {
  await page.goto('/graph');
  await expect(page.getByRole('heading', { name: 'Knowledge graph' })).toBeVisible();
  await expect(page.getByText(/\d+ entities, \d+ tuples \(\d+ causal\)/)).toBeVisible();
  await page.getByLabel('Filter merges').fill('grain boundary');
  await page.getByRole('button', { name: 'Filter' }).click();
  const group = page.getByRole('article').filter({ hasText: 'grain boundary conductivit' });
  await expect(group).toHaveCount(1);
  await expect(group.getByRole('row')).toHaveCount(2); // header + the merged spelling
  await expect(group).toContainText('embedding');
  await page.screenshot({ path: `${shots}/graph-merges.png`, fullPage: true });

  const undo = group.getByRole('button', { name: /^Undo merge of / });
  const merged = (await undo.getAttribute('aria-label'))!.replace('Undo merge of ', '');
  await undo.click();
  const undone = page.getByRole('region', { name: 'Undone merges' });
  await expect(undone).toContainText(merged);
  await expect(page.getByRole('article').filter({ hasText: 'grain boundary conductivit' })).toHaveCount(0);
  await undone.getByRole('button', { name: `Allow merging ${merged} again` }).click();
  await expect(undone).toContainText('None.');
});
