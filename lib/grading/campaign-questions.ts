import { parse as parseCsv } from 'csv-parse/sync';
import { AppError } from '../common/errors.ts';
import { evaluationQuestion } from '../evaluation/questions.ts';

/** One question of a new campaign, with what its source says about the right answer. */
export interface CampaignQuestion {
  question: string;
  questionId: string | null;
  type: string | null;
  /** answer_doi, answer_paper_id, answer_value, evidence, source: as the question file gave them. */
  gold: Record<string, unknown> | null;
}

export const MAX_CAMPAIGN_QUESTIONS = 500;

const tooMany = () => new AppError('bad-request', `a campaign holds at most ${MAX_CAMPAIGN_QUESTIONS} questions`);
const clean = (q: string) => q.replace(/\s+/g, ' ').trim();

/**
 * Questions from an uploaded file: JSON lines in the questions format of ../shared/data (each line checked as the
 * evaluation harness checks it), or CSV with a `question` column (optional `id` and `type` columns). Errors name
 * the line; duplicates of the same question are kept once.
 */
export function parseCampaignQuestions(fileName: string, text: string): CampaignQuestion[] {
  const out: CampaignQuestion[] = [];
  if (/\.csv$/i.test(fileName)) {
    let rows: Record<string, string>[];
    try {
      rows = parseCsv(text, { columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()), skip_empty_lines: true, bom: true, relax_column_count: true });
    } catch (error) {
      throw new AppError('bad-request', `${fileName}: not readable as CSV (${(error as Error).message})`);
    }
    if (rows.length && !('question' in rows[0])) throw new AppError('bad-request', `${fileName}: no "question" column`);
    rows.forEach((row, i) => {
      const question = clean(row.question ?? '');
      if (question.length < 3 || question.length > 2000) throw new AppError('bad-request', `${fileName}:${i + 2}: a question of 3 to 2,000 characters`);
      out.push({ question, questionId: row.id?.trim() || null, type: row.type?.trim() || null, gold: null });
    });
  } else {
    text.split(/\r?\n/).forEach((line, i) => {
      if (!line.trim()) return;
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        throw new AppError('bad-request', `${fileName}:${i + 1}: not JSON (give JSON lines in the questions format, or a CSV file)`);
      }
      const parsed = evaluationQuestion.safeParse(json);
      if (!parsed.success)
        throw new AppError('bad-request', `${fileName}:${i + 1}: ${parsed.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`);
      const { id, type, question, ...gold } = parsed.data;
      out.push({ question: clean(question), questionId: id, type, gold });
    });
  }
  if (out.length > MAX_CAMPAIGN_QUESTIONS) throw tooMany();
  const seen = new Set<string>();
  const unique = out.filter((q) => !seen.has(q.question) && seen.add(q.question));
  if (!unique.length) throw new AppError('bad-request', `${fileName}: no questions`);
  return unique;
}

/** Questions picked from the answer history (their text only: history has no gold). */
export function historyQuestions(questions: string[]): CampaignQuestion[] {
  const seen = new Set<string>();
  const out = questions.map(clean).filter((q) => q.length >= 3 && !seen.has(q) && seen.add(q));
  if (out.length > MAX_CAMPAIGN_QUESTIONS) throw tooMany();
  return out.map((question) => ({ question, questionId: null, type: null, gold: null }));
}
