/** Numbers and values as people read them. Leaf module. */

/** `digits` significant digits; exponent form when very large or very small. */
export function formatNumber(x: number, digits = 4): string {
  return Math.abs(x) >= 1e4 || (Math.abs(x) < 1e-3 && x !== 0) ? x.toExponential(digits - 1) : Number(x.toPrecision(digits)).toString();
}

const superscript: Record<string, string> = { '-': '⁻', '0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹' };

/** "mW/cm^2" → "mW/cm²", "µmol g^-1 h^-1" → "µmol g⁻¹ h⁻¹". */
export const unitText = (u: string | null): string => (u ?? '').replace(/\^(-?\d+)/g, (_, e: string) => [...e].map((c) => superscript[c]).join(''));

/** A stored value or range with its unit ("450 mW/cm^2", "1073–1273 K"); `none` when there is no value. */
export function valueText(
  v: { value: number | null; valueMax: number | null; unit: string | null },
  opts: { none?: string; unit?: (u: string | null) => string } = {},
): string {
  if (v.value === null) return opts.none ?? '—';
  const range = v.valueMax !== null && v.valueMax !== v.value ? `–${formatNumber(v.valueMax)}` : '';
  return `${formatNumber(v.value)}${range} ${(opts.unit ?? ((u) => u ?? ''))(v.unit)}`.trim();
}

/**
 * "a" or "an" before `phrase`, by how its first word is said: "an area-specific resistance", "a band gap", "a unit
 * cell", "an XRD peak", "a BET surface area". Property labels are printed into sentences of answers a chemist reads.
 */
export function withArticle(phrase: string): string {
  const word = phrase.trim().split(/[\s-]/)[0] ?? '';
  // An acronym is read letter by letter: "an" before those whose name starts with a vowel sound (F = "ef", X = "ex").
  const acronym = word.length > 1 && /^[A-Z][A-Z0-9]+$/.test(word);
  const vowelSound = acronym
    ? /^[AEFHILMNORSX]/.test(word)
    : /^(?:[aeiou]|hour|honest|honou?r)/i.test(word) && !/^(?:uni|use|usu|ura|euro?|one|once)/i.test(word);
  return `${vowelSound ? 'an' : 'a'} ${phrase}`;
}
