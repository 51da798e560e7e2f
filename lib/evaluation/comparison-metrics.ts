import { valueFound } from './values.ts';

/**
 * How an answer to a two-sided comparison is scored (the comparison suite, eval/comparisons): whether it names both
 * sides, states each side's gold value in a sentence naming that side, and which side, if any, it names higher or
 * lower, against the order of the gold values.
 */

/** One side as the suite knows it: its name as asked, its gold value as written and in canonical units. */
export interface GoldSide {
  name: string;
  value: string;
  canonical: number;
}

/** What of an answer the score reads: its sentences and whether it refused. */
export interface ComparedAnswer {
  sentences: string[];
  abstained: boolean;
  confidence: number;
}

export type Verdict = 'right' | 'wrong' | 'none';

export interface ComparisonScore {
  abstained: boolean;
  /** Sides the answer names (0–2). */
  sidesNamed: number;
  /** Sides whose gold value a sentence naming the side states (0–2). */
  valuesStated: number;
  /** A side named higher (or lower) as the gold values order them, against them, or none named. */
  verdict: Verdict;
  confidence: number;
}

const mentions = (text: string, name: string) => text.toLowerCase().includes(name.toLowerCase());

/** "GDC has the higher ionic conductivity …", "No: YSZ has the lowest …": the side named and the direction. */
const VERDICT = /^(?:(?:Yes|No)[:,.]\s+)?(.+?) has the (higher|lower|highest|lowest)\b/;

export function scoreComparison(sides: readonly GoldSide[], answer: ComparedAnswer): ComparisonScore {
  const text = answer.sentences.join(' ');
  const sidesNamed = sides.filter((s) => mentions(text, s.name)).length;
  const valuesStated = sides.filter((s) =>
    valueFound(
      s.value,
      answer.sentences.filter((t) => mentions(t, s.name)),
    ),
  ).length;
  let verdict: Verdict = 'none';
  for (const sentence of answer.sentences) {
    const m = VERDICT.exec(sentence);
    const named = m && sides.find((s) => s.name.toLowerCase() === m[1].trim().toLowerCase());
    if (!m || !named) continue;
    const higher = m[2].startsWith('high');
    const others = sides.filter((s) => s !== named);
    verdict = others.every((o) => (higher ? named.canonical > o.canonical : named.canonical < o.canonical)) ? 'right' : 'wrong';
    break;
  }
  return { abstained: answer.abstained, sidesNamed, valuesStated, verdict, confidence: answer.confidence };
}

export interface ComparisonSummary {
  n: number;
  abstained: number | null;
  /** Share of cases whose answer names both sides. */
  both_sides_named: number | null;
  /** Share of the sides (two a case) whose gold value the answer states for it. */
  side_value_recall: number | null;
  /** Share of cases whose answer names a side higher or lower. */
  verdict_rate: number | null;
  /** Of the verdicts given, the share the gold values agree with. */
  verdict_accuracy: number | null;
  /** Share of cases with a verdict the gold values contradict. */
  wrong_verdict_rate: number | null;
  /** Mean confidence shown on the answers with a right verdict and on those with a wrong one. */
  confidence_right: number | null;
  confidence_wrong: number | null;
}

const share = (n: number, d: number) => (d ? Number((n / d).toFixed(3)) : null);
const mean = (xs: number[]) => (xs.length ? Number((xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(3)) : null);

export function summarizeComparisons(scores: readonly ComparisonScore[]): ComparisonSummary {
  const n = scores.length;
  const given = scores.filter((s) => s.verdict !== 'none');
  const right = scores.filter((s) => s.verdict === 'right');
  const wrong = scores.filter((s) => s.verdict === 'wrong');
  return {
    n,
    abstained: share(scores.filter((s) => s.abstained).length, n),
    both_sides_named: share(scores.filter((s) => s.sidesNamed === 2).length, n),
    side_value_recall: share(
      scores.reduce((a, s) => a + s.valuesStated, 0),
      2 * n,
    ),
    verdict_rate: share(given.length, n),
    verdict_accuracy: share(right.length, given.length),
    wrong_verdict_rate: share(wrong.length, n),
    confidence_right: mean(right.map((s) => s.confidence)),
    confidence_wrong: mean(wrong.map((s) => s.confidence)),
  };
}
