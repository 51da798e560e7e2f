import { expect, test } from '@playwright/test';
import { shots, waitForCorpus } from './helpers.ts';

test.beforeEach(async ({ page }) => {
  await waitForCorpus(page);
});

test('ask on the home page: Enter asks, the evidence arrives first, then the cited answer, kept at its own URL', async ({ page }) => {
  // The retrieval index is built once per corpus version; build it before timing the first evidence.
  expect((await page.request.post('/api/retrieve', { data: { question: 'warm up the index', pipeline: 'hybrid' } })).ok()).toBe(true);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Ask the literature' })).toBeVisible();
  await expect(page.getByLabel('Answer mode')).toContainText('extractive (no model configured)');
  const question = page.getByLabel('Question', { exact: true });
  await question.fill('Which paper reports a peak power density of 0.812 W cm−2 at 973 K?');
  await question.press('Enter');

  const answer = page.getByRole('region', { name: 'Answer', exact: true });
  await expect(answer.getByTestId('answer')).toHaveAttribute('data-shape', 'which-paper');
  const sentences = answer.getByRole('list', { name: 'Answer sentences' }).getByRole('listitem');
  await expect(sentences.first()).toContainText('Cobalt-free perovskite cathodes for intermediate-temperature fuel cells');
  await expect(sentences.nth(1)).toContainText('812 mW cm−2 at 700 °C');
  await expect(sentences.nth(1)).toContainText('supported');
  // Time from pressing Enter to the first evidence on screen, measured in the page.
  const firstEvidence = Number((await answer.getByTestId('first-evidence').textContent())?.match(/(\d+) ms/)?.[1]);
  console.log(`first evidence on screen after ${firstEvidence} ms`);
  expect(firstEvidence).toBeGreaterThan(0);
  expect(firstEvidence).toBeLessThanOrEqual(1000);
  await page.screenshot({ path: `${shots}/ask.png`, fullPage: true });

  await answer.getByRole('link', { name: 'Permanent link' }).click();
  await page.waitForURL(/\/answers\/[a-z0-9]+$/);
  await expect(page.getByRole('heading', { name: /0\.812 W cm−2 at 973 K/ })).toBeVisible();
  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Recent questions' })).toContainText('0.812 W cm−2 at 973 K');
});

test('ask on the home page: a question with no support says so, and Shift+Enter does not ask', async ({ page }) => {
  await page.goto('/');
  const question = page.getByLabel('Question', { exact: true });
  await question.fill('What is the Tafel slope of CoFeMoP/NF');
  await question.press('Shift+Enter');
  await question.pressSequentially(' in 1 M KOH?');
  await expect(page.getByRole('region', { name: 'Answer', exact: true })).toHaveCount(0);
  await expect(question).toHaveValue('What is the Tafel slope of CoFeMoP/NF\n in 1 M KOH?');
  await page.getByRole('button', { name: 'Ask' }).click();
  const answer = page.getByRole('region', { name: 'Answer', exact: true });
  await expect(answer.getByTestId('answer')).toHaveAttribute('data-shape', 'abstain');
  await expect(answer.getByTestId('answer').getByRole('status')).toContainText('Not answered from this corpus');
});

test('the graph behind an answer: tiered reasoning’s causal path highlighted, an edge opens its tuple and paragraph', async ({ page }) => {
  await page.goto('/');
  await page.getByText('Advanced: how evidence is found and the answer written').click();
  await expect(page.getByLabel('Pipeline')).toContainText('Paragraphs and knowledge graph (recommended)');
  await page.getByLabel('Pipeline').selectOption('aria');
  await expect(page.getByTestId('pipeline-hint')).toContainText('Cause-and-effect reasoning: Explains why');
  const question = page.getByLabel('Question', { exact: true });
  await question.fill('Does Sr doping lead to higher grain boundary conductivity?');
  await question.press('Enter');
  const answer = page.getByRole('region', { name: 'Answer', exact: true });
  await expect(answer.getByTestId('answer')).toHaveAttribute('data-shape', 'design');
  await expect(answer.getByRole('list', { name: 'Answer sentences' })).toContainText('Tier 1 (direct evidence)');

  const folded = answer.getByTestId('answer-graph');
  await expect(folded).toContainText('causal path highlighted');
  await folded.getByText('Graph behind this answer').click();
  const graph = folded.getByTestId('graph-view');
  await expect(graph.locator('canvas').first()).toBeVisible();
  await expect(graph.getByTestId('legend-path')).toHaveText('causal path 1 edges');
  await graph.getByText(/as a list/).click();
  const pathEdge = graph.getByRole('list', { name: 'Edges' }).getByRole('listitem').filter({ hasText: 'causal path' });
  await expect(pathEdge).toContainText(/Sr doping — \w+ → higher grain boundary conductivit/);
  await page.screenshot({ path: `${shots}/answer-graph.png`, fullPage: true });
  await pathEdge.getByRole('button').click();
  await expect(graph.getByTestId('graph-edge')).toContainText('The Sr doping leads to higher grain boundary conductivity.');
  await expect(graph.getByTestId('graph-edge').getByRole('link', { name: 'open paragraph' })).toHaveAttribute('href', /\/papers\/[^#]+#p0$/);
});
