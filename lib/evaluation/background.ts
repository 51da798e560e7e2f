import path from 'node:path';
import type { Database } from '../db/database.ts';
import { jobProgress, startJob } from '../common/background.ts';
import type { RetrievalService } from '../pipelines/service.ts';
import { createRunRow, runEvaluationJob, type EvaluationJobInput, type EvaluationJobProgress } from './evaluation-job.ts';
import { loadQuestions } from './questions.ts';

/**
 * Evaluation runs started from the web app: the question file is validated and the run row created before the
 * request returns (a bad file is a 400, not a failed run); the work then runs in the app's job queue, which keeps
 * the progress it reports for the page to poll.
 */
export const evaluationProgress = (runId: string): EvaluationJobProgress | null => jobProgress<EvaluationJobProgress>(runId);

export async function startBackgroundEvaluation(db: Database, service: RetrievalService, input: EvaluationJobInput): Promise<string> {
  const questions = await loadQuestions(input.questionsFile, { limit: input.limit }); // throws QuestionFileError naming file:line
  return startJob<EvaluationJobProgress>(
    {
      kind: 'evaluation',
      label: `${path.basename(input.questionsFile)} × ${input.pipelines.join(', ')}`,
      progress: { stage: 'queued', done: 0, total: questions.length * input.pipelines.length },
    },
    async () => (await createRunRow(db, service, input, questions.length)).id,
    (runId, signal, report) => runEvaluationJob(db, service, { ...input, runId }, { signal, onProgress: report }),
  );
}
