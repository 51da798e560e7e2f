import http from 'node:http';
import { expect, test } from '@playwright/test';
import { adminSession, shots, waitForCorpus } from './helpers.ts';

test.beforeEach(async ({ page }) => {
  await waitForCorpus(page);
});

test('library: totals, full-text search with highlights, filters and paging', async ({ page }) => {
  await page.goto('/library');
  await expect(page.getByTestId('library-totals')).toHaveText(/46 papers · \d+ paragraphs · 2 structured records/);
  await expect(page.getByTestId('result-count')).toHaveText(/46 papers · page 1 of 3/);
  await page.getByRole('link', { name: 'Next →' }).click();
  await expect(page.getByTestId('result-count')).toHaveText(/page 2 of 3/);
  await expect(page.getByTestId('results').getByRole('listitem')).toHaveCount(20);

  await page.getByRole('searchbox', { name: 'Search' }).fill('screen-printed ceria');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByTestId('result-count')).toHaveText('1 paper matching “screen-printed ceria”');
  const hit = page.getByTestId('results').getByRole('listitem');
  await expect(hit.getByRole('link')).toHaveText('Cobalt-free perovskite cathodes for intermediate-temperature fuel cells');
  await expect(hit.locator('mark').first()).toHaveText(/screen|ceria/);
  await page.screenshot({ path: `${shots}/library-search.png`, fullPage: true });

  await page.goto('/library');
  await page.getByLabel('Domain').selectOption('membranes');
  await page.getByLabel('Year from').fill('2010');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByTestId('result-count')).toHaveText('10 papers');
  await page.getByLabel('Search in').selectOption('author');
  await page.getByRole('searchbox', { name: 'Search' }).fill('Hopper');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByTestId('result-count')).toHaveText(/10 papers matching “Hopper”/);
});

test('library: structured filters by method, material spelling and condition in any unit', async ({ page }) => {
  await page.goto('/library');
  await page.getByLabel('Synthesis method').selectOption('sol-gel');
  await page.getByLabel('Condition').fill('353 K');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByTestId('condition-interpretation')).toHaveText(
    'Condition read as temperature 353 K: papers stating a temperature in that range, in any unit',
  );
  await expect(page.getByTestId('results').getByRole('link')).toHaveText(['Sol-gel synthesis of spinel LiMn2O4 for lithium-ion batteries']);
  await page.goto('/library?material=yttria-stabilized+zirconia');
  // The anode paper, and the table paper whose caption names its Ni–YSZ supported cells ("YSZ" is the same material).
  await expect(page.getByTestId('results').getByRole('link')).toHaveText([
    'Cobaltite and ferrite cathodes compared in anode-supported cells',
    'Nickel–yttria-stabilised zirconia anodes under methane',
  ]);
  await page.screenshot({ path: `${shots}/library-filters.png`, fullPage: true });
});

test('paper page: metadata, DOI link, sections, and linked structured records', async ({ page }) => {
  await page.goto('/library?q=10.9999/demo.battery.2019.002&field=doi');
  await page.getByTestId('results').getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sol-gel synthesis of spinel LiMn2O4 for lithium-ion batteries');
  await expect(page.getByTestId('doi-link')).toHaveAttribute('href', 'https://doi.org/10.9999/demo.battery.2019.002');
  await expect(page.getByText('CC-BY 4.0')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Abstract' })).toBeVisible();
  await expect(page.getByTestId('record-count')).toHaveText('2 linked records');
  await page.getByText('0.5 Li2CO3 + 2 MnO2 == 1 LiMn2O4 + 0.5 CO2 + 0.25 O2').first().isVisible();
  // Structuring: role and method badges, highlighted quantities with their canonical value, the record tree.
  await expect(page.getByTestId('role-badge').first()).toBeVisible();
  await expect(page.getByTestId('method-badge').first()).toHaveText('sol-gel');
  await expect(page.locator('[data-mention="quantity"][data-type="temperature"]').first()).toHaveAttribute('title', 'temperature · 353.15 K');
  await expect(page.getByTestId('paper-record')).toContainText('synthesis entries');
  const imported = page.getByTestId('imported-record').first();
  // Records read as words and values; the JSON is behind a toggle.
  await expect(imported.getByTestId('readable-data')).toContainText('synthesis type');
  await imported.locator('summary', { hasText: 'JSON' }).click();
  await expect(imported.getByText('"sol-gel"')).toBeVisible();
  await page.screenshot({ path: `${shots}/paper.png`, fullPage: true });

  await page.goto('/library?q=ceria+dilatometry');
  await page.getByTestId('results').getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thermal expansion of doped ceria electrolytes');
  await expect(page.getByRole('heading', { name: 'Introduction' })).toBeVisible();
});

test('import: upload with live progress, per-file errors, and the new paper in the library', async ({ page }) => {
  await page.goto('/import');
  await expect(page.getByTestId('recent-runs')).toContainText('startup');
  await page.getByTestId('file-input').setInputFiles([
    {
      name: 'hydrothermal-zno.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from('# Hydrothermal ZnO nanorods on FTO\n\n## Methods\nZnO nanorods were grown at 90 °C for 6 h in zinc nitrate and HMTA.\n'),
    },
    { name: 'broken.xml', mimeType: 'application/xml', buffer: Buffer.from('<TEI><teiHeader><fileDesc>') },
    { name: 'slides.docx', mimeType: 'application/octet-stream', buffer: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]) },
  ]);
  await expect(page.getByTestId('selected-files').getByRole('listitem')).toHaveCount(3);
  await page.getByRole('button', { name: 'Import 3 files' }).click();
  const status = page.getByTestId('run-status').first();
  await expect(status).toHaveAttribute('data-status', 'succeeded');
  await expect(status.getByTestId('run-counts')).toContainText('3/3 files · 1 paper added');
  const errors = status.getByTestId('run-errors');
  await expect(errors).toContainText('broken.xml');
  await expect(errors).toContainText('malformed XML: the file ends before <TEI>, <teiHeader>, <fileDesc> are closed');
  await expect(errors).toContainText('slides.docx');
  await expect(errors).toContainText('unsupported binary file');
  await expect(page.getByTestId('recent-runs').getByRole('listitem').first()).toContainText('succeeded · 1 papers');
  await page.screenshot({ path: `${shots}/import.png`, fullPage: true });

  await page.goto('/library?q=HMTA');
  await expect(page.getByTestId('results').getByRole('link')).toHaveText('Hydrothermal ZnO nanorods on FTO');
});

