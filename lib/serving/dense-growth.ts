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
  // The model's vectors of the papers covered so far, in the index's paragraph order once rebuilt.
  const vectors = new Map<string, Float32Array>();
  let landedSinceServed = 0;
  const rebuild = async () => {
    landedSinceServed = 0;
    const ids = [...built.paragraphs.keys()].filter((id) => vectors.has(id));
    const dense = new DenseIndex(
      ids,
      ids.map((id) => vectors.get(id)!),
      model.dimensions,
      { precision: PASSAGE_PRECISION },
    );
    await hooks.serve(withDense(built, model, { raw: dense, json: dense }, following));
  };
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
        const paragraphs = paperIds.flatMap((id) => built.papers.get(id)?.paragraphIds ?? []).map((pid) => built.paragraphs.get(pid)!);
        // Read from the Embedding table: every one of them is stored (that is what covered means).
        const read = await model.embed(paragraphs.map((p) => p.text));
        for (const [i, p] of paragraphs.entries()) vectors.set(p.id, read[i]);
        landedSinceServed += paperIds.length;
        if (landedSinceServed >= GROWTH_STEP * built.papers.size) await rebuild();
      },
    },
  );
  coverage = end;
  // What shards could not do (one failed) is embedded here; the rest is read back from the table.
  return embedPassages(built, model);
}
