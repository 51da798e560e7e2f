import { badRequest } from '../common/errors.ts';
import { type PathRoot, pathRoots, publicPath, publicText } from '../common/public-path.ts';
import { evaluationResults, getEvaluationResult, getEvaluationRun, listEvaluationRuns, type ResultFilter } from '../db/evaluation-runs.ts';
import { evaluationProgress, startBackgroundEvaluation } from '../evaluation/background.ts';
import { listQuestionSets } from '../evaluation/question-sets.ts';
import { QuestionFileError } from '../evaluation/questions.ts';
import type { PipelineName } from '../pipelines/registry.ts';
import { appContext, appDatabase } from './app.ts';

/** Evaluation runs as the app shows and starts them. */

type StoredEvaluationRun = NonNullable<Awaited<ReturnType<typeof getEvaluationRun>>>;

/** A run as a client sees it: its question file relative to its folder, never an absolute server path. */
export function publicEvaluationRun<R extends Pick<StoredEvaluationRun, 'settings' | 'message'>>(run: R, roots: PathRoot[]): R {
  const settings = (run.settings ?? null) as Record<string, unknown> | null;
  return {
    ...run,
    settings: settings && typeof settings.questionsFile === 'string' ? { ...settings, questionsFile: publicPath(settings.questionsFile, roots) } : run.settings,
    message: run.message && publicText(run.message, roots),
  };
}

/** Every run, newest first, with the question sets and pipelines a new run can use. */
export async function evaluationOverview() {
  const { db, cfg } = await appContext();
  const roots = pathRoots(cfg);
  return {
    runs: (await listEvaluationRuns(db)).map((r) => publicEvaluationRun(r, roots)),
    questionSets: listQuestionSets(cfg.questionPaths).map((s) => s.name),
  };
}

/** One run as a client sees it with the progress its job reports; null when there is none. */
export async function evaluationRun(id: string) {
  const { db, cfg } = await appContext();
  const run = await getEvaluationRun(db, id);
  return run && { run: publicEvaluationRun(run, pathRoots(cfg)), progress: await evaluationProgress(db, id) };
}

/** One page of a run's results. */
export async function evaluationRunResults(id: string, filter: ResultFilter) {
  return evaluationResults(await appDatabase(), id, filter);
}

/** One question's result in a run; null when the result is not of that run. */
export async function evaluationResult(runId: string, resultId: string) {
  const r = await getEvaluationResult(await appDatabase(), resultId);
  return r && r.runId === runId ? r : null;
}

/** Starts an evaluation run of a configured question set in the job queue; returns its id. */
export async function startEvaluation(input: {
  questionSet: string;
  pipelines: PipelineName[];
  limit?: number;
  incompleteSemantic?: boolean;
}): Promise<string> {
  const { db, cfg, retrieval } = await appContext();
  const set = listQuestionSets(cfg.questionPaths).find((s) => s.name === input.questionSet);
  if (!set) throw badRequest(`no question set named ${input.questionSet} (sets come from ASSAY_QUESTIONS)`);
  try {
    return await startBackgroundEvaluation(db, cfg, retrieval, {
      questionsFile: set.path,
      pipelines: input.pipelines,
      limit: input.limit,
      incompleteSemantic: input.incompleteSemantic,
    });
  } catch (error) {
    if (error instanceof QuestionFileError) throw badRequest(publicText(error.message, pathRoots(cfg)));
    throw error;
  }
}
