import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatModel } from '../ai/providers.ts';
import { readConfig } from '../config.ts';
import { RELATIONS } from './tuples.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../../scripts/test-support/fake-openai.ts';
import { memoryCache } from '../db/extraction-cache.ts';
import { ExtractionError } from '../ai/cached-object.ts';
import { createLlmTupleExtractor } from './llm-tuples.ts';

// An invented paragraph and model answers (the AI SDK's mock model: no network, no real model).
const paragraph =
  'NiO nanosheets were grown on nickel foam. Increasing the annealing temperature decreased the overpotential, which reached 250 mV at 10 mA cm−2.';
const answer = {
  reasoning: 'Growth, a causal statement and a measured value.',
  tuples: [
    {
      subject: 'NiO nanosheets',
      relation: 'grown_on',
      object: 'nickel foam',
      reference_relation: null,
      reference_node: null,
      value: null,
      unit: null,
      evidence: 'NiO nanosheets were grown on nickel foam.',
    },
    {
      subject: 'annealing temperature',
      relation: 'decreases',
      object: 'overpotential',
      reference_relation: null,
      reference_node: null,
      value: null,
      unit: null,
      evidence: 'Increasing the annealing temperature decreased the overpotential, which reached 250 mV at 10 mA cm−2.',
    },
    {
      subject: 'NiO nanosheets',
      relation: 'has_property',
      object: 'overpotential',
      reference_relation: 'measured_at',
      reference_node: '10 mA cm−2',
      value: 250,
      unit: 'mV',
      evidence: 'a sentence the model made up',
    },
  ],
};

function model(texts: string[]) {
  let i = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: 'text', text: texts[Math.min(i++, texts.length - 1)] }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 10, text: 10, reasoning: 0 } },
      warnings: [],
    }),
  });
}

describe('LLM tuple backend (mock model)', () => {
  it('turns the answer into canonical tuples with offsets, canonical units and located evidence only', async () => {
    const m = model([JSON.stringify(answer)]);
    const cache = memoryCache();
    const extractor = createLlmTupleExtractor({ chat: { model: m, id: 'mock/m' }, cache });
    const t = await extractor.extract(paragraph, 'p1');
    expect(t.map((x) => [x.subject.key, x.relation, x.object.key])).toEqual([
      ['f:NiO', 'grown_on', 'm:NF'],
      ['n:annealingtemperature', 'decreases', 'p:overpotential'],
      ['f:NiO', 'has_property', 'p:overpotential'],
    ]);
    expect(t[0]).toMatchObject({ start: 0, end: 41, sentence: 'NiO nanosheets were grown on nickel foam.', paragraphId: 'p1' });
    expect(t[2]).toMatchObject({ value: 0.25, unit: 'V', referenceRelation: 'measured_at', referenceNode: '10 mA cm−2', sentence: null, start: null });
    // Cached by prompt version + model + paragraph hash: a second call does not reach the model.
    await extractor.extract(paragraph, 'p1');
    expect(m.doGenerateCalls).toHaveLength(1);
    expect(extractor.id).toBe('llm:mock/m:tuples-v1');
  });
  it('retries malformed answers and relations outside the ontology, then records an error', async () => {
    const bad = JSON.stringify({ reasoning: 'x', tuples: [{ ...answer.tuples[0], relation: 'is_friend_of' }] });
    const m = model(['not json', bad, '{"tuples": 3}']);
    const cache = memoryCache();
    const extractor = createLlmTupleExtractor({ chat: { model: m, id: 'mock/bad' }, cache, attempts: 3 });
    await expect(extractor.extract(paragraph, 'p1')).rejects.toThrow(ExtractionError);
    expect(m.doGenerateCalls).toHaveLength(3);
    expect(cache.errors.size).toBe(1);
  });
  it('accepts a retry that succeeds', async () => {
    const m = model(['garbage', JSON.stringify(answer)]);
    const t = await createLlmTupleExtractor({ chat: { model: m, id: 'mock/retry' }, cache: memoryCache() }).extract(paragraph, null);
    expect(t).toHaveLength(3);
  });
});

describe('LLM tuple backend through @ai-sdk/openai (local fake OpenAI-compatible server)', () => {
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI(() => answer);
  });
  afterAll(() => fake.close());

  it('sends the ontology as a JSON schema over chat completions and reads the tuples back', async () => {
    const chat = chatModel(readConfig({ ASSAY_LLM_BASE_URL: fake.base, ASSAY_CHAT_MODEL: 'fake-tuples', ASSAY_GRAPH_EXTRACTOR: 'llm' }))!;
    const t = await createLlmTupleExtractor({ chat, cache: memoryCache() }).extract(paragraph, 'p9');
    expect(t.map((x) => x.relation)).toEqual(['grown_on', 'decreases', 'has_property']);
    expect(fake.bodies).toHaveLength(1);
    expect(fake.bodies[0].model).toBe('fake-tuples');
    const format = JSON.stringify(fake.bodies[0].response_format);
    for (const relation of RELATIONS) expect(format).toContain(relation);
    expect(JSON.stringify(fake.bodies[0].messages)).toContain('NiO nanosheets were grown on nickel foam.');
  });
});
