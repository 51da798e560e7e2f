import { seededRandom } from '../../lib/common/random.ts';

/**
 * Well-formed but hostile questions, of the kinds a probe of a production server sent (issue 62): a formula fragment,
 * a unit or range, an exponent or a ± repeated to the length limit, runs of brackets, dots, commas, dashes and
 * whitespace, Greek letters, scientific notation — and random mixtures of such pieces. Every analysis step a
 * question passes through must be linear in its length on all of them; the unit tests and `npm run bench --
 * fuzz-questions` send them everywhere a person's text goes.
 */
export interface HostileQuestion {
  /** Which kind it is ("comma", "random-3"). */
  kind: string;
  text: string;
}

/** The question length limit of the answer and retrieval routes (lib/answer/request.ts). */
export const QUESTION_LIMIT = 2000;

const repeated = (piece: string, limit: number) => piece.repeat(Math.ceil(limit / piece.length)).slice(0, limit);

/** Each repeated piece, by kind. */
const PIECES: Record<string, string> = {
  formula: 'La0.6Sr0.4',
  hydroxide: 'Ni(OH)2',
  units: '1 S/cm at 1 °C ',
  range: '1-',
  exponent: '10^',
  'plus-minus': '1±',
  comma: '1,',
  'comma-space': '1, ',
  'and-list': '1 and ',
  'to-range': '1 to ',
  tilde: '~1',
  'unicode-minus': '−1',
  scientific: '1.2 × 10^-3 ',
  'e-notation': '1e-5 ',
  greek: 'αβγδεσ ',
  'decimal-dots': '1.',
  dots: '.',
  commas: ',',
  dashes: '-',
  'spaced-dashes': '- ',
  'nested-brackets': '((a)',
  'words-and-values': 'conductivity of YSZ at 800 °C ',
  capitals: 'ABCDEFG',
  'superscript-units': 'mW cm⁻² ',
  percent: '1 wt% ',
};

/** Pieces the random mixtures are made of: numbers, units, formula parts, operators, punctuation, letters, space. */
const MIX = [
  '1',
  '0.5',
  '10^',
  '-',
  '−',
  '±',
  ',',
  '.',
  ' ',
  '  ',
  '\t',
  '\n',
  '(',
  ')',
  '[',
  ']',
  '/',
  '·',
  '~',
  '%',
  '°C',
  ' K',
  ' nm',
  'mW cm⁻²',
  'S/cm',
  'to',
  ' and ',
  ' or ',
  'La',
  'Sr',
  'O3',
  'δ',
  'α',
  'x',
  'e-5',
  '×',
  '"',
  'YSZ',
  'what is the ',
  'é',
  '😀',
];

/**
 * Every repeated kind at `limit` characters (a whitespace run and a bracket run of their own), then `random` seeded
 * mixtures of `MIX` pieces of random lengths up to `limit`.
 */
export function hostileQuestions(limit = QUESTION_LIMIT, random = 8, seed = 62): HostileQuestion[] {
  const out: HostileQuestion[] = Object.entries(PIECES).map(([kind, piece]) => ({ kind, text: repeated(piece, limit) }));
  out.push({ kind: 'whitespace', text: `a${' '.repeat(Math.max(0, limit - 2))}b` });
  out.push({ kind: 'brackets', text: '('.repeat(Math.floor(limit / 2)) + ')'.repeat(Math.ceil(limit / 2)) });
  const rand = seededRandom(seed);
  for (let i = 0; i < random; i++) {
    const length = Math.max(1, Math.floor(limit * (0.25 + 0.75 * rand())));
    let text = '';
    while (text.length < length) text += MIX[Math.floor(rand() * MIX.length)];
    // Never a lone surrogate at the cut (an emoji split in two is not well-formed text).
    out.push({ kind: `random-${i + 1}`, text: text.slice(0, length).replace(/[\uD800-\uDBFF]$/, '') });
  }
  return out;
}
