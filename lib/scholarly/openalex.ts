import { z } from 'zod';
import { getJson, type ServiceCall } from './http.ts';

/**
 * OpenAlex's works API (https://docs.openalex.org; `GET /works/doi:{doi}`): authorships with ORCID, the primary
 * location's source and licence, `cited_by_count`, `is_retracted` and open-access status. Only the fields Assay
 * reads are validated.
 */
const openAlexWork = z.object({
  id: z.string(),
  doi: z.string().nullable().optional(),
  title: z.string().nullable().optional(),
  publication_year: z.number().nullable().optional(),
  authorships: z.array(z.object({ author: z.object({ display_name: z.string().nullable().optional(), orcid: z.string().nullable().optional() }) })).optional(),
  primary_location: z
    .object({ source: z.object({ display_name: z.string().nullable().optional() }).nullable().optional(), license: z.string().nullable().optional() })
    .nullable()
    .optional(),
  cited_by_count: z.number().optional(),
  is_retracted: z.boolean().optional(),
  open_access: z.object({ is_oa: z.boolean().optional(), oa_url: z.string().nullable().optional() }).optional(),
});
export type OpenAlexWork = z.infer<typeof openAlexWork>;

export function openAlexWorkUrl(baseUrl: string, doi: string, mailto: string | null): string {
  return `${baseUrl}/works/doi:${encodeURIComponent(doi)}${mailto ? `?mailto=${encodeURIComponent(mailto)}` : ''}`;
}

export async function fetchOpenAlexWork(baseUrl: string, doi: string, call: Omit<ServiceCall, 'service'> & { mailto?: string | null }): Promise<OpenAlexWork> {
  return getJson(openAlexWorkUrl(baseUrl, doi, call.mailto ?? null), openAlexWork, { ...call, service: 'OpenAlex' });
}

/**
 * One hit of OpenAlex's search (`GET /works?search=…&filter=is_oa:true`): the work's ids (a PMC id means Europe PMC
 * holds its full text as JATS), its best open-access copy with that copy's licence, and the abstract as OpenAlex
 * stores it (an inverted index: word → positions).
 */
const openAlexHit = openAlexWork.extend({
  ids: z.object({ pmcid: z.string().nullable().optional() }).partial().optional(),
  best_oa_location: z
    .object({ license: z.string().nullable().optional(), landing_page_url: z.string().nullable().optional(), pdf_url: z.string().nullable().optional() })
    .nullable()
    .optional(),
  abstract_inverted_index: z.record(z.string(), z.array(z.number())).nullable().optional(),
  relevance_score: z.number().nullable().optional(),
});
export type OpenAlexHit = z.infer<typeof openAlexHit>;
const openAlexSearch = z.object({ meta: z.object({ count: z.number() }).partial().optional(), results: z.array(openAlexHit) });

export async function searchOpenAlexWorks(
  baseUrl: string,
  query: string,
  size: number,
  call: Omit<ServiceCall, 'service'> & { mailto?: string | null },
): Promise<OpenAlexHit[]> {
  const params = new URLSearchParams({ search: query, filter: 'is_oa:true', 'per-page': String(size) });
  if (call.mailto) params.set('mailto', call.mailto);
  return (await getJson(`${baseUrl}/works?${params}`, openAlexSearch, { ...call, service: 'OpenAlex' })).results;
}

/** The abstract's text from OpenAlex's inverted index (each word placed at its positions). */
export function abstractFromInvertedIndex(index: Record<string, number[]> | null | undefined): string {
  if (!index) return '';
  const words: string[] = [];
  for (const [word, positions] of Object.entries(index)) for (const at of positions) if (at >= 0 && at < 5000) words[at] = word;
  return words.filter(Boolean).join(' ');
}