test('import refuses an oversized or empty upload with a clear message', async ({ request }) => {
  const empty = await request.post('/api/import', { multipart: {} });
  expect(empty.status()).toBe(400);
  expect((await empty.json()).error).toMatch(/no files|multipart/);
  // The e2e server runs with ASSAY_MAX_UPLOAD_MB=5.
  const big = await request.post('/api/import', {
    multipart: { files: { name: 'big.jsonl', mimeType: 'application/json', buffer: Buffer.alloc(7 * 1024 * 1024, 0x20) } },
  });
  expect(big.status()).toBe(413);
  expect((await big.json()).error).toMatch(/limit/);
});

test('a chunked upload with no Content-Length is cut at the limit as it streams, not read whole first', async ({ baseURL }) => {
  // 400 MiB offered as a chunked body (no Content-Length) to a server whose limit is 5 MiB.
  const url = new URL('/api/import', baseURL);
  const { header: cookie } = await adminSession(url.origin);
  const boundary = 'assay-e2e-chunked';
  const chunk = Buffer.alloc(256 * 1024, 0x78);
  let written = 0;
  const result = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie },
      },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', (error) => (written > 0 ? undefined : reject(error)));
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="huge.jsonl"\r\n\r\n`);
    const pump = () => {
      while (written < 400 * 1048576) {
        written += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end(`\r\n--${boundary}--\r\n`);
    };
    pump();
  });
  expect(result.status).toBe(413);
  expect(JSON.parse(result.body).error).toMatch(/larger than the 5 MiB limit/);
  // The server stopped reading near the limit: far less than the 400 MiB offered went out.
  expect(written).toBeLessThan(64 * 1048576);
  expect((await (await fetch(new URL('/api/health', baseURL))).json()).ok).toBe(true);
});

test('a file claiming a stored paper’s DOI replaces it visibly: the import says so, the earlier text stays readable and can be restored', async ({ page }) => {
  const note = (title: string, text: string) => ({
    name: `${title.toLowerCase().replace(/\W+/g, '-')}.md`,
    mimeType: 'text/markdown',
    buffer: Buffer.from(`# ${title}\n\ndoi: 10.9999/e2e.versions.1\n\n${text}\n`),
  });
  const upload = async (file: ReturnType<typeof note>) => {
    await page.goto('/import');
    await page.getByTestId('file-input').setInputFiles([file]);
    await page.getByRole('button', { name: 'Import 1 file' }).click();
    const status = page.getByTestId('run-status').first();
    await expect(status).toHaveAttribute('data-status', 'succeeded');
    return status;
  };
  await upload(note('Original notes on CGO sintering', 'Ce0.9Gd0.1O2 was sintered at 1400 °C for 4 h in air.'));
  const replaced = await upload(note('Replacement', 'Nothing here.'));
  await expect(replaced).toContainText('1 stored paper was replaced by another file, the earlier text kept as a version');
  await expect(replaced).toContainText('title “Original notes on CGO sintering” → “Replacement”');

  await page.goto('/library?q=10.9999/e2e.versions.1&field=doi');
  await page.getByTestId('results').getByRole('link', { name: 'Replacement' }).click();
  const versions = page.getByTestId('paper-versions');
  await expect(versions).toContainText('Earlier versions (1)');
  await versions.getByText('Read this version').click();
  await expect(versions).toContainText('Ce0.9Gd0.1O2 was sintered at 1400 °C for 4 h in air.');
  await page.screenshot({ path: `${shots}/paper-versions.png`, fullPage: true });
  await versions.getByRole('button', { name: 'Restore this version' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Original notes on CGO sintering');
  // The replacement is kept in turn: restoring loses nothing either.
  await expect(page.getByTestId('paper-version')).toHaveCount(1);
  await expect(page.getByTestId('paper-version')).toContainText('Replacement');
});

