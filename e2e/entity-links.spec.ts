import { expect, test } from '@playwright/test';
import { shots, waitForCorpus } from './helpers.ts';

test.beforeEach(async ({ page }) => {
  await waitForCorpus(page);
});

test('graph: entities linked to Wikidata are listed with their item, and a curator can reject a link and restore it', async ({ page }) => {
  // The linking job runs after the first-start import, against the local fake of Wikidata.
  await expect.poll(async () => (await (await page.request.get('/graph')).text()).includes('Q900001'), { timeout: 90_000 }).toBe(true);
  await page.goto('/graph');
  const links = page.getByTestId('entity-links');
  // MgB2 is linked by its formula (Wikidata's P274 "MgB₂"), with the item's other names.
  const mgb2 = links.getByRole('row').filter({ hasText: 'Q900001' });
  await expect(mgb2.getByRole('cell').first()).toHaveText('MgB2');
  await expect(mgb2).toContainText('magnesium diboride — chemical compound');
  await expect(mgb2).toContainText('formula MgB₂');
  await expect(mgb2).toContainText('magnesium diboride, magnesium boride');
  await expect(mgb2.getByRole('link', { name: 'Q900001' })).toHaveAttribute('href', 'https://www.wikidata.org/wiki/Q900001');
  await links.screenshot({ path: `${shots}/graph-entity-links.png` });
  // A question naming it by another name reaches it; the trace says how.
  const asked = await page.request.post('/api/retrieve', { data: { question: 'What is the Tc of magnesium diboride?', pipeline: 'hybrid' } });
  const result = (await asked.json()).result as { trace: { step: string; detail: { expansions?: string[] } }[]; analysis: { materials: string[] } };
  expect(result.trace.find((s) => s.step === 'linked-names')?.detail.expansions).toEqual(['magnesium diboride → MgB2 (Wikidata Q900001)']);
  expect(result.analysis.materials).toEqual(['f:B2Mg']);
  await mgb2.getByRole('button', { name: 'Reject the link of MgB2' }).click();
  await expect(links.getByRole('row').filter({ hasText: 'Q900001' }).getByRole('button', { name: 'Restore the link of MgB2' })).toBeVisible();
  await expect(links).toContainText('1 rejected');
  await links.getByRole('button', { name: 'Restore the link of MgB2' }).click();
  await expect(links.getByRole('row').filter({ hasText: 'Q900001' }).getByRole('button', { name: 'Reject the link of MgB2' })).toBeVisible();
  await expect(links).toContainText('0 rejected');
});
