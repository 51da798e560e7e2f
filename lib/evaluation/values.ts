import { parseQuantities } from '../structure/quantities.ts';

/** Whether `gold` ("200 degC", "1.5 K", "3.3 ± 0.5 nm") is stated in any of the texts. */
export function valueFound(gold: string, texts: string[]): boolean {
  const g = parseQuantities(gold)[0];
  if (g) {
    for (const t of texts) {
      for (const q of parseQuantities(t)) {
        if (q.dimension !== g.dimension || q.canonical.length < g.canonical.length) continue;
        if (g.canonical.every((v) => q.canonical.some((w) => Math.abs(v - w) <= Math.max(Math.abs(v), Math.abs(w)) * 0.005 + 1e-12))) return true;
      }
    }
  }
  const compact = (s: string) =>
    s
      .toLowerCase()
      .replace(/[\s\u2009\u00a0]+/g, '')
      .replace(/[−–]/g, '-');
  const needle = compact(gold);
  return needle.length > 0 && texts.some((t) => compact(t).includes(needle));
}
