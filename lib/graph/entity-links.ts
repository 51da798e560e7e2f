import type { EntityLinkRow } from '../db/entity-links.ts';
import { ServiceError, type ServiceCall } from '../scholarly/http.ts';
import { searchWikidata, type WikidataItem, wikidataItems } from '../scholarly/wikidata.ts';
import { formulaKey } from '../structure/terms.ts';

/**
 * Entity linking (method D): a graph entity is linked to the Wikidata item that is the same thing, or to nothing.
 * A material with a formula is linked only to an item whose chemical formula (P274) has the same canonical key
 * ("MgB₂" = MgB2 = B2Mg); any other entity only to an item whose English label or alias is its name, and never to
 * a disambiguation page. Precision over recall: an entity Wikidata does not settle stays unlinked ("none").
 */
export interface LinkableEntity {
  key: string;
  label: string;
  kind: string;
  formula: string | null;
}

export type LinkOutcome = Omit<EntityLinkRow, 'checkedAt' | 'reviewedAt'> & { unreachable: boolean };

const SUBSCRIPTS: Record<string, string> = { '₀': '0', '₁': '1', '₂': '2', '₃': '3', '₄': '4', '₅': '5', '₆': '6', '₇': '7', '₈': '8', '₉': '9' };
/** Wikidata's formula typography ("MgB₂", "Ba₀.₆K₀.₄Fe₂As₂") → the canonical key used by the graph. */
export const wikidataFormulaKey = (formula: string): string | null => formulaKey(formula.replace(/[₀-₉]/g, (c) => SUBSCRIPTS[c]).replace(/\s+/g, ''));

const fold = (s: string) =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[‐-―−]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
const DISAMBIGUATION = /disambiguation|wikimedia (?:list|category|template)/i;

/** The item the entity is, and how it was told: by formula, else by name; null when none is. */
export function chooseItem(entity: LinkableEntity, items: WikidataItem[]): { item: WikidataItem; method: 'formula' | 'label' } | null {
  // A formula entity (f:…) is told by its formula; a lexicon material (m:YSZ) by its name, as its formula is nominal.
  const own = entity.key.startsWith('f:') ? entity.key.slice(2) : null;
  if (own) {
    const item = items.find((i) => i.formulas.some((f) => wikidataFormulaKey(f) === own));
    // A formula entity is the compound its formula names or nothing: a name match alone could be another phase.
    return item ? { item, method: 'formula' } : null;
  }
  const name = fold(entity.label);
  if (name.length < 3) return null;
  const item = items.find((i) => !DISAMBIGUATION.test(i.description ?? '') && [i.label, ...i.aliases].some((n) => n && fold(n) === name));
  return item ? { item, method: 'label' } : null;
}

export async function linkEntity(entity: LinkableEntity, baseUrl: string, call: Omit<ServiceCall, 'service'>): Promise<LinkOutcome> {
  const empty = {
    entityKey: entity.key,
    qid: null,
    label: null,
    description: null,
    aliases: [],
    formula: null,
    method: null,
    message: null,
    unreachable: false,
  };
  try {
    const items = await wikidataItems(baseUrl, await searchWikidata(baseUrl, entity.label, call), call);
    const chosen = chooseItem(entity, items);
    if (!chosen) return { ...empty, status: 'none', message: items.length ? `no item of the ${items.length} found is ${entity.label}` : 'no item found' };
    const { item, method } = chosen;
    return {
      ...empty,
      status: 'linked',
      qid: item.qid,
      label: item.label,
      description: item.description,
      // The item's names other than the entity's own: its label ("magnesium diboride") and aliases.
      aliases: [...new Set([item.label, ...item.aliases].filter((a): a is string => !!a && fold(a) !== fold(entity.label)))].slice(0, 30),
      formula: item.formulas[0] ?? null,
      method,
    };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    if (error.reason === 'not-found') return { ...empty, status: 'none', message: error.message };
    return { ...empty, status: 'error', message: error.message, unreachable: error.reason === 'unreachable' || error.reason === 'timeout' };
  }
}
