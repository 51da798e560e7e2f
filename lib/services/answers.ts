import { metadataOfPapers } from '../db/paper-metadata.ts';
import { paperNotice, type PaperNotice } from '../scholarly/metadata.ts';
import { type Evidence, paperOf } from '../evidence/model.ts';
import type { Database } from '../db/database.ts';
import { answerModel } from '../ai/providers.ts';
import { checkedExampleQuestions } from '../jobs/examples.ts';
import { type ProvenanceRequest, provenanceDetails } from '../answer/provenance.ts';
import { readStoredAnswer } from '../answer/stored.ts';
import { getAnswer, listAnswers } from '../db/answers.ts';
import { libraryFacets } from '../db/papers.ts';
import { appContext, appDatabase } from './app.ts';

/** Reading answers: the ask screen, stored answers, provenance of a cited item (asking is ask.ts, raw retrievals retrieve.ts). */

/** What the ask screen offers: the answer model's name, example questions the corpus can answer, filter choices, recent questions. */
export async function askScreen(opts: { recent: number }) {
  const { db, cfg } = await appContext();
  const [recent, examples, facets] = await Promise.all([listAnswers(db, { take: opts.recent }), checkedExampleQuestions(db, cfg), libraryFacets(db.prisma)]);
  return { recent, examples, domains: facets.domains, modelId: answerModel(cfg)?.id ?? null };
}

/** The name of the model that writes answers (null: answers are extractive). */
export async function answerModelId(): Promise<string | null> {
  const { cfg } = await appContext();
  return answerModel(cfg)?.id ?? null;
}

/** The latest stored answers, newest first; those whose question contains `query` when given. */
export async function recentAnswers(opts: { query?: string; take?: number } = {}) {
  return listAnswers(await appDatabase(), opts);
}

/**
 * A stored answer, as it was given (read back in the current format: lib/answer/stored.ts), with the notices of the
 * papers it cites; `{ readable: false, problem }` when it was stored in a form this version cannot show; null when
 * there is none.
 */
export async function storedAnswer(id: string) {
  const db = await appDatabase();
  const row = await getAnswer(db, id);
  if (!row) return null;
  const read = readStoredAnswer(row.payload);
  if (!read.readable) return { id: row.id, createdAt: row.createdAt, ...read };
  const { answer, ...format } = read;
  return { ...answer, id: row.id, createdAt: row.createdAt, ...format, notices: await citedPaperNotices(db, answer.evidence) };
}

/**
 * The retraction and correction notices of the papers an answer's evidence comes from, by paper id, read when the
 * answer is shown (a paper retracted after the answer was given is flagged too).
 */
export async function citedPaperNotices(db: Database, evidence: Evidence[]): Promise<Record<string, PaperNotice>> {
  const ids = [...new Set(evidence.map((e) => paperOf(e)?.paperId ?? e.paperId).filter((x): x is string => !!x))];
  const out: Record<string, PaperNotice> = {};
  for (const [id, m] of await metadataOfPapers(db, ids)) {
    const notice = paperNotice(m.data);
    if (notice) out[id] = notice;
  }
  return out;
}

/** What the provenance panel shows for one cited item. */
export async function provenance(req: ProvenanceRequest) {
  return provenanceDetails(await appDatabase(), req);
}
