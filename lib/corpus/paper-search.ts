import type { AssayConfig } from '../config.ts';
import { round, type TraceStep } from '../common/trace.ts';
import type { Database } from '../db/database.ts';
import { papersByIdentifiers } from '../db/papers.ts';
import { createPaperSearch } from '../db/paper-searches.ts';
import { analyseQuestion, QUESTION_FRAME_TERMS } from '../retrieval/question.ts';
import { searchEuropePmc, type EuropePmcHit } from '../scholarly/europe-pmc.ts';
import { ServiceError } from '../scholarly/http.ts';
import { licenceText, normaliseLicence } from '../scholarly/licences.ts';
import { abstractFromInvertedIndex, type OpenAlexHit, searchOpenAlexWorks } from '../scholarly/openalex.ts';
import { findProperties } from '../structure/properties.ts';
import { normaliseDoi } from '../ingest/text.ts';
import { facetTerms, plainTerms, textFacets } from '../structure/terms.ts';

/**
 * "Look for papers" (method C's enrichment through online search): when the corpus cannot answer a question, OpenAlex
 * and Europe PMC are searched for open-access papers on what it names; each candidate says why it may help (which of
 * the question's materials and properties its title or abstract names), under which licence, and whether Assay can
 * import it (a licence in ASSAY_IMPORT_LICENCES and a full text Europe PMC serves as JATS). A service that cannot be
 * reached, is slow or answers malformed data is a step of the trace with its message; the other one still answers.
 */

/** A term of the question the search looks for, and how a candidate's text is matched against it. */
export interface SearchTerm {
  name: string;
  kind: 'material' | 'property' | 'technique' | 'word';
  /** Canonical index terms (`f:B2Mg`, `p:critical-temperature`) or, for a word, its plain term. */
  keys: string[];
}

export interface PaperCandidate {
  key: string;
  title: string;
  doi: string | null;
  pmcid: string | null;
  year: number | null;
  venue: string | null;
  authors: string | null;
  licence: string | null;
  foundBy: string[];
  link: string | null;
  /** Why it may help: the question's terms its title or abstract names ("names MgB2 in its title"). */
  why: string[];
  matched: number;
  importable: boolean;
  /** Why it cannot be imported (null when it can). */
  blocked: string | null;
  inLibrary: { id: string; title: string | null } | null;
}

const MAX_WORDS = 6;

/** What the search looks for: the question's materials, properties and techniques, else its content words. */
export function searchTerms(question: string): { terms: SearchTerm[]; query: string; europePmcQuery: string } {
  const a = analyseQuestion(question);
  const terms: SearchTerm[] = [
    ...a.materials.map((m) => ({ name: a.materialNames[m] ?? m.slice(2), kind: 'material' as const, keys: [m] })),
    // A property as the question words it ("Tc", "critical temperature"): what papers on it write too.
    ...findProperties(a.body)
      .filter((p) => p.key !== 'temperature')
      .map((p) => ({ name: p.text, kind: 'property' as const, keys: [`p:${p.key}`] })),
    ...a.techniques.map((t) => ({ name: t.replace(/-/g, ' '), kind: 'technique' as const, keys: plainTerms(t.replace(/-/g, ' ')) })),
  ];
  // Each name once, each property once ("LSCF" named as two lexicon entries, "Tc … critical temperature").
  const unique = terms.filter(
    (t, i) => terms.findIndex((u) => u.name.toLowerCase() === t.name.toLowerCase() || (u.kind === 'property' && u.keys[0] === t.keys[0])) === i,
  );
  if (unique.length === 0) {
    const words = [...new Set(question.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}-]{2,}/gu) ?? [])].filter(
      (w) => !plainTerms(w).every((t) => QUESTION_FRAME_TERMS.has(t)),
    );
    for (const w of words.slice(0, MAX_WORDS)) unique.push({ name: w, kind: 'word', keys: plainTerms(w) });
  }
  const quoted = unique.map((t) => (/\s/.test(t.name) ? `"${t.name}"` : t.name));
  return { terms: unique, query: unique.map((t) => t.name).join(' '), europePmcQuery: quoted.join(' AND ') || question };
}

