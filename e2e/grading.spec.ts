import fs from 'node:fs';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { shots, waitForCorpus } from './helpers.ts';

/**
 * Expert grading end to end: two experts sign up, the admin gives them the expert role, creates a campaign from a
 * question file, both grade it blind with the keyboard (one loses the network mid-way and reloads: nothing is
 * lost), the admin reads the results with intervals and agreement, and exports the grades.
 */
const questions = [
  { id: 'c-1', type: 'doi', question: 'Which paper reports a peak power density of 0.812 W cm−2 at 973 K?', answer_doi: '10.9999/demo.sofc.2021.001' },
  { id: 'c-2', type: 'value', question: 'At what temperature was the LiMn2O4 gel formed?', answer_value: '80 °C' },
]
  .map((q) => JSON.stringify(q))
  .join('\n');

async function signUp(browser: Browser, name: string, email: string): Promise<Page> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto('/sign-in?mode=sign-up');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('expert-password-1');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByTestId('account')).toContainText('reader');
  return page;
}

/** Waits until the grading screen takes keys: a key pressed before its handler is attached is lost. */
async function keysReady(page: Page) {
  await expect(page.getByTestId('grading-screen')).toHaveAttribute('data-ready', 'true');
}

/** Scores the item on screen with the keyboard: content and citation of answer A, then of answer B, then submits. */
async function gradeWithKeys(page: Page, question: string, a: [string, string], b: [string, string]) {
  await expect(page.getByTestId('grading-question')).toContainText(question);
  await expect(page.getByTestId('blind-answer')).toHaveCount(2);
  await keysReady(page);
  await page.keyboard.press(a[0]);
  await page.keyboard.press(a[1]);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press(b[0]);
  await page.keyboard.press(b[1]);
  await expect(page.getByRole('button', { name: `Citation ${b[1]} for answer B` })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Enter');
}

test('campaign: create → blind keyboard grading with autosave across a failed save and a reload → results → export', async ({ page, browser }) => {
  test.setTimeout(180_000);
  await page.goto('/');
  await waitForCorpus(page);
  const ann = await signUp(browser, 'Ann Expert', 'ann@example.org');
  const bob = await signUp(browser, 'Bob Expert', 'bob@example.org');
  // A reader sees no grading.
  await ann.goto('/grading');
  await expect(ann.getByTestId('needs-role')).toContainText('Grading needs an expert account');

  // The admin gives both the expert role.
  await page.goto('/admin/users');
  for (const email of ['ann@example.org', 'bob@example.org']) {
    const row = page.getByRole('row').filter({ hasText: email });
    await row.getByLabel(`Role of ${email}`).selectOption('expert');
    await row.getByRole('button', { name: 'Set role' }).click();
    // The form says what it saved, and keeps the chosen role.
    await expect(row.getByTestId('role-result')).toHaveText(`Saved: ${email} is now an expert.`);
    await expect(row.getByLabel(`Role of ${email}`)).toHaveValue('expert');
    if (email === 'ann@example.org') await page.screenshot({ path: `${shots}/role-saved.png`, fullPage: true });
    // The page as the server renders it afterwards shows the new role.
    await expect(async () => {
      await page.reload();
      await expect(page.getByLabel(`Role of ${email}`)).toHaveValue('expert', { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
  }
  await page.screenshot({ path: `${shots}/users.png`, fullPage: true });

  // The admin creates a campaign from a question file.
  await page.goto('/grading/new');
  await page.getByLabel('Name').fill('SOFC and battery check');
  await page.getByRole('radio', { name: /Content \+ citation/ }).check();
  await page.getByRole('checkbox', { name: 'hybrid' }).check();
  await page.getByRole('checkbox', { name: 'bm25' }).check();
  await page.getByLabel('Answer mode').selectOption('extractive');
  await page.getByRole('checkbox', { name: /ann@example.org/ }).check();
  await page.getByRole('checkbox', { name: /bob@example.org/ }).check();
  const file = { name: 'check.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(questions) };
  await page.getByLabel(/A file: JSON lines/).setInputFiles(file);
  // Graders per item defaults to a valid number; asking for more graders than chosen is refused, and the form
  // comes back with every field as it was (the file must be chosen again, and the form says so).
  await expect(page.getByLabel(/Graders per item/)).toHaveValue('2');
  await page.getByLabel(/Graders per item/).fill('3');
  await page.getByRole('button', { name: 'Create and answer' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'graders per item' })).toContainText(
    'graders per item is a whole number from 1 to the number of graders (2)',
  );
  await expect(page.getByLabel('Name')).toHaveValue('SOFC and battery check');
  await expect(page.getByRole('checkbox', { name: 'hybrid' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'bm25' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'json-qr' })).not.toBeChecked();
  await expect(page.getByLabel('Answer mode')).toHaveValue('extractive');
  await expect(page.getByRole('checkbox', { name: /ann@example.org/ })).toBeChecked();
  await expect(page.getByLabel(/Graders per item/)).toHaveValue('3');
  await expect(page.getByText('Choose the file again (check.jsonl)')).toBeVisible();
  await page.screenshot({ path: `${shots}/campaign-form-error.png`, fullPage: true });
  await page.getByLabel(/Graders per item/).fill('2');
  await page.getByLabel(/A file: JSON lines/).setInputFiles(file);
  await page.screenshot({ path: `${shots}/campaign-new.png`, fullPage: true });
  await page.getByRole('button', { name: 'Create and answer' }).click();
  await expect(page.getByTestId('campaign-status')).toHaveAttribute('data-status', 'open', { timeout: 60_000 });
  const campaignUrl = page.url();

  // Ann grades item 1 with the keyboard; her answers are blind (no pipeline names anywhere on the screen).
  await ann.reload();
  await ann.goto(`${campaignUrl}/grade`);
  await expect(ann.getByTestId('grading-question')).toContainText('0.812 W cm−2');
  await expect(ann.locator('body')).not.toContainText('hybrid');
  await expect(ann.locator('body')).not.toContainText('bm25');
  await ann.getByRole('button', { name: /^supported \(claim 1, answer A\)/ }).click();
  await ann.screenshot({ path: `${shots}/grading.png`, fullPage: true });
  await gradeWithKeys(ann, '0.812', ['4', '4'], ['2', '3']);
  await expect(ann.getByTestId('grading-question')).toContainText('LiMn2O4');
  await keysReady(ann);

  // The network fails while she scores item 2: the screen says so, and a reload keeps her marks.
  await ann.route('**/api/grading/**', (route) => route.abort());
  await ann.keyboard.press('5');
  await expect(ann.getByTestId('save-state')).toHaveAttribute('data-state', 'error');
  await ann.reload();
  await expect(ann.getByRole('button', { name: 'Content 5 for answer A' })).toHaveAttribute('aria-pressed', 'true');
  await ann.unroute('**/api/grading/**');
  await expect(ann.getByTestId('save-state')).toHaveAttribute('data-state', 'saved', { timeout: 15_000 });
  await ann.reload();
  await expect(ann.getByRole('button', { name: 'Content 5 for answer A' })).toHaveAttribute('aria-pressed', 'true');
  await keysReady(ann);
  await ann.keyboard.press('5');
  await ann.keyboard.press('3');
  await ann.keyboard.press('ArrowRight');
  await ann.keyboard.press('1');
  await ann.keyboard.press('1');
  await ann.keyboard.press('Enter');
  await expect(ann.getByTestId('progress-text')).toHaveText('2 of 2 submitted');

  // Bob grades both items; he cannot see Ann's grades (results open to graders only when the campaign is closed).
  await bob.goto(`${campaignUrl}/results`);
  await expect(bob.locator('main')).toContainText('Results are shown to graders when the campaign is closed');
  await bob.goto(`${campaignUrl}/grade`);
  // Bob is on a slow network: he presses Enter while the autosave of his last mark is still on its way. The
  // submit waits for it (one save at a time) instead of being refused as a conflict, and the next item opens.
  await bob.route('**/api/grading/**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await expect(bob.getByTestId('grading-question')).toContainText('0.812');
  await expect(bob.getByTestId('blind-answer')).toHaveCount(2);
  await keysReady(bob);
  for (const key of ['4', '5', 'ArrowRight', '1', '2']) await bob.keyboard.press(key);
  await expect(bob.getByTestId('save-state')).toHaveAttribute('data-state', 'saving');
  await bob.keyboard.press('Enter');
  await expect(bob.getByTestId('grading-question')).toContainText('LiMn2O4');
  await bob.unroute('**/api/grading/**');
  await gradeWithKeys(bob, 'LiMn2O4', ['5', '3'], ['2', '0']);
  await expect(bob.getByTestId('progress-text')).toHaveText('2 of 2 submitted');

  // Results: both pipelines scored with intervals, the graders' agreement, and a chart.
  await page.goto(`${campaignUrl}/results`);
  await expect(page.getByTestId('score-row')).toHaveCount(2);
  await expect(page.locator('main')).toContainText('2 of 2 items have submitted grades');
  await expect(page.getByTestId('agreement').first()).toContainText('Krippendorff’s α');
  await expect(page.getByRole('img', { name: /Mean scores with 95% intervals/ })).toBeVisible();
  // Two graded items are too few to compare pipelines, and the page says so; the plot has an axis with its scale.
  await expect(page.getByTestId('small-sample')).toContainText('rest on fewer than 5 questions');
  await expect(page.getByTestId('chart-axis').first()).toContainText('5');
  await page.screenshot({ path: `${shots}/grading-results.png`, fullPage: true });

  // Export: the CSV opens as a table with one row per item × answer × grader.
  await page.goto(campaignUrl);
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const csv = fs.readFileSync((await (await download).path())!, 'utf8');
  const rows = parse(csv, { columns: true, bom: true }) as Record<string, string>[];
  expect(rows).toHaveLength(2 * 2 * 2);
  expect(new Set(rows.map((r) => r.rater))).toEqual(new Set(['ann@example.org', 'bob@example.org']));
  expect(new Set(rows.map((r) => r.pipeline))).toEqual(new Set(['hybrid', 'bm25']));
  expect(rows.every((r) => /^\d$/.test(r.content) && /^\d$/.test(r.citation))).toBe(true);
  await page.getByRole('button', { name: 'Close campaign' }).click();
  await expect(page.getByTestId('campaign-status')).toHaveAttribute('data-status', 'closed');
  await bob.goto(`${campaignUrl}/results`);
  await expect(bob.getByTestId('score-row')).toHaveCount(2);
});
