import { TECHNIQUES } from '../structure/techniques.ts';
import { plainTerms } from '../structure/terms.ts';
import fitted from './reader-model.json' with { type: 'json' };

/**
 * The question reader: what a question asks for (its intent), read from how it is built rather than from one verb.
 * The question's own subjects — materials, properties, methods, values — are masked to slot tokens first (MAT, PROP,
 * METH, NUM), so what is read is the construction around them ("I want to make MAT by METH. Which reagents …"),
 * whatever the material. A softmax regression over the construction's words, word pairs, character 4-grams (typos)
 * and slot flags decides; it is fitted on the question bank (eval/bank, `npm run eval -- --bank --write`) and
 * measured on wording families left out of its fit.
 */

export const READER_INTENTS = ['value', 'synthesis', 'comparison', 'which-paper', 'paper-list', 'descriptive', 'out-of-scope'] as const;
export type ReaderIntent = (typeof READER_INTENTS)[number];

export interface Reading {
  intent: ReaderIntent;
  /** The probability of each intent (they sum to 1). */
  probabilities: Record<ReaderIntent, number>;
  /** The question as read: its subjects masked to slot tokens (what the features are made from). */
  masked: string;
}

/** Where a question names its subjects: what the analysis found, as spans of the question's body. */
export interface ReaderSlots {
  body: string;
  /** The question quotes a paper's title (taken out of `body`): read as a TITLE slot before it. */
  title?: boolean;
  /** Spans of materials (formulas, chemical names), properties and quantities in `body`. */
  materials: { start: number; end: number }[];
  properties: { start: number; end: number }[];
  quantities: { start: number; end: number }[];
}

/** A fitted reader: the intents in order, a weight row per feature, and the intents' biases. */
export interface ReaderModel {
  intents: readonly string[];
  bias: number[];
  weights: Record<string, number[]>;
}

