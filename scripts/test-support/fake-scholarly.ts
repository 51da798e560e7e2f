import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { articleJats, type FakeArticle, fixtureArticles } from './fake-articles.ts';

/**
 * A local stand-in for Crossref's and OpenAlex's works APIs, answering in their documented formats (Crossref:
 * `GET /works/{doi}` → `{"status":"ok","message-type":"work","message":{…}}`, 404 for an unknown DOI; OpenAlex:
 * `GET /works/doi:{doi}` → the Work object, 404 when unknown), written for Assay's tests from the services'
 * documentation — not recorded answers. Both APIs are served from one origin, under `/crossref` and `/openalex`.
 * `mode` makes it misbehave as real services do: answer slowly, answer with a body that is not JSON, or in the wrong
 * shape, or fail with HTTP 500.
 */
export interface FakeWork {
  doi: string;
  title: string;
  authors: { given: string; family: string; orcid?: string }[];
  venue: string;
  year: number;
  license?: string;
  citedBy: number;
  retracted?: boolean;
  /** Crossref `updated-by` notices: a retraction or a correction of this work. */
  updates?: { type: 'retraction' | 'correction' | 'expression_of_concern'; doi: string; date: [number, number, number] }[];
}

/** A Wikidata item as the fake serves it (English only). */
export interface FakeItem {
  qid: string;
  label: string;
  description: string;
  aliases: string[];
  /** P274 chemical formula, as Wikidata writes it ("MgB₂"). */
  formula?: string;
}

export type FakeMode = 'normal' | 'slow' | 'not-json' | 'wrong-shape' | 'error';

/** Each way the fake misbehaves, and what a client of lib/scholarly/http.ts says of it (with a 1 s timeout). */
export const FAKE_FAILURES: readonly (readonly [Exclude<FakeMode, 'normal'>, RegExp])[] = [
  ['slow', /did not answer within 1 s/],
  ['not-json', /answered with something that is not JSON/],
  ['wrong-shape', /answered in an unexpected shape/],
  ['error', /answered HTTP 500/],
];

export interface FakeScholarly {
  crossrefUrl: string;
  openAlexUrl: string;
  wikidataUrl: string;
  europePmcUrl: string;
  requests: string[];
  mode: FakeMode;
  close(): Promise<void>;
}

function crossrefWork(w: FakeWork) {
  return {
    status: 'ok',
    'message-type': 'work',
    'message-version': '1.0.0',
    message: {
      DOI: w.doi,
      type: 'journal-article',
      title: [w.title],
      author: w.authors.map((a) => ({
        given: a.given,
        family: a.family,
        sequence: 'first',
        affiliation: [],
        ...(a.orcid ? { ORCID: `https://orcid.org/${a.orcid}`, 'authenticated-orcid': true } : {}),
      })),
      'container-title': [w.venue],
      issued: { 'date-parts': [[w.year, 3, 1]] },
      published: { 'date-parts': [[w.year, 3]] },
      ...(w.license ? { license: [{ URL: w.license, 'content-version': 'vor', 'delay-in-days': 0, start: { 'date-parts': [[w.year, 3, 1]] } }] } : {}),
      'is-referenced-by-count': Math.max(0, w.citedBy - 3),
      ...(w.updates?.length
        ? {
            'updated-by': w.updates.map((u) => ({
              type: u.type,
              DOI: u.doi,
              label: u.type.replace(/_/g, ' '),
              source: 'publisher',
              updated: { 'date-parts': [u.date] },
            })),
          }
        : {}),
    },
  };
}

function openAlexWork(w: FakeWork) {
  return {
    id: `https://openalex.org/W${Math.abs([...w.doi].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 7))}`,
    doi: `https://doi.org/${w.doi}`,
    title: w.title,
    display_name: w.title,
    publication_year: w.year,
    authorships: w.authors.map((a, i) => ({
      author_position: i === 0 ? 'first' : 'middle',
      author: { id: `https://openalex.org/A${i + 1}`, display_name: `${a.given} ${a.family}`, orcid: a.orcid ? `https://orcid.org/${a.orcid}` : null },
      institutions: [],
    })),
    primary_location: { is_oa: !!w.license, source: { id: 'https://openalex.org/S1', display_name: w.venue }, license: w.license ? 'cc-by' : null },
    open_access: { is_oa: !!w.license, oa_status: w.license ? 'gold' : 'closed', oa_url: w.license ? `https://example.org/${w.doi}` : null },
    cited_by_count: w.citedBy,
    is_retracted: !!w.retracted,
  };
}

function wikidataEntity(i: FakeItem) {
  return {
    type: 'item',
    id: i.qid,
    labels: { en: { language: 'en', value: i.label } },
    descriptions: { en: { language: 'en', value: i.description } },
    aliases: { en: i.aliases.map((value) => ({ language: 'en', value })) },
    claims: i.formula
      ? {
          P274: [
            {
              mainsnak: { snaktype: 'value', property: 'P274', datavalue: { value: i.formula, type: 'string' }, datatype: 'string' },
              type: 'statement',
              rank: 'normal',
            },
          ],
        }
      : {},
  };
}

