import path from 'node:path';
import { z } from 'zod';
import { openContentStream, readLines } from '../ingest/files.ts';

/** Evaluation questions in the format of ../shared/data/questions.dev.jsonl. */
export const evaluationQuestion = z.object({
  id: z.string().min(1),
  type: z.enum(['doi', 'value', 'unanswerable']),
  question: z.string().min(1),
  answer_doi: z.string().nullable().optional(),
  answer_paper_id: z.string().nullable().optional(),
  answer_value: z.string().nullable().optional(),
  evidence: z
    .object({ paper_id: z.string().nullable().optional(), paragraph_id: z.string().nullable().optional(), text: z.string().nullable().optional() })
    .nullable()
    .optional(),
  source: z.string().nullable().optional(),
  /**
   * "<question file>#<id>": the gold (paper, value, evidence) is that question's, read from its file at load time
   * (a path relative to this file), so a question written in our own words over the shared gold set copies none of it.
   */
  gold_from: z.string().optional(),
});
export type EvaluationQuestion = z.infer<typeof evaluationQuestion>;

export class QuestionFileError extends Error {}

/** Reads a JSONL question file; a malformed line is an error naming the file and line (nothing is skipped silently). */
export async function loadQuestions(file: string, opts: { limit?: number } = {}): Promise<EvaluationQuestion[]> {
  const out: EvaluationQuestion[] = [];
  const ids = new Set<string>();
  let stream;
  try {
    stream = await openContentStream(file);
  } catch (error) {
    throw new QuestionFileError(`${file}: cannot read the question file (${(error as Error).message})`);
  }
  for await (const item of readLines(stream, 16 * 1024 * 1024)) {
    const lineNumber = item.lineNo;
    if ('error' in item) throw new QuestionFileError(`${file}:${lineNumber}: ${item.error}`);
    const line = item.text;
    if (!line.trim()) continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      throw new QuestionFileError(`${file}:${lineNumber}: not JSON (${(error as Error).message})`);
    }
    const parsed = evaluationQuestion.safeParse(json);
    if (!parsed.success)
      throw new QuestionFileError(`${file}:${lineNumber}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    if (ids.has(parsed.data.id)) throw new QuestionFileError(`${file}:${lineNumber}: duplicate question id ${parsed.data.id}`);
    ids.add(parsed.data.id);
    out.push(parsed.data.gold_from ? await withGoldFrom(file, lineNumber, parsed.data) : parsed.data);
    if (opts.limit && out.length >= opts.limit) break;
  }
  return out;
}

const goldFiles = new Map<string, Promise<Map<string, EvaluationQuestion>>>();

/** The question with the gold of the one its `gold_from` names; the two must be of the same type. */
async function withGoldFrom(file: string, lineNumber: number, q: EvaluationQuestion): Promise<EvaluationQuestion> {
  const [ref, id] = q.gold_from!.split('#');
  const source = path.resolve(path.dirname(file), ref);
  let byId = goldFiles.get(source);
  if (!byId) {
    byId = loadQuestions(source).then((list) => new Map(list.map((x) => [x.id, x])));
    goldFiles.set(source, byId);
    byId.catch(() => goldFiles.delete(source));
  }
  const gold = await byId.catch((error: Error) => {
    throw new QuestionFileError(`${file}:${lineNumber}: the gold comes from ${source}, which cannot be read (${error.message})`);
  });
  const g = id ? gold.get(id) : undefined;
  if (!g) throw new QuestionFileError(`${file}:${lineNumber}: ${q.gold_from} names no question`);
  if (g.type !== q.type) throw new QuestionFileError(`${file}:${lineNumber}: ${q.gold_from} is a ${g.type} question, not a ${q.type} one`);
  return { ...q, answer_doi: g.answer_doi, answer_value: g.answer_value, answer_paper_id: g.answer_paper_id, evidence: g.evidence };
}