test('a long paper is read in pages, and a link to a paragraph opens its page scrolled to it', async ({ page, request }) => {
  const paragraphs = Array.from({ length: 450 }, (_, i) => `Paragraph ${i + 1} of the long note: sample L${i + 1} was annealed at ${500 + i} °C.`);
  const res = await request.post('/api/import', {
    multipart: { files: { name: 'long-note.md', mimeType: 'text/markdown', buffer: Buffer.from(`# A very long note\n\n${paragraphs.join('\n\n')}\n`) } },
  });
  const { runId } = await res.json();
  await expect.poll(async () => (await (await request.get(`/api/ingest-runs/${runId}`)).json()).run.status).toBe('succeeded');
  await page.goto('/library?q=very+long+note&field=title');
  await page.getByTestId('results').getByRole('link', { name: 'A very long note' }).click();
  const pager = page.getByTestId('paper-pages').first();
  await expect(pager).toContainText('paragraphs 1–200 of 450');
  await expect(page.locator('[id^="p"][data-paragraph-id]')).toHaveCount(200);
  await pager.getByRole('link', { name: '3' }).click();
  await expect(page.getByTestId('paper-pages').first()).toContainText('paragraphs 401–450 of 450');
  await expect(page.locator('#p449')).toContainText('Paragraph 450 of the long note');
  // The address a citation of paragraph 449 opens: its page, scrolled to it.
  const url = new URL(page.url());
  await page.goto(`${url.pathname}?page=3#p449`);
  await expect(page.locator('#p449')).toBeInViewport();
});

test('an uploaded paper’s synthesis paragraph shows its method and its materials with their roles', async ({ page }) => {
  await page.goto('/import');
  // An invented recipe paragraph, written the way such papers write them.
  const recipe =
    'Co3O4 nanowires were synthesized by a hydrothermal method. Briefly, 2 mmol of Co(NO3)2·6H2O, 8 mmol of NH4F and 10 mmol of urea ' +
    'were dissolved in 40 mL of deionized water. A piece of clean Ni foam was immersed in the solution, which was then transferred into a ' +
    'Teflon-lined autoclave and heated at 120 °C for 6 h. The product was washed with ethanol and annealed at 350 °C for 2 h in air.';
  await page
    .getByTestId('file-input')
    .setInputFiles([
      { name: 'co3o4-nanowires.md', mimeType: 'text/markdown', buffer: Buffer.from(`# Co3O4 nanowires on nickel foam\n\n## Experimental\n${recipe}\n`) },
    ]);
  await page.getByRole('button', { name: 'Import 1 file' }).click();
  await expect(page.getByTestId('run-status').first()).toHaveAttribute('data-status', 'succeeded');
  await page.goto('/library?q=nanowires+nickel+foam');
  await page.getByTestId('results').getByRole('link', { name: 'Co3O4 nanowires on nickel foam' }).click();
  const paragraph = page.locator('[data-paragraph-id]').filter({ hasText: 'were synthesized by a hydrothermal method' });
  await expect(paragraph.getByTestId('role-badge')).toHaveText('synthesis');
  await expect(paragraph.getByTestId('method-badge')).toHaveText('hydro-solvothermal');
  const roles = paragraph.getByTestId('paragraph-materials');
  await expect(roles.locator('[data-role="target"]')).toHaveText('targetCo3O4');
  await expect(roles.locator('[data-role="precursor"]')).toHaveText('precursorsCo(NO3)2·6H2O');
  await expect(roles.locator('[data-role="additive"]')).toHaveText('additivesNH4F, urea');
  await expect(roles.locator('[data-role="solvent"]')).toHaveText('solventsdeionized water');
  await expect(roles.locator('[data-role="substrate"]')).toHaveText('substrateNi foam');
  // The paper's record reads as a recipe, not as its fields.
  const card = page.getByTestId('paper-record').getByTestId('record-recipe');
  await expect(card).toContainText('Recipe · hydro-solvothermal · from paragraph 1');
  await expect(card).toContainText(/MadeCo3O4/);
  await expect(card.getByRole('list', { name: 'Steps' })).toContainText('120 °C');
  await page.screenshot({ path: `${shots}/paper-synthesis-roles.png`, fullPage: true });
});
