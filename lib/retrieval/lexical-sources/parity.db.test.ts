import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { replaceSearchPostings, searchPostingVersions } from '../../db/search-postings.ts';
import { fitLocalHashEmbedder, localTextEmbedder } from '../../embedding/local-hash.ts';
import { createRetrievalService } from '../../serving/retrieval-service.ts';
import { openTestDatabase } from '../../../scripts/test-support/database.ts';
import { ingestFixtureCorpus } from '../../../scripts/test-support/fixture-corpus.ts';
import { tempDir } from '../../../scripts/test-support/fixtures.ts';
import { fixtureCorpus } from '../../../scripts/test-support/retrieval-fixtures.ts';
import { plainTerms, structuredTerms } from '../../structure/terms.ts';
import { buildRetrievalIndex, type RetrievalIndex } from '../index.ts';
import type { ScoredId } from '../lexical-index.ts';
import { databaseLexical, packPostingList, searchPostingsCurrent, syncSearchPostings, unpackPostingList } from './database.ts';

/**
 * The parity suite of paragraph search: the in-process BM25 index and the same BM25 over postings kept in the
 * database (ASSAY_SEARCH=database), on PGlite and on a PostgreSQL server (`npm test` runs every database test on
 * both). The database holds the in-process scorer's weights and the process sums them as the scorer does, so both
 * must return the same paragraphs in the same order with the same scores, to the bit, within limits and filters.
 */
let db: Database;
let index: RetrievalIndex;
beforeAll(async () => {
  db = await openTestDatabase();
  const corpus = fixtureCorpus();
  index = await buildRetrievalIndex(corpus, localTextEmbedder(fitLocalHashEmbedder(corpus.paragraphs.map((p) => p.text))));
  await syncSearchPostings(db, index.version, index.paragraphLexical);
});
afterAll(async () => {
  await db?.close();
});

const questions = [
  'Which paper reports a power density of 450 mW cm−2 for La0.6Sr0.4CoO3 at 1073 K?',
  'electronic conductivity of Sr-doped LaMnO3 cathodes',
  'SrTi0.7Fe0.3O3 prepared from strontium carbonate, titania and hematite',
  'sintered pellets in air',
  // Common words only: many paragraphs score alike, so the order of equal scores is tested too.
  'the sample was heated in air',
];

function expectSameRanking(database: ScoredId[], memory: ScoredId[]) {
  expect(database).toEqual(memory);
}

const inDatabase = (space: 'raw' | 'json', log?: (line: string) => void) => databaseLexical(db, space, index[space].lexical, index.version, { log });

