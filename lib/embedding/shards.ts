import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { jobStates } from '../db/jobs.ts';
import { paragraphTextsOf } from '../db/retrieval-corpus.ts';
import { defineJob, queueShardJobs } from '../queue/queue.ts';
import { planShards } from '../queue/stage-shards.ts';
import { withComputeSlot } from './compute-slot.ts';
import type { TextEmbedder } from './embedder.ts';
import { createLentEmbedders } from './select.ts';

/**
 * The embedding stage as shards: the papers whose passages the model has not embedded are cut into consecutive
 * ranges of about `SHARD_PARAGRAPHS` paragraphs, each a job in the queue every app process shares. Any process with a
 * job worker takes them — the web server when it is alone, and every `npm run worker` beside it on the same
 * PostgreSQL — once each (the queue's claim), and a process killed mid-shard loses only its current batch: the
 * vectors are stored batch by batch in the Embedding table, and whoever takes the shard over embeds only what is not
 * there. The server that needs the vectors (`embedInShards`) follows the shards and is told which papers are fully
 * embedded as they land, so dense search can take them in paper by paper.
 */
export interface EmbeddingShard {
  /** The embedder's id the vectors are for: a worker configured with another model refuses the shard. */
  modelId: string;
  /** The papers of the range, in the index's order (ids, so no database's collation decides what a range holds). */
  papers: string[];
}

/** About a quarter of a minute of the local model's work on two cores: a kill loses little, the queue holds few rows. */
export const SHARD_PARAGRAPHS = 1000;
/** Texts per call to the embedder inside a shard: a stop (or a takeover) is noticed between them. */
const SLICE = 256;

export const embeddingShardJob = defineJob<EmbeddingShard, { done: number; total: number }>('embedding-shard', async ({ db, cfg, signal, report }, shard) => {
  const embedder = await shardEmbedder(db, cfg);
  if (embedder?.id !== shard.modelId)
    throw new Error(
      `this process embeds passages with ${embedder?.id ?? 'the character n-gram stand-in'}, the shard is for ${shard.modelId}: give every worker the same ASSAY_LOCAL_EMBEDDER and ASSAY_EMBEDDING_MODEL`,
    );
  // Shortest first: each call then holds texts of similar length, which the model pads least (as one call over the
  // whole shard would, but a stop is noticed between calls).
  const texts = (await paragraphTextsOf(db, shard.papers)).map((p) => p.text).sort((a, b) => a.length - b.length);
  for (let i = 0; i < texts.length; i += SLICE) {
    signal.throwIfAborted();
    // This machine's processes take turns (compute-slot.ts): two on the same cores are not slower than one.
    await withComputeSlot(() => embedder.embed(texts.slice(i, i + SLICE)), { signal });
    report({ done: Math.min(i + SLICE, texts.length), total: texts.length });
  }
});

// One embedder per process and configuration: its model session is loaded once and every shard uses it.
const embedders = new WeakMap<AssayConfig, Promise<TextEmbedder | null>>();
function shardEmbedder(db: Database, cfg: AssayConfig): Promise<TextEmbedder | null> {
  let e = embedders.get(cfg);
  if (!e) {
    e = createLentEmbedders(db, cfg, (line) => console.log(`[assay] ${line}`)).then((l) => l.passages);
    e.catch(() => embedders.delete(cfg));
    embedders.set(cfg, e);
  }
  return e;
}

/** Polls between two looks at a running shard's stored vectors (see `embedInShards`). */
const RUNNING_CHECK_EVERY = 5;

export interface ShardCoverage {
  papers: { done: number; total: number };
  passages: { done: number; total: number };
}

/**
 * Has `model` embed these passages through shard jobs and follows them: `onCovered` is given each batch of papers
 * whose every paragraph now has a stored vector (those already embedded first), and `onProgress` the coverage. It
 * settles when every paper is covered or no shard of the set is left queued or running (one failed: a worker with
 * another model, say); the caller embeds what is left itself. Vectors are not read here, only whether they exist.
 */
