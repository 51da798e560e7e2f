import { TRANSFORMS } from './registry.ts';
import type { RobustnessCase, RobustnessContext, Transform } from './types.ts';

/** A question the suite rewrites: its id, its text and whether the corpus answers it. */
export interface BaseQuestion {
  id: string;
  question: string;
  answerable: boolean;
}

/**
 * Every applicable rewrite of every question: meaning-keeping transforms of every question, meaning-changing ones of
 * answerable questions only (an unanswerable question changed is still unanswerable, which tells nothing). A rewrite
 * that leaves the text as it was is dropped.
 */
export function generateCases(questions: readonly BaseQuestion[], ctx: RobustnessContext, transforms: readonly Transform[] = TRANSFORMS): RobustnessCase[] {
  const out: RobustnessCase[] = [];
  for (const q of questions)
    for (const t of transforms) {
      if (t.kind === 'change' && !q.answerable) continue;
      const text = withTitleKept(q.question, (masked) => t.apply(masked, ctx));
      if (!text || text.trim() === q.question.trim()) continue;
      out.push({ id: `${q.id}~${t.name}`, baseId: q.id, transform: t.name, kind: t.kind, family: t.family, question: text });
    }
  return out;
}

/**
 * A quoted title is how the question names its paper, not a wording of the question: the transform sees it as a
 * placeholder and the title comes back as written (a rewrite that lost the placeholder is dropped).
 */
export function withTitleKept(question: string, rewrite: (masked: string) => string | null): string | null {
  const titles: string[] = [];
  const masked = question.replace(/[“"][^”"]{8,}[”"]/g, (t) => `QT${titles.push(t) - 1}QT`);
  const out = rewrite(masked);
  if (out === null || titles.some((_, i) => !out.includes(`QT${i}QT`))) return null;
  return out.replace(/QT(\d+)QT/g, (_m, i: string) => titles[Number(i)]);
}