/** The question's terms a text names: canonical terms for materials and properties, plain words for the rest. */
function namedIn(text: string, terms: SearchTerm[]): SearchTerm[] {
  if (!text) return [];
  const canonical = new Set(facetTerms(textFacets(text)));
  const words = new Set(plainTerms(text));
  return terms.filter(
    (t) => t.keys.length > 0 && (t.kind === 'material' || t.kind === 'property' ? t.keys.some((k) => canonical.has(k)) : t.keys.every((k) => words.has(k))),
  );
}

function reasons(title: string, abstract: string, terms: SearchTerm[]): { why: string[]; matched: number } {
  const inTitle = namedIn(title, terms);
  const inAbstract = namedIn(abstract, terms).filter((t) => !inTitle.includes(t));
  const list = (ts: SearchTerm[]) => ts.map((t) => t.name).join(', ');
  const why = [
    ...(inTitle.length ? [`names ${list(inTitle)} in its title`] : []),
    ...(inAbstract.length ? [`${inTitle.length ? 'and ' : ''}${list(inAbstract)} in its abstract`] : []),
  ];
  const missing = terms.filter((t) => !inTitle.includes(t) && !inAbstract.includes(t));
  if (why.length && missing.length) why.push(`does not name ${list(missing)}`);
  if (!why.length)
    why.push(
      abstract ? 'found by the search words, but its title and abstract name none of the question’s terms' : 'found by the search words (no abstract to check)',
    );
  return { why, matched: inTitle.length + inAbstract.length };
}

const pmcOf = (id: string | null | undefined) => {
  const m = id ? /(?:PMC)?(\d+)\/?$/i.exec(id.trim()) : null;
  return m ? `PMC${m[1]}` : null;
};

interface Draft extends Omit<PaperCandidate, 'why' | 'matched' | 'importable' | 'blocked' | 'inLibrary'> {
  abstract: string;
  relevance: number;
}

function fromOpenAlex(h: OpenAlexHit, i: number): Draft {
  const doi = normaliseDoi(h.doi);
  return {
    key: doi ? `doi:${doi}` : h.id,
    title: h.title ?? '(untitled)',
    doi,
    pmcid: pmcOf(h.ids?.pmcid),
    year: h.publication_year ?? null,
    venue: h.primary_location?.source?.display_name ?? null,
    authors:
      (h.authorships ?? [])
        .slice(0, 3)
        .map((a) => a.author.display_name)
        .filter(Boolean)
        .join(', ') || null,
    licence: normaliseLicence(h.best_oa_location?.license ?? h.primary_location?.license),
    foundBy: ['OpenAlex'],
    link: doi ? `https://doi.org/${doi}` : (h.best_oa_location?.landing_page_url ?? h.open_access?.oa_url ?? null),
    abstract: abstractFromInvertedIndex(h.abstract_inverted_index),
    relevance: 1 / (1 + i),
  };
}

function fromEuropePmc(h: EuropePmcHit, i: number): Draft {
  const doi = normaliseDoi(h.doi);
  const pmcid = pmcOf(h.pmcid);
  return {
    key: doi ? `doi:${doi}` : `pmc:${pmcid ?? h.id}`,
    title: h.title?.replace(/\.$/, '') ?? '(untitled)',
    doi,
    pmcid,
    year: h.pubYear && /^\d{4}$/.test(h.pubYear) ? Number(h.pubYear) : null,
    venue: h.journalInfo?.journal?.title ?? null,
    authors: h.authorString ?? null,
    licence: normaliseLicence(h.license),
    foundBy: ['Europe PMC'],
    link: pmcid ? `https://europepmc.org/article/PMC/${pmcid}` : doi ? `https://doi.org/${doi}` : null,
    abstract: (h.abstractText ?? '').replace(/<[^>]+>/g, ' '),
    relevance: 1 / (1 + i),
  };
}

/** One candidate per paper (by DOI, else PMC id): what either service says, the other filling gaps. */
function merge(drafts: Draft[]): Draft[] {
  const out = new Map<string, Draft>();
  for (const d of drafts) {
    const key = d.doi ? `doi:${d.doi}` : d.pmcid ? `pmc:${d.pmcid}` : d.key;
    const had = out.get(key) ?? [...out.values()].find((o) => d.pmcid && o.pmcid === d.pmcid);
    if (!had) {
      out.set(key, { ...d, key });
      continue;
    }
    had.pmcid ??= d.pmcid;
    had.licence ??= d.licence;
    had.venue ??= d.venue;
    had.year ??= d.year;
    had.authors ??= d.authors;
    if (d.abstract.length > had.abstract.length) had.abstract = d.abstract;
    had.foundBy = [...new Set([...had.foundBy, ...d.foundBy])];
    had.relevance += d.relevance;
  }
  return [...out.values()];
}

