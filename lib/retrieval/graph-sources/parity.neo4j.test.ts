import neo4j, { type Driver } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { graphParity } from '../../evaluation/graph-parity.ts';
import { createNeo4jGraphStore } from '../../graph/stores/neo4j.ts';
import { emptyTestNeo4j } from '../../../scripts/test-support/neo4j.ts';
import { syncGraphToStore } from '../../graph/sync.ts';
import { retrieve } from '../../pipelines/run.ts';
import { createRetrievalService } from '../../serving/retrieval-service.ts';
import { openTestDatabase } from '../../../scripts/test-support/database.ts';
import { ingestFixtureCorpus } from '../../../scripts/test-support/fixture-corpus.ts';
import { corpusPapers } from '../../../scripts/test-support/fixtures.ts';
import type { GraphIndex } from '../graph-index.ts';
import { embeddedGraphSource, type GraphCandidateSource, type GraphSourceFactory } from '../graph-source.ts';
import type { RetrievalIndex } from '../index.ts';
import { neo4jGraphSources, neo4jGraphVersion, writeNeo4jRetrievalLayer } from './neo4j.ts';

/**
 * Retrieval parity on a real Neo4j (`npm run test:neo4j` starts one and sets NEO4J_URI): after graph:sync and its
 * retrieval layer, every look-up the graph pipelines make answers the same from Neo4j as from the embedded index,
 * and so do the pipelines themselves.
 */
const uri = process.env.NEO4J_URI;
const sorted = (ids: string[] | undefined) => [...(ids ?? [])].sort();

