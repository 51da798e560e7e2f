import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { exampleTuples, subjectsOfSeveralPapers } from '../db/graph-views.ts';
import { mostRecipedTargets } from '../db/records.ts';
import { corpusVersion } from '../db/retrieval-corpus.ts';
import { answerQuestion } from '../answer/answer.ts';
import { checkedExamples, EXAMPLE_RELATIONS, exampleCandidates, type ExampleQuestion } from '../answer/examples.ts';
import { getRetrievalService } from '../serving/app-service.ts';
import { databaseLookups } from '../answer/lookups.ts';

/**
 * The ask screen's example questions, checked: candidates written from the corpus (lib/answer/examples.ts) are
 * answered as a visitor's question would be (extractive, the default pipeline), and one per kind that Assay answers
 * well is kept, once per corpus version. The check runs in the background; the screen waits for it a moment, and
 * shows none until it has finished rather than an example it has not checked.
 */

const checked = new Map<string, ExampleQuestion[]>();
const running = new Map<string, Promise<ExampleQuestion[]>>();

async function check(db: Database, cfg: AssayConfig): Promise<ExampleQuestion[]> {
  const [tuples, recipeTargets, severalPapers] = await Promise.all([
    exampleTuples(db, EXAMPLE_RELATIONS),
    mostRecipedTargets(db.prisma),
    subjectsOfSeveralPapers(db),
  ]);
  const service = getRetrievalService(db, cfg);
  const lookups = databaseLookups(db.prisma);
  return checkedExamples(exampleCandidates({ tuples, recipeTargets, severalPapers }), (question) =>
    // In the line's background lane: a visitor asking meanwhile goes first.
    answerQuestion((q, p, o) => service.retrieve(q, p, o), question, { ...service.options, ...lookups, background: true }),
  );
}

/** The checked examples of the corpus as it is, waiting at most `waitMs` for a check that is still running. */
export async function checkedExampleQuestions(db: Database, cfg: AssayConfig, waitMs = 2500): Promise<ExampleQuestion[]> {
  const version = await corpusVersion(db);
  const done = checked.get(version);
  if (done) return done;
  let pending = running.get(version);
  if (!pending) {
    pending = check(db, cfg).then(
      (list) => {
        checked.clear();
        checked.set(version, list);
        return list;
      },
      (error) => {
        console.error(`[assay] example questions not checked (${(error as Error).message})`);
        return [];
      },
    );
    running.set(version, pending);
    void pending.finally(() => running.delete(version));
  }
  return Promise.race([pending, new Promise<ExampleQuestion[]>((resolve) => setTimeout(() => resolve([]), waitMs).unref?.())]);
}