export interface FoundCandidates {
  terms: SearchTerm[];
  query: string;
  candidates: PaperCandidate[];
  steps: TraceStep[];
  /** Each service that failed, with its message. */
  failures: { service: string; message: string }[];
}

/** Searches both services and judges each candidate (why it may help, whether it can be imported). */
export async function findCandidates(
  db: Database,
  cfg: AssayConfig,
  question: string,
  opts: { size?: number; signal?: AbortSignal } = {},
): Promise<FoundCandidates> {
  const size = opts.size ?? 10;
  const { terms, query, europePmcQuery } = searchTerms(question);
  const steps: TraceStep[] = [{ step: 'search-terms', ms: 0, detail: { query, terms: terms.map((t) => `${t.name} (${t.kind})`) } }];
  const failures: FoundCandidates['failures'] = [];
  const call = { timeoutMs: cfg.scholarly.timeoutMs, signal: opts.signal };
  const ask = async <T>(service: string, run: () => Promise<T[]>, asked: string): Promise<T[]> => {
    const t = performance.now();
    try {
      const hits = await run();
      steps.push({ step: service, ms: round(performance.now() - t), detail: { asked, found: hits.length } });
      return hits;
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      failures.push({ service, message: error.message });
      steps.push({ step: service, ms: round(performance.now() - t), detail: { asked, failed: error.reason, message: error.message } });
      return [];
    }
  };
  const [openAlex, europePmc] = await Promise.all([
    ask('OpenAlex', () => searchOpenAlexWorks(cfg.scholarly.openAlexUrl, query, size, { ...call, mailto: cfg.scholarly.mailto }), query),
    ask('Europe PMC', () => searchEuropePmc(cfg.europePmcUrl, europePmcQuery, size, call), europePmcQuery),
  ]);
  const merged = merge([...openAlex.map(fromOpenAlex), ...europePmc.map(fromEuropePmc)]);
  const held = await papersByIdentifiers(db.prisma, {
    dois: merged.map((d) => d.doi).filter((x): x is string => !!x),
    sourceIds: merged.map((d) => d.pmcid).filter((x): x is string => !!x),
  });
  const allowed = new Set(cfg.scholarly.importLicences);
  const candidates = merged
    .map((d): PaperCandidate & { relevance: number } => {
      const { abstract, ...rest } = d;
      const inLibrary = (d.doi && held.get(d.doi)) || (d.pmcid && held.get(d.pmcid)) || null;
      const blocked = inLibrary
        ? 'the library holds it already'
        : !d.licence || !allowed.has(d.licence)
          ? `its licence (${licenceText(d.licence)}) is not one imports are allowed under (${[...allowed].map(licenceText).join(', ')})`
          : !d.pmcid
            ? 'Europe PMC holds no full text of it to import (open it at the publisher)'
            : null;
      return {
        ...rest,
        ...reasons(d.title, abstract, terms),
        importable: !blocked,
        blocked,
        inLibrary: inLibrary ? { id: inLibrary.id, title: inLibrary.title } : null,
      };
    })
    .sort((a, b) => b.matched - a.matched || b.relevance - a.relevance)
    .map(({ relevance: _relevance, ...c }) => c);
  steps.push({
    step: 'candidates',
    ms: 0,
    detail: { found: candidates.length, importable: candidates.filter((c) => c.importable).length, inLibrary: candidates.filter((c) => c.inLibrary).length },
  });
  return { terms, query, candidates, steps, failures };
}

/** Searches and stores the search (its candidates and trace); failed when every service failed. */
export async function lookForPapers(
  db: Database,
  cfg: AssayConfig,
  input: { question: string; answerId: string | null; createdBy: string | null; signal?: AbortSignal },
): Promise<string> {
  const found = await findCandidates(db, cfg, input.question, { signal: input.signal });
  return createPaperSearch(db, {
    question: input.question,
    answerId: input.answerId,
    query: found.query,
    status: found.failures.length === 2 ? 'failed' : 'found',
    candidates: found.candidates,
    trace: found.steps,
    createdBy: input.createdBy,
  });
}
