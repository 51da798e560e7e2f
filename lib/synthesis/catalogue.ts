import { boundedMemo } from '../common/bounded-memo.ts';
import { timeSlicer } from '../common/yield.ts';
import type { Database } from '../db/database.ts';
import { saveCatalogueEntries, uncataloguedRecords } from '../db/records.ts';
import { materialTerms } from '../retrieval/facets.ts';
import { normaliseFormula } from '../structure/formula.ts';
import { formulaKey, textFacets } from '../structure/terms.ts';

/**
 * The recipe catalogue: for each imported recipe, what a synthesis question looks it up by — the targets' material
 * terms exactly as a question's analysis writes them (`f:FeLiO4P` however "LiFePO4" is typed), the elements of the
 * targets (doped and off-stoichiometric variants of a material contain its elements), and the technique the recipe
 * uses, as the technique keys of lib/structure/techniques.ts that questions are read with. Stored with each record
 * (Record.targetKeys / targetElements / method), so a synthesis question is one indexed query, not an index build.
 */

/** Bump when what the catalogue writes changes: records catalogued by an older version are catalogued again. */
export const CATALOGUE_VERSION = 1;

/** The technique key of each recipe kind of the text-mined datasets. */
const METHOD_OF_KIND: Record<string, string> = { 'sol-gel-recipe': 'sol-gel', 'solid-state-recipe': 'solid-state-reaction' };

export interface CatalogueEntry {
  targetKeys: string[];
  targetElements: string[];
  method: string | null;
}

type Obj = Record<string, unknown>;
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() && v !== 'None' ? v.trim() : null);

/** The targets a recipe names: its target's formula (or name) and its targets string(s). */
export function recipeTargets(data: Obj): string[] {
  const target = data.target as Obj | undefined;
  const listed = Array.isArray(data.targets_string) ? data.targets_string : [data.targets_string];
  return [...new Set([text(target?.material_formula) ?? text(target?.material_string), ...listed.map(text)].filter((x): x is string => !!x))];
}

// Recipe files name the same targets thousands of times (LiMn2O4, BaTiO3): each spelling is read once.
const targetTerms = boundedMemo((target: string): { terms: string[]; elements: string[] } => {
  const parsed = normaliseFormula(target);
  const key = parsed ? formulaKey(parsed.formula) : null;
  // A plain formula (most targets) is its formula key; names, mixtures and lexicon materials are read as any text is.
  if (parsed && key) return { terms: [`f:${key}`], elements: parsed.elements };
  const facets = textFacets(target);
  return { terms: [...materialTerms(facets.formulas, facets.materials)], elements: parsed?.elements ?? [] };
}, 50_000);

export function catalogueEntry(kind: string, data: Obj): CatalogueEntry {
  if (!kind.endsWith('-recipe')) return { targetKeys: [], targetElements: [], method: null };
  const keys = new Set<string>();
  const elements = new Set<string>();
  for (const target of recipeTargets(data)) {
    const { terms, elements: of } = targetTerms(target);
    for (const term of terms) keys.add(term);
    for (const el of of) elements.add(el);
  }
  const synthesisType = text(data.synthesis_type);
  const method = METHOD_OF_KIND[kind] ?? (synthesisType === 'sol-gel' ? 'sol-gel' : null);
  return { targetKeys: [...keys].sort(), targetElements: [...elements].sort(), method };
}

/**
 * Catalogues every record not yet read at this version, a page at a time (each page one statement: an interrupted
 * run leaves whole pages done, and the next run goes on from what is left). Runs after each import and, for a data
 * folder imported before the catalogue existed, once at start.
 */
export async function catalogueRecords(db: Database, opts: { signal?: AbortSignal; page?: number } = {}): Promise<{ records: number; seconds: number }> {
  const t0 = performance.now();
  const slice = timeSlicer();
  let records = 0;
  for (let after: string | null = null; !opts.signal?.aborted; ) {
    const rows = await uncataloguedRecords(db.prisma, CATALOGUE_VERSION, after, opts.page ?? 2_000);
    if (!rows.length) break;
    const entries = [];
    for (const r of rows) {
      await slice();
      entries.push({ id: r.id, ...catalogueEntry(r.kind, (r.data ?? {}) as Obj) });
    }
    records += await saveCatalogueEntries(db, CATALOGUE_VERSION, entries);
    after = rows[rows.length - 1].id;
  }
  return { records, seconds: (performance.now() - t0) / 1000 };
}
