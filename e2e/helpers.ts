import { expect, type Page } from '@playwright/test';

export const shots = 'e2e/screenshots';

/** The first-start import of ASSAY_CORPUS runs in the background: wait until it has finished. */
export async function waitForCorpus(page: Page) {
  await expect.poll(async () => (await (await page.request.get('/api/health')).json()).papers, { timeout: 60_000 }).toBeGreaterThanOrEqual(38);
}
