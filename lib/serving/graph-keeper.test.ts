import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TextEmbedder } from '../embedding/embedder.ts';
import { graphIndexFrom, storedGraphFromPages } from '../retrieval/graph-index.ts';
import { withKeptParts } from '../retrieval/index-snapshot.ts';
import type { RetrievalIndex } from '../retrieval/index.ts';
import { fixtureCorpus, fixtureTuples, indexOf, pagesOf } from '../../scripts/test-support/retrieval-fixtures.ts';
import { keepGraphInThread } from './graph-keeper.ts';
import { workerAsks } from './retrieval-pool.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-graph-keeper-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** The graph index kept in `dir` under `key`, as a retrieval worker reads it (never built here). */
const keptGraph = (index: RetrievalIndex, dir: string, key: string) =>
  withKeptParts({ ...index, graph: { get: () => Promise.reject(new Error('it was not kept')) } }, dir, key).graph.get();

describe('the graph keeper’s thread', () => {
  it('keeps the graph index this thread would make, asking for the tuples a page at a time', async () => {
    const corpus = fixtureCorpus();
    const index = await indexOf(corpus);
    const rows = fixtureTuples;
    expect(rows.length).toBeGreaterThan(3);
    const asked: (string | null)[] = [];
    const dir = tempDir();
    const seconds = await keepGraphInThread(
      dir,
      'k1',
      index.nameEmbedder,
      workerAsks(index.embedder, index.nameEmbedder, { ...corpus, loadTuples: pagesOf(rows, 2, asked) }),
    );
    expect(seconds).toBeGreaterThan(0);
    // Every page once, then the empty one that ends them.
    expect(asked).toHaveLength(Math.ceil(rows.length / 2) + 1);
    const kept = await keptGraph(index, dir, 'k1');
    const here = graphIndexFrom(await storedGraphFromPages(pagesOf(rows, 3), index.nameEmbedder));
    expect([...kept.tuples.keys()]).toEqual([...here.tuples.keys()]);
    expect(kept.entities.map((e) => [e.key, e.label, e.tupleIds, [...e.vector]])).toEqual(
      here.entities.map((e) => [e.key, e.label, e.tupleIds, [...e.vector]]),
    );
    expect([...kept.byTerm]).toEqual([...here.byTerm]);
  });

  it('asks this thread for the names’ vectors when they are not the n-gram fit’s', async () => {
    const corpus = fixtureCorpus();
    const index = await indexOf(corpus);
    const embedded: string[] = [];
    const lent: TextEmbedder = {
      id: 'lent-names',
      dimensions: 4,
      embed: async (texts) => {
        embedded.push(...texts);
        return texts.map((t) => Float32Array.of(t.length, 1, 2, 3));
      },
    };
    const dir = tempDir();
    await keepGraphInThread(dir, 'k2', lent, workerAsks(index.embedder, lent, corpus));
    const kept = await keptGraph(index, dir, 'k2');
    expect(embedded.length).toBe(kept.entities.length);
    for (const e of kept.entities) expect([...e.vector]).toEqual([e.label.length, 1, 2, 3]);
  });

  it('fails with the reason when the tuples cannot be read, and keeps nothing', async () => {
    const corpus = fixtureCorpus();
    const index = await indexOf(corpus);
    const dir = tempDir();
    const failing = workerAsks(index.embedder, index.nameEmbedder, {
      ...corpus,
      loadTuples: () => Promise.reject(new Error('the database is closed')),
    });
    await expect(keepGraphInThread(dir, 'k3', index.nameEmbedder, failing)).rejects.toThrow(/the database is closed/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
