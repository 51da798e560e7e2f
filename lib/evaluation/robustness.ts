/**
 * The robustness suite's measure (eval/robustness generates the rewrites): what a pipeline does with a question —
 * abstains, or answers with a paper (and, for a value question, the right value or not) — compared between each
 * question and its rewrites. A meaning-keeping rewrite must leave the outcome as it was (invariance); a
 * meaning-changing one must change it (flip), ideally to an abstention.
 */

/** What a pipeline did with one question. */
export interface Outcome {
  abstained: boolean;
  /** The best paper (corpus id, else DOI); null when nothing came back. */
  paper: string | null;
  /** For a value question: whether the gold value is among what came back; otherwise null. */
  valueRight: boolean | null;
  /** Whether the answer is right: the gold paper first (or the gold value found); null when there is no gold. */
  right: boolean | null;
  /** The confidence shown. */
  confidence: number;
}

export interface RobustnessRow {
  transform: string;
  kind: 'invariant' | 'change';
  family: string;
  /** Rewrites measured (those whose question the transform applied to). */
  n: number;
  /** Invariant rewrites: the share whose outcome equals the original's. Change rewrites: null. */
  invariance: number | null;
  /** Change rewrites of originally answered questions: the share whose outcome changed. Invariant: null. */
  flip: number | null;
  /** Change rewrites of originally answered questions: the share now abstained on. */
  abstained: number | null;
  /** Invariant rewrites of answerable questions the original answered: the share now refused. */
  newlyRefused: number | null;
}

export interface RobustnessCaseOutcome {
  baseId: string;
  transform: string;
  kind: 'invariant' | 'change';
  family: string;
  outcome: Outcome;
}

/** The same outcome: both abstained, or both answered with the same paper and, for a value question, equally right. */
export function sameOutcome(a: Outcome, b: Outcome): boolean {
  if (a.abstained !== b.abstained) return false;
  if (a.abstained) return true;
  return a.paper === b.paper && a.valueRight === b.valueRight;
}

/** One row per transform (in the order given), from the originals' outcomes and their rewrites'. */
export function robustnessTable(
  transforms: readonly { name: string; kind: 'invariant' | 'change'; family: string }[],
  base: ReadonlyMap<string, { answerable: boolean; outcome: Outcome }>,
  cases: readonly RobustnessCaseOutcome[],
): RobustnessRow[] {
  return transforms.map((t) => {
    const mine = cases.filter((c) => c.transform === t.name && base.has(c.baseId));
    const share = (list: RobustnessCaseOutcome[], test: (c: RobustnessCaseOutcome) => boolean) => (list.length ? list.filter(test).length / list.length : null);
    const orig = (c: RobustnessCaseOutcome) => base.get(c.baseId)!;
    if (t.kind === 'invariant') {
      const answered = mine.filter((c) => orig(c).answerable && !orig(c).outcome.abstained);
      return {
        transform: t.name,
        kind: t.kind,
        family: t.family,
        n: mine.length,
        invariance: share(mine, (c) => sameOutcome(orig(c).outcome, c.outcome)),
        flip: null,
        abstained: null,
        newlyRefused: share(answered, (c) => c.outcome.abstained),
      };
    }
    const answered = mine.filter((c) => !orig(c).outcome.abstained);
    return {
      transform: t.name,
      kind: t.kind,
      family: t.family,
      n: mine.length,
      invariance: null,
      flip: share(answered, (c) => !sameOutcome(orig(c).outcome, c.outcome)),
      abstained: share(answered, (c) => c.outcome.abstained),
      newlyRefused: null,
    };
  });
}

/** The table as text, one line per transform. */
export function formatRobustnessTable(pipeline: string, rows: readonly RobustnessRow[]): string {
  const f = (x: number | null) => (x === null ? '    –' : x.toFixed(3));
  const lines = [
    `\n${pipeline}: robustness (invariant: outcome kept; change: outcome changed among questions the original answered)`,
    `${'transform'.padEnd(24)} ${'kind'.padEnd(9)} ${'n'.padStart(5)}  invariance  refused  flip   abstained`,
  ];
  for (const r of rows)
    lines.push(
      `${r.transform.padEnd(24)} ${r.kind.padEnd(9)} ${String(r.n).padStart(5)}  ${f(r.invariance)}       ${f(r.newlyRefused)}    ${f(r.flip)}  ${f(r.abstained)}`,
    );
  return lines.join('\n');
}
