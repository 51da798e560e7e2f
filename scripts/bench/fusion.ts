import fs from 'node:fs';
import path from 'node:path';
import { config } from '../../lib/config.ts';
import { getDatabase } from '../../lib/db/client.ts';
import { loadRetrievalCorpus } from '../../lib/db/retrieval-corpus.ts';
import { allSourceIds } from '../../lib/db/papers.ts';
import { createEmbedders } from '../../lib/embedding/select.ts';
import { loadQuestions } from '../../lib/evaluation/questions.ts';
import { scoreQuestion } from '../../lib/evaluation/retrieval-metrics.ts';
import type { EvaluationQuestion } from '../../lib/evaluation/questions.ts';
import { isPipelineName, type PipelineName } from '../../lib/pipelines/registry.ts';
import { retrieve } from '../../lib/pipelines/run.ts';
import { buildRetrievalIndex, type RetrievalIndex, withDense } from '../../lib/retrieval/index.ts';
import { embedPassages } from '../../lib/retrieval/passage-vectors.ts';
import { sharedDataDir } from '../../lib/common/shared-data.ts';
import { cliOptions } from '../../lib/cli/options.ts';

/**
 * `npm run bench -- fusion`: how much the dense ranks should weigh against BM25's in reciprocal-rank fusion, for the
 * configured embedder, form by form. Builds the index once, then answers every question of the dev sets (the plain,
 * hard, unanswerable sets and the project's own forms, or `--questions`) with each pipeline at each weight, and prints
 * DOI@1, DOI@5, value@3, false abstention and abstention per form, so a weight is kept only when it helps across forms, not on
 * one. `--title-weights` sweeps instead how much a paper's title vector weighs in its paragraphs' structured vectors,
 * which the chunks are scored by too (lib/retrieval/passage-vectors.ts), composed again from the cached vectors.
 */
export const fusionUsage =
  'npm run bench -- fusion [--weights 0,0.5,1,2 | --title-weights 0,0.1,0.25,0.5,1] [--pipelines json-qr,raw-qr] [--questions a.jsonl,b.jsonl]';

interface Tally {
  doi: number;
  top1: number;
  top5: number;
  values: number;
  valuesFound: number;
  answerable: number;
  falseAbstentions: number;
  unanswerable: number;
  abstentions: number;
}

type FormQuestion = { q: EvaluationQuestion; form: string };

/** One line of figures per form for a pipeline on an index. */
async function measure(index: RetrievalIndex, pipeline: PipelineName, questions: FormQuestion[], sourceIds: Map<string, string | null>): Promise<string> {
  const tallies = new Map<string, Tally>();
  for (const { q, form: f } of questions) {
    const s = scoreQuestion(q, await retrieve(index, q.question, pipeline), sourceIds);
    const t = tallies.get(f) ?? { doi: 0, top1: 0, top5: 0, values: 0, valuesFound: 0, answerable: 0, falseAbstentions: 0, unanswerable: 0, abstentions: 0 };
    if (q.type === 'unanswerable') {
      t.unanswerable++;
      if (s.abstained) t.abstentions++;
    } else {
      t.answerable++;
      if (s.abstained) t.falseAbstentions++;
      if (s.doiAt1 !== null) {
        t.doi++;
        if (s.doiAt1) t.top1++;
        if (s.doiAt5) t.top5++;
      }
      if (s.valueAt3 !== null) {
        t.values++;
        if (s.valueAt3) t.valuesFound++;
      }
    }
    tallies.set(f, t);
  }
  const cells = [...tallies.entries()].map(([f, t]) => {
    const parts = [
      t.doi ? `DOI@1 ${(t.top1 / t.doi).toFixed(3)} DOI@5 ${(t.top5 / t.doi).toFixed(3)}` : null,
      t.values ? `value@3 ${(t.valuesFound / t.values).toFixed(3)}` : null,
      t.answerable ? `f.abst ${(t.falseAbstentions / t.answerable).toFixed(3)}` : null,
      t.unanswerable ? `abst ${(t.abstentions / t.unanswerable).toFixed(3)}` : null,
    ];
    return `${f}: ${parts.filter(Boolean).join(' ')}`;
  });
  return cells.join(' | ');
}

export async function benchFusion(args: string[]): Promise<void> {
  const opt = cliOptions(args, ['weights', 'title-weights', 'pipelines', 'questions'] as const);
  const titleWeights = opt('title-weights')?.split(',').map(Number);
  const weights = (opt('weights') ?? '0,0.5,1,2').split(',').map(Number);
  const pipelines = (opt('pipelines') ?? (titleWeights ? 'vector,json-dense' : 'json-qr,raw-qr')).split(',');
  for (const p of pipelines) if (!isPipelineName(p)) throw new Error(`unknown pipeline ${p}`);
  const shared = sharedDataDir();
  const files = opt('questions')?.split(',') ?? [
    ...(shared ? ['questions.dev.jsonl', 'questions-hard.dev.jsonl', 'questions-unanswerable.dev.jsonl'].map((f) => path.join(shared, f)) : []),
    ...fs
      .readdirSync('eval/questions')
      .filter((f) => f.endsWith('.dev.jsonl'))
      .map((f) => path.join('eval/questions', f)),
  ];
  const form = (file: string) => path.basename(file).replace(/\.dev\.jsonl$|\.jsonl$/, '');
  const questions = (await Promise.all(files.map(async (f) => (await loadQuestions(f)).map((q) => ({ q, form: form(f) }))))).flat();
  const cfg = config();
  const db = await getDatabase();
  const corpus = await loadRetrievalCorpus(db);
  const embedders = await createEmbedders(db, cfg, () => corpus.paragraphs.map((p) => p.text), console.log);
  const index = await buildRetrievalIndex(corpus, embedders.passages, { nameEmbedder: embedders.names, embedderNote: embedders.note });
  const sourceIds = await allSourceIds(db.prisma);
  console.log(`embedder ${index.embedderId}${index.embedderNote ? ` (${index.embedderNote})` : ''}; ${questions.length} questions`);
  for (const pipeline of pipelines as PipelineName[]) {
    if (titleWeights) {
      for (const w of titleWeights) {
        // The vectors come from the embedder's cache: only their composition changes.
        const composed = withDense(index, index.embedder, await embedPassages(index, index.embedder, w));
        console.log(`${pipeline.padEnd(10)} title weight ${String(w).padEnd(4)} ${await measure(composed, pipeline, questions, sourceIds)}`);
      }
      continue;
    }
    for (const weight of weights) {
      // A copy of the index whose embedder weighs its ranks so: the built index itself is left as it is.
      const weighted = { ...index, embedder: { ...index.embedder, fusionWeight: weight } };
      console.log(`${pipeline.padEnd(10)} dense weight ${String(weight).padEnd(4)} ${await measure(weighted, pipeline, questions, sourceIds)}`);
    }
  }
  await db.close();
}
