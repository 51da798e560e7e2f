import { describe, expect, it } from 'vitest';
import { inventedRecipes, tempDir, writeRecordsJsonl } from '../../scripts/test-support/fixtures.ts';
import { recipeConfidence } from '../synthesis/confidence.ts';
import { readSynthesisQuestion, synthesisQuestions } from './synthesis-eval.ts';

describe('the synthesis evaluation', () => {
  it('makes questions from recipe files in several wordings, each read as asking how its recipe’s target is made', async () => {
    const dir = tempDir();
    const recipes = inventedRecipes();
    writeRecordsJsonl(
      dir,
      'sol-gel.jsonl',
      recipes.filter((r) => r.synthesis_type),
      true,
    );
    writeRecordsJsonl(
      dir,
      'solid-state.jsonl',
      recipes.filter((r) => !r.synthesis_type),
      true,
    );
    const questions = await synthesisQuestions(dir, 60, 3);
    expect(questions).toHaveLength(60);
    expect(new Set(questions.map((q) => q.question.replace(/\S*\d\S*/g, 'X'))).size).toBeGreaterThan(8);
    expect(questions.some((q) => q.unanswerable) && questions.some((q) => q.method === null)).toBe(true);
    for (const q of questions) {
      const read = readSynthesisQuestion(q);
      expect(read?.keys, q.question).toContain(q.targetKey);
      expect(read?.method ?? null, q.question).toBe(q.method);
    }
  });

  it('shows a measured confidence per size of the summary, pooling a bucket with too few questions', () => {
    const fit = { buckets: { '1': { n: 20, right: 20 }, '20+': { n: 4, right: 2 }, '5-19': { n: 30, right: 24 } } };
    expect(recipeConfidence({ total: 1 }, fit)).toBe(1);
    expect(recipeConfidence({ total: 8 }, fit)).toBe(0.8);
    // 20+ has 4 questions: pooled with 5-19 (26 of 34).
    expect(recipeConfidence({ total: 50 }, fit)).toBe(0.765);
    expect(recipeConfidence({ total: 3 }, { buckets: {} })).toBe(0.5);
  });
});
