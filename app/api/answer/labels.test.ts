import fs from 'node:fs';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * One citable pool: the label a reader sees next to a cited item ([E3]) names the same item while the answer
 * streams (the source parts, the text's markers, the checked sentences), once it is stored, and on the rendered
 * page. The answer route runs on a fresh embedded database holding the invented fixture corpus.
 */
const state = vi.hoisted(() => {
  const dir = require('node:fs').mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'assay-labels-'));
  process.env.ASSAY_DATA_DIR = dir;
  process.env.ASSAY_CORPUS = '';
  process.env.ASSAY_ANONYMOUS = 'reader';
  return { dir, fake: null as null | { close(): Promise<void> } };
});
vi.mock('next/headers', () => ({ headers: async () => new Headers(), cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => {} }) }));

interface StreamedAnswer {
  /** Item id → label, from the stream's source parts. */
  sourceLabels: Map<string, string>;
  text: string;
  /** The last version of each checked sentence: its cited ids. */
  claims: Map<number, string[]>;
  stored: { id: string; answer: import('@/lib/answer/types').Answer };
}

/** Asks through the answer route and reads its UI message stream (server-sent events) to the end. */
async function ask(body: object): Promise<StreamedAnswer> {
  const { POST } = await import('./route');
  const res = await POST(
    new Request('http://127.0.0.1:3000/api/answer', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    { params: Promise.resolve({}) },
  );
  expect(res.status).toBe(200);
  const out: StreamedAnswer = { sourceLabels: new Map(), text: '', claims: new Map(), stored: null as never };
  for (const line of (await res.text()).split('\n')) {
    if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
    const part = JSON.parse(line.slice(6));
    if (part.type === 'source-document') out.sourceLabels.set(part.sourceId, /^E\d+/.exec(part.title)![0]);
    else if (part.type === 'text-delta') out.text += part.delta;
    else if (part.type === 'data-claim') out.claims.set(part.data.index, part.data.sentence.citations);
    else if (part.type === 'data-answer') out.stored = part.data;
    else if (part.type === 'error') throw new Error(part.errorText);
  }
  return out;
}

/** The citation chips of each rendered sentence, in order. */
function renderedChips(html: string): string[][] {
  return [...html.matchAll(/<li[^>]*data-testid="claim"[^>]*>([\s\S]*?)<\/li>/g)].map((m) =>
    [...m[1].matchAll(/aria-label="(E\d+): show its provenance"/g)].map((c) => c[1]),
  );
}

beforeAll(async () => {
  // A model through the real provider path: it cites the last evidence block of its prompt and then the first,
  // so its labels are not simply E1, E2.
  const { startFakeOpenAI } = await import('@/scripts/test-support/fake-openai');
  const fake = await startFakeOpenAI((body) => {
    const prompt = JSON.stringify(body.messages);
    const labels = [...prompt.matchAll(/\[(E\d+)\] \(/g)].map((m) => m[1]);
    return `The evidence states the measured values [${labels.at(-1)}]. The first block agrees [${labels[0]}].`;
  });
  state.fake = fake;
  process.env.ASSAY_LLM_BASE_URL = fake.base;
  process.env.ASSAY_CHAT_MODEL = 'fake-writer';
  process.env.ASSAY_REFORMULATION = 'rules';
  const { getDatabase } = await import('@/lib/db/client');
  const { ingestFixtureCorpus } = await import('@/scripts/test-support/fixture-corpus');
  await ingestFixtureCorpus(await getDatabase());
});
afterAll(async () => {
  const { closeDatabase } = await import('@/lib/db/client');
  await closeDatabase();
  await state.fake?.close();
  fs.rmSync(state.dir, { recursive: true, force: true });
});

describe('citation labels are the same in the stream, the stored answer and the rendered page', () => {
  it.each([
    ['a value', { question: 'What peak power density does the cobalt-free La0.6Sr0.4FeO3 cathode reach at 700 °C?', mode: 'extractive' }],
    [
      'a which-paper question',
      { question: 'Which paper reports a discharge capacity of 128 mAh g−1 for spinel LiMn2O4?', pipeline: 'graph', mode: 'extractive' },
    ],
    ['a design suggestion', { question: 'How can we obtain a cathode with a power density above 400 mW cm-2?', pipeline: 'aria', mode: 'extractive' }],
    ['a synthesis description', { question: 'How was the spinel LiMn2O4 prepared?', pipeline: 'records', mode: 'extractive' }],
    ['a model answer', { question: 'What peak power density does the cobalt-free La0.6Sr0.4FeO3 cathode reach at 700 °C?', mode: 'auto' }],
    ['the naive-KG baseline', { question: 'What peak power density does the cobalt-free La0.6Sr0.4FeO3 cathode reach at 700 °C?', mode: 'naive-kg' }],
  ])('%s', async (_, body) => {
    const mode = { extractive: 'extractive', auto: 'generative', 'naive-kg': 'naive-kg' }[body.mode];
    const { answerText } = await import('@/lib/answer/types');
    const { AnswerView } = await import('@/components/answer-view');
    const streamed = await ask(body);
    const { answer } = streamed.stored;
    expect(answer.abstention.abstain).toBe(false);
    expect(answer.mode).toBe(mode);
    const storedLabels = new Map(answer.evidence.map((e, i) => [e.id, `E${i + 1}`]));
    // Every item of the stored pool arrived in the stream with its label.
    expect(streamed.sourceLabels).toEqual(storedLabels);
    const chips = renderedChips(renderToStaticMarkup(createElement(QueryClientProvider, { client: new QueryClient() }, createElement(AnswerView, { answer }))));
    expect(chips).toHaveLength(answer.sentences.length);
    let cited = 0;
    const labelled: string[][] = [];
    for (const [i, s] of answer.sentences.entries()) {
      const labels = s.citations.map((id) => storedLabels.get(id));
      cited += labels.length;
      if (labels.length) labelled.push(labels as string[]);
      // The checked sentence in the stream cites the same items, and each label is the one its source part carried.
      expect(streamed.claims.get(i)).toEqual(s.citations);
      expect(s.citations.map((id) => streamed.sourceLabels.get(id))).toEqual(labels);
      // The page shows those labels.
      expect(chips[i]).toEqual(labels);
    }
    expect(cited).toBeGreaterThan(0);
    // The text as it streamed carries the same markers, sentence by sentence.
    if (answer.mode === 'extractive') expect(streamed.text).toBe(answerText(answer));
    expect([...streamed.text.matchAll(/\[(E\d+(?:, E\d+)*)\]/g)].map((m) => m[1].split(', '))).toEqual(labelled);
  });
});