/** The techniques' patterns, global (compiled once: the reader reads every question). */
const TECHNIQUE_PATTERNS = TECHNIQUES.map(({ pattern }) => new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`));

/** The body with its slots masked, lower-cased: "i want to make MAT by METH . which reagents …". */
export function maskedQuestion(slots: ReaderSlots): string {
  const spans = [
    ...slots.materials.map((s) => ({ ...s, token: ' MAT ' })),
    ...slots.properties.map((s) => ({ ...s, token: ' PROP ' })),
    ...slots.quantities.map((s) => ({ ...s, token: ' NUM ' })),
  ].sort((a, b) => a.start - b.start || b.end - a.end);
  let text = '';
  let at = 0;
  for (const s of spans) {
    if (s.start < at) continue; // inside a span already masked
    text += slots.body.slice(at, s.start) + s.token;
    at = s.end;
  }
  text += slots.body.slice(at);
  if (slots.title) text = `TITLE ${text}`;
  for (const pattern of TECHNIQUE_PATTERNS) text = text.replace(pattern, ' METH ');
  // Lower-cased but for the slot tokens (split out, so that a word such as "mat" is not taken for one).
  return text
    .replace(/\d+(?:[.,]\d+)?/g, ' NUM ')
    .split(/\b(MAT|PROP|METH|NUM|TITLE)\b/)
    .map((part, i) => (i % 2 ? part : part.toLowerCase()))
    .join('');
}

const SLOT = /^(MAT|PROP|METH|NUM|TITLE)$/;

/**
 * Classes of words a construction is made of, as features beside the words themselves: a word of a class the fit saw
 * in one family stands for its class in a family it did not see ("source" and "reference" for "paper").
 */
const WORD_CLASSES: [string, RegExp][] = [
  ['paper', /^(?:papers?|stud(?:y|ies)|articles?|refs?|references?|sources?|src|publications?|reports?|works?|literature|citations?|cite|authors?|who)$/],
  ['plural', /^(?:papers|studies|articles|refs|references|sources|publications|reports|works|all|every|list|lists|each|many)$/],
  [
    'make',
    /^(?:make|made|making|prepar\w*|synthes\w*|fabricat\w*|grow\w*|produc\w*|recipes?|routes?|procedures?|protocols?|steps?|precursors?|reagents?|starting|chemicals?|calcin\w*|sinter\w*|anneal\w*|fir(?:e|ed|ing)|heat\w*|furnace|dwell|batch|weigh\w*|mix\w*)$/,
  ],
  ['compare', /^(?:vs|versus|compare\w*|than|between|better|beat|outperform\w*|higher|lower|larger|greater|superior|or|favou?red|ahead|>|<)$/],
  [
    'explain',
    /^(?:why|explain\w*|mechanism\w*|limit\w*|affect\w*|govern\w*|control\w*|caus\w*|depend\w*|role|origin|understand|reason\w*|behaviou?r|drop\w*|loses?|degrad\w*|sensitive)$/,
  ],
  ['quantity', /^(?:value|much|high|how|typical|approx\w*|number|reach\w*|measured|level|magnitude|what)$/],
];

/** The features of a masked question: words, word pairs, character 4-grams of words, and slot counts. */
export function readerFeatures(masked: string): string[] {
  const tokens = masked.match(/[A-Z]+|[\p{L}]+|[?:]/gu) ?? [];
  const words = tokens.map((t) => (SLOT.test(t) || t === '?' || t === ':' ? t : (plainTerms(t)[0] ?? t)));
  const out = new Set<string>();
  for (const w of words) out.add(`w:${w}`);
  // The construction as classes and slots ("paper+plural PROP MAT"), each word by its classes, others left out:
  // pairs of it carry a construction to words of the same class the fit never saw.
  const abstract = tokens
    .map((t) =>
      SLOT.test(t)
        ? t
        : WORD_CLASSES.filter(([, re]) => re.test(t.toLowerCase()))
            .map(([name]) => name)
            .join('+'),
    )
    .filter(Boolean);
  for (const a of abstract) for (const k of a.split('+')) out.add(`k:${k}`);
  for (let i = 0; i + 1 < abstract.length; i++) out.add(`kb:${abstract[i]}_${abstract[i + 1]}`);
  for (let i = 0; i + 1 < words.length; i++) out.add(`b:${words[i]}_${words[i + 1]}`);
  out.add(`b:^_${words[0] ?? ''}`);
  for (const t of tokens)
    if (!SLOT.test(t) && t.length >= 4) {
      const padded = `<${t}>`;
      for (let i = 0; i + 4 <= padded.length; i++) out.add(`c:${padded.slice(i, i + 4)}`);
    }
  const count = (slot: string) => tokens.filter((t) => t === slot).length;
  for (const slot of ['MAT', 'PROP', 'METH', 'NUM', 'TITLE']) out.add(`n:${slot}${Math.min(2, count(slot))}`);
  out.add(`len:${Math.min(4, Math.floor(words.length / 6))}`);
  out.add(`end:${/\?\s*$/.test(masked) ? '?' : '.'}`);
  return [...out];
}

/** The intents' probabilities under `model` for these features. */
export function intentProbabilities(model: ReaderModel, features: string[]): number[] {
  const z = [...model.bias];
  for (const f of features) {
    const w = model.weights[f];
    if (w) for (let k = 0; k < z.length; k++) z[k] += w[k];
  }
  const max = Math.max(...z);
  const e = z.map((v) => Math.exp(v - max));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / sum);
}

let current: ReaderModel = fitted as ReaderModel;

/**
 * Reads every later question with `model` (null: the fitted reader again). For the bank's held-out answers only
 * (`npm run eval -- --bank --answers`): each family is answered by a reader fitted without it, through the same
 * pipelines the app runs, which take no reader of their own.
 */
export function readWith(model: ReaderModel | null): void {
  current = model ?? (fitted as ReaderModel);
}

/** What the question asks for, under the reader in use (or `model`). */
export function readQuestion(slots: ReaderSlots, model: ReaderModel = current): Reading {
  const masked = maskedQuestion(slots);
  const p = intentProbabilities(model, readerFeatures(masked));
  const probabilities = Object.fromEntries(READER_INTENTS.map((intent) => [intent, 0])) as Record<ReaderIntent, number>;
  model.intents.forEach((intent, k) => {
    if (intent in probabilities) probabilities[intent as ReaderIntent] = p[k];
  });
  const intent = READER_INTENTS.reduce((best, i) => (probabilities[i] > probabilities[best] ? i : best), READER_INTENTS[0]);
  return { intent, probabilities, masked };
}
