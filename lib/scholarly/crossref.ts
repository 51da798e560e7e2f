import { z } from 'zod';
import { getJson, type ServiceCall } from './http.ts';

/**
 * Crossref's REST API (https://api.crossref.org/swagger-ui; `GET /works/{doi}`): the work's registered metadata —
 * authors with ORCID, container title, issue date, licences, `is-referenced-by-count`, and `updated-by`, the notices
 * (retraction, correction, expression of concern …) that update it. Only the fields Assay reads are validated.
 */
const dateParts = z.object({ 'date-parts': z.array(z.array(z.number().nullable())).optional() }).optional();

const crossrefWork = z.object({
  status: z.literal('ok'),
  message: z.object({
    DOI: z.string(),
    title: z.array(z.string()).optional(),
    author: z
      .array(z.object({ given: z.string().optional(), family: z.string().optional(), name: z.string().optional(), ORCID: z.string().optional() }))
      .optional(),
    'container-title': z.array(z.string()).optional(),
    issued: dateParts,
    published: dateParts,
    license: z.array(z.object({ URL: z.string() })).optional(),
    'is-referenced-by-count': z.number().optional(),
    'updated-by': z.array(z.object({ type: z.string(), DOI: z.string().optional(), label: z.string().optional(), updated: dateParts })).optional(),
  }),
});
export type CrossrefWork = z.infer<typeof crossrefWork>['message'];

export function crossrefWorkUrl(baseUrl: string, doi: string, mailto: string | null): string {
  return `${baseUrl}/works/${encodeURIComponent(doi)}${mailto ? `?mailto=${encodeURIComponent(mailto)}` : ''}`;
}

export async function fetchCrossrefWork(baseUrl: string, doi: string, call: Omit<ServiceCall, 'service'> & { mailto?: string | null }): Promise<CrossrefWork> {
  return (await getJson(crossrefWorkUrl(baseUrl, doi, call.mailto ?? null), crossrefWork, { ...call, service: 'Crossref' })).message;
}
