import { describe, expect, it } from 'vitest';
import { MockLanguageModelV3 } from 'ai/test';
import { createLlmExtractor } from './llm-extractor.ts';
import { memoryCache } from '../db/extraction-cache.ts';

// An invented paragraph and model answers (the AI SDK's mock model: no network, no real model).
const paragraph =
  'Then 2 mmol of Ni(NO3)2·6H2O and 5 mmol of urea were dissolved in 40 mL of ethanol and heated in an autoclave at 150 °C for 10 h to give NiO nanosheets.';
const good = {
  reasoning: 'Autoclave synthesis of NiO.',
  role: 'synthesis',
  method: 'hydro-solvothermal',
  entities: [
    { role: 'precursor', text: 'Ni(NO3)2·6H2O' },
    { role: 'additive', text: 'urea' },
    { role: 'solvent', text: 'ethanol' },
    { role: 'target', text: 'NiO nanosheets' },
    { role: 'solvent', text: 'water that is not in the text' },
  ],
};

function mockModel(answers: string[]) {
  let i = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: 'text', text: answers[Math.min(i++, answers.length - 1)] }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 10, text: 10, reasoning: 0 } },
      warnings: [],
    }),
  });
  return { model, calls: () => model.doGenerateCalls.length };
}

describe('LLM structuring backend (mock model)', () => {
  it('turns a valid answer into the common structure, with offsets, normalised keys and parsed conditions', async () => {
    const { model } = mockModel([JSON.stringify(good)]);
    const extractor = createLlmExtractor({ chat: { model, id: 'mock/test-model' }, cache: memoryCache() });
    const s = await extractor.structureParagraph(paragraph);
    expect(s.role).toBe('synthesis');
    expect(s.method).toBe('hydro-solvothermal');
    expect(s.entities.map((e) => [e.role, e.text, paragraph.slice(e.start, e.end)])).toEqual([
      ['precursor', 'Ni(NO3)2·6H2O', 'Ni(NO3)2·6H2O'],
      ['additive', 'urea', 'urea'],
      ['solvent', 'ethanol', 'ethanol'],
      ['target', 'NiO nanosheets', 'NiO nanosheets'],
    ]); // the entity not found in the text is not kept as evidence
    expect(s.entities[2].key).toBe('EtOH');
    expect(s.conditions!.temperature[0].canonical).toEqual([423.15]);
    expect(extractor.id).toBe('llm:mock/test-model:structure-v1');
  });

  it('sends the few-shot prompt with the reasoning field and asks for JSON output', async () => {
    const { model } = mockModel([JSON.stringify(good)]);
    await createLlmExtractor({ chat: { model, id: 'm' }, cache: memoryCache() }).structureParagraph(paragraph);
    const call = model.doGenerateCalls[0];
    expect(call.responseFormat?.type).toBe('json');
    const text = JSON.stringify(call.prompt);
    expect(text).toContain('reasoning');
    expect(text).toContain(paragraph.slice(0, 40));
  });

  it('retries malformed output and succeeds when a later answer is valid', async () => {
    const { model, calls } = mockModel(['not json at all', JSON.stringify({ role: 'synthesis' }), JSON.stringify(good)]);
    const s = await createLlmExtractor({ chat: { model, id: 'm' }, cache: memoryCache() }).structureParagraph(paragraph);
    expect(s.role).toBe('synthesis');
    expect(calls()).toBe(3);
  });

  it('records an error after the last attempt instead of dropping the paragraph silently', async () => {
    const cache = memoryCache();
    const { model, calls } = mockModel(['{"role": "banana"}']);
    await expect(createLlmExtractor({ chat: { model, id: 'm' }, cache, attempts: 2 }).structureParagraph(paragraph)).rejects.toThrow(
      /no valid answer after 2 attempts/,
    );
    expect(calls()).toBe(2);
    expect([...cache.errors.values()][0]).toBeTruthy();
  });

  it('caches by paragraph and model: the same paragraph is not sent twice', async () => {
    const cache = memoryCache();
    const { model, calls } = mockModel([JSON.stringify(good)]);
    const extractor = createLlmExtractor({ chat: { model, id: 'm' }, cache });
    await extractor.structureParagraph(paragraph);
    await extractor.structureParagraph(paragraph);
    expect(calls()).toBe(1);
    const other = mockModel([JSON.stringify(good)]);
    await createLlmExtractor({ chat: { model: other.model, id: 'another-model' }, cache }).structureParagraph(paragraph);
    expect(other.calls()).toBe(1);
  });
});
