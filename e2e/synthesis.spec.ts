import { expect, test } from '@playwright/test';
import { inventedRecipes } from '../scripts/test-support/fixtures.ts';
import { askOnAnswersPage, shots, waitForCorpus } from './helpers.ts';

test.beforeEach(async ({ page }) => {
  await waitForCorpus(page);
});

test('a synthesis question is answered from the imported recipes: a summary with its records cited, and a method they lack refused with what they hold', async ({
  page,
  request,
}) => {
  // Recipes imported through the import page: their catalogue is complete when the import is.
  await page.goto('/import');
  await page.getByTestId('file-input').setInputFiles([
    {
      name: 'recipes.jsonl',
      mimeType: 'application/json',
      buffer: Buffer.from(
        `${inventedRecipes()
          .map((r) => JSON.stringify(r))
          .join('\n')}\n`,
      ),
    },
  ]);
  await page.getByRole('button', { name: 'Import 1 file' }).click();
  await expect(page.getByTestId('run-status').first()).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });

  const asked = Date.now();
  await askOnAnswersPage(page, 'How is LiMn2O4 synthesized by the sol-gel method?');
  const answer = page.getByTestId('answer');
  const stored = await (await request.get(`/api/answers/${page.url().split('/').pop()}`)).json();
  console.log(`first records question after the import: answered in ${stored.answer.latencyMs} ms, on screen after ${Date.now() - asked} ms`);
  await expect(answer).toHaveAttribute('data-shape', 'synthesis');
  const sentences = answer.getByRole('list', { name: 'Answer sentences' });
  await expect(sentences).toContainText(/The records hold \d+ sol-gel recipes for LiMn2O4 from \d+ papers/);
  await expect(sentences).toContainText(/Usual precursors: C6H8O7 \(\d+ of \d+\), LiNO3/);
  await expect(sentences).toContainText(/Firing that forms the phase \(calcined\): temperature median 750 °C/);
  // It opens with a procedure from the material's own recipes.
  await expect(sentences.getByRole('listitem').nth(1)).toContainText(
    /Procedure \(\d+ of \d+ recipes use exactly these precursors\): start from .*, then fire at \d+ °C/,
  );
  await expect(sentences).toContainText(/A typical recipe \(doi:10\.9999\/recipe\.sg\.\d\): LiMn2O4 \(sol-gel\) from /);
  await page.screenshot({ path: `${shots}/answer-synthesis.png`, fullPage: true });
  // A citation opens its record: the recipe as imported, with its DOI, read as a recipe (made, from, steps).
  await sentences.getByRole('button', { name: 'E1: show its provenance' }).first().click();
  const panel = page.getByRole('complementary', { name: 'Provenance of E1' });
  await expect(panel.getByRole('tab', { name: 'Record' })).toHaveAttribute('aria-selected', 'true');
  const record = panel.getByTestId('provenance-record');
  await expect(record).toContainText('doi:10.9999/recipe.sg.');
  const recipe = record.getByTestId('record-recipe');
  await expect(recipe).toContainText('Recipe · sol-gel · from imported record');
  await expect(recipe).toContainText(/MadeLiMn2O4/);
  await expect(recipe).toContainText(/From.*\w/);
  await expect(recipe.getByRole('list', { name: 'Steps' })).toContainText(/\d+ °C/);
  await page.screenshot({ path: `${shots}/provenance-recipe.png`, fullPage: true });
  // The record's own fields are one click away.
  await record.getByText('All fields of the record').click();
  await expect(record.getByTestId('readable-data')).toContainText('synthesis typesol-gel');

  // Asked as a chemist with a goal would ask it, with no "how is it made" in it: the reader reads a synthesis
  // question from its construction, and the records answer it.
  await askOnAnswersPage(page, 'I want to make LiMn2O4 by sol-gel. Which reagents should I start from?');
  await expect(answer).toHaveAttribute('data-shape', 'synthesis');
  await expect(sentences).toContainText(/Usual precursors: C6H8O7/);
  await page.screenshot({ path: `${shots}/answer-synthesis-first-person.png`, fullPage: true });

  await askOnAnswersPage(page, 'How is LiMn2O4 made hydrothermally?');
  await expect(answer).toHaveAttribute('data-shape', 'abstain');
  await expect(answer).toContainText(/The records hold \d+ sol-gel, 2 solid-state recipes for LiMn2O4, none by hydrothermal\./);
  await page.screenshot({ path: `${shots}/answer-synthesis-refusal.png`, fullPage: true });
});

test('a comparison names every side: a side with no value at the asked temperature is said, and no winner is drawn from one side', async ({ page }) => {
  await askOnAnswersPage(page, 'Which has the higher peak power density at 600 °C, Nd0.5Sr0.5CoO3 or Sm0.5Sr0.5CoO3?');
  const answer = page.getByTestId('answer');
  await expect(answer).toHaveAttribute('data-shape', 'comparison');
  const sentences = answer.getByRole('list', { name: 'Answer sentences' });
  await expect(sentences).toContainText(
    'The evidence does not let Nd0.5Sr0.5CoO3 and Sm0.5Sr0.5CoO3 be compared at 600 °C: it states no peak power density at 600 °C for Sm0.5Sr0.5CoO3.',
  );
  await expect(sentences).toContainText(/Nd0\.5Sr0\.5CoO3: 1\.05 W cm−2/);
  // Sintered at 600 °C, measured at 800 °C: said as what it states, not as a value at 600 °C.
  await expect(sentences).toContainText(/Sm0\.5Sr0\.5CoO3: no value at 600 °C in the evidence; it states 1\.6 W cm−2/);
  await expect(sentences).not.toContainText('has the higher');
  await page.screenshot({ path: `${shots}/answer-comparison-one-side.png`, fullPage: true });

  await askOnAnswersPage(page, 'Which has the higher peak power density at 600 °C, Nd0.5Sr0.5CoO3 or La0.6Sr0.4FeO3?');
  await expect(sentences.getByRole('listitem').first()).toContainText(
    'Nd0.5Sr0.5CoO3 has the higher peak power density at 600 °C: 1.05 W cm−2, against 0.52 W cm−2 for La0.6Sr0.4FeO3.',
  );
});

test('a plural “which papers” question lists every paper that names what it asks about, each with its sentence', async ({ page }) => {
  await askOnAnswersPage(page, 'Which papers study La0.6Sr0.4FeO3 cathodes?');
  const answer = page.getByTestId('answer');
  await expect(answer).toHaveAttribute('data-shape', 'which-paper');
  const items = answer.getByRole('list', { name: 'Answer sentences' }).getByRole('listitem');
  await expect(items.first()).toContainText(/^\d+ papers among those retrieved name what the question asks about, best first:/);
  await expect(answer.getByRole('list', { name: 'Answer sentences' })).toContainText('Cobalt-free perovskite cathodes for intermediate-temperature fuel cells');
  await expect(answer.getByRole('list', { name: 'Answer sentences' })).toContainText('Iron-rich perovskite cathodes at low temperature');
  await page.screenshot({ path: `${shots}/answer-which-papers.png`, fullPage: true });
});
