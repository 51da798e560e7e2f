import type { Database } from '../db/database.ts';
import type { EmbeddingProgress, TextEmbedder } from '../embedding/embedder.ts';
import { embeddingShardJob, embedInShards, type ShardCoverage } from '../embedding/shards.ts';
import { takesJobs } from '../queue/queue.ts';
import { type RetrievalIndex, withDense } from '../retrieval/index.ts';
import { DenseIndex } from '../retrieval/dense-index.ts';
import { type DenseParts, embedPassages, PASSAGE_PRECISION, TITLE_WEIGHT } from '../retrieval/passage-vectors.ts';

/** Papers (a share of the corpus) that have to land before dense search is rebuilt with them: each rebuild reads their vectors and indexes them again. */
const GROWTH_STEP = 0.05;

/**
 * The model's background pass over an index built on the n-gram stand-in (`built.pendingEmbedder`). When this
 * process's job worker takes embedding shards (the app's server), the pass runs as shards in the shared queue
 * (lib/embedding/shards.ts), so every `npm run worker` beside the server embeds too, and dense search grows paper by
 * paper: `serve` is given an index whose dense part holds the model's vectors of the papers embedded so far (the
 * others are found by lexical search meanwhile) each time another `GROWTH_STEP` of the papers has landed. Without a
 * worker (the CLI, tests) the model embeds the corpus here. Resolves to the complete dense parts, which the caller
 * swaps in and stores; `following` is the model as the index and the UI see it meanwhile (its progress is the
 * shards' coverage).
 */
export async function growDense(
  db: Database,
  built: RetrievalIndex,
  model: TextEmbedder,
  hooks: { serve: (index: RetrievalIndex) => Promise<void>; following: (model: TextEmbedder) => void; pollMs?: number; perShard?: number },
): Promise<DenseParts> {
  if (!model.stored || !takesJobs(db, embeddingShardJob.kind) || TITLE_WEIGHT) return embedPassages(built, model);
  let coverage: ShardCoverage | null = null;
  const following: TextEmbedder = {
    ...model,
    progress: (): EmbeddingProgress | null => coverage && { ...coverage.passages, papers: { ...coverage.papers } },
  };
  hooks.following(following);
  // The model's vectors of the papers covered so far, read once each: the partial indexes and the complete one are made of them.
  const vectors = new Map<string, Float32Array>();
  const denseOf = (ids: string[]): DenseParts => {
    const dense = new DenseIndex(
      ids,
      ids.map((id) => vectors.get(id)!),
      model.dimensions,
      { precision: PASSAGE_PRECISION },
    );
    return { raw: dense, json: dense };
  };
  const read = async (paragraphs: { id: string; text: string }[]) => {
    const got = await model.embed(paragraphs.map((p) => p.text));
    for (const [i, p] of paragraphs.entries()) vectors.set(p.id, got[i]);
  };
  let landedSinceServed = 0;
  // Before the first papers land, the stand-in's index with the shards' progress in its note.
  await hooks.serve({ ...built, pendingEmbedder: following });
  const end = await embedInShards(
    db,
    [...built.paragraphs.values()].map((p) => ({ paperId: p.paperId, text: p.text })),
    model,
    {
      pollMs: hooks.pollMs,
      perShard: hooks.perShard,
      onProgress: (c) => {
        coverage = c;
      },
      onCovered: async (paperIds) => {
        // Read from the Embedding table: every one of them is stored (that is what covered means).
        await read(paperIds.flatMap((id) => built.papers.get(id)?.paragraphIds ?? []).map((pid) => built.paragraphs.get(pid)!));
        landedSinceServed += paperIds.length;
        if (landedSinceServed < GROWTH_STEP * built.papers.size) return;
        landedSinceServed = 0;
        await hooks.serve(withDense(built, model, denseOf([...built.paragraphs.keys()].filter((id) => vectors.has(id))), following));
      },
    },
  );
  coverage = end;
  // What shards could not do (one failed) is embedded here; what they stored is already read.
  await read([...built.paragraphs.values()].filter((p) => !vectors.has(p.id)));
  return denseOf([...built.paragraphs.keys()]);
}