describe.skipIf(!uri)('Neo4j-backed graph retrieval', () => {
  let db: Database;
  let driver: Driver;
  let database: string | undefined;
  let index: RetrievalIndex;
  let graph: GraphIndex;
  let embedded: GraphCandidateSource;
  let sources: GraphSourceFactory;
  /** As the app runs them: Neo4j's answers remembered in the process (cached.ts). */
  let remembered: GraphSourceFactory;
  let fromNeo4j: GraphCandidateSource;
  beforeAll(async () => {
    db = await openTestDatabase();
    await ingestFixtureCorpus(db);
    ({ driver, database } = await emptyTestNeo4j(uri!));
    await syncGraphToStore(db, createNeo4jGraphStore(driver, { database: database }));
    await writeNeo4jRetrievalLayer(driver, db, { database: database });
    index = await createRetrievalService(db, readConfig({ ASSAY_LOCAL_EMBEDDER: 'ngram' })).index();
    graph = await index.graph.get();
    embedded = embeddedGraphSource(graph);
    sources = neo4jGraphSources(driver, { database: database });
    remembered = neo4jGraphSources(driver, { database: database, cacheBytes: 64 << 20 });
    fromNeo4j = await sources(index);
  });
  afterAll(async () => {
    await driver?.close();
    await db?.close();
  });

  it('finds the same tuples for every term, and leaves out the terms over the cap', async () => {
    const terms = [...graph.byTerm.keys()];
    expect(terms.length).toBeGreaterThan(50);
    expect(terms.some((t) => /\s/.test(t))).toBe(true); // value keys with spaces ("v:temperature:973.1 K") are single terms
    const a = await embedded.termPostings(terms, Infinity);
    const b = await fromNeo4j.termPostings(terms, Infinity);
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    for (const t of terms) expect(sorted(b.get(t)), t).toEqual(sorted(a.get(t)));
    // A term over the cap is left out on both sides; one word of a spaced key matches nothing by itself.
    const capped = await fromNeo4j.termPostings(terms, 1);
    expect([...capped.keys()].sort()).toEqual([...(await embedded.termPostings(terms, 1)).keys()].sort());
    const fragments = terms.filter((t) => /\s/.test(t)).flatMap((t) => t.split(/\s+/));
    const notTerms = fragments.filter((f) => !graph.byTerm.has(f));
    expect(notTerms.length).toBeGreaterThan(0);
    expect([...(await fromNeo4j.termPostings(notTerms, Infinity)).keys()]).toEqual([]);
    const fragmentHits = await fromNeo4j.termPostings(fragments, Infinity);
    const embeddedFragmentHits = await embedded.termPostings(fragments, Infinity);
    for (const f of fragments) expect(sorted(fragmentHits.get(f)), f).toEqual(sorted(embeddedFragmentHits.get(f)));
    // String retrieval's counts: the same matches with the same numbers of terms, the same posting sizes.
    const question = terms.slice(0, 12);
    for (const min of [1, 2]) {
      const x = await embedded.termMatches(question, Infinity, min);
      const y = await fromNeo4j.termMatches(question, Infinity, min);
      expect(x.matches.size).toBeGreaterThan(0);
      expect(new Map([...y.matches].sort())).toEqual(new Map([...x.matches].sort()));
      expect(new Map([...y.postingSizes].sort())).toEqual(new Map([...x.postingSizes].sort()));
    }
    expect(await fromNeo4j.tupleCount()).toBe(graph.tuples.size);
  });

  it('reads the same canonical entities, entity vectors, paper tuples and tuples', async () => {
    const keys = graph.entities.map((e) => e.key);
    const a = await embedded.entityTuples([...keys, 'm:NoSuchMaterial']);
    const b = await fromNeo4j.entityTuples([...keys, 'm:NoSuchMaterial']);
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    for (const k of keys) expect(sorted(b.get(k)), k).toEqual(sorted(a.get(k)));
    const probes = await index.embedder.embed(['power density of a cathode', 'LiMn2O4 spinel', 'conductivity']);
    const simA = (await embedded.similarEntities(probes, 0.5)).sort((x, y) => (x.key < y.key ? -1 : 1));
    const simB = (await fromNeo4j.similarEntities(probes, 0.5)).sort((x, y) => (x.key < y.key ? -1 : 1));
    expect(simA.length).toBeGreaterThan(0);
    expect(simB.map((s) => s.key)).toEqual(simA.map((s) => s.key));
    simB.forEach((s, i) => {
      expect(s.cosine).toBeCloseTo(simA[i].cosine, 4);
      expect(sorted(s.tupleIds)).toEqual(sorted(simA[i].tupleIds));
    });
    for (const paper of corpusPapers) expect(await fromNeo4j.paperTuples(paper.id)).toEqual(sorted(await embedded.paperTuples(paper.id)));
    const paragraphIds = [...new Set([...graph.tuples.values()].flatMap((t) => (t.paragraphId ? [t.paragraphId] : [])))];
    const fromParagraphs = await embedded.paragraphTuples(paragraphIds);
    expect(fromParagraphs.length).toBeGreaterThan(0);
    expect(await fromNeo4j.paragraphTuples(paragraphIds)).toEqual(sorted(fromParagraphs));
    const ids = [...graph.tuples.keys()];
    const hydrated = await fromNeo4j.tuples([...ids, 'no-such-tuple']);
    expect(hydrated.size).toBe(ids.length);
    for (const id of ids) {
      const { terms, ...rest } = hydrated.get(id)!;
      const { terms: expectedTerms, ...expected } = graph.tuples.get(id)!;
      expect(rest).toEqual(expected);
      expect([...terms].sort()).toEqual([...expectedTerms].sort());
    }
  });

  it('finds the paths the embedded index finds between entities', async () => {
    const ends = graph.entities.filter((e) => (graph.adjacency.get(e.key)?.length ?? 0) > 1).map((e) => e.key);
    let compared = 0;
    for (let i = 0; i < ends.length; i++)
      for (let j = i + 1; j < ends.length; j++) {
        const a = sorted(await embedded.pathTuples(ends[i], ends[j], 3, 20));
        expect(sorted(await fromNeo4j.pathTuples(ends[i], ends[j], 3, 20)), `${ends[i]} – ${ends[j]}`).toEqual(a);
        if (a.length) compared++;
      }
    expect(compared).toBeGreaterThan(0);
    await expect(fromNeo4j.pathTuples(ends[0], ends[1], 7, 20)).rejects.toThrow(/maxHops/);
  });

  it('answers questions with the same tuples, paragraphs and papers through the graph pipelines', async () => {
    const questions = [
      'Which paper reports a peak power density of 812 mW cm−2 at 700 °C?',
      'At what temperature was the LiMn2O4 gel formed?',
      'What conductivity did the polyimide membrane reach?',
      'Which cathode was calcined at 1000 °C?',
    ].map((question, i) => ({ id: `q${i}`, type: 'doi' as const, question }));
    // Asked directly, and through the process's memory twice (first filling it, then answered from it).
    for (const [name, graphSource] of [
      ['direct', sources],
      ['remembered', remembered],
      ['remembered again', remembered],
    ] as const)
      for (const pipeline of ['graph', 'graph-keyword'] as const) {
        const report = await graphParity(index, questions, graphSource, { pipeline, k: 10 });
        expect(report.differences, `${name} ${pipeline}`).toEqual([]);
        expect(report.tupleOverlap).toBe(1);
        expect(report.paragraphOverlap).toBe(1);
      }
    const stats = (await remembered(index)) as GraphCandidateSource & { cacheStats(): { hits: number } };
    expect(stats.cacheStats().hits).toBeGreaterThan(0);
    const r = await retrieve(index, questions[0].question, 'graph', { graphSource: sources });
    expect(r.trace.find((s) => s.step === 'load-graph')?.detail).toMatchObject({ source: 'neo4j' });
    expect(r.papers[0]?.doi).toBe('10.9999/demo.sofc.2021.001');
  });

  it("gives each sync a new version, which empties a process's memory of the graph", async () => {
    const before = await neo4jGraphVersion(driver, { database });
    await writeNeo4jRetrievalLayer(driver, db, { database: database });
    expect(await neo4jGraphVersion(driver, { database })).not.toBe(before);
  });

  it('says what to run when Neo4j holds no retrieval layer', async () => {
    await driver.executeQuery('MATCH (m:AssayRetrievalLayer) DELETE m', {}, { database: database, routing: neo4j.routing.WRITE });
    const fresh = neo4jGraphSources(driver, { database: database });
    await expect(fresh(index)).rejects.toThrow(/npm run graph:sync/);
    await writeNeo4jRetrievalLayer(driver, db, { database: database });
    await expect(fresh(index)).resolves.toMatchObject({ kind: 'neo4j' });
  });
});
