import { unitText, valueText } from '../common/format.ts';
import type { ExampleTuple } from '../db/graph-views.ts';
import { analyseQuestion } from '../retrieval/question.ts';
import { isFrame } from './shapes/types.ts';
import type { Answer } from './types.ts';

/**
 * Example questions for the ask screen: candidates written from what the corpus states (the graph's tuples, the
 * recipe catalogue), one kind after another, and kept only when Assay answers them well (lib/jobs/examples.ts asks
 * them), so an example is a question a chemist would ask and that is answered here.
 */
export const EXAMPLE_RELATIONS = ['has_property'];

export interface ExampleQuestion {
  question: string;
  /** What the example shows: "value", "which paper", "synthesis". */
  kind: string;
  domain: string | null;
}

/** The tuple's value with its unit ("0.01–0.054 S cm⁻¹"); null when it has no value or no unit. */
const exampleValue = (t: ExampleTuple): string | null => (t.value === null || !t.unit ? null : valueText(t, { unit: unitText }));

/** A subject a chemist would name in a question: a material the question reader recognises, not "the cell". */
const namesMaterial = (label: string) => analyseQuestion(`What is ${label}?`).materials.length > 0;

/** What the candidates are written from: the graph's tuples, the materials most recipes make, subjects of several papers. */
export interface ExampleSources {
  tuples: ExampleTuple[];
  recipeTargets: { name: string; method: string; recipes: number }[];
  severalPapers: { subject: string; papers: number }[];
}

export const EXAMPLE_KINDS = ['value', 'synthesis', 'comparison', 'which papers'] as const;

const METHOD_WORDS: Record<string, string> = { 'sol-gel': 'the sol-gel method', 'solid-state-reaction': 'solid-state reaction' };

/**
 * Candidate examples, a few per kind in the order they are tried: a value, a synthesis (a material the records hold
 * many recipes of), a comparison of two materials with values of one property, and a "which papers" about a material
 * several papers study. Each is kept only if Assay answers it well (`acceptsExample`).
 */
export function exampleCandidates(s: ExampleSources): ExampleQuestion[] {
  const values = s.tuples.filter((t) => t.relation === 'has_property' && exampleValue(t) && namesMaterial(t.subject));
  const out: ExampleQuestion[] = values.slice(0, 3).map((t) => ({ question: `What is the ${t.object} of ${t.subject}?`, kind: 'value', domain: t.domain }));
  for (const r of s.recipeTargets.filter((x) => namesMaterial(x.name)).slice(0, 3))
    out.push({ question: `How is ${r.name} made by ${METHOD_WORDS[r.method] ?? r.method}?`, kind: 'synthesis', domain: null });
  const byProperty = new Map<string, ExampleTuple[]>();
  for (const t of values) byProperty.set(t.object, [...(byProperty.get(t.object) ?? []), t]);
  for (const [property, ts] of byProperty) {
    const subjects = [...new Map(ts.map((t) => [t.subject.toLowerCase(), t])).values()];
    if (subjects.length >= 2)
      out.push({
        question: `Which has the higher ${property}, ${subjects[0].subject} or ${subjects[1].subject}?`,
        kind: 'comparison',
        domain: subjects[0].domain,
      });
  }
  for (const m of s.severalPapers.filter((x) => namesMaterial(x.subject)).slice(0, 3))
    out.push({ question: `Which papers study ${m.subject}?`, kind: 'which papers', domain: null });
  return out;
}

/**
 * Whether an answer to an example shows Assay at its best: not a refusal, the shape the example is of (a comparison
 * naming a winner from both sides, a "which papers" listing two or more), every claim supported by what it cites.
 */
export function acceptsExample(kind: string, a: Pick<Answer, 'abstention' | 'shape' | 'sentences'>): boolean {
  if (a.abstention.abstain) return false;
  const claims = a.sentences.filter((s) => !isFrame(s));
  if (!claims.length || claims.some((s) => s.verdict !== 'supported')) return false;
  if (kind === 'value') return a.shape === 'value';
  if (kind === 'synthesis') return a.shape === 'synthesis';
  if (kind === 'comparison') return a.shape === 'comparison' && / has the (?:higher|lower|highest|lowest) /.test(a.sentences[0]?.text ?? '');
  if (kind === 'which papers') return a.shape === 'which-paper' && claims.length >= 2;
  return false;
}

/** One example per kind, the first candidate of each that `answer` answers well (at most `tries` asked per kind). */
export async function checkedExamples(candidates: ExampleQuestion[], answer: (question: string) => Promise<Answer>, tries = 3): Promise<ExampleQuestion[]> {
  const out: ExampleQuestion[] = [];
  for (const kind of EXAMPLE_KINDS) {
    for (const c of candidates.filter((x) => x.kind === kind).slice(0, tries)) {
      const a = await answer(c.question).catch(() => null);
      if (a && acceptsExample(kind, a)) {
        out.push(c);
        break;
      }
    }
  }
  return out;
}