export async function embedInShards(
  db: Database,
  paragraphs: Iterable<{ paperId: string; text: string }>,
  model: TextEmbedder,
  hooks: {
    onCovered: (paperIds: string[]) => Promise<void> | void;
    onProgress?: (c: ShardCoverage) => void;
    pollMs?: number;
    /** Paragraphs per shard (tests cut small ones). */
    perShard?: number;
  },
): Promise<ShardCoverage> {
  if (!model.stored) throw new Error(`${model.id} keeps no vectors, so it cannot embed in shards`);
  const byPaper = new Map<string, string[]>();
  for (const p of paragraphs) {
    const list = byPaper.get(p.paperId);
    if (list) list.push(p.text);
    else byPaper.set(p.paperId, [p.text]);
  }
  const ids = [...byPaper.keys()];
  const total = { papers: ids.length, passages: ids.reduce((n, id) => n + byPaper.get(id)!.length, 0) };
  const missingOf = async (paperIds: string[]) => {
    const texts = paperIds.flatMap((id) => byPaper.get(id)!);
    const stored = await model.stored!(texts);
    const out = new Map<string, number>();
    let i = 0;
    for (const id of paperIds) {
      const n = byPaper.get(id)!.length;
      out.set(id, stored.slice(i, i + n).filter((s) => !s).length);
      i += n;
    }
    return out;
  };
  const missing = await missingOf(ids);
  const coverage = (): ShardCoverage => {
    let papers = 0;
    let passages = 0;
    for (const id of ids) {
      const m = missing.get(id)!;
      if (m === 0) papers++;
      passages += byPaper.get(id)!.length - m;
    }
    return { papers: { done: papers, total: total.papers }, passages: { done: passages, total: total.passages } };
  };
  const covered = ids.filter((id) => missing.get(id) === 0);
  if (covered.length) await hooks.onCovered(covered);
  hooks.onProgress?.(coverage());
  const plan = planShards(
    ids.map((id) => ({ id, size: missing.get(id)! })),
    hooks.perShard ?? SHARD_PARAGRAPHS,
  );
  if (plan.length === 0) return coverage();
  const toEmbed = plan.reduce((n, papers) => n + papers.length, 0);
  let first = 1;
  const shards = plan.map((papers) => {
    const label = `embedding papers ${first}–${first + papers.length - 1} of ${toEmbed} with ${model.id}`;
    first += papers.length;
    return { id: `embedding:${model.id}:${papers[0]}:${papers.length}`, label, papers };
  });
  await queueShardJobs(
    db,
    embeddingShardJob,
    shards.map((s) => ({ id: s.id, label: s.label, input: { modelId: model.id, papers: s.papers } })),
  );
  const open = new Map(shards.map((s) => [s.id, s.papers]));
  const pollMs = hooks.pollMs ?? 2000;
  for (let poll = 1; open.size; poll++) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    const states = await jobStates(db, [...open.keys()]);
    // A shard's papers are checked once it has ended (done, or failed: what it stored still counts), and those of a
    // running shard every few polls: it stores its vectors batch by batch, so its papers land one by one (a shard
    // of a thousand paragraphs is minutes of the model on two cores, and the coverage said 0 until it ended).
    const ended = [...open.keys()].filter((id) => {
      const s = states.get(id);
      return s === undefined || s === 'done' || s === 'failed';
    });
    const running = poll % RUNNING_CHECK_EVERY === 0 ? [...open.keys()].filter((id) => states.get(id) === 'running') : [];
    if (ended.length === 0 && running.length === 0) continue;
    const papers = [...ended, ...running].flatMap((id) => open.get(id)!).filter((id) => missing.get(id)! > 0);
    for (const id of ended) open.delete(id);
    const now = await missingOf(papers);
    const landed: string[] = [];
    for (const [id, m] of now) {
      if (m === 0 && missing.get(id)! > 0) landed.push(id);
      missing.set(id, m);
    }
    if (landed.length) await hooks.onCovered(landed);
    hooks.onProgress?.(coverage());
  }
  return coverage();
}
