import { describe, expect, it } from 'vitest';
import type { Answer } from '../answer/types.ts';
import { fitLocalHashEmbedder, localTextEmbedder } from '../embedding/local-hash.ts';
import type { Evidence } from '../evidence/model.ts';
import { mockChatModel } from '../../scripts/test-support/mock-models.ts';
import { aggregateAnswers, type AnswerScore } from './answer-metrics.ts';
import { judgeAnswer } from './judge-metrics.ts';

const QUESTION = 'What superconducting transition temperature does MgB2 have?';
const evidence = [
  { id: 'paragraph:a', kind: 'paragraph', text: 'MgB2 becomes superconducting at 39 K.', provenance: [] },
  { id: 'paragraph:b', kind: 'paragraph', text: 'The furnace was purged with argon.', provenance: [] },
] as unknown as Evidence[];
const answer = {
  question: QUESTION,
  evidence,
  shape: 'value',
  sentences: [
    { text: 'MgB2 has a Tc of 39 K.', citations: ['paragraph:a'], verdict: 'supported', check: null, flags: [] },
    { text: 'It is a cuprate.', citations: ['paragraph:a'], verdict: 'unsupported', check: null, flags: [] },
  ],
  abstention: { abstain: false, reasons: [], explanation: '', corpusHolds: null },
} as unknown as Answer;
const embedder = localTextEmbedder(fitLocalHashEmbedder([QUESTION, 'MgB2 becomes superconducting at 39 K.', 'The furnace was purged with argon.']));

describe('judge metrics (mock judge model)', () => {
  it('scores faithfulness, answer relevance and context relevance, averaged over repeated runs', async () => {
    let run = 0;
    const judge = mockChatModel(({ system }) => {
      if (system.includes('check statements')) {
        run++;
        // The judge disagrees with itself between runs: the two runs are averaged.
        return JSON.stringify({
          verdicts: [
            { n: 1, verdict: 'supported' },
            { n: 2, verdict: run === 1 ? 'unsupported' : 'partial' },
          ],
        });
      }
      if (system.includes('rate how relevant'))
        return JSON.stringify({
          ratings: [
            { label: 'E1', score: 2 },
            { label: 'E2', score: 0 },
          ],
        });
      return JSON.stringify({ questions: [QUESTION, 'What is the Tc of MgB2?', 'At what temperature does MgB2 superconduct?'] });
    });
    const s = await judgeAnswer(answer, judge, embedder, 2);
    expect(s.faithfulness).toBe(0.625); // (1 + 0) / 2 and (1 + 0.5) / 2, averaged
    expect(s.contextRelevance).toBe(0.5);
    expect(s.answerRelevance).toBeGreaterThan(0.5);
    expect(s).toMatchObject({ attempted: 6, missing: 0 });
  });

  it('counts a judgement that fails or does not parse as missing, never as a score', async () => {
    const judge = mockChatModel(({ system }) =>
      system.includes('rate how relevant') ? JSON.stringify({ ratings: [{ label: 'E1', score: 2 }] }) : 'no JSON here',
    );
    const s = await judgeAnswer(answer, judge, embedder, 1);
    expect(s).toMatchObject({ faithfulness: null, answerRelevance: null, contextRelevance: null, attempted: 3, missing: 3 });
    const score = (judged: typeof s): { type: 'value'; answer: AnswerScore } => ({
      type: 'value',
      answer: {
        valueCorrect: null,
        citations: 0,
        validCitations: 0,
        citingSentences: 0,
        supportedSentences: 0,
        abstained: false,
        confidence: 0.9,
        promptTokens: 100,
        right: null,
        judge: judged,
      },
    });
    const good = await judgeAnswer(
      answer,
      mockChatModel(() =>
        JSON.stringify({
          verdicts: [
            { n: 1, verdict: 'supported' },
            { n: 2, verdict: 'supported' },
          ],
        }),
      ),
      embedder,
      1,
    );
    const m = aggregateAnswers([score(s), score(good), { ...score(s), answer: { ...score(s).answer, promptTokens: 300 } }]);
    expect(m.judge).toMatchObject({ faithfulness: 1, missing: 3 + 2 + 3, attempted: 9 });
    expect(m.median_prompt_tokens).toBe(100);
  });
});
