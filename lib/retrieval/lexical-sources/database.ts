import type { Database } from '../../db/database.ts';
import { replaceSearchDocs, type SearchDocRow, searchDocs, searchDocVersions, type SearchSpace } from '../../db/search-docs.ts';
import type { RetrievalIndex } from '../index.ts';
import { keptTerms, type LexicalDoc, type LexicalView, type ScoredId } from '../lexical-index.ts';

/**
 * Paragraph search run by PostgreSQL (ASSAY_SEARCH=database): the same documents, terms and term pruning as the
 * in-process BM25 index, stored as tsvectors (db/search-docs.ts) and ranked inside the database by Σ idf ×
 * ts_rank per query term (field weights A title and structure, B text, D section; length-normalised). Same
 * results contract as `LexicalIndex.view` — ids best first, at most `limit`, only ids the filter admits — which
 * lexical-sources/parity.db.test.ts holds both to. Document frequencies (for idf and pruning) are read from the
 * in-process index, which the abstention checks read as well.
 */

/** The fields of each space and their tsvector weight (the in-process boosts: 1.5 → A, 1 → B, 0.3 → D). */
const SPACES: Record<SearchSpace, Record<string, 'A' | 'B' | 'D'>> = {
  raw: { title: 'A', section: 'D', text: 'B' },
  json: { title: 'A', section: 'D', text: 'B', structure: 'A' },
};

/** Over-fetch when a filter (a paper's paragraphs, a library scope) is applied after the database ranked. */
const FILTER_OVERFETCH = 4;

const quote = (term: string) => `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** A document's tsvector text in one space: each term occurrence at its own position, weighted by its field. */
function tsvectorText(doc: LexicalDoc, fields: Record<string, 'A' | 'B' | 'D'>): string {
  const positions = new Map<string, string[]>();
  let pos = 0;
  for (const [field, weight] of Object.entries(fields))
    for (const term of doc.fields[field] ?? []) {
      if (!term || pos >= 16383) continue;
      pos++;
      let list = positions.get(term);
      if (!list) positions.set(term, (list = []));
      if (list.length < 256) list.push(`${pos}${weight}`);
    }
  return [...positions].map(([t, p]) => `${quote(t)}:${p.join(',')}`).join(' ');
}

/** The rows of both spaces for the paragraphs' lexical documents. */
export function searchDocRows(docs: LexicalDoc[]): SearchDocRow[] {
  return (Object.keys(SPACES) as SearchSpace[]).flatMap((space) => docs.map((d) => ({ space, id: d.id, tsv: tsvectorText(d, SPACES[space]) })));
}

/** Writes the paragraphs' documents for corpus `version` unless they are stored for it already. */
export async function syncSearchDocs(db: Database, version: string, docs: LexicalDoc[]): Promise<void> {
  if (!(await searchDocsCurrent(db, version))) await replaceSearchDocs(db, version, searchDocRows(docs));
}

/** Whether the stored documents are those of corpus `version` (a restart may serve them without writing them again). */
export async function searchDocsCurrent(db: Database, version: string): Promise<boolean> {
  const stored = await searchDocVersions(db);
  return stored.length === 1 && stored[0] === version;
}

/** One space searched in the database, with the in-process view's document frequencies. */
export function databaseLexical(db: Database, space: SearchSpace, local: Pick<LexicalView, 'size' | 'documentFrequency'>): LexicalView {
  return {
    size: local.size,
    documentFrequency: (t) => local.documentFrequency(t),
    async query(terms, opts = {}): Promise<ScoredId[]> {
      const kept = keptTerms(local, terms, opts.maxDocumentShare);
      if (kept.length === 0) return [];
      const n = local.size;
      const weighted = kept.map((t) => {
        const df = local.documentFrequency(t);
        return { lexeme: quote(t), idf: Math.log(1 + (n - df + 0.5) / (df + 0.5)) };
      });
      const limit = opts.limit ?? 100;
      const hits = await searchDocs(db, space, weighted, opts.filter ? limit * FILTER_OVERFETCH : limit);
      return (opts.filter ? hits.filter((h) => opts.filter!(h.id)) : hits).slice(0, limit);
    },
  };
}

/** The index with its paragraph searches run by the database. */
export function withDatabaseSearch(index: RetrievalIndex, db: Database): RetrievalIndex {
  return {
    ...index,
    raw: { ...index.raw, lexical: databaseLexical(db, 'raw', index.raw.lexical) },
    json: { ...index.json, lexical: databaseLexical(db, 'json', index.json.lexical) },
  };
}
