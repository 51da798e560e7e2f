import { expect, test } from '@playwright/test';
import { shots, waitForCorpus } from './helpers.ts';

test.beforeEach(async ({ page }) => {
  await waitForCorpus(page);
});

// Runs before the merge is undone below: the explorer follows canonical merges.
test('graph explorer: find an entity, see its neighbourhood, expand a node through a merge, list an edge’s tuples, export', async ({ page }) => {
  await page.goto('/graph');
  await page.getByLabel('Find an entity').fill('doping');
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  const matches = page.getByRole('list', { name: 'Matching entities' });
  await matches.getByRole('link', { name: /Sr doping/i }).click();
  await page.waitForURL(/explore=/);
  const graph = page.getByTestId('graph-view');
  await expect(graph.locator('canvas').first()).toBeVisible();
  await expect(graph.getByRole('list', { name: 'Legend' })).toContainText('2 nodes · 1 edges');
  // The header names the entity as a reader writes it, not by its internal key.
  await expect(page.getByText(/^Around /)).toContainText(/Around Sr doping/i);
  await expect(page.getByText(/^Around /)).not.toContainText(/\b[mfpcn]:/);
  await graph.getByText(/as a list/).click();
  // The effect node: expanding it brings the other paper's tuple, whose spelling canonical clustering merged.
  await graph
    .getByRole('list', { name: 'Nodes' })
    .getByRole('button', { name: /grain boundary conductivit/ })
    .click();
  await graph.getByRole('button', { name: 'Expand neighbourhood' }).click();
  await expect(graph.getByRole('status')).toHaveText(/^[1-9]\d* nodes and [1-9]\d* edges added$/);
  await expect(graph.getByRole('list', { name: 'Nodes' })).toContainText(/Ba doping/i);
  // The two spellings canonical clustering merged are both shown, joined by a "same as" link.
  await expect(graph.getByRole('list', { name: 'Legend' })).toContainText('merged names 1');
  await expect(graph.getByRole('list', { name: 'Edges' })).toContainText(/grain boundary conductivit\w+ — same as → higher grain boundary conductivit/);
  await graph
    .getByRole('list', { name: 'Edges' })
    .getByRole('button', { name: /Ba doping/i })
    .click();
  await expect(graph.getByTestId('graph-edge')).toContainText('The Ba doping leads to higher grain boundary conductivities.');
  await expect(graph.getByTestId('graph-edge').getByRole('link', { name: 'open paragraph' })).toHaveAttribute('href', /\/papers\/[^#]+#p0$/);
  await page.screenshot({ path: `${shots}/graph-explorer.png`, fullPage: true });
  const [graphml] = await Promise.all([page.waitForEvent('download'), graph.getByRole('button', { name: 'Export GraphML' }).click()]);
  const xml = await (await import('node:fs/promises')).readFile((await graphml.path())!, 'utf8');
  expect(xml).toMatch(/<graphml [^>]*>/);
  expect((xml.match(/<edge /g) ?? []).length).toBe(2);
});

test('graph labels stay legible when a crowded view is zoomed out', async ({ page }) => {
  await page.goto('/graph');
  await page.getByLabel('Find an entity').fill('conductivity');
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await page
    .getByRole('list', { name: 'Matching entities' })
    .getByRole('link', { name: /conductivity/i })
    .first()
    .click();
  await page.waitForURL(/explore=/);
  const graph = page.getByTestId('graph-view');
  const canvas = graph.locator('[data-label-px]');
  await expect(canvas).toHaveAttribute('data-zoom', /.+/);
  console.log(`crowded view: ${await graph.getByRole('list', { name: 'Legend' }).textContent()} · fitted at zoom ${await canvas.getAttribute('data-zoom')}`);
  // Zoomed out (as a fitted view of a hundred nodes is drawn), its labels are still drawn at a readable size.
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await expect(async () => {
    await page.mouse.wheel(0, 1500);
    expect(Number(await canvas.getAttribute('data-zoom'))).toBeLessThan(0.6);
  }).toPass();
  const zoom = Number(await canvas.getAttribute('data-zoom'));
  const px = Number(await canvas.getAttribute('data-label-px'));
  console.log(`zoomed out to ${zoom}: node labels ${px} px on screen`);
  expect(px).toBeGreaterThanOrEqual(10);
  await page.screenshot({ path: `${shots}/graph-crowded.png`, fullPage: true });
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

/** Where cytoscape drew each node, in page pixels: read from the instance cytoscape registers on its container. */
async function nodePlaces(page: import('@playwright/test').Page) {
  const container = page.getByTestId('graph-view').locator('[data-label-px]');
  await expect(container).toHaveAttribute('data-zoom', /.+/);
  const box = (await container.boundingBox())!;
  const places = await container.evaluate((el) => {
    const cy = (el as unknown as { _cyreg: { cy: import('cytoscape').Core } })._cyreg.cy;
    return cy.nodes().map((n) => ({ id: n.id(), label: String(n.data('label')), ...n.renderedPosition() }));
  });
  return places.map((p) => ({ ...p, x: box.x + p.x, y: box.y + p.y }));
}

test('graph first view: opens on a material, the same picture on every load, a click on a node or its label selects it', async ({ page }) => {
  await page.goto('/graph');
  // Before any search: the materials with values in the most papers, the first one's neighbourhood drawn.
  await expect(page.getByRole('list', { name: 'Start from' }).getByRole('link').first()).toBeVisible();
  await expect(page.getByText(/^Around /)).toContainText('the material with values in the most papers');
  const first = await nodePlaces(page);
  expect(first.length).toBeGreaterThan(1);
  await page.screenshot({ path: `${shots}/graph-first-view.png`, fullPage: true });

  // A stable layout: reloaded, every node is where it was.
  await page.reload();
  const again = await nodePlaces(page);
  expect(again.map((n) => [n.id, Math.round(n.x), Math.round(n.y)])).toEqual(first.map((n) => [n.id, Math.round(n.x), Math.round(n.y)]));

  // A click on a node selects that node (not an edge lying over it).
  const [a, b] = again;
  await page.mouse.click(a.x, a.y);
  await expect(page.getByTestId('graph-node')).toContainText(a.label);
  await expect(page.getByTestId('graph-edge')).toHaveCount(0);
  // So does a click on its label, drawn under it.
  await page.mouse.click(b.x, b.y + 16);
  await expect(page.getByTestId('graph-node')).toContainText(b.label);
});
