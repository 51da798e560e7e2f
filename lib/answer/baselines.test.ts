import { beforeAll, describe, expect, it } from 'vitest';
import { NO_ANSWER_SENTINEL } from '../ai/prompts.ts';
import type { RetrievalIndex } from '../retrieval/index.ts';
import { mockChatModel } from '../../scripts/test-support/mock-models.ts';
import { fixtureIndex } from '../../scripts/test-support/retrieval-fixtures.ts';
import { answerQuestion } from './answer.ts';

let index: RetrievalIndex;
beforeAll(async () => {
  index = await fixtureIndex();
});

const VALUE_Q = 'In "Pressure dependence of superconductivity in a layered nitride", what Tc is reported for Li0.48(THF)yHfNCl?';

describe("method C's baselines (mock model)", () => {
  it('model-only answers from the model alone: nothing retrieved is sent, nothing can be cited, and it says so', async () => {
    const prompts: string[] = [];
    const model = mockChatModel(({ user }) => {
      prompts.push(user);
      return 'Layered nitrides superconduct near 25 K [E1]. Pressure lowers Tc.';
    });
    const a = await answerQuestion(index, VALUE_Q, { model, baseline: 'model-only' });
    expect(prompts).toEqual([VALUE_Q]);
    expect(a).toMatchObject({ mode: 'model-only', modelId: 'mock/model', evidence: [], tokens: { prompt: 30, completion: 12 } });
    expect(a.sentences.every((s) => s.citations.length === 0 && s.verdict === 'uncited')).toBe(true);
    expect(a.sentences[0].flags).toEqual(['citation-removed']);
    expect(a.notice).toMatch(/no retrieval/);
  });

  it("naive-kg pastes the graph retriever's tuples as facts under their pool labels and may cite only those", async () => {
    let user = '';
    const model = mockChatModel((call) => {
      user = call.user;
      const first = /\[(E\d+)\]/.exec(call.user)?.[1];
      return `La0.6Sr0.4CoO3 reaches a high power density [${first}]. It is also a topological insulator [E42].`;
    });
    const a = await answerQuestion(index, 'What power density does La0.6Sr0.4CoO3 reach at 873 K?', { model, baseline: 'naive-kg' });
    expect(a).toMatchObject({ mode: 'naive-kg', pipeline: 'graph' });
    // The prompt holds only the pool's tuples and paths, each under the label the stored answer shows for it.
    const shown = [...user.matchAll(/\[(E\d+)\]/g)].map((m) => a.evidence[Number(m[1].slice(1)) - 1]);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.every((e) => e.kind === 'tuple' || e.kind === 'path')).toBe(true);
    expect(a.sentences[0].citations).toEqual([shown[0].id]);
    expect(a.sentences[1]).toMatchObject({ citations: [], flags: ['citation-removed'] });
  });

  it('a baseline needs a model, and a declining model abstains', async () => {
    await expect(answerQuestion(index, VALUE_Q, { baseline: 'model-only' })).rejects.toThrow(/needs a model/);
    const a = await answerQuestion(index, VALUE_Q, { model: mockChatModel(() => NO_ANSWER_SENTINEL), baseline: 'model-only' });
    expect(a.abstention).toMatchObject({ abstain: true, reasons: ['model-declined'] });
  });

  it('a judge model adds its verdict beside the offline one; a judge reply that does not parse leaves it missing', async () => {
    const writer = mockChatModel(() => 'The Li0.48(THF)yHfNCl crystals become superconducting at 25.5 K [E1]. They are blue [E1].');
    const judge = mockChatModel(({ system }) =>
      system.includes('check statements')
        ? JSON.stringify({
            verdicts: [
              { n: 1, verdict: 'supported' },
              { n: 2, verdict: 'unsupported' },
            ],
          })
        : '{}',
    );
    const a = await answerQuestion(index, VALUE_Q, { model: writer, judge });
    expect(a.sentences.map((s) => s.judge)).toEqual(['supported', 'unsupported']);
    expect(a.sentences[0].verdict).toBe('supported');
    const broken = mockChatModel(() => 'not json');
    const b = await answerQuestion(index, VALUE_Q, { model: writer, judge: broken });
    expect(b.sentences.map((s) => s.judge)).toEqual([null, null]);
    expect(b.trace.at(-1)?.detail).toMatchObject({ judgeMissing: 2 });
  });
});
