import { expect, test } from '@playwright/test';
import { askOnAnswersPage, shots, waitForCorpus, waitForMetadata } from './helpers.ts';

test.beforeEach(async ({ page }) => {
  await waitForCorpus(page);
});

test('tables: a value stated only in a table cell is answered, cited to its cell, and the panel shows the table with the cell marked', async ({ page }) => {
  await waitForMetadata(page);
  await askOnAnswersPage(page, 'What peak power density at 750 °C did the Sm0.5Sr0.5CoO3 cathode reach?');
  const answer = page.getByTestId('answer');
  await expect(answer).toHaveAttribute('data-shape', 'value');
  const sentences = answer.getByRole('list', { name: 'Answer sentences' }).getByRole('listitem');
  await expect(sentences.first()).toContainText('911 mW cm−2, at 750 °C');
  // A value answer's confidence is the answer gate's P(right), and says so.
  const confidence = page.getByTestId('answer-confidence');
  await expect(confidence).toHaveText(/^confidence (0\.\d\d|1\.00)$/);
  await expect(confidence).toHaveAttribute('title', /this answer is right/);
  await expect(sentences.nth(1)).toContainText('Table 1 of “Cobaltite and ferrite cathodes compared in anode-supported cells”');
  await expect(sentences.nth(1)).toContainText('column “Peak power density at 750 °C”, gives 911 mW cm−2 (cell table:tab1#r3c5)');
  // Crossref says the paper was retracted: the answer says so above its sentences and beside the paper's evidence.
  await expect(page.getByTestId('answer-notices')).toHaveText(
    'Cites E1 from “Cobaltite and ferrite cathodes compared in anode-supported cells”, which was retracted 2025-06-02 (notice doi:10.9999/demo.tables.2024.001.retraction).',
  );
  await expect(page.getByTestId('paper-notice-badge').first()).toContainText('retracted');
  await page.screenshot({ path: `${shots}/answer-retracted-table-cell.png`, fullPage: true });
  await sentences.nth(1).getByRole('button', { name: 'E1: show its provenance' }).click();
  const panel = page.getByRole('complementary', { name: 'Provenance of E1' });
  const table = panel.getByTestId('provenance-table');
  await expect(table).toContainText('Table 1 Electrochemical performance of the cathodes on Ni–YSZ supported cells.');
  await expect(table.getByRole('columnheader')).toHaveText([
    'Cathode',
    'Sintering temperature (°C)',
    'ASR (Ω cm2)',
    'Peak power density (mW cm−2) 650 °C',
    'Peak power density (mW cm−2) 750 °C',
  ]);
  await expect(table.getByTestId('provenance-cell')).toHaveText('911');
  await expect(table.locator('tr[aria-current="true"]')).toContainText('Sm0.5Sr0.5CoO3');
  await expect(table).toContainText('Row 3, column 5 (“Peak power density (mW cm−2) 750 °C”): cell table:tab1#r3c5');
  await panel.screenshot({ path: `${shots}/provenance-table-cell.png` });
  // The paper page lists the table's rows as its paragraphs, reachable from the panel.
  await panel.getByRole('link', { name: 'Open paper at this paragraph' }).click();
  await expect(page.locator('[data-paragraph-id="table:tab1#r3"]')).toContainText('Peak power density: 911 mW cm−2 at 750 °C');
  // The paper page: the retraction banner and the registered metadata (ORCID, citations) from Crossref and OpenAlex.
  await expect(page.getByTestId('paper-notice')).toContainText('This paper has been retracted.');
  await expect(page.getByTestId('paper-notice')).toContainText('Retracted on 2025-06-02 — notice doi:10.9999/demo.tables.2024.001.retraction');
  await expect(page.getByTestId('paper-metadata-authors').getByRole('link', { name: 'ORCID 0000-0002-1825-0097' })).toBeVisible();
  await expect(page.getByTestId('paper-cited-by')).toHaveText('17');
  await expect(page.getByTestId('paper-metadata')).toContainText(/from Crossref and OpenAlex, \d{4}-\d{2}-\d{2}/);
  await page.screenshot({ path: `${shots}/paper-retracted-metadata.png`, fullPage: true });
});
