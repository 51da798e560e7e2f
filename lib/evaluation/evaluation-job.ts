import path from 'node:path';
import { AppError } from '../common/errors.ts';
import type { ChatModel } from '../ai/providers.ts';
import { composeAnswer } from '../answer/answer.ts';
import { databaseLookups } from '../answer/lookups.ts';
import type { Baseline } from '../answer/modes.ts';
import type { Database } from '../db/database.ts';
import { createEvaluationRun, finishEvaluationRun, saveEvaluationResults, updateEvaluationSettings } from '../db/evaluation-runs.ts';
import type { PipelineName } from '../pipelines/registry.ts';
import { embedderNoteNow } from '../retrieval/index.ts';
import type { RetrievalService } from '../serving/retrieval-service.ts';
import { judgeAnswer } from './judge-metrics.ts';
import { loadQuestions } from './questions.ts';
import { runRetrievalEvaluation, type EvaluationSummary } from './retrieval-eval.ts';

/**
 * One stored evaluation run, end to end (used by `npm run eval` and the evaluation page): load and validate the
 * questions, record the run, (re)build the index if the corpus changed, run every pipeline, store each result
 * as it is scored, and finish the run with its summary, or with the error that stopped it.
 */
export interface EvaluationJobInput {
  questionsFile: string;
  pipelines: PipelineName[];
  limit?: number;
  /** Also compose and score the answer of every retrieval (extractive unless a model is given). */
  answers?: boolean;
  /** The model that answers; with `baseline`, method C's baseline instead of the answer. */
  answerModel?: ChatModel | null;
  baseline?: Baseline;
  /** A judge model: faithfulness, answer relevance and context relevance of each answer, over `judgeRuns` runs. */
  judge?: ChatModel | null;
  judgeRuns?: number;
  /** A run row created beforehand (the web app returns its id before the work starts). */
  runId?: string;
  /**
   * Score even while the embedding model is still embedding the corpus in the background (dense search then runs on
   * the n-gram stand-in, and the run says so). Without it such a run is refused: its figures would not be the model's.
   */
  incompleteSemantic?: boolean;
}

export interface EvaluationJobProgress {
  stage: 'queued' | 'loading' | 'indexing' | 'running' | 'done';
  done: number;
  total: number;
}

export function createRunRow(db: Database, service: RetrievalService, input: EvaluationJobInput, questions: number) {
  return createEvaluationRun(db, {
    questionSet: path.basename(input.questionsFile),
    questions,
    pipelines: input.pipelines,
    settings: { questionsFile: input.questionsFile, reformulator: service.reformulator.id },
  });
}

export async function runEvaluationJob(
  db: Database,
  service: RetrievalService,
  input: EvaluationJobInput,
  hooks: { onRunCreated?: (id: string) => void; onProgress?: (p: EvaluationJobProgress) => void; signal?: AbortSignal } = {},
): Promise<{ runId: string; summary: EvaluationSummary; indexSeconds: number }> {
  hooks.onProgress?.({ stage: 'loading', done: 0, total: 0 });
  const questions = await loadQuestions(input.questionsFile, { limit: input.limit });
  const run = input.runId ? { id: input.runId } : await createRunRow(db, service, input, questions.length);
  hooks.onRunCreated?.(run.id);
  try {
    hooks.onProgress?.({ stage: 'indexing', done: 0, total: questions.length * input.pipelines.length });
    const t0 = performance.now();
    const index = await service.index();
    const indexSeconds = (performance.now() - t0) / 1000;
    const embedderNote = embedderNoteNow(index);
    if (index.pendingEmbedder && !input.incompleteSemantic)
      throw new AppError(
        'unavailable',
        `${embedderNote ?? 'semantic search is incomplete'}. The run would score the stand-in, not the model: start it again once the model has finished, or ask for it with "score while semantic search is incomplete"`,
      );
    await updateEvaluationSettings(db, run.id, {
      questionsFile: input.questionsFile,
      reformulator: service.reformulator.id,
      embedder: index.embedderId,
      ...(embedderNote ? { embedderNote } : {}),
      corpusVersion: index.version,
      indexBuildSeconds: Math.round(index.buildSeconds * 10) / 10,
      paragraphs: index.paragraphs.size,
      records: index.records.size,
    });
    const { summary } = await runRetrievalEvaluation(index, questions, input.pipelines, {
      reformulator: service.reformulator,
      answers: input.answers,
      answerWith: input.answerModel ? (r) => composeAnswer(r, { model: input.answerModel, baseline: input.baseline }) : undefined,
      baseline: !!input.baseline,
      lookups: databaseLookups(db.prisma),
      judgeWith: input.judge ? (a) => judgeAnswer(a, input.judge!, index.embedder, input.judgeRuns ?? 1) : undefined,
      signal: hooks.signal,
      onProgress: (done, total) => hooks.onProgress?.({ stage: 'running', done, total }),
      onResults: (batch) => saveEvaluationResults(db, run.id, batch),
    });
    await finishEvaluationRun(db, run.id, { summary });
    hooks.onProgress?.({ stage: 'done', done: questions.length * input.pipelines.length, total: questions.length * input.pipelines.length });
    return { runId: run.id, summary, indexSeconds };
  } catch (error) {
    await finishEvaluationRun(db, run.id, { error: (error as Error).message });
    throw error;
  }
}
