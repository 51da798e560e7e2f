import { quantitiesOf } from '../text.ts';
import type { Transform } from '../types.ts';

/**
 * Typed quickly: words in lower case (formulas and acronyms — any word with a digit or two capitals — kept), no
 * space between a number and its unit, no question mark.
 */
export const caseSpacing: Transform = {
  name: 'case-spacing',
  kind: 'invariant',
  family: 'surface',
  describe: 'lower case (formulas and acronyms kept), number and unit run together, no question mark',
  apply(question) {
    // Units keep their case ("mW", "°C"): lower case there changes the unit, not the typing.
    const units = quantitiesOf(question).map((q) => [q.start, q.end]);
    const out = question
      .replace(/[^\s]+/g, (w, at: number) => (/\d|[A-Z].*[A-Z]/.test(w) || units.some(([s, e]) => at >= s && at < e) ? w : w.toLowerCase()))
      .replace(/(\d)\s+(°C|K\b|mW|W\b|S\b|mS|nm|GPa|MPa|h\b|eV|mA|A\b)/g, '$1$2')
      .replace(/\s*\?\s*$/, '');
    return out !== question ? out : null;
  },
};