describe('paragraph search in the database and in the process', () => {
  it('return the same paragraphs in the same order with the same scores, in both spaces, at any limit', async () => {
    for (const space of ['raw', 'json'] as const) {
      const inDb = inDatabase(space);
      for (const q of questions) {
        const terms = space === 'raw' ? plainTerms(q) : structuredTerms(q);
        const memory = await index[space].lexical.query(terms, { limit: 1000 });
        expect(memory.length).toBeGreaterThan(0);
        expectSameRanking(await inDb.query(terms, { limit: 1000 }), memory);
        for (const limit of [1, 2, 5]) expectSameRanking(await inDb.query(terms, { limit }), await index[space].lexical.query(terms, { limit }));
        // Every term, however common (the rarest three are kept whatever their share).
        expectSameRanking(
          await inDb.query(terms, { limit: 50, maxDocumentShare: 1 }),
          await index[space].lexical.query(terms, { limit: 50, maxDocumentShare: 1 }),
        );
      }
    }
  });

  it("filter as the process does (a quoted title's paper), however low its paragraphs rank", async () => {
    for (const space of ['raw', 'json'] as const) {
      const inDb = inDatabase(space);
      for (const q of questions) {
        const terms = space === 'raw' ? plainTerms(q) : structuredTerms(q);
        const all = await index[space].lexical.query(terms, { limit: 1000 });
        // The paper of the last hit: its paragraphs rank low, so a filter after a first page would miss them.
        const paper = index.paragraphs.get(all[all.length - 1].id)!.paperId;
        const filter = (id: string) => index.paragraphs.get(id)?.paperId === paper;
        const memory = await index[space].lexical.query(terms, { limit: 3, filter });
        expect(memory.length).toBeGreaterThan(0);
        expectSameRanking(await inDb.query(terms, { limit: 3, filter }), memory);
      }
    }
  });

  it('match terms literally: quotes, backslashes and SQL in a question are words, not syntax', async () => {
    const inDb = inDatabase('raw');
    const hostile = ["O'Brien's", 'a\\b', '!', '&', '|', '(', ')', ':*', '\'; DROP TABLE "SearchPosting"; --', 'la0.6sr0.4coo3'];
    expectSameRanking(await inDb.query(hostile, { limit: 10 }), await index.raw.lexical.query(hostile, { limit: 10 }));
    expect(await inDb.query(["O'Brien's", '\\'], { limit: 10 })).toEqual([]);
    expect(await searchPostingVersions(db)).toEqual([index.version]);
  });

  it('pack a posting list and read it back whole, and refuse a cut one', () => {
    const list = { docs: [7, 2, 90000], weights: [1.5, 0.1 + 0.2, 1e-300], firsts: [0, 0, 3] };
    const back = unpackPostingList(packPostingList(list).subarray(0));
    expect([...back.docs]).toEqual(list.docs);
    expect([...back.weights]).toEqual(list.weights);
    expect([...back.firsts]).toEqual(list.firsts);
    // Read from anywhere in a larger buffer (as a driver hands bytes over), not only from its start.
    const shifted = new Uint8Array(3 + 39);
    shifted.set(packPostingList(list), 3);
    expect([...unpackPostingList(shifted.subarray(3)).weights]).toEqual(list.weights);
    expect(() => unpackPostingList(new Uint8Array(14))).toThrow(/not whole/);
  });

  it('are written once per corpus version, and not again by a process that waited while another wrote them', async () => {
    expect(await searchPostingsCurrent(db, index.version)).toBe(true);
    expect(await syncSearchPostings(db, index.version, index.paragraphLexical)).toBe('current');
    expect(await searchPostingsCurrent(db, 'another-version')).toBe(false);
    const one = { space: 'raw' as const, term: 'x', postings: packPostingList({ docs: [0], weights: [1], firsts: [0] }) };
    expect(await replaceSearchPostings(db, 'another-version', ['p1'], [one])).toBe(true);
    expect(await replaceSearchPostings(db, 'another-version', ['p1'], [])).toBe(false);
    expect(await searchPostingVersions(db)).toEqual(['another-version']);
    expect(await db.prisma.searchPosting.count()).toBe(1);
    // Another corpus's postings: this index's process answers from its own postings, and says so once.
    const said: string[] = [];
    const terms = plainTerms(questions[0]);
    const stale = inDatabase('raw', (l) => said.push(l));
    expectSameRanking(await stale.query(terms, { limit: 10 }), await index.raw.lexical.query(terms, { limit: 10 }));
    await stale.query(terms, { limit: 10 });
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/not corpus .*'s/);
    expect(await syncSearchPostings(db, index.version, index.paragraphLexical)).toBe('written');
    expect(await db.prisma.searchParagraph.count()).toBe(index.paragraphLexical.size);
  });
});

describe('the retrieval service with ASSAY_SEARCH=database', () => {
  it('writes the postings when it builds its index and answers every paragraph pipeline as the in-process search does', async () => {
    const other = await openTestDatabase();
    try {
      await ingestFixtureCorpus(other);
      const base = { ASSAY_DATA_DIR: tempDir(), ASSAY_LOCAL_EMBEDDER: 'ngram' };
      const memory = createRetrievalService(other, readConfig(base));
      const database = createRetrievalService(other, readConfig({ ...base, ASSAY_SEARCH: 'database' }));
      const idx = await database.index();
      expect(await searchPostingsCurrent(other, idx.version)).toBe(true);
      const question = 'Which paper reports a peak power density of 0.812 W cm−2 at 973 K for La0.6Sr0.4FeO3?';
      for (const pipeline of ['bm25', 'json-qr', 'hybrid'] as const) {
        const [m, d] = [await memory.retrieve(question, pipeline), await database.retrieve(question, pipeline)];
        expect(d.evidence.length).toBeGreaterThan(0);
        expect(d.evidence.map((e) => [e.id, e.score])).toEqual(m.evidence.map((e) => [e.id, e.score]));
      }
    } finally {
      await other.close();
    }
  });
});
