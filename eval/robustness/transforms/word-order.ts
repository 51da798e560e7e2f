import type { Transform } from '../types.ts';

/**
 * A closing phrase moved to the front: "Which paper reports 560 mW cm−2 for a micro-SOFC at 550 °C?" → "At 550 °C,
 * which paper reports 560 mW cm−2 for a micro-SOFC?"; an opening one ("At 550 °C, …") moved to the end.
 */
export const wordOrder: Transform = {
  name: 'word-order',
  kind: 'invariant',
  family: 'surface',
  describe: 'a closing “at/under/for/in …” phrase moved to the front, or an opening one to the end',
  apply(question) {
    const lead = /^((?:at|under|for|in|with|using)\s[^,]{2,60}),\s+(.+?)(\??)\s*$/i.exec(question);
    if (lead) return `${upper(lead[2])} ${lower(lead[1])}${lead[3]}`;
    const tail = /^(.{12,}?)\s+((?:at|under|for|in|with|using)\s(?:(?!\b(?:at|under|for|in|with|using)\b)[^,?]){2,60})(\??)\s*$/i.exec(question);
    if (!tail || /\b(?:what|which|how|who|where|when)\b/i.test(tail[2]) || /[,;:]$/.test(tail[1])) return null;
    return `${upper(tail[2])}, ${lower(tail[1])}${tail[3]}`;
  },
};

const upper = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** Lower-cases the first letter unless the first word is a formula or an acronym. */
const lower = (s: string) => (/^\S*(?:\d|[A-Z]\S*[A-Z])/.test(s) ? s : s.charAt(0).toLowerCase() + s.slice(1));
