import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { loadRetrievalCorpus } from '../db/retrieval-corpus.ts';
import type { TextEmbedder } from '../embedding/embedder.ts';
import { fitLocalHashEmbedder, localTextEmbedder } from '../embedding/local-hash.ts';
import { createLentEmbedders } from '../embedding/select.ts';
import { buildRetrievalIndex, embedderNoteNow, type RetrievalIndex } from '../retrieval/index.ts';
import type { FakeOpenAI } from '../../scripts/test-support/fake-openai.ts';
import { type EmbeddingShardsFixture, startEmbeddingShards } from '../../scripts/test-support/embedding-shards.ts';
import { growDense } from './dense-growth.ts';

/**
 * The model's first pass over a corpus as embedding shards in the job queue (issue 66): the server's own job worker
 * takes them, every text is embedded once, and dense search takes the papers in as their vectors land. The model is
 * an OpenAI-compatible embeddings endpoint served locally (a real provider adapter over HTTP, with a made-up model).
 */
let fixture: EmbeddingShardsFixture;
let db: Database;
let fake: FakeOpenAI;
let built: RetrievalIndex;

beforeAll(async () => {
  fixture = await startEmbeddingShards({ papers: 40, prefix: 'growth' });
  ({ db, fake } = fixture);
  const corpus = await loadRetrievalCorpus(db);
  // The index as the server first builds it: on the n-gram stand-in.
  built = await buildRetrievalIndex(corpus, localTextEmbedder(fitLocalHashEmbedder(corpus.paragraphs.map((p) => p.text))));
}, 120_000);

afterAll(async () => {
  await fixture?.close();
});

describe('the model’s background pass as embedding shards', () => {
  it('embeds every passage once through shards the job worker takes, and dense search grows by whole papers until it is complete', async () => {
    const model = (await createLentEmbedders(db, fixture.cfg)).passages!;
    expect(model.id).toContain('fake-embedder');
    const before = fake.embedded.length;
    const served: RetrievalIndex[] = [];
    let following: TextEmbedder | null = null;
    const dense = await growDense(db, built, model, {
      serve: async (index) => {
        served.push(index);
      },
      following: (m) => {
        following = m;
      },
      pollMs: 20,
      perShard: 8,
    });

    // Every paragraph's text went to the model once, none twice.
    const texts = [...built.paragraphs.values()].map((p) => p.text);
    // (The job's own embedder asks for one probe text to learn the dimensions.)
    const asked = fake.embedded.slice(before).filter((t) => t !== 'dimension probe');
    expect(asked.sort()).toEqual([...new Set(texts)].sort());
    // Ten shards of eight paragraphs (four papers) each, every one done once by the job worker.
    const shards = await db.prisma.job.findMany({ where: { kind: 'embedding-shard' } });
    expect(shards).toHaveLength(10);
    expect(shards.every((j) => j.state === 'done' && j.attempts === 1)).toBe(true);

    // First the stand-in's index, saying the shards have not landed; then the model's over ever more whole papers.
    expect(following).not.toBeNull();
    expect(served[0].embedderId).toBe(built.embedderId);
    expect(served[0].pendingEmbedder).toBe(following);
    const partial = served.slice(1);
    expect(partial.length).toBeGreaterThanOrEqual(2);
    const sizes = partial.map((i) => (i.raw.dense as unknown as { ids: string[] }).ids.length);
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    for (const index of partial) {
      expect(index.embedderId).toBe(model.id);
      const ids = new Set((index.raw.dense as unknown as { ids: string[] }).ids);
      for (const paper of built.papers.values()) {
        const inside = paper.paragraphIds.filter((id) => ids.has(id)).length;
        expect([0, paper.paragraphIds.length]).toContain(inside);
      }
    }
    expect(embedderNoteNow(partial[0])).toMatch(
      /^semantic search covers \d+% of papers \(\d+ of 40; .* has embedded 80 of 80 passages\): dense search runs on/,
    );
    // The complete dense parts: every paragraph.
    expect(dense.raw.ids).toHaveLength(built.paragraphs.size);

    // Asked again (a restart): nothing is queued or embedded, and every paper is taken in at once.
    const again: RetrievalIndex[] = [];
    await growDense(db, built, model, { serve: async (i) => void again.push(i), following: () => {}, pollMs: 20, perShard: 8 });
    expect(fake.embedded.slice(before).filter((t) => t !== 'dimension probe')).toHaveLength(asked.length);
    expect(await db.prisma.job.count({ where: { kind: 'embedding-shard', state: { not: 'done' } } })).toBe(0);
    expect((again.at(-1)!.raw.dense as unknown as { ids: string[] }).ids).toHaveLength(built.paragraphs.size);
  });
});
