/**
 * The robustness suite (in the spirit of CheckList: behavioural tests by transformation). Every dev question is
 * rewritten in ways that keep its meaning (the outcome — paper, value, abstention — must not change) and in ways that
 * change it (the outcome must change). It is a test of behaviour, not a set to fit: the decision code must hold
 * under any wording of the same class, and no rule there may name a transform.
 */

/** What a rewrite does to the question's meaning. */
export type TransformKind = 'invariant' | 'change';

/** The class of wording a transform belongs to (issue 63's classes of refusal). */
export type TransformFamily = 'value' | 'name' | 'condition' | 'surface';

/** What the corpus itself tells a transform: the acronyms its papers define. */
export interface RobustnessContext {
  /** Short form → long form, as the corpus's papers define them ("SOFC" → "solid oxide fuel cell"). */
  acronyms: ReadonlyMap<string, string>;
}

export interface Transform {
  name: string;
  kind: TransformKind;
  family: TransformFamily;
  /** One line for the table's legend. */
  describe: string;
  /** The rewritten question, or null when the transform does not apply to it. Deterministic. */
  apply(question: string, ctx: RobustnessContext): string | null;
}

/** One generated question: a base question rewritten by one transform. */
export interface RobustnessCase {
  id: string;
  baseId: string;
  transform: string;
  kind: TransformKind;
  family: TransformFamily;
  question: string;
}
