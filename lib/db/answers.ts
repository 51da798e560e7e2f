import type { Answer } from '../answer/types.ts';
import type { Database } from './database.ts';

/** Owns all queries on Answer. */

/** A stored answer's row: its JSON as written (lib/answer/stored.ts reads it back, checked and migrated). */
export interface StoredAnswerRow {
  id: string;
  createdAt: Date;
  payload: unknown;
}

export interface AnswerSummary {
  id: string;
  question: string;
  pipeline: string;
  mode: string;
  shape: string;
  abstained: boolean;
  createdAt: Date;
}

/**
 * Stores an answer (with its format's version: lib/answer/stored.ts's `storedPayload`) and its text as shown
 * (`answerText`: the sentences with their labels), for the history's search.
 */
export async function saveAnswer(db: Database, answer: Answer & { storedVersion: number }, text: string): Promise<string> {
  const row = await db.prisma.answer.create({
    data: {
      question: answer.question,
      pipeline: answer.pipeline,
      mode: answer.mode,
      modelId: answer.modelId,
      shape: answer.shape,
      text,
      abstained: answer.abstention.abstain,
      confidence: answer.confidence,
      evidenceIds: answer.evidence.map((e) => e.id),
      payload: JSON.parse(JSON.stringify(answer)),
      promptTokens: answer.tokens?.prompt ?? null,
      completionTokens: answer.tokens?.completion ?? null,
      latencyMs: answer.latencyMs,
    },
    select: { id: true },
  });
  return row.id;
}

export async function getAnswer(db: Database, id: string): Promise<StoredAnswerRow | null> {
  return db.prisma.answer.findUnique({ where: { id }, select: { id: true, createdAt: true, payload: true } });
}

/** The latest answers, newest first, optionally only those whose question contains `query`. */
export async function listAnswers(db: Database, opts: { query?: string; take?: number } = {}): Promise<AnswerSummary[]> {
  return db.prisma.answer.findMany({
    // A grading campaign's answers stay out of the history: it names their pipelines, which graders must not learn.
    where: { campaignAnswers: { none: {} }, ...(opts.query ? { question: { contains: opts.query, mode: 'insensitive' } } : {}) },
    orderBy: { createdAt: 'desc' },
    take: opts.take ?? 50,
    select: { id: true, question: true, pipeline: true, mode: true, shape: true, abstained: true, createdAt: true },
  });
}
