import type { Transform } from '../types.ts';

/**
 * An acronym the corpus's papers define, written out or abbreviated: "SOFC" ↔ "solid oxide fuel cell". The question
 * does not define it; the paper does. The first one the question writes, either way, is rewritten.
 */
export const acronym: Transform = {
  name: 'acronym',
  kind: 'invariant',
  family: 'name',
  describe: 'an acronym the papers define, expanded or abbreviated (SOFC ↔ solid oxide fuel cell)',
  apply(question, ctx) {
    let best: { start: number; end: number; by: string } | null = null;
    for (const m of question.matchAll(/(?<![\w-])[A-Za-z][A-Za-z0-9]{1,9}(?![\w-])/g)) {
      const long = ctx.acronyms.get(m[0]);
      if (long && /[A-Z].*[A-Z]/.test(m[0])) {
        best = { start: m.index, end: m.index + m[0].length, by: long };
        break;
      }
    }
    const lower = question.toLowerCase();
    for (const [short, long] of ctx.acronyms) {
      const at = lower.indexOf(long.toLowerCase());
      if (at < 0 || (best && at >= best.start) || /\w/.test(lower[at - 1] ?? '') || /\w/.test(lower[at + long.length] ?? '')) continue;
      best = { start: at, end: at + long.length, by: short };
    }
    return best ? question.slice(0, best.start) + best.by + question.slice(best.end) : null;
  },
};
