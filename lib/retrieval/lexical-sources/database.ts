import type { Database } from '../../db/database.ts';
import {
  replaceSearchPostings,
  type SearchSpace,
  type StoredPostingList,
  searchPostingLists,
  searchPostingParagraphs,
  searchPostingVersions,
} from '../../db/search-postings.ts';
import { ScoreAccumulator, spaceWeights, type WeightedList } from '../bm25-scorer.ts';
import { type RetrievalIndex, SPACE_FIELDS } from '../index.ts';
import { keptTerms, type LexicalIndex, type LexicalView, type ScoredId } from '../lexical-index.ts';

/**
 * Paragraph search with its postings in PostgreSQL (ASSAY_SEARCH=database), ranking as the in-process index does.
 * Each build writes, per search space and term, the term's posting list with its BM25+ weight in every paragraph,
 * computed by the in-process scorer (bm25-scorer.ts `spaceWeights`: idf, field boosts, length normalisation). A
 * question reads its kept terms' lists by primary key in one statement and the process sums them with the
 * in-process scorer's own accumulation (`ScoreAccumulator`): the same additions in the same order, so both modes
 * return the same paragraphs with the same scores, equal scores in the same order
 * (lexical-sources/parity.db.test.ts, on PGlite and PostgreSQL).
 *
 * Why the process sums and not SQL: summing in SQL (unnest and GROUP BY over the lists) gave the same ranking but
 * took 6.7 ms of the server's CPU for a question's 8,800 postings at ×1 and about 85 ms for its 88,000 at ×10 —
 * the central server doing every process's arithmetic, the opposite of scaling out. Read by key, a list is a few
 * pages the server returns as they are; the arithmetic stays with the processes, which a deployment adds.
 *
 * What stays in the process: the vocabulary with its document frequencies (which terms a question keeps, and the
 * abstention checks' "is this word in the corpus?"), and, for now, the in-process postings too (the abstention's
 * "which of a paper's paragraphs state these words" reads them; they also answer while another process writes a
 * newer corpus's postings).
 */

/**
 * A posting list as stored: its weights (float64), documents (int32) and first fields (uint8), each as a
 * little-endian array, the weights first so that all three sit aligned when read back.
 */
export function packPostingList(list: { docs: number[]; weights: number[]; firsts: number[] }): Uint8Array {
  const n = list.docs.length;
  const buffer = new ArrayBuffer(n * 13);
  new Float64Array(buffer, 0, n).set(list.weights);
  new Int32Array(buffer, n * 8, n).set(list.docs);
  new Uint8Array(buffer, n * 12, n).set(list.firsts);
  return new Uint8Array(buffer);
}

export function unpackPostingList(bytes: Uint8Array): { weights: Float64Array; docs: Int32Array; firsts: Uint8Array } {
  if (bytes.byteLength % 13 !== 0) throw new Error(`a stored posting list of ${bytes.byteLength} bytes is not whole`);
  const n = bytes.byteLength / 13;
  // A copy: the driver's bytes may start anywhere in its buffer, and a Float64Array needs 8-byte alignment.
  const buffer = bytes.slice().buffer;
  return { weights: new Float64Array(buffer, 0, n), docs: new Int32Array(buffer, n * 8, n), firsts: new Uint8Array(buffer, n * 12, n) };
}

/** The posting lists of both spaces, a term at a time. */
function* postingLists(lexical: LexicalIndex): Generator<StoredPostingList> {
  for (const [term] of lexical.termsWithPrefix('')) {
    const t = lexical.termNumber(term);
    if (t === undefined) continue;
    for (const space of Object.keys(SPACE_FIELDS) as SearchSpace[]) {
      const list = spaceWeights(lexical, SPACE_FIELDS[space], t);
      if (list.docs.length) yield { space, term, postings: packPostingList(list) };
    }
  }
}

/** Writes the paragraph index's postings for corpus `version` unless they are stored for it already. */
export async function syncSearchPostings(db: Database, version: string, lexical: LexicalIndex): Promise<'written' | 'current'> {
  if (await searchPostingsCurrent(db, version)) return 'current';
  const ids = Array.from({ length: lexical.size }, (_, d) => lexical.idOf(d));
  return (await replaceSearchPostings(db, version, ids, postingLists(lexical))) ? 'written' : 'current';
}

/** Whether the stored postings are those of corpus `version` (a restart may serve them without writing them again). */
export async function searchPostingsCurrent(db: Database, version: string): Promise<boolean> {
  const stored = await searchPostingVersions(db);
  return stored.length === 1 && stored[0] === version;
}

/** The words of the kept terms that the corpus holds, each once. */
function queryWords(local: Pick<LexicalView, 'documentFrequency'>, kept: string[]): string[] {
  return [...new Set(kept.flatMap((t) => t.split(' ')).filter((w) => w && local.documentFrequency(w) > 0))];
}

/**
 * One space searched over the database's postings of corpus `version`, with the in-process vocabulary's document
 * frequencies. `known`: the paragraphs this process's index holds. Should the stored postings be another version's
 * (another process has written a newer corpus's while this one still serves its own), the in-process index answers.
 */
export function databaseLexical(
  db: Database,
  space: SearchSpace,
  local: LexicalView,
  version: string,
  opts: { known?: (id: string) => boolean; log?: (line: string) => void } = {},
): LexicalView {
  let paragraphs: Promise<string[]> | null = null;
  let size = local.size;
  const accumulator = new ScoreAccumulator(() => size);
  const known = opts.known ?? (() => true);
  let toldStale = false;
  return {
    size: local.size,
    documentFrequency: (t) => local.documentFrequency(t),
    async query(terms, q = {}): Promise<ScoredId[]> {
      const kept = keptTerms(local, terms, q.maxDocumentShare);
      if (kept.length === 0) return [];
      paragraphs ??= searchPostingParagraphs(db).catch((error) => {
        paragraphs = null;
        throw error;
      });
      const [ids, stored] = await Promise.all([paragraphs, searchPostingLists(db, space, queryWords(local, kept), version)]);
      if (!stored) {
        if (!toldStale) opts.log?.(`the database's search postings are not corpus ${version}'s: this process searches its own index until it is rebuilt`);
        toldStale = true;
        paragraphs = null;
        return local.query(terms, q);
      }
      size = ids.length;
      const lists = new Map<string, WeightedList>();
      for (const [term, bytes] of stored) lists.set(term, unpackPostingList(bytes));
      const hits = accumulator.runLists(
        kept,
        (w) => lists.get(w),
        (d) => ids[d] ?? '',
        { limit: q.limit, filter: q.filter },
      );
      return hits.filter((h) => known(h.id));
    },
  };
}

/** The index with its paragraph searches run over the database's postings. */
export function withDatabaseSearch(index: RetrievalIndex, db: Database, log?: (line: string) => void): RetrievalIndex {
  const known = (id: string) => index.paragraphs.has(id);
  return {
    ...index,
    raw: { ...index.raw, lexical: databaseLexical(db, 'raw', index.raw.lexical, index.version, { known, log }) },
    json: { ...index.json, lexical: databaseLexical(db, 'json', index.json.lexical, index.version, { known, log }) },
  };
}
