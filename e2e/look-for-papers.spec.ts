import { expect, test } from '@playwright/test';
import { askOnAnswersPage, shots, waitForCorpus } from './helpers.ts';

test.beforeEach(async ({ page }) => {
  await waitForCorpus(page);
});

// Runs after library.spec.ts (which counts the fixture corpus's papers): it adds one.
test('look for papers: an abstention offers a search, an admin imports a found paper, its tuples are validated, and the question is answered when asked again', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const question = 'What is the critical temperature of Nb3Ge thin films?';
  await askOnAnswersPage(page, question);
  await expect(page.getByTestId('answer')).toHaveAttribute('data-shape', 'abstain');
  const offer = page.getByTestId('look-for-papers');
  await expect(offer).toContainText('The library holds too little for this question');
  await page.screenshot({ path: `${shots}/found-offer.png` });
  await offer.getByRole('button', { name: 'Look for papers' }).click();
  await page.waitForURL(/\/found\/[a-z0-9]+$/);

  // Three candidates from the (fake) OpenAlex and Europe PMC, each with why it may help and whether it can be imported.
  const candidates = page.getByTestId('candidate');
  await expect(candidates).toHaveCount(3);
  const films = candidates.filter({ hasText: 'Critical temperature of sputtered Nb3Ge thin films' });
  await expect(films.getByTestId('candidate-why')).toHaveText('May help: names Nb3Ge, critical temperature in its title.');
  await expect(films.getByTestId('candidate-licence')).toHaveText('CC BY');
  await expect(films).toContainText('found by OpenAlex and Europe PMC');
  const wires = candidates.filter({ hasText: 'Nb3Ge wires for superconducting magnets' });
  await expect(wires.getByTestId('candidate-blocked')).toContainText('its licence (CC BY-NC-ND) is not one imports are allowed under');
  await expect(wires.getByRole('checkbox')).toBeDisabled();
  await expect(candidates.filter({ hasText: 'A15 superconductors revisited' }).getByTestId('candidate-blocked')).toContainText('Europe PMC holds no full text');
  await page.screenshot({ path: `${shots}/found-candidates.png`, fullPage: true });

  // The admin imports the one that may help, through the import job.
  await films.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Import selected' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Queued the import of 1 paper (PMC9900001)' })).toBeVisible();
  await expect(page.getByTestId('found-status')).toHaveText('imported', { timeout: 120_000 });
  // Now in the library: linked there, and no longer offered for import.
  await expect(films.getByRole('link', { name: 'in the library' })).toBeVisible();
  await expect(films.getByRole('checkbox')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Import selected' })).toHaveCount(0);
  const imported = page.getByTestId('found-paper');
  await expect(imported.getByRole('link', { name: 'Critical temperature of sputtered Nb3Ge thin films' })).toBeVisible();
  // Validation kept a compound that cannot exist and a value in the wrong unit out of the graph, and says why.
  await expect(imported.getByTestId('found-validation')).toContainText(/\d+ tuples joined the graph · 2 rejected · 0 flagged as conflicts/);
  await expect(imported.getByRole('list', { name: 'Rejected tuples' })).toContainText('“Nb3Gc” names no compound: Gc is not an element');
  await expect(imported.getByRole('list', { name: 'Rejected tuples' })).toContainText(
    'wrong unit: mA/cm^2 is not a unit of superconducting transition temperature',
  );
  const trace = page.getByTestId('found-trace');
  await expect(trace.getByTestId('trace-step')).toHaveText([/^search-terms/, /^OpenAlex/, /^Europe PMC/, /^candidates/, /^import/, /^validate/]);
  await page.screenshot({ path: `${shots}/found-imported.png`, fullPage: true });

  // Asked again, the question is answered from the paper just imported.
  await page.getByRole('button', { name: 'Ask again' }).click();
  await page.waitForURL(/\/answers\/[a-z0-9]+$/);
  await expect(page.getByTestId('answer')).not.toHaveAttribute('data-shape', 'abstain');
  await expect(page.getByRole('list', { name: 'Answer sentences' })).toContainText('22.3 K');
  await expect(page.getByTestId('evidence-paper').first()).toContainText('Critical temperature of sputtered Nb3Ge thin films');
  await expect(page.getByTestId('look-for-papers')).toHaveCount(0);
  await page.goBack();
  await page.reload();
  await expect(page.getByTestId('found-trace').getByTestId('trace-step').last()).toContainText(/ask-again .*answered: (yes|true)/);
});
