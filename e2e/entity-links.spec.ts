import { expect, test } from '@playwright/test';
import { shots, waitForCorpus } from './helpers.ts';

test.beforeEach(async ({ page }) => {
  await waitForCorpus(page);
});

test('graph: entities linked to Wikidata are listed with their item, and a curator can reject a link and restore it', async ({ page }) => {
  // The linking job runs after the first-start import, against the local fake of Wikidata.
  await expect
    .poll(async () => ((await (await page.request.get('/api/health')).json()).entityLinks?.linked ?? 0) as number, { timeout: 90_000 })
    .toBeGreaterThanOrEqual(1);
  await page.goto('/graph');
  const links = page.getByTestId('entity-links');
  const ysz = links.getByRole('row').filter({ hasText: 'Q900003' });
  await expect(ysz).toContainText('YSZ');
  await expect(ysz).toContainText('yttria-stabilized zirconia — ceramic material');
  await expect(ysz).toContainText('name');
  await expect(ysz.getByRole('link', { name: 'Q900003' })).toHaveAttribute('href', 'https://www.wikidata.org/wiki/Q900003');
  await links.screenshot({ path: `${shots}/graph-entity-links.png` });
  await ysz.getByRole('button', { name: 'Reject the link of YSZ' }).click();
  await expect(links.getByRole('row').filter({ hasText: 'Q900003' }).getByRole('button', { name: 'Restore the link of YSZ' })).toBeVisible();
  await expect(links).toContainText('1 rejected');
  await links.getByRole('button', { name: 'Restore the link of YSZ' }).click();
  await expect(links.getByRole('row').filter({ hasText: 'Q900003' }).getByRole('button', { name: 'Reject the link of YSZ' })).toBeVisible();
  await expect(links).toContainText('0 rejected');
});
