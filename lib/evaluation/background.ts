import path from 'node:path';
import type { Database } from '../db/database.ts';
import type { AssayConfig } from '../config.ts';
import { markEvaluationRunStopped } from '../db/evaluation-runs.ts';
import { defineJob, jobProgress, startJob } from '../queue/queue.ts';
import { getRetrievalService } from '../serving/app-service.ts';
import type { RetrievalService } from '../serving/retrieval-service.ts';
import { createRunRow, runEvaluationJob, type EvaluationJobInput, type EvaluationJobProgress } from './evaluation-job.ts';
import { loadQuestions } from './questions.ts';

/**
 * Evaluation runs started from the web app: the question file is validated and the run row created before the
 * request returns (a bad file is a 400, not a failed run); the work then runs in the app's job queue, which keeps
 * the progress it reports for the page to poll. A run whose process stopped is not continued: it is marked failed
 * with why (its results so far are kept), and the user starts another.
 */
export const evaluationProgress = (db: Database, runId: string) => jobProgress<EvaluationJobProgress>(db, runId);

type EvaluationPayload = Pick<EvaluationJobInput, 'questionsFile' | 'pipelines' | 'limit' | 'incompleteSemantic'> & { runId: string };

export const evaluationJob = defineJob<EvaluationPayload, EvaluationJobProgress>('evaluation', async ({ db, cfg, attempt, signal, report }, input) => {
  if (attempt > 1) return markEvaluationRunStopped(db, input.runId);
  return runEvaluationJob(db, getRetrievalService(db, cfg), input, { signal, onProgress: report });
});

export async function startBackgroundEvaluation(
  db: Database,
  cfg: AssayConfig,
  service: RetrievalService,
  input: Pick<EvaluationJobInput, 'questionsFile' | 'pipelines' | 'limit' | 'incompleteSemantic'>,
): Promise<string> {
  const questions = await loadQuestions(input.questionsFile, { limit: input.limit }); // throws QuestionFileError naming file:line
  return startJob(
    db,
    cfg,
    evaluationJob,
    {
      label: `${path.basename(input.questionsFile)} × ${input.pipelines.join(', ')}`,
      progress: { stage: 'queued', done: 0, total: questions.length * input.pipelines.length },
    },
    async () => (await createRunRow(db, service, input, questions.length)).id,
    (runId) => ({
      questionsFile: input.questionsFile,
      pipelines: input.pipelines,
      ...(input.limit ? { limit: input.limit } : {}),
      ...(input.incompleteSemantic ? { incompleteSemantic: true } : {}),
      runId,
    }),
  );
}