/**
 * The phrases of a search as the fake reads it: quoted phrases and words, without Europe PMC's field filters and
 * operators. OpenAlex finds a work naming any of them (most first); Europe PMC one naming all of them.
 */
function phrasesOf(query: string): string[] {
  const q = query.replace(/\b[A-Z_]+:\S+/g, ' ').replace(/[()]/g, ' ');
  const quoted = [...q.matchAll(/"([^"]+)"/g)].map((m) => m[1].toLowerCase());
  const words = q
    .replace(/"[^"]*"/g, ' ')
    .split(/\s+/)
    .filter((w) => w && !/^(?:AND|OR|NOT)$/.test(w));
  return [...quoted, ...words.map((w) => w.toLowerCase())];
}

function openAlexHit(a: FakeArticle) {
  const words: Record<string, number[]> = {};
  for (const [i, w] of a.abstract.split(/\s+/).entries()) (words[w] ??= []).push(i);
  const licence = a.licence?.replace(/\s+/g, '-') ?? null;
  return {
    id: `https://openalex.org/W9${a.doi.replace(/\D/g, '').slice(-8)}`,
    doi: `https://doi.org/${a.doi}`,
    title: a.title,
    display_name: a.title,
    publication_year: a.year,
    ids: {
      openalex: 'https://openalex.org/W1',
      doi: `https://doi.org/${a.doi}`,
      ...(a.pmcid ? { pmcid: `https://www.ncbi.nlm.nih.gov/pmc/articles/${a.pmcid.slice(3)}` } : {}),
    },
    authorships: a.authors.map((n) => ({ author: { display_name: n, orcid: null }, institutions: [] })),
    primary_location: { is_oa: true, source: { display_name: a.journal }, license: licence },
    best_oa_location: { is_oa: true, license: licence, landing_page_url: `https://doi.org/${a.doi}`, pdf_url: null },
    open_access: { is_oa: true, oa_status: 'gold', oa_url: `https://doi.org/${a.doi}` },
    abstract_inverted_index: words,
    cited_by_count: 3,
    is_retracted: false,
    relevance_score: 10,
  };
}

function europePmcHit(a: FakeArticle) {
  return {
    id: a.pmcid ?? a.doi,
    source: a.pmcid ? 'PMC' : 'MED',
    ...(a.pmcid ? { pmcid: a.pmcid } : {}),
    doi: a.doi,
    title: `${a.title}.`,
    authorString: a.authors.join(', '),
    journalInfo: { journal: { title: a.journal } },
    pubYear: String(a.year),
    abstractText: a.abstract,
    isOpenAccess: 'Y',
    inEPMC: a.pmcid ? 'Y' : 'N',
    ...(a.licence ? { license: a.licence } : {}),
    citedByCount: 3,
  };
}

