import { z } from 'zod';
import { EVIDENCE_KINDS } from '../evidence/model.ts';
import { ANSWER_MODE_NAMES, ANSWER_SHAPES, type Answer } from './types.ts';

/**
 * How an answer is kept in the database and read back. Its JSON carries `storedVersion`; on load it is checked
 * against the schema below (the fields every screen reads) and an older version is migrated to the current one, so
 * the answer page, the compare and grading screens and the history never show a shape they do not know.
 *
 * Versions:
 * - 1: answers stored before the version was written (no `storedVersion`). The same fields as 2; `differences`,
 *   `unverified`, `scope` and `costUsd` may be absent (each is optional in 2 as well), so it migrates as it is.
 * - 2: the current `Answer` (lib/answer/types.ts).
 * A newer version than this code knows (a database shared with a newer Assay) is shown as such, never guessed at.
 */
export const STORED_ANSWER_VERSION = 2;

const sentence = z.looseObject({
  text: z.string(),
  citations: z.array(z.string()),
  verdict: z.enum(['supported', 'partial', 'unsupported', 'uncited']),
  flags: z.array(z.string()),
});
const evidence = z.looseObject({
  id: z.string(),
  kind: z.enum(EVIDENCE_KINDS),
  text: z.string(),
  paperId: z.string().nullable(),
  provenance: z.array(z.looseObject({ kind: z.string() })),
});
const storedAnswerSchema = z.looseObject({
  question: z.string(),
  pipeline: z.string(),
  mode: z.enum(ANSWER_MODE_NAMES),
  modelId: z.string().nullable(),
  shape: z.enum(ANSWER_SHAPES),
  sentences: z.array(sentence),
  table: z.array(z.looseObject({ value: z.string(), evidenceId: z.string() })).nullable(),
  disagreement: z.string().nullable(),
  abstention: z.looseObject({ abstain: z.boolean(), reasons: z.array(z.string()), explanation: z.string(), corpusHolds: z.string().nullable() }),
  evidence: z.array(evidence),
  notice: z.string().nullable(),
  confidence: z.number(),
  trace: z.array(z.looseObject({ step: z.string() })),
  tokens: z.object({ prompt: z.number(), completion: z.number() }).nullable(),
  latencyMs: z.number(),
});

/** What is written to the database for an answer: the answer with its format's version. */
export function storedPayload(answer: Answer): Answer & { storedVersion: number } {
  return { ...answer, storedVersion: STORED_ANSWER_VERSION };
}

/** An answer read back: the answer in the current format (`migratedFrom` when it was stored in an older one). */
export type ReadAnswer = { readable: true; answer: Answer; storedVersion: number; migratedFrom: number | null };
/** An answer that cannot be shown: why, and its question when that much could be read. */
export type UnreadableAnswer = { readable: false; storedVersion: number | null; problem: string; question: string | null };

/** Reads a stored answer's JSON: checked, migrated from an older version, or refused with the reason. */
export function readStoredAnswer(payload: unknown): ReadAnswer | UnreadableAnswer {
  const record = payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : {};
  const question = typeof record.question === 'string' ? record.question : null;
  const version = record.storedVersion === undefined ? 1 : typeof record.storedVersion === 'number' ? record.storedVersion : null;
  if (version === null || !Number.isInteger(version) || version < 1)
    return { readable: false, storedVersion: null, problem: 'the stored answer has no readable format version', question };
  if (version > STORED_ANSWER_VERSION)
    return {
      readable: false,
      storedVersion: version,
      problem: `the answer was stored by a newer Assay (format ${version}; this one reads up to ${STORED_ANSWER_VERSION})`,
      question,
    };
  // Version 1 has the fields of 2 (see above): its migration is the check itself.
  const { storedVersion: _version, ...fields } = record;
  const checked = storedAnswerSchema.safeParse(fields);
  if (!checked.success) {
    const where = checked.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'answer'}: ${i.message}`);
    return {
      readable: false,
      storedVersion: version,
      problem: `the stored answer does not have the shape of format ${version} (${where.join('; ')})`,
      question,
    };
  }
  // The schema has checked every field a screen reads; the rest is the Answer the same code wrote.
  return { readable: true, answer: checked.data as unknown as Answer, storedVersion: version, migratedFrom: version < STORED_ANSWER_VERSION ? version : null };
}

/**
 * A stored answer as the grading screens, exports and judge take it: the answer itself, or (one this version cannot
 * read) an abstaining answer whose notice says why, so a campaign with one unreadable answer still opens.
 */
export function storedAnswerOf(row: { payload: unknown }): Answer {
  const read = readStoredAnswer(row.payload);
  if (read.readable) return read.answer;
  const pipeline = (row.payload as { pipeline?: unknown } | null)?.pipeline;
  const notice = `This answer cannot be shown: ${read.problem}.`;
  return {
    question: read.question ?? '',
    pipeline: typeof pipeline === 'string' ? pipeline : 'unknown',
    mode: 'extractive',
    modelId: null,
    shape: 'abstain',
    sentences: [],
    table: null,
    disagreement: null,
    abstention: { abstain: true, reasons: [], explanation: notice, corpusHolds: null },
    evidence: [],
    notice,
    confidence: 0,
    trace: [],
    tokens: null,
    latencyMs: 0,
  };
}
