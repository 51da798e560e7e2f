import fs from 'node:fs';
import path from 'node:path';

/**
 * Downloads open-access full texts as JATS XML from Europe PMC's REST service: a search for PMC ids (or a
 * given list), then `/{PMCID}/fullTextXML` for each. Files already downloaded are kept, so an interrupted
 * download resumes. The base URL is configurable so tests can point it at a local server.
 */

export class CorpusFetchError extends Error {}

export interface FetchCorpusOptions {
  baseUrl: string;
  query: string;
  size: number;
  outDir: string;
  ids?: string[];
  timeoutMs?: number;
  onProgress?: (done: number, total: number, current: string) => void;
  signal?: AbortSignal;
}

export interface FetchCorpusResult {
  files: string[];
  failures: { id: string; reason: string }[];
}

export async function fetchStarterCorpus(o: FetchCorpusOptions): Promise<FetchCorpusResult> {
  const timeoutMs = o.timeoutMs ?? 30_000;
  const ids = o.ids?.length ? o.ids.map(normalisePmcId) : await searchPmcIds(o.baseUrl, o.query, o.size, timeoutMs, o.signal);
  if (ids.length === 0) throw new CorpusFetchError(`Europe PMC returned no open-access articles for the query: ${o.query}`);
  fs.mkdirSync(o.outDir, { recursive: true });
  const files: string[] = [];
  const failures: { id: string; reason: string }[] = [];
  for (const [i, id] of ids.entries()) {
    if (o.signal?.aborted) break;
    o.onProgress?.(i, ids.length, id);
    const file = path.join(o.outDir, `${id}.xml`);
    if (fs.existsSync(file) && fs.statSync(file).size > 0) {
      files.push(file);
      continue;
    }
    try {
      const res = await get(`${o.baseUrl}/${encodeURIComponent(id)}/fullTextXML`, timeoutMs, o.signal);
      const body = Buffer.from(await res.arrayBuffer());
      if (!/<article[\s>]/.test(body.subarray(0, 4096).toString('utf8'))) throw new Error('the response is not a JATS <article>');
      const tmp = `${file}.part`;
      fs.writeFileSync(tmp, body);
      fs.renameSync(tmp, file); // never leave a half-written file that a later run would trust
      files.push(file);
    } catch (error) {
      if (error instanceof CorpusFetchError && i === 0 && /cannot reach/.test(error.message)) throw error;
      failures.push({ id, reason: (error as Error).message });
    }
  }
  o.onProgress?.(ids.length, ids.length, '');
  return { files, failures };
}

async function searchPmcIds(baseUrl: string, query: string, size: number, timeoutMs: number, signal?: AbortSignal): Promise<string[]> {
  const url = `${baseUrl}/search?query=${encodeURIComponent(query)}&format=json&resultType=lite&pageSize=${size}`;
  const res = await get(url, timeoutMs, signal);
  let json: { resultList?: { result?: { pmcid?: string; isOpenAccess?: string }[] } };
  try {
    json = (await res.json()) as typeof json;
  } catch {
    throw new CorpusFetchError('Europe PMC search answered with something that is not JSON');
  }
  const ids = (json.resultList?.result ?? []).map((r) => r.pmcid).filter((id): id is string => !!id);
  return [...new Set(ids.map(normalisePmcId))].slice(0, size);
}

async function get(url: string, timeoutMs: number, signal?: AbortSignal): Promise<Response> {
  let res: Response;
  try {
    const timeout = AbortSignal.timeout(timeoutMs);
    res = await fetch(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout, headers: { accept: 'application/json, application/xml' } });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new CorpusFetchError(
      `cannot reach Europe PMC at ${new URL(url).origin} (${cause?.code ?? cause?.message ?? (error as Error).message}). ` +
        'Assay works offline: import your own files on the Import page or with `npm run ingest -- <files>`.',
    );
  }
  if (!res.ok) throw new CorpusFetchError(`Europe PMC answered HTTP ${res.status} for ${url}`);
  return res;
}

export function normalisePmcId(id: string): string {
  const t = id.trim().toUpperCase();
  if (!/^(PMC)?\d+$/.test(t)) throw new CorpusFetchError(`not a PMC id: ${id}`);
  return t.startsWith('PMC') ? t : `PMC${t}`;
}
