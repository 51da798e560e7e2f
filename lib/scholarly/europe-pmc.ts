import { z } from 'zod';
import { getJson, type ServiceCall } from './http.ts';

/**
 * Europe PMC's search (https://europepmc.org/RestfulWebService; `GET /search?query=…&format=json&resultType=core`):
 * open-access articles with their PMC id (whose full text `/{PMCID}/fullTextXML` serves as JATS), DOI, licence and
 * abstract. Only the fields Assay reads are validated.
 */
const europePmcHit = z.object({
  id: z.string().optional(),
  source: z.string().optional(),
  pmcid: z.string().nullable().optional(),
  doi: z.string().nullable().optional(),
  title: z.string().nullable().optional(),
  authorString: z.string().nullable().optional(),
  journalInfo: z
    .object({ journal: z.object({ title: z.string().nullable().optional() }).partial().optional() })
    .partial()
    .nullable()
    .optional(),
  pubYear: z.string().nullable().optional(),
  abstractText: z.string().nullable().optional(),
  isOpenAccess: z.string().nullable().optional(),
  license: z.string().nullable().optional(),
  citedByCount: z.number().nullable().optional(),
});
export type EuropePmcHit = z.infer<typeof europePmcHit>;
const europePmcSearch = z.object({ hitCount: z.number().optional(), resultList: z.object({ result: z.array(europePmcHit) }) });

/** Open-access articles matching `query` (Europe PMC's query syntax; `OPEN_ACCESS:y` is added). */
export async function searchEuropePmc(baseUrl: string, query: string, size: number, call: Omit<ServiceCall, 'service'>): Promise<EuropePmcHit[]> {
  const params = new URLSearchParams({ query: `(${query}) AND OPEN_ACCESS:y`, format: 'json', resultType: 'core', pageSize: String(size) });
  return (await getJson(`${baseUrl}/search?${params}`, europePmcSearch, { ...call, service: 'Europe PMC' })).resultList.result;
}
