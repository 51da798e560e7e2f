import { type CrossrefWork, fetchCrossrefWork } from './crossref.ts';
import { ServiceError } from './http.ts';
import { fetchOpenAlexWork, type OpenAlexWork } from './openalex.ts';

/**
 * A paper's metadata from the open scholarly web, merged from Crossref (the registered record: authors with ORCID,
 * licences, the notices that update the work) and OpenAlex (citation count, retraction flag): what the paper page
 * shows and what flags a retracted or corrected paper wherever it is cited.
 */
export type NoticeKind = 'retraction' | 'correction' | 'expression-of-concern' | 'withdrawal' | 'other';

export interface ScholarlyMetadata {
  title: string | null;
  authors: { name: string; orcid: string | null }[];
  venue: string | null;
  year: number | null;
  license: string | null;
  citedBy: number | null;
  retracted: boolean;
  notices: { kind: NoticeKind; doi: string | null; date: string | null }[];
  openAccessUrl: string | null;
  sources: ('Crossref' | 'OpenAlex')[];
}

export interface MetadataServices {
  crossrefUrl: string;
  openAlexUrl: string;
  /** Sent as `mailto` (both services' polite pool). */
  mailto: string | null;
  timeoutMs: number;
  minIntervalMs: number;
}

export interface MetadataOutcome {
  status: 'ok' | 'not-found' | 'error';
  data?: ScholarlyMetadata;
  /** Why a service gave nothing (the other may have answered). */
  message: string | null;
  /** Every service was unreachable or too slow: offline, most likely. */
  offline: boolean;
}

const ORCID = /(\d{4}-\d{4}-\d{4}-\d{3}[\dX])/;
const orcidOf = (s: string | null | undefined) => (s ? (ORCID.exec(s)?.[1] ?? null) : null);

function noticeKind(type: string): NoticeKind {
  const t = type.toLowerCase();
  if (t.includes('retraction')) return 'retraction';
  if (t.includes('withdrawal') || t.includes('removal')) return 'withdrawal';
  if (t.includes('concern')) return 'expression-of-concern';
  if (t.includes('correction') || t.includes('erratum') || t.includes('corrigendum') || t.includes('addendum')) return 'correction';
  return 'other';
}

const yearOf = (d: { 'date-parts'?: (number | null)[][] } | undefined) => d?.['date-parts']?.[0]?.[0] ?? null;
const dateOf = (d: { 'date-parts'?: (number | null)[][] } | undefined) => {
  const p = d?.['date-parts']?.[0]?.filter((x): x is number => x !== null);
  return p?.length ? p.map((x, i) => (i === 0 ? String(x) : String(x).padStart(2, '0'))).join('-') : null;
};

/** The two records as one (Crossref's registered fields first, OpenAlex's counts and flags). */
export function mergeMetadata(crossref: CrossrefWork | null, openAlex: OpenAlexWork | null): ScholarlyMetadata {
  const notices = (crossref?.['updated-by'] ?? []).map((u) => ({ kind: noticeKind(u.type), doi: u.DOI?.toLowerCase() ?? null, date: dateOf(u.updated) }));
  const crossrefAuthors = (crossref?.author ?? [])
    .map((a) => ({ name: (a.name ?? [a.given, a.family].filter(Boolean).join(' ')).trim(), orcid: orcidOf(a.ORCID) }))
    .filter((a) => a.name);
  const openAlexAuthors = (openAlex?.authorships ?? [])
    .map((a) => ({ name: (a.author.display_name ?? '').trim(), orcid: orcidOf(a.author.orcid) }))
    .filter((a) => a.name);
  return {
    title: crossref?.title?.[0] ?? openAlex?.title ?? null,
    authors: crossrefAuthors.length ? crossrefAuthors : openAlexAuthors,
    venue: crossref?.['container-title']?.[0] ?? openAlex?.primary_location?.source?.display_name ?? null,
    year: yearOf(crossref?.issued) ?? yearOf(crossref?.published) ?? openAlex?.publication_year ?? null,
    license: crossref?.license?.[0]?.URL ?? openAlex?.primary_location?.license ?? null,
    citedBy: openAlex?.cited_by_count ?? crossref?.['is-referenced-by-count'] ?? null,
    retracted: openAlex?.is_retracted === true || notices.some((n) => n.kind === 'retraction' || n.kind === 'withdrawal'),
    notices,
    openAccessUrl: openAlex?.open_access?.oa_url ?? null,
    sources: [...(crossref ? (['Crossref'] as const) : []), ...(openAlex ? (['OpenAlex'] as const) : [])],
  };
}

/** Both services asked for one DOI; each failure is kept as a reason, never thrown (a stop of the job is). */
export async function fetchPaperMetadata(doi: string, services: MetadataServices, signal?: AbortSignal): Promise<MetadataOutcome> {
  const call = { timeoutMs: services.timeoutMs, minIntervalMs: services.minIntervalMs, signal, mailto: services.mailto };
  const attempt = async <T>(run: () => Promise<T>): Promise<{ value: T | null; error: ServiceError | null }> => {
    try {
      return { value: await run(), error: null };
    } catch (error) {
      if (error instanceof ServiceError) return { value: null, error };
      throw error;
    }
  };
  const [crossref, openAlex] = await Promise.all([
    attempt(() => fetchCrossrefWork(services.crossrefUrl, doi, call)),
    attempt(() => fetchOpenAlexWork(services.openAlexUrl, doi, call)),
  ]);
  const errors = [crossref.error, openAlex.error].filter((e): e is ServiceError => !!e);
  const message = errors.length ? errors.map((e) => e.message).join('; ') : null;
  const offline = errors.length === 2 && errors.every((e) => e.reason === 'unreachable' || e.reason === 'timeout');
  if (crossref.value || openAlex.value) return { status: 'ok', data: mergeMetadata(crossref.value, openAlex.value), message, offline: false };
  if (errors.every((e) => e.reason === 'not-found')) return { status: 'not-found', message, offline: false };
  return { status: 'error', message, offline };
}

/** What a citation of the paper must say: retracted, or corrected (or under a notice), with the notice. */
export interface PaperNotice {
  retracted: boolean;
  /** "retracted 2025-06-02", "corrected 2024-01-15 (doi:…)", … */
  says: string;
}

const NOTICE_VERBS: Record<NoticeKind, string> = {
  retraction: 'retracted',
  withdrawal: 'withdrawn',
  'expression-of-concern': 'under an expression of concern',
  correction: 'corrected',
  other: 'updated',
};

/** The notice a paper's metadata carries, or null when it carries none. */
export function paperNotice(data: unknown): PaperNotice | null {
  const m = data as ScholarlyMetadata | null | undefined;
  if (!m || (!m.retracted && !m.notices?.length)) return null;
  const parts = (m.notices ?? []).map((n) => `${NOTICE_VERBS[n.kind]}${n.date ? ` ${n.date}` : ''}${n.doi ? ` (notice doi:${n.doi})` : ''}`);
  if (m.retracted && !m.notices.some((n) => n.kind === 'retraction' || n.kind === 'withdrawal')) parts.unshift('retracted (OpenAlex)');
  return { retracted: m.retracted, says: parts.join('; ') };
}
