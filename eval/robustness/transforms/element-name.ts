import { ELEMENT_NAMES } from '../text.ts';
import type { Transform } from '../types.ts';

/** Words after which a lone symbol is an element ("Ni foam", "Gd-doped", "Pt particles"). */
const CONTEXT =
  '(?=[-\\s](?:doped|substituted|foam|nanoparticles?|particles?|catalysts?|films?|loading|content|atoms?|single[- ]atoms?|ions?|nanowires?|electrodes?|anodes?|cathodes?)\\b)';
const SYMBOL = new RegExp(`(?<![\\w/@().-])([A-Z][a-z]?)${CONTEXT}`, 'g');
const NAMES = Object.fromEntries(Object.entries(ELEMENT_NAMES).map(([symbol, name]) => [name, symbol]));
const NAME = new RegExp(`\\b(${Object.keys(NAMES).join('|')})${CONTEXT}`, 'gi');

/** An element by its name instead of its symbol or the reverse: "Ni foam" ↔ "nickel foam", "Gd-doped" ↔ "gadolinium-doped". */
export const elementName: Transform = {
  name: 'element-name',
  kind: 'invariant',
  family: 'name',
  describe: 'an element by its name instead of its symbol, or the reverse (Ni foam ↔ nickel foam)',
  apply(question) {
    for (const m of question.matchAll(SYMBOL))
      if (ELEMENT_NAMES[m[1]]) return question.slice(0, m.index) + ELEMENT_NAMES[m[1]] + question.slice(m.index + m[1].length);
    for (const m of question.matchAll(NAME)) {
      const symbol = NAMES[m[1].toLowerCase()];
      if (symbol) return question.slice(0, m.index) + symbol + question.slice(m.index + m[1].length);
    }
    return null;
  },
};
