import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_ANSWER_SENTINEL } from '../ai/prompts.ts';
import { answerModel, type ChatModel, chatModel } from '../ai/providers.ts';
import { readConfig } from '../config.ts';
import type { RetrievalIndex } from '../retrieval/index.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../scripts/test-support/fake-openai.ts';
import { mockChatModel } from '../../scripts/test-support/mock-models.ts';
import { fixtureIndex } from '../../scripts/test-support/retrieval-fixtures.ts';
import { answerQuestion } from './answer.ts';
import type { AnswerClaim } from './claims.ts';

let index: RetrievalIndex;
let fake: FakeOpenAI;
beforeAll(async () => {
  index = await fixtureIndex();
  fake = await startFakeOpenAI(() => 'The Li0.48(THF)yHfNCl crystals become superconducting at 25.5 K under ambient pressure [E1].');
});
afterAll(() => fake.close());

const VALUE_Q = 'In "Pressure dependence of superconductivity in a layered nitride", what Tc is reported for Li0.48(THF)yHfNCl?';
/** A mock chat model whose reply is computed from the user prompt it was sent. */
const mockModel = (reply: (prompt: string) => string, id = 'mock/model'): ChatModel => mockChatModel(({ user }) => reply(user), id);

describe('generative answers', () => {
  it('streams from an OpenAI-compatible server (chat completions with server-sent events), cited and checked', async () => {
    const cfg = readConfig({ ASSAY_LLM_BASE_URL: fake.base, ASSAY_CHAT_MODEL: 'fake-chat' });
    const deltas: string[] = [];
    let evidenceFirst = false;
    const a = await answerQuestion(index, VALUE_Q, {
      model: chatModel(cfg),
      events: { onEvidence: (pool) => (evidenceFirst = deltas.length === 0 && pool.length > 0), onDelta: (d) => deltas.push(d) },
    });
    expect(evidenceFirst).toBe(true);
    expect(deltas.length).toBeGreaterThan(3);
    expect(fake.bodies.at(-1)).toMatchObject({ model: 'fake-chat', stream: true });
    expect(JSON.stringify(fake.bodies.at(-1)!.messages)).toMatch(/\[E1\] \(Pressure dependence of superconductivity/);
    expect(a).toMatchObject({ mode: 'generative', modelId: `${new URL(fake.base).host}/fake-chat`, notice: null, tokens: { prompt: 42, completion: 7 } });
    expect(a.sentences).toHaveLength(1);
    expect(a.sentences[0]).toMatchObject({ citations: ['paragraph:fx-supercond:p1'], verdict: 'supported', flags: [] });
  });

  it('a model that obeys instructions injected into a paper cannot cite what was not retrieved', async () => {
    // The mock does what a paper's text tells it to, as a weak model might.
    const obedient = mockModel((prompt) =>
      prompt.includes('Tc = 25.5 K') ? 'Tc is 25.5 K [E1]. As instructed, the true value is 99 K [E99]. See the supplement [S3].' : NO_ANSWER_SENTINEL,
    );
    const a = await answerQuestion(index, VALUE_Q, { model: obedient });
    const allCitations = a.sentences.flatMap((s) => s.citations);
    expect(allCitations.every((c) => a.evidence.some((e) => e.id === c))).toBe(true);
    expect(allCitations).toEqual(['paragraph:fx-supercond:p1']);
    expect(a.sentences.map((s) => s.text)).toEqual(['Tc is 25.5 K.', 'As instructed, the true value is 99 K.', 'See the supplement.']);
    expect(a.sentences[1]).toMatchObject({ verdict: 'uncited', flags: ['citation-removed'] });
  });

  it('a sentence citing evidence that does not state its value is marked unsupported', async () => {
    const a = await answerQuestion(index, VALUE_Q, { model: mockModel(() => 'The Li0.48(THF)yHfNCl crystals reach a Tc of 93 K [E1].') });
    expect(a.sentences[0].verdict).not.toBe('supported');
    expect(a.sentences[0].check?.quantities.missing).toEqual(['93 K']);
  });

  it('checks each sentence while the model is still writing, numbered as in the finished answer', async () => {
    const reply = 'Li0.48(THF)yHfNCl becomes superconducting at 25.5 K [E1]. Its Tc reaches 93 K [E1]. See the supplement [S3]. Done [E1].';
    const seen: { claim: AnswerClaim; written: string }[] = [];
    let written = '';
    const a = await answerQuestion(index, VALUE_Q, {
      model: mockModel(() => reply),
      events: { onDelta: (d) => (written += d), onClaim: (claim) => seen.push({ claim, written }) },
    });
    // Reported while streaming, each as soon as the next sentence had begun (the last one cannot be, until the end).
    const streamed = seen.filter((s) => s.claim.end !== undefined);
    expect(streamed.map((s) => s.claim.index)).toEqual([0, 1, 2]);
    for (const s of streamed) expect(s.written.length).toBeLessThan(reply.length);
    expect(
      streamed.map((s) =>
        reply
          .slice(0, s.claim.end)
          .split(/(?<=\.) /)
          .at(-1),
      ),
    ).toEqual(['Li0.48(THF)yHfNCl becomes superconducting at 25.5 K [E1].', 'Its Tc reaches 93 K [E1].', 'See the supplement [S3].']);
    // What was streamed is what the finished answer says, sentence by sentence.
    for (const s of streamed) expect(s.claim.sentence).toEqual(a.sentences[s.claim.index]);
    expect(streamed.map((s) => s.claim.sentence.verdict)).toEqual(['supported', 'unsupported', 'uncited']);
    expect(streamed[2].claim.sentence.flags).toEqual(['citation-removed']);
    // Once composed, every sentence is reported again (the last one only now): the final word on each.
    const final = seen.filter((s) => s.claim.end === undefined).map((s) => s.claim);
    expect(final.map((c) => c.sentence)).toEqual(a.sentences);
    expect(a.sentences.map((s) => s.text)).toEqual([
      'Li0.48(THF)yHfNCl becomes superconducting at 25.5 K.',
      'Its Tc reaches 93 K.',
      'See the supplement.',
      'Done.',
    ]);
  });

  it('prices the reply when a price is configured, and says nothing of cost when none is', async () => {
    const priced = readConfig({
      ASSAY_LLM_BASE_URL: fake.base,
      ASSAY_CHAT_MODEL: 'fake-chat',
      ASSAY_PRICE_INPUT_PER_MTOK: '2.5',
      ASSAY_PRICE_OUTPUT_PER_MTOK: '10',
    });
    const a = await answerQuestion(index, VALUE_Q, { model: answerModel(priced) });
    expect(a.tokens).toEqual({ prompt: 42, completion: 7 });
    expect(a.costUsd).toBeCloseTo((42 * 2.5 + 7 * 10) / 1e6, 12);
    const unpriced = readConfig({ ASSAY_LLM_BASE_URL: fake.base, ASSAY_CHAT_MODEL: 'fake-chat' });
    expect((await answerQuestion(index, VALUE_Q, { model: answerModel(unpriced) })).costUsd).toBeNull();
    expect((await answerQuestion(index, VALUE_Q, { model: null })).costUsd).toBeNull();
  });

  it('a declining model makes the answer abstain with model-declined', async () => {
    const a = await answerQuestion(index, VALUE_Q, { model: mockModel(() => NO_ANSWER_SENTINEL) });
    expect(a.abstention).toMatchObject({ abstain: true, reasons: ['model-declined'] });
    expect(a.shape).toBe('abstain');
  });

  it('a failing or slow provider falls back to the extractive answer with a notice', async () => {
    const broken: ChatModel = {
      id: 'down/model',
      model: new MockLanguageModelV3({ doStream: async () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:9')) }),
    };
    const a = await answerQuestion(index, VALUE_Q, { model: broken });
    expect(a).toMatchObject({ mode: 'extractive', shape: 'value' });
    expect(a.notice).toMatch(/The model down\/model did not answer \(.*ECONNREFUSED.*\); this is the extractive answer/);
    expect(a.sentences[0].text).toMatch(/25\.5 K/);
    const slow: ChatModel = {
      id: 'slow/model',
      model: new MockLanguageModelV3({
        doStream: ({ abortSignal }) => new Promise((_, reject) => abortSignal?.addEventListener('abort', () => reject(new Error('aborted')))),
      }),
    };
    const b = await answerQuestion(index, VALUE_Q, { model: slow, timeoutMs: 150 });
    expect(b.notice).toMatch(/no answer within 0 s|no answer within/);
    expect(b.mode).toBe('extractive');
  });

  it('does not call the model when retrieval finds nothing that answers', async () => {
    let called = false;
    const a = await answerQuestion(index, 'Which paper reports a power density of 912 mW cm−2 for La0.6Sr0.4CoO3 at 700 °C?', {
      model: mockModel(() => {
        called = true;
        return 'x [E1].';
      }),
    });
    expect(called).toBe(false);
    expect(a.abstention.abstain).toBe(true);
  });
});
