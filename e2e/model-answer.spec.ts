import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { corpusPapers, tempDir, writeCorpusJsonl } from '../scripts/test-support/fixtures.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../scripts/test-support/fake-openai.ts';
import { startBuiltApp } from '../scripts/test-support/built-app.ts';
import { shots } from './helpers.ts';

/**
 * A model answer in the browser, through the real provider path: the app is started with ASSAY_LLM_BASE_URL pointing
 * at a local fake OpenAI-compatible server (a test stand-in, not a model), which streams its reply slowly so the
 * page can be watched while it writes. The fake answers as a model would, from the evidence blocks it was sent: it
 * cites the block that states the asked value, then adds a sentence the evidence does not support.
 */
const port = String(Number(process.env.E2E_PORT ?? '3311') + 3);
const base = `http://127.0.0.1:${port}`;
const QUESTION = 'Which paper reports a peak power density of 0.812 W cm−2 at 973 K?';

/** The reply of the fake: the label of the block that states 812 mW cm−2 (as a model would find it), cited. */
function replyFrom(body: FakeOpenAI['bodies'][number]): string {
  const user = JSON.stringify(body.messages);
  const block = user.match(/\[(E\d+)\] \([^)]*\)\\n[^[]*?812 mW cm−2/)?.[1];
  if (!block) return 'INSUFFICIENT_EVIDENCE';
  return (
    `The cobalt-free La0.6Sr0.4FeO3 cathode reached a peak power density of 812 mW cm−2 at 700 °C [${block}]. ` +
    `It also reached 2.5 W cm−2 at 500 °C [${block}]. ` +
    'This is the highest value reported for any cathode [E42].'
  );
}

let fake: FakeOpenAI;
let app: ChildProcess | null = null;
let corpus = '';
let dataDir = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  fake = await startFakeOpenAI(replyFrom, { chunkDelayMs: 60, usage: { prompt_tokens: 1200, completion_tokens: 80 } });
  corpus = tempDir('assay-model-corpus-');
  writeCorpusJsonl(corpus, 'papers.jsonl', corpusPapers);
  dataDir = tempDir('assay-model-data-');
  app = startBuiltApp(port, {
    ASSAY_DATA_DIR: dataDir,
    ASSAY_CORPUS: corpus,
    ASSAY_LLM_BASE_URL: fake.base,
    ASSAY_CHAT_MODEL: 'fake-chat',
    // Reformulation stays on its rules here: this test is about the answer the model writes.
    ASSAY_REFORMULATION: 'rules',
    ASSAY_LOCAL_EMBEDDER: 'ngram',
    ASSAY_PRICE_INPUT_PER_MTOK: '2.5',
    ASSAY_PRICE_OUTPUT_PER_MTOK: '10',
  });
  await expect
    .poll(
      async () => {
        try {
          return ((await (await fetch(`${base}/api/health`)).json()) as { papers?: number }).papers ?? 0;
        } catch {
          return 0;
        }
      },
      { timeout: 150_000, intervals: [250] },
    )
    .toBeGreaterThanOrEqual(corpusPapers.length);
});

test.afterAll(async () => {
  if (app?.pid) {
    try {
      process.kill(-app.pid, 'SIGTERM');
    } catch {
      // already stopped
    }
  }
  await fake?.close();
  for (const dir of [corpus, dataDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('a model answer streams in with each sentence checked as it is written, its tokens and cost, and citations that open their evidence', async ({ page }) => {
  await page.goto(`${base}/`);
  const modelId = `${new URL(fake.base).host}/fake-chat`;
  await expect(page.getByLabel('Answer mode')).toContainText(`model (${modelId})`);
  const question = page.getByLabel('Question', { exact: true });
  await question.fill(QUESTION);
  await question.press('Enter');

  // While the model writes: the first sentence is already checked and shown with its verdict, the rest still arriving.
  const progress = page.getByRole('region', { name: 'Answer in progress' });
  const streamedClaims = progress.getByTestId('streamed-claims').getByTestId('claim');
  await expect(streamedClaims.first()).toHaveAttribute('data-verdict', 'supported');
  await expect(streamedClaims.first()).toContainText('812 mW cm−2 at 700 °C');
  await expect(progress.getByTestId('streamed-evidence')).toContainText('Cobalt-free perovskite cathodes');
  await page.screenshot({ path: `${shots}/model-answer-streaming.png`, fullPage: true });

  const answer = page.getByRole('region', { name: 'Answer', exact: true });
  await expect(answer.getByTestId('answer')).toHaveAttribute('data-mode', 'generative');
  await expect(answer.getByTestId('answer-mode')).toContainText(`Written by ${modelId} from the evidence`);
  // 1200 prompt and 80 completion tokens at $2.5 and $10 per million: $0.0038.
  await expect(answer.getByTestId('answer-mode')).toContainText('1200 prompt + 80 completion tokens · $0.0038');
  const claims = answer.getByRole('list', { name: 'Answer sentences' }).getByTestId('claim');
  await expect(claims).toHaveCount(3);
  await expect(claims.nth(0)).toHaveAttribute('data-verdict', 'supported');
  // A value the cited paragraph does not state is caught; a citation to a block that was never sent is removed.
  await expect(claims.nth(1)).not.toHaveAttribute('data-verdict', 'supported');
  await expect(claims.nth(2)).toHaveAttribute('data-verdict', 'uncited');
  await expect(claims.nth(2)).toContainText('a citation to evidence not retrieved was removed');
  await expect(claims.nth(2)).not.toContainText('[E42]');
  await page.screenshot({ path: `${shots}/model-answer.png`, fullPage: true });

  // The chip opens the cited paragraph in its paper, the stated sentence marked.
  const chip = claims.nth(0).getByRole('button', { name: /^E\d+: show its provenance$/ });
  const label = (await chip.textContent())!.trim();
  await chip.click();
  const panel = page.getByRole('complementary', { name: `Provenance of ${label}` });
  await expect(panel.getByTestId('provenance-source')).toContainText('Cobalt-free perovskite cathodes for intermediate-temperature fuel cells');
  await expect(panel.getByTestId('provenance-paragraph').locator('mark')).toHaveText(/812 mW cm−2 at 700 °C/);

  // The model was sent the evidence as numbered blocks, and asked to stream.
  const sent = fake.bodies.find((b) => b.stream);
  expect(sent?.model).toBe('fake-chat');
  expect(JSON.stringify(sent?.messages)).toContain(`[${label}] (Cobalt-free perovskite cathodes`);
});
