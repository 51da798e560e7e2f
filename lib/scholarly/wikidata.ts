import { z } from 'zod';
import { getJson, type ServiceCall } from './http.ts';

/**
 * Wikidata's action API (https://www.wikidata.org/w/api.php): `wbsearchentities` finds items whose label or alias
 * matches a name; `wbgetentities` reads their English labels, descriptions, aliases and statements — here the
 * chemical formula (P274) and the instance-of classes (P31). Only the fields Assay reads are validated.
 */
const searchResult = z.object({
  search: z.array(z.object({ id: z.string().regex(/^Q\d+$/), label: z.string().optional(), description: z.string().optional() })),
});

const stringClaims = z.array(z.object({ mainsnak: z.object({ datavalue: z.object({ value: z.unknown() }).optional() }) })).optional();
const entities = z.object({
  entities: z.record(
    z.string(),
    z.object({
      id: z.string(),
      labels: z.record(z.string(), z.object({ value: z.string() })).optional(),
      descriptions: z.record(z.string(), z.object({ value: z.string() })).optional(),
      aliases: z.record(z.string(), z.array(z.object({ value: z.string() }))).optional(),
      claims: z.record(z.string(), stringClaims).optional(),
    }),
  ),
});

export interface WikidataItem {
  qid: string;
  label: string | null;
  description: string | null;
  aliases: string[];
  /** P274 chemical formulas as Wikidata writes them ("MgB₂"). */
  formulas: string[];
}

const api = (baseUrl: string, params: Record<string, string>) => `${baseUrl}/w/api.php?${new URLSearchParams({ ...params, format: 'json' })}`;

export async function searchWikidata(baseUrl: string, text: string, call: Omit<ServiceCall, 'service'>, limit = 5): Promise<string[]> {
  const found = await getJson(
    api(baseUrl, { action: 'wbsearchentities', search: text, language: 'en', uselang: 'en', type: 'item', limit: String(limit) }),
    searchResult,
    {
      ...call,
      service: 'Wikidata',
    },
  );
  return found.search.map((s) => s.id);
}

export async function wikidataItems(baseUrl: string, ids: string[], call: Omit<ServiceCall, 'service'>): Promise<WikidataItem[]> {
  if (ids.length === 0) return [];
  const found = await getJson(
    api(baseUrl, { action: 'wbgetentities', ids: ids.join('|'), props: 'labels|descriptions|aliases|claims', languages: 'en' }),
    entities,
    {
      ...call,
      service: 'Wikidata',
    },
  );
  return ids
    .map((id) => found.entities[id])
    .filter((e) => !!e)
    .map((e) => ({
      qid: e.id,
      label: e.labels?.en?.value ?? null,
      description: e.descriptions?.en?.value ?? null,
      aliases: (e.aliases?.en ?? []).map((a) => a.value),
      formulas: (e.claims?.P274 ?? []).map((c) => c.mainsnak.datavalue?.value).filter((v): v is string => typeof v === 'string'),
    }));
}
