import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { denseVectorKey, ensurePgvector } from '../../db/dense-vectors.ts';
import { fitLocalHashEmbedder, localTextEmbedder } from '../../embedding/local-hash.ts';
import { createRetrievalService } from '../../serving/retrieval-service.ts';
import { openTestDatabase } from '../../../scripts/test-support/database.ts';
import { ingestFixtureCorpus } from '../../../scripts/test-support/fixture-corpus.ts';
import { tempDir } from '../../../scripts/test-support/fixtures.ts';
import { fixtureCorpus } from '../../../scripts/test-support/retrieval-fixtures.ts';
import type { DenseIndex } from '../dense-index.ts';
import { buildRetrievalIndex, type RetrievalIndex } from '../index.ts';
import { databaseDense, denseVectorsKeyOf, syncDenseVectors, withDatabaseVectors } from './database.ts';

/**
 * The parity suite of dense search: the process's exact search and pgvector (ASSAY_VECTORS=database) under one
 * contract, on PGlite (which ships pgvector) and on a PostgreSQL server when it has the extension. Where the server
 * has none (Debian's PostgreSQL 15), the suite checks instead that Assay says so and keeps dense search in the process.
 */
let db: Database;
let index: RetrievalIndex;
let local: DenseIndex;
let pgvector: string | null = null;
beforeAll(async () => {
  db = await openTestDatabase();
  try {
    await ensurePgvector(db);
    pgvector = 'available';
  } catch (error) {
    console.warn(`[dense parity] pgvector checks skipped on ${db.kind}: ${(error as Error).message}`);
  }
  const corpus = fixtureCorpus();
  index = await buildRetrievalIndex(corpus, localTextEmbedder(fitLocalHashEmbedder(corpus.paragraphs.map((p) => p.text))));
  local = index.raw.dense as DenseIndex;
  if (pgvector) await syncDenseVectors(db, index);
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
const vectorsOf = (texts: string[]) => index.embedder.embed(texts);
const ids = (hits: { id: string }[]) => hits.map((h) => h.id);
const sameCosines = (a: { score: number }[], b: { score: number }[]) => {
  expect(a).toHaveLength(b.length);
  for (const [i, h] of a.entries()) expect(h.score).toBeCloseTo(b[i].score, 5);
};

describe('dense search in pgvector and in the process', () => {
  it('finds the same neighbours in the same order with the same cosines, and the same within a filter', async (t) => {
    if (!pgvector) return t.skip();
    const inDb = databaseDense(db, 'raw', local.size, local.dimensions);
    expect(inDb.where).toBe('pgvector');
    for (const q of await vectorsOf(questions)) {
      const memory = local.query(q, 10);
      const database = await inDb.query(q, 10);
      // Same neighbours, and at each rank the same cosine: pgvector sums in float32, the process in float64, so
      // two paragraphs whose cosines differ in the seventh digit may swap, nothing more.
      expect(new Set(ids(database))).toEqual(new Set(ids(memory)));
      sameCosines(database, memory);
      // One paper's paragraphs (a title match, a library scope): read deeper than the filter lets through.
      const paper = index.paragraphs.get(memory[memory.length - 1].id)!.paperId;
      const filter = (id: string) => index.paragraphs.get(id)?.paperId === paper;
      const filtered = await inDb.query(q, 3, filter);
      expect(filtered.length).toBeGreaterThan(0);
      expect(new Set(ids(filtered))).toEqual(new Set(ids(local.query(q, 3, filter))));
      // Several queries at once, and the cosines of chosen paragraphs (an unknown id scores 0).
      const [first, second] = await inDb.queryMany([q, q], 5);
      sameCosines(first, memory.slice(0, 5));
      expect(ids(second)).toEqual(ids(first));
      const chosen = [...ids(memory.slice(0, 3)), 'no-such-paragraph'];
      const sims = await inDb.similarities(q, chosen);
      for (const [i, s] of sims.slice(0, 3).entries()) expect(s).toBeCloseTo(local.similarity(q, chosen[i]), 5);
      expect(sims[3]).toBe(0);
    }
  });

  it('searches an HNSW index approximately once a space is large enough, still best first within the limit', async (t) => {
    if (!pgvector) return t.skip();
    const other = await openTestDatabase();
    try {
      await syncDenseVectors(other, index, { hnswFrom: 1 });
      const indexes = await other.prisma.$queryRaw<{ def: string }[]>`SELECT indexdef AS def FROM pg_indexes WHERE tablename = 'DenseVector'`;
      expect(indexes.map((r) => r.def).join('\n')).toMatch(/USING hnsw \(embedding vector_ip_ops\) WHERE \(space = 'raw'::text\)/);
      const inDb = databaseDense(other, 'raw', local.size, local.dimensions, { hnswFrom: 1 });
      let found = 0;
      for (const q of await vectorsOf(questions)) {
        const hits = await inDb.query(q, 10);
        expect(hits.length).toBeLessThanOrEqual(10);
        expect(hits.every((h, i) => i === 0 || hits[i - 1].score >= h.score - 1e-9)).toBe(true);
        const exact = new Set(ids(local.query(q, 10)));
        found += hits.filter((h) => exact.has(h.id)).length;
      }
      // Recall@10 against the exact search (on a corpus this small HNSW's graph is nearly complete).
      expect(found / (10 * questions.length)).toBeGreaterThanOrEqual(0.9);
    } finally {
      await other.close();
    }
  });

  it('writes the vectors once per corpus version and embedder, replacing the previous set whole', async (t) => {
    if (!pgvector) return t.skip();
    expect(await denseVectorKey(db)).toBe(denseVectorsKeyOf(index));
    expect(await syncDenseVectors(db, index)).toBe('current');
    const renamed = { ...index, version: 'another-version' };
    expect(await syncDenseVectors(db, renamed)).toBe('written');
    expect(await denseVectorKey(db)).toBe(denseVectorsKeyOf(renamed));
    const count = await db.prisma.$queryRawUnsafe<{ n: number }[]>('SELECT count(*)::int AS n FROM "DenseVector"');
    expect(count[0].n).toBe(local.size);
    // The view over the database holds no vectors of its own.
    const served = await withDatabaseVectors(index, db);
    expect(served.raw.dense.where).toBe('pgvector');
    expect(served.raw.dense.size).toBe(local.size);
  });
});

describe('the retrieval service with ASSAY_VECTORS=database', () => {
  it('runs dense search in pgvector and answers the dense pipelines as the process does, or says why it cannot and stays in the process', async () => {
    const other = await openTestDatabase();
    const lines: string[] = [];
    const log = console.log;
    console.log = (...args: unknown[]) => lines.push(args.join(' '));
    try {
      await ingestFixtureCorpus(other);
      const base = { ASSAY_DATA_DIR: tempDir(), ASSAY_LOCAL_EMBEDDER: 'ngram' };
      const memory = createRetrievalService(other, readConfig(base));
      const database = createRetrievalService(other, readConfig({ ...base, ASSAY_VECTORS: 'database' }));
      const info = await database.info();
      if (!pgvector) {
        expect(info.vectorsIn).toBe('process');
        expect(lines.join('\n')).toMatch(/dense search stays in this process: .*no pgvector extension/);
      } else expect(info.vectorsIn).toBe('pgvector');
      const question = 'Which paper reports a peak power density of 0.812 W cm−2 at 973 K for La0.6Sr0.4FeO3?';
      for (const pipeline of ['raw-dense', 'vector', 'hybrid', 'graph'] as const) {
        const [m, d] = [await memory.retrieve(question, pipeline), await database.retrieve(question, pipeline)];
        expect(d.evidence.length).toBeGreaterThan(0);
        expect(ids(d.evidence)).toEqual(ids(m.evidence));
      }
    } finally {
      console.log = log;
      await other.close();
    }
  });
});
