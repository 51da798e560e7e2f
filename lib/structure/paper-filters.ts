import { materialAliases, materialKey } from './materials.ts';
import { type Dimension, parseQuantities } from './quantities.ts';

/**
 * The library's paper filters as a person writes them (a material in any spelling, a condition in any unit) and
 * their resolution into what the database matches: a material's canonical key and an alias regex, a condition's
 * canonical interval. lib/db/papers.ts stores and loads; the reading of names and units happens here.
 */
export interface PaperFilters {
  domain?: string;
  source?: string;
  yearFrom?: number;
  yearTo?: number;
  /** Papers with a paragraph of this role / synthesis method (structuring stage). */
  role?: string;
  method?: string;
  /** A material in any spelling: abbreviation, name or formula ("YSZ" finds "yttria-stabilized zirconia"). */
  material?: string;
  /** A numeric condition in any unit ("800–1000 °C", "≥ 1073 K"): papers with a quantity in that interval. */
  condition?: string;
}

/** A material as the database matches it: its mentions' canonical key, or its aliases in the text (a regex). */
export interface MaterialMatch {
  key: string;
  regex: string;
}

/** A condition as the database matches it: quantities of this dimension overlapping the interval (null: open). */
export interface ConditionMatch {
  dimension: string;
  min: number | null;
  max: number | null;
}

/** Filters resolved for the database; `condition: 'unreadable'` matches nothing. */
export type ResolvedPaperFilters<F extends PaperFilters = PaperFilters> = Omit<F, 'material' | 'condition'> & {
  material?: MaterialMatch;
  condition?: ConditionMatch | 'unreadable';
};

/** A material's aliases as one case-insensitive PostgreSQL word-boundary regex, plus its canonical key. */
export function materialMatch(material: string): MaterialMatch {
  const aliases = materialAliases(material.trim()).filter((a) => a.length >= 2);
  const escapeRegExp = (a: string) =>
    a
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace(/[-‐–−]/g, '[-‐–− ]?')
      .replace(/\s+/g, '[\\s-]+')
      .replace(/iz(ed|ation|ing)/g, 'i[sz]$1');
  return { key: materialKey(material), regex: `(^|[^A-Za-z0-9])(${aliases.map(escapeRegExp).join('|')})($|[^A-Za-z0-9])` };
}

/** The filters with their material and condition read (blank ones dropped). */
export function resolvePaperFilters<F extends PaperFilters>(f: F): ResolvedPaperFilters<F> {
  const { material, condition, ...rest } = f;
  const out: ResolvedPaperFilters<F> = rest as ResolvedPaperFilters<F>;
  if (material?.trim()) out.material = materialMatch(material);
  if (condition?.trim()) {
    const c = parseCondition(condition);
    out.condition = c ? { dimension: c.dimension, min: Number.isFinite(c.min) ? c.min : null, max: Number.isFinite(c.max) ? c.max : null } : 'unreadable';
  }
  return out;
}

/** A condition in any unit ("800-1000 °C", "≥ 1073 K") as a canonical interval, for range filters. */
export function parseCondition(text: string): { dimension: Dimension; min: number; max: number; unit: string; written: string } | null {
  const q = parseQuantities(text)[0];
  if (!q) return null;
  // What the reader wrote, as read ("600–800 °C", "≥ 1073 K"): what a page echoes, in the reader's own unit.
  const written = q.text;
  // Kelvin written from Celsius is usually rounded (1000 °C ≈ 1273 K): half a kelvin of slack makes both agree.
  const slack = q.dimension === 'temperature' ? 0.5 : 0;
  const lo = Math.min(...q.canonical) - slack;
  const hi = Math.max(...q.canonical) + slack;
  if (q.comparator === '>=' || q.comparator === '>') return { dimension: q.dimension, min: lo, max: Number.POSITIVE_INFINITY, unit: q.canonicalUnit, written };
  if (q.comparator === '<=' || q.comparator === '<') return { dimension: q.dimension, min: Number.NEGATIVE_INFINITY, max: hi, unit: q.canonicalUnit, written };
  return { dimension: q.dimension, min: lo, max: hi, unit: q.canonicalUnit, written };
}
