/**
 * The comparison suite: two-sided comparison questions ("Which has the higher Tc, MgB2 or PdTe2?") made from pairs of
 * gold value questions that ask the same property of different materials under the same temperature. Each side's gold
 * value is what the answer should state for it, and the gold values' order is the verdict it should reach. Like the
 * robustness suite it tests a behaviour (naming every side, its value, and the right one higher) over wordings made
 * here, not a set to fit: no rule of the answer may name a template.
 */
import { askedPropertyWords, namedMaterials } from '../../lib/answer/sides.ts';
import { analyseQuestion, GENERIC_PROPERTIES } from '../../lib/retrieval/question.ts';
import { propertyEntry } from '../../lib/structure/properties.ts';
import { parseQuantities } from '../../lib/structure/quantities.ts';
import { seedOf } from '../robustness/text.ts';

/** A gold value question the suite pairs: its id, its text and its gold value. */
export interface ValueQuestion {
  id: string;
  question: string;
  value: string;
}

/** One side of a comparison: its name as the source question writes it and its gold value there. */
export interface ComparisonSide {
  name: string;
  value: string;
  /** The gold value in canonical units (what the sides are ordered by). */
  canonical: number;
  sourceId: string;
}

/** One generated comparison question. */
export interface ComparisonCase {
  id: string;
  question: string;
  template: string;
  property: string;
  sides: [ComparisonSide, ComparisonSide];
}

/** How a comparison is worded: a template over the property words, the temperature phrase and the two names. */
interface Template {
  name: string;
  write(property: string, at: string, a: string, b: string): string;
}

const TEMPLATES: readonly Template[] = [
  { name: 'which-higher', write: (p, at, a, b) => `Which has the higher ${p}${at}, ${a} or ${b}?` },
  { name: 'compare', write: (p, at, a, b) => `Compare the ${p} of ${a} and ${b}${at}.` },
  { name: 'versus-lower', write: (p, at, a, b) => `${a} vs ${b}: which has the lower ${p}${at}?` },
  { name: 'is-higher-than', write: (p, at, a, b) => `Is the ${p} of ${a} higher than that of ${b}${at}?` },
];

/** Gold values closer than this ratio are not ordered: rounding or another measurement could swap them. */
const CLEAR_RATIO = 1.25;
const PAIRS_PER_MATERIAL = 2;

/** A question's own text without the quoted title it names its paper by ("In “…”, what Tc is reported for X?"). */
const withoutTitle = (question: string) => question.replace(/^In\s+[“"][^”"]+[”"],\s*/i, '').replace(/^./, (c) => c.toUpperCase());

interface Source {
  id: string;
  property: string;
  words: string;
  at: string;
  temperatureK: number | null;
  side: ComparisonSide;
  keys: string[];
}

/** What one value question gives a comparison, or null when it asks of no single material, or under other conditions. */
function sourceOf(q: ValueQuestion): Source | null {
  const text = withoutTitle(q.question);
  if (/[“”"]/.test(text)) return null;
  const analysis = analyseQuestion(text);
  const property = analysis.properties.find((p) => propertyEntry(p)?.dimension);
  const entry = property ? propertyEntry(property) : undefined;
  // A processing step's temperature or time ("how long was it dried?") is no property of the material to compare.
  if (!property || !entry?.dimension || GENERIC_PROPERTIES.has(property)) return null;
  const materials = namedMaterials(analysis);
  if (materials.length !== 1) return null;
  // Conditions other than one temperature (a pressure, a current) are not carried into the comparison: left out.
  const temperatures = analysis.quantities.filter((x) => x.dimension === 'temperature' && entry.dimension !== 'temperature');
  if (analysis.quantities.length !== temperatures.length || temperatures.length > 1 || temperatures[0]?.canonical.length > 1) return null;
  const gold = parseQuantities(q.value);
  if (
    gold.length !== 1 ||
    gold[0].kind !== 'single' ||
    gold[0].dimension !== entry.dimension ||
    /[<>≤≥~∼≈]|\b(?:below|above|exceed|about|over|under|less|more|approx)/i.test(q.value)
  )
    return null;
  const words = askedPropertyWords(analysis);
  if (!words) return null;
  const t = temperatures[0];
  return {
    id: q.id,
    property,
    words,
    at: t ? ` at ${t.text}` : '',
    temperatureK: t ? t.canonical[0] : null,
    side: { name: materials[0].name, value: q.value, canonical: gold[0].canonical[0], sourceId: q.id },
    keys: materials[0].keys,
  };
}

/** Whether two names are one material or one names the other ("YSZ" and "Ni-YSZ"): no comparison of sides. */
const overlapping = (a: Source, b: Source) =>
  a.keys.some((k) => b.keys.includes(k)) ||
  a.side.name.toLowerCase().includes(b.side.name.toLowerCase()) ||
  b.side.name.toLowerCase().includes(a.side.name.toLowerCase());

/**
 * Comparison questions from the value questions: sources grouped by property and asked temperature, a material with
 * gold values that disagree within its group left out, then paired in a fixed order (by a hash of their ids) with a
 * material of clearly different value (each material in two pairs at most); each pair worded by one template, picked by the pair's hash.
 */
export function comparisonCases(questions: readonly ValueQuestion[]): ComparisonCase[] {
  const groups = new Map<string, Source[]>();
  for (const q of questions) {
    const s = sourceOf(q);
    if (!s) continue;
    const key = `${s.property}|${s.temperatureK === null ? '-' : Math.round(s.temperatureK)}`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  const out: ComparisonCase[] = [];
  for (const group of groups.values()) {
    // One gold value per material: a material the group gives two values of has no one value to compare.
    const byName = new Map<string, Source[]>();
    for (const s of group) byName.set(s.side.name.toLowerCase(), [...(byName.get(s.side.name.toLowerCase()) ?? []), s]);
    const single = [...byName.values()]
      .filter((list) => list.every((s) => Math.abs(s.side.canonical - list[0].side.canonical) <= Math.abs(list[0].side.canonical) * 0.01))
      .map((list) => list[0])
      .sort((a, b) => seedOf(a.id) - seedOf(b.id));
    // Each material on at most two sides, so that no one material's answer weighs on many cases.
    const uses = new Map<Source, number>();
    for (const [i, a] of single.entries()) {
      for (const b of single.slice(i + 1)) {
        if ((uses.get(a) ?? 0) >= PAIRS_PER_MATERIAL) break;
        if ((uses.get(b) ?? 0) >= PAIRS_PER_MATERIAL || overlapping(a, b) || ratio(a, b) < CLEAR_RATIO) continue;
        uses.set(a, (uses.get(a) ?? 0) + 1);
        uses.set(b, (uses.get(b) ?? 0) + 1);
        const id = `${a.id}+${b.id}`;
        const template = TEMPLATES[seedOf(id) % TEMPLATES.length];
        out.push({
          id,
          question: template.write(a.words, a.at, a.side.name, b.side.name),
          template: template.name,
          property: a.property,
          sides: [a.side, b.side],
        });
      }
    }
  }
  return out.sort((x, y) => seedOf(x.id) - seedOf(y.id));
}

const ratio = (a: Source, b: Source) => {
  const [lo, hi] = [Math.abs(a.side.canonical), Math.abs(b.side.canonical)].sort((x, y) => x - y);
  return lo === 0 ? Number.POSITIVE_INFINITY : hi / lo;
};

export const COMPARISON_TEMPLATES = TEMPLATES.map((t) => t.name);
