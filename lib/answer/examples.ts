import { unitText, valueText } from '../common/format.ts';
import type { ExampleTuple } from '../db/graph-views.ts';
import { analyseQuestion } from '../retrieval/question.ts';

/**
 * Example questions for the ask screen, written from what the corpus itself states (tuples read from its
 * paragraphs), so every example has an answer here: a value question, a which-paper question with the reported
 * value, and a how-was-it-made question, from different domains where the corpus has them.
 */
export const EXAMPLE_RELATIONS = ['has_property', 'synthesized_by'];

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

export function exampleQuestions(tuples: ExampleTuple[], n = 4): ExampleQuestion[] {
  const out: ExampleQuestion[] = [];
  const usedDomains = new Set<string | null>();
  const usedSubjects = new Set<string>();
  const take = (t: ExampleTuple, q: ExampleQuestion) => {
    out.push(q);
    usedDomains.add(t.domain);
    usedSubjects.add(t.subject.toLowerCase());
  };
  // Fresh domains first, so the examples show the breadth of the corpus.
  const ordered = (relation: string) => {
    const of = tuples.filter((t) => t.relation === relation && namesMaterial(t.subject) && !usedSubjects.has(t.subject.toLowerCase()));
    return [...of.filter((t) => !usedDomains.has(t.domain)), ...of.filter((t) => usedDomains.has(t.domain))];
  };
  const property = ordered('has_property').filter((t) => exampleValue(t));
  if (property[0]) take(property[0], { question: `What is the ${property[0].object} of ${property[0].subject}?`, kind: 'value', domain: property[0].domain });
  const paper = ordered('has_property').filter((t) => exampleValue(t))[0];
  if (paper)
    take(paper, {
      question: `Which paper reports a ${paper.object} of ${exampleValue(paper)} for ${paper.subject}?`,
      kind: 'which paper',
      domain: paper.domain,
    });
  // A how-was-it-made question needs a nameable product: a formula (a digit) or a word, not an abbreviation like "BCs".
  const made = ordered('synthesized_by').filter((t) => /\d|[a-z]{3,}/.test(t.subject))[0];
  if (made) take(made, { question: `How is ${made.subject} synthesized?`, kind: 'synthesis', domain: made.domain });
  for (const t of ordered('has_property').filter((x) => exampleValue(x))) {
    if (out.length >= n) break;
    take(t, { question: `What is the ${t.object} of ${t.subject}?`, kind: 'value', domain: t.domain });
  }
  return out.slice(0, n);
}
