import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { searchDocVersions } from '../../db/search-docs.ts';
import { fitLocalHashEmbedder, localTextEmbedder } from '../../embedding/local-hash.ts';
import { createRetrievalService } from '../../serving/retrieval-service.ts';
import { openTestDatabase } from '../../../scripts/test-support/database.ts';
import { ingestFixtureCorpus } from '../../../scripts/test-support/fixture-corpus.ts';
import { tempDir } from '../../../scripts/test-support/fixtures.ts';
import { fixtureCorpus } from '../../../scripts/test-support/retrieval-fixtures.ts';
import { plainTerms, structuredTerms } from '../../structure/terms.ts';
import { buildRetrievalIndex, type RetrievalIndex } from '../index.ts';
import type { LexicalDoc, ScoredId } from '../lexical-index.ts';
import { databaseLexical, searchDocsCurrent, syncSearchDocs } from './database.ts';

/**
 * The parity suite of paragraph search: the in-process BM25 index and PostgreSQL's full-text search
 * (ASSAY_SEARCH=database) under one contract, on PGlite and on a PostgreSQL server (`npm test` runs every database
 * test on both). Both search the same kept terms with any-term matching, so they find the same set of paragraphs;
 * they rank it each with its own function (BM25 / Σ idf × ts_rank), and agree on the best paragraph of a
 * distinctive question.
 */
let db: Database;
let index: RetrievalIndex;
let docs: LexicalDoc[] = [];
beforeAll(async () => {
  db = await openTestDatabase();
  const corpus = fixtureCorpus();
  index = await buildRetrievalIndex(corpus, localTextEmbedder(fitLocalHashEmbedder(corpus.paragraphs.map((p) => p.text))), {
    onParagraphDocs: async (d, version) => {
      docs = d;
      await syncSearchDocs(db, version, d);
    },
  });
});
afterAll(async () => {
  await db?.close();
});

const questions = [
  'Which paper reports a power density of 450 mW cm−2 for La0.6Sr0.4CoO3 at 1073 K?',
  'electronic conductivity of Sr-doped LaMnO3 cathodes',
  'SrTi0.7Fe0.3O3 prepared from strontium carbonate, titania and hematite',
  'sintered pellets in air',
];
const sorted = (hits: ScoredId[]) => hits.every((h, i) => i === 0 || hits[i - 1].score >= h.score);

describe('paragraph search in the database and in the process', () => {
  it('find the same paragraphs for every question in both spaces, best first, within the limit, and agree on the best one', async () => {
    for (const space of ['raw', 'json'] as const) {
      const inDb = databaseLexical(db, space, index[space].lexical);
      for (const q of questions) {
        const terms = space === 'raw' ? plainTerms(q) : structuredTerms(q);
        const memory = await index[space].lexical.query(terms, { limit: 1000 });
        const database = await inDb.query(terms, { limit: 1000 });
        expect(memory.length).toBeGreaterThan(0);
        expect(new Set(database.map((h) => h.id))).toEqual(new Set(memory.map((h) => h.id)));
        expect(sorted(database)).toBe(true);
        // The best paragraph is the same (or one of those BM25 ties with it: two cells differing only in a temperature).
        expect(memory.filter((h) => h.score === memory[0].score).map((h) => h.id)).toContain(database[0].id);
        // The limit and a filter (one paper's paragraphs, as a title match or a library scope restricts them).
        expect(await inDb.query(terms, { limit: 2 })).toHaveLength(Math.min(2, memory.length));
        const paper = index.paragraphs.get(memory[0].id)!.paperId;
        const filter = (id: string) => index.paragraphs.get(id)?.paperId === paper;
        const filtered = await inDb.query(terms, { limit: 10, filter });
        expect(filtered.length).toBeGreaterThan(0);
        expect(filtered.every((h) => filter(h.id))).toBe(true);
        expect(filtered.map((h) => h.id).sort()).toEqual((await index[space].lexical.query(terms, { limit: 10, filter })).map((h) => h.id).sort());
      }
    }
  });

  it('match terms literally: quotes, backslashes and tsquery operators in a question are words, not syntax', async () => {
    const inDb = databaseLexical(db, 'raw', index.raw.lexical);
    const hostile = ["O'Brien's", 'a\\b', '!', '&', '|', '(', ')', ':*', '\'; DROP TABLE "SearchDoc"; --', 'la0.6sr0.4coo3'];
    await expect(inDb.query(hostile, { limit: 10 })).resolves.toBeInstanceOf(Array);
    expect(await inDb.query(["O'Brien's", '\\'], { limit: 10 })).toEqual([]);
    expect((await searchDocVersions(db)).length).toBe(1);
  });

  it('are written once per corpus version', async () => {
    expect(await searchDocsCurrent(db, index.version)).toBe(true);
    expect(await searchDocsCurrent(db, 'another-version')).toBe(false);
    await syncSearchDocs(db, 'another-version', docs.slice(0, 1));
    expect(await searchDocVersions(db)).toEqual(['another-version']);
    expect(await db.prisma.searchDoc.count()).toBe(2); // one paragraph, two spaces
    await syncSearchDocs(db, index.version, docs);
    expect(await db.prisma.searchDoc.count()).toBe(docs.length * 2);
  });
});

describe('the retrieval service with ASSAY_SEARCH=database', () => {
  it('writes the documents when it builds its index and answers every paragraph pipeline as the in-process search does', async () => {
    const other = await openTestDatabase();
    try {
      await ingestFixtureCorpus(other);
      const base = { ASSAY_DATA_DIR: tempDir(), ASSAY_LOCAL_EMBEDDER: 'ngram' };
      const memory = createRetrievalService(other, readConfig(base));
      const database = createRetrievalService(other, readConfig({ ...base, ASSAY_SEARCH: 'database' }));
      const idx = await database.index();
      expect(await searchDocsCurrent(other, idx.version)).toBe(true);
      const question = 'Which paper reports a peak power density of 0.812 W cm−2 at 973 K for La0.6Sr0.4FeO3?';
      for (const pipeline of ['bm25', 'json-qr', 'hybrid'] as const) {
        const [m, d] = [await memory.retrieve(question, pipeline), await database.retrieve(question, pipeline)];
        expect(d.evidence.length).toBeGreaterThan(0);
        expect(d.evidence[0].doi).toBe(m.evidence[0].doi);
      }
    } finally {
      await other.close();
    }
  });
});
