import { readStoredAnswer } from '../answer/stored.ts';
import { getAnswer } from '../db/answers.ts';
import { advancePaperSearch, getPaperSearch, searchesOfAnswer } from '../db/paper-searches.ts';
import { importFoundPapers, paperSearchReport } from '../corpus/found-imports.ts';
import { lookForPapers, type PaperCandidate } from '../corpus/paper-search.ts';
import { ariaTier, offersPaperSearch } from '../answer/types.ts';
import { AppError } from '../common/errors.ts';
import { appContext, appDatabase } from './app.ts';
import { ask } from './ask.ts';
import { isPipelineName } from '../pipelines/registry.ts';

/** "Look for papers" as the app offers it: searching from an answer, importing chosen papers, asking again. */

/** What an answer's page offers: the search (when enrichment is on and the corpus did not answer) and earlier searches. */
export async function paperSearchOffer(answerId: string, answer: Parameters<typeof offersPaperSearch>[0]) {
  const offered = offersPaperSearch(answer);
  if (!offered) return { offered, enabled: false, earlier: [] };
  const { db, cfg } = await appContext();
  return { offered, enabled: cfg.scholarly.enrichment === 'on', earlier: await searchesOfAnswer(db, answerId) };
}

/** Searches OpenAlex and Europe PMC for the question of a stored answer; returns the search's id. */
export async function lookForPapersForAnswer(answerId: string, by: string | null): Promise<string> {
  const { db, cfg } = await appContext();
  if (cfg.scholarly.enrichment !== 'on') throw new AppError('bad-request', 'looking for papers online is switched off (ASSAY_ENRICHMENT=off)');
  const row = await getAnswer(db, answerId);
  const question = row && readQuestion(row.payload);
  if (!question) throw new AppError('not-found', 'there is no such answer');
  return lookForPapers(db, cfg, { question, answerId, createdBy: by });
}

export async function paperSearch(id: string) {
  return paperSearchReport(await appDatabase(), id);
}

export async function importFound(searchId: string, pmcids: string[], by: string | null) {
  const { db, cfg } = await appContext();
  return importFoundPapers(db, cfg, searchId, pmcids, by);
}

/** Asks the search's question again (the same pipeline as the answer that offered it) and traces the outcome. */
export async function askAgain(searchId: string): Promise<string> {
  const db = await appDatabase();
  const search = await getPaperSearch<PaperCandidate>(db, searchId);
  if (!search) throw new AppError('not-found', 'there is no such search');
  const row = search.answerId ? await getAnswer(db, search.answerId) : null;
  const read = row && readStoredAnswer(row.payload);
  const before = read?.readable ? read.answer : null;
  const t = performance.now();
  const { id, answer } = await ask({
    question: search.question,
    pipeline: before && isPipelineName(before.pipeline) ? before.pipeline : undefined,
    mode: 'auto',
  });
  const tier = ariaTier(answer.trace);
  await advancePaperSearch(
    db,
    searchId,
    [
      {
        step: 'ask-again',
        ms: Math.round(performance.now() - t),
        detail: { answer: id, answered: !answer.abstention.abstain, shape: answer.shape, ...(tier !== null ? { tier } : {}) },
      },
    ],
    { askedAgainId: id },
  );
  return id;
}

/** The question of a stored answer, even one this version cannot show in full. */
function readQuestion(payload: unknown): string | null {
  const read = readStoredAnswer(payload);
  return read.readable ? read.answer.question : read.question;
}
