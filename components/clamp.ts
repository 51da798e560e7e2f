/** Characters of context shown either side of a marked sentence (twice that from the start when none is marked). */
export const CLAMP_CONTEXT = 300;

/**
 * The part of a long paragraph shown before "show all": the marked sentence with CLAMP_CONTEXT characters either
 * side, or the opening; `clamped` is false when that is the whole paragraph.
 */
export function clampWindow(length: number, mark?: { start: number; end: number }, context = CLAMP_CONTEXT): { from: number; to: number; clamped: boolean } {
  const from = mark ? Math.max(0, Math.min(mark.start, length) - context) : 0;
  const to = mark ? Math.min(length, mark.end + context) : Math.min(length, 2 * context);
  return { from, to, clamped: from > 0 || to < length };
}