export async function startFakeScholarly(
  works: FakeWork[],
  opts: { slowMs?: number; items?: FakeItem[]; articles?: FakeArticle[] } = {},
): Promise<FakeScholarly> {
  const items = opts.items ?? fixtureItems;
  const articles = opts.articles ?? fixtureArticles;
  const text = (a: FakeArticle) => `${a.title} ${a.abstract}`.toLowerCase();
  const byDoi = new Map(works.map((w) => [w.doi.toLowerCase(), w]));
  const requests: string[] = [];
  const state = { mode: 'normal' as FakeMode };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push(url.pathname + url.search);
    const send = (status: number, body: unknown) => {
      const write = () => {
        if (res.destroyed) return;
        if (state.mode === 'not-json') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Service temporarily unavailable</html>');
        if (state.mode === 'error') return res.writeHead(500, { 'content-type': 'application/json' }).end('{"status":"error"}');
        const payload = state.mode === 'wrong-shape' ? { status: 'ok', message: 'Resource not available', results: 'none' } : body;
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
      };
      if (state.mode === 'slow') setTimeout(write, opts.slowMs ?? 5_000);
      else write();
    };
    const crossref = /^\/crossref\/works\/(.+)$/.exec(url.pathname);
    if (crossref) {
      const w = byDoi.get(decodeURIComponent(crossref[1]).toLowerCase());
      return w ? send(200, crossrefWork(w)) : send(404, { status: 'error', 'message-type': 'exception', message: 'Resource not found.' });
    }
    const openalex = /^\/openalex\/works\/doi:(.+)$/.exec(url.pathname);
    if (openalex) {
      const w = byDoi.get(decodeURIComponent(openalex[1]).toLowerCase());
      return w ? send(200, openAlexWork(w)) : send(404, { error: 'Not Found', message: 'The requested resource could not be found.' });
    }
    if (url.pathname === '/openalex/works') {
      const phrases = phrasesOf(url.searchParams.get('search') ?? '');
      const size = Number(url.searchParams.get('per-page') ?? 25);
      const hits = articles
        .filter((a) => a.in.includes('openalex'))
        .map((a) => ({ a, n: phrases.filter((p) => text(a).includes(p)).length }))
        .filter((h) => h.n > 0)
        .sort((x, y) => y.n - x.n)
        .slice(0, size);
      return send(200, { meta: { count: hits.length, db_response_time_ms: 12, page: 1, per_page: size }, results: hits.map((h) => openAlexHit(h.a)) });
    }
    if (url.pathname === '/europepmc/search') {
      const phrases = phrasesOf(url.searchParams.get('query') ?? '');
      const size = Number(url.searchParams.get('pageSize') ?? 25);
      const hits = articles.filter((a) => a.in.includes('europepmc') && phrases.every((p) => text(a).includes(p))).slice(0, size);
      return send(200, {
        version: '6.9',
        hitCount: hits.length,
        request: { queryString: url.searchParams.get('query') },
        resultList: { result: hits.map(europePmcHit) },
      });
    }
    const fullText = /^\/europepmc\/(PMC\d+)\/fullTextXML$/.exec(url.pathname);
    if (fullText) {
      const a = articles.find((x) => x.pmcid === fullText[1]);
      if (!a) return res.writeHead(404).end();
      if (state.mode !== 'normal') return send(200, {});
      return res.writeHead(200, { 'content-type': 'application/xml' }).end(articleJats(a));
    }
    if (url.pathname === '/wikidata/w/api.php') {
      const action = url.searchParams.get('action');
      if (action === 'wbsearchentities') {
        // Wikidata matches the start of a label or alias, case-insensitively.
        const text = (url.searchParams.get('search') ?? '').toLowerCase();
        const limit = Number(url.searchParams.get('limit') ?? 7);
        const found = items.filter((i) => [i.label, ...i.aliases].some((n) => n.toLowerCase().startsWith(text))).slice(0, limit);
        return send(200, {
          searchinfo: { search: url.searchParams.get('search') },
          search: found.map((i) => ({
            id: i.qid,
            title: i.qid,
            concepturi: `http://www.wikidata.org/entity/${i.qid}`,
            label: i.label,
            description: i.description,
          })),
          success: 1,
        });
      }
      if (action === 'wbgetentities') {
        const ids = (url.searchParams.get('ids') ?? '').split('|');
        return send(200, { entities: Object.fromEntries(items.filter((i) => ids.includes(i.qid)).map((i) => [i.qid, wikidataEntity(i)])), success: 1 });
      }
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    crossrefUrl: `${base}/crossref`,
    openAlexUrl: `${base}/openalex`,
    wikidataUrl: `${base}/wikidata`,
    europePmcUrl: `${base}/europepmc`,
    requests,
    get mode() {
      return state.mode;
    },
    set mode(m: FakeMode) {
      state.mode = m;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Invented works for the fixtures' DOIs: one retracted, one corrected, one with ORCIDs and a licence. */
export const fixtureWorks: FakeWork[] = [
  {
    doi: '10.9999/demo.tables.2024.001',
    title: 'Cobaltite and ferrite cathodes compared in anode-supported cells',
    authors: [{ given: 'Rosalind', family: 'Franklin', orcid: '0000-0002-1825-0097' }],
    venue: 'Invented Cathode Letters',
    year: 2024,
    license: 'http://creativecommons.org/licenses/by/4.0/',
    citedBy: 17,
    retracted: true,
    updates: [{ type: 'retraction', doi: '10.9999/demo.tables.2024.001.retraction', date: [2025, 6, 2] }],
  },
  {
    doi: '10.9999/demo.tables.2023.002',
    title: 'Upper critical fields of invented intermetallic superconductors',
    authors: [{ given: 'Heike', family: 'Onnes' }],
    venue: 'Invented Low Temperature Physics',
    year: 2023,
    citedBy: 4,
    updates: [{ type: 'correction', doi: '10.9999/demo.tables.2023.002.erratum', date: [2024, 1, 15] }],
  },
];

/** Invented Wikidata items (QIDs from Q900001, not Wikidata's): compounds with formulas, a material, a property, and a disambiguation page. */
export const fixtureItems: FakeItem[] = [
  { qid: 'Q900001', label: 'magnesium diboride', description: 'chemical compound', aliases: ['MgB2', 'magnesium boride'], formula: 'MgB₂' },
  { qid: 'Q900002', label: 'magnesium', description: 'chemical element with symbol Mg', aliases: ['Mg'], formula: 'Mg' },
  { qid: 'Q900003', label: 'yttria-stabilized zirconia', description: 'ceramic material', aliases: ['YSZ', 'yttria stabilised zirconia'] },
  { qid: 'Q900004', label: 'electrical conductivity', description: 'physical quantity', aliases: ['conductivity', 'specific conductance'] },
  { qid: 'Q900005', label: 'Conductivity', description: 'Wikimedia disambiguation page', aliases: [] },
  { qid: 'Q900006', label: 'lanthanum strontium cobalt ferrite', description: 'perovskite oxide', aliases: ['LSCF'], formula: 'La₀.₆Sr₀.₄Co₀.₂Fe₀.₈O₃' },
];
