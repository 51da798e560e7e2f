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
