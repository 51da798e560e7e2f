import { storedAnswerOf } from '../answer/stored.ts';
import type { Answer } from '../answer/types.ts';
import type { ItemWithGrades } from '../db/campaigns.ts';

import type { EvaluationQuestion } from '../evaluation/questions.ts';
import { externalIdsOf } from '../evidence/model.ts';
import { marksSchema, RUBRICS, type RubricId } from './rubrics.ts';

/** How good the experts found an answer, 0–1: content (÷5), accuracy (÷10), or preference (1 win, ½ tie). */
const QUALITY = 0.6;

export interface CampaignQuestionFile {
  questions: EvaluationQuestion[];
  skipped: { ordinal: number; reason: string }[];
}

/**
 * Graded campaign items as evaluation questions (the format of ../shared/data/questions.dev.jsonl), so expert
 * judgements become regression tests. An item that came with gold keeps it. Otherwise the gold comes from the
 * experts' marks: the answer they rated best (at least 0.6 of the scale) gives the paper, paragraph and, for a value
 * answer, the value its supported claims cite; when every answer abstained and the experts rated that right, the
 * question is unanswerable. Items without such evidence are listed as skipped with the reason.
 */
export function campaignToQuestions(
  campaign: { id: string; name: string; rubric: string; pipelines: string[] },
  items: ItemWithGrades[],
  /** Database paper id → the corpus's paper id (what question files name). */
  sourceIds: Map<string, string>,
): CampaignQuestionFile {
  const rubric = RUBRICS[campaign.rubric as RubricId];
  const questions: EvaluationQuestion[] = [];
  const skipped: CampaignQuestionFile['skipped'] = [];
  for (const item of items) {
    const grades = item.grades.filter((g) => g.submitted && g.graderId).map((g) => marksSchema.parse(g.marks));
    const id = item.questionId ?? `campaign-${campaign.id}-${item.ordinal + 1}`;
    const source = `campaign:${campaign.name}`;
    if (!grades.length) {
      skipped.push({ ordinal: item.ordinal, reason: 'no submitted expert grade' });
      continue;
    }
    if (item.gold && typeof item.gold === 'object' && item.type) {
      questions.push({ ...(item.gold as object), id, type: item.type as EvaluationQuestion['type'], question: item.question, source } as EvaluationQuestion);
      continue;
    }
    const answers = item.answers.filter((a) => campaign.pipelines.includes(a.pipeline));
    const quality = (answerId: string) => {
      const xs = grades
        .map((m) => {
          if (rubric.pairwise) return m.preference ? (m.preference.winner === 'tie' ? 0.5 : m.preference.winner === answerId ? 1 : 0) : undefined;
          if (rubric.id === 'content-citation') return m.scores[answerId]?.content !== undefined ? m.scores[answerId].content / 5 : undefined;
          return m.scores[answerId]?.accuracy !== undefined ? m.scores[answerId].accuracy / 10 : undefined;
        })
        .filter((x): x is number => x !== undefined);
      return xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0;
    };
    const ranked = answers.map((a) => ({ a, answer: storedAnswerOf(a.answer), q: quality(a.id) })).sort((x, y) => y.q - x.q);
    const best = ranked[0];
    if (!best || best.q < QUALITY) {
      skipped.push({ ordinal: item.ordinal, reason: 'no answer the experts rated good enough' });
      continue;
    }
    if (ranked.every((r) => r.answer.abstention.abstain)) {
      questions.push({ id, type: 'unanswerable', question: item.question, source });
      continue;
    }
    const gold = goldFrom(best.a.id, best.answer, grades);
    if (!gold) {
      skipped.push({ ordinal: item.ordinal, reason: 'the best answer has no claim the experts marked supported' });
      continue;
    }
    questions.push({
      id,
      type: gold.value ? 'value' : 'doi',
      question: item.question,
      answer_doi: gold.doi,
      answer_paper_id: gold.paperId ? (sourceIds.get(gold.paperId) ?? null) : null,
      answer_value: gold.value,
      evidence: { paper_id: gold.paperId ? (sourceIds.get(gold.paperId) ?? null) : null, paragraph_id: gold.paragraphId, text: null },
      source,
    });
  }
  return { questions, skipped };
}

/** The evidence the experts' supported claims of an answer rest on (a majority of experts marking them supported). */
function goldFrom(answerId: string, answer: Answer, grades: ReturnType<typeof marksSchema.parse>[]) {
  const supported = answer.sentences.filter((_, i) => {
    const marks = grades.map((g) => g.claims[answerId]?.[String(i)]).filter(Boolean);
    return marks.length > 0 && marks.filter((m) => m === 'supported').length * 2 > marks.length;
  });
  const cited = new Set(supported.flatMap((s) => s.citations));
  const evidence = answer.evidence.filter((e) => cited.has(e.id));
  if (!evidence.length) return null;
  const byPaper = new Map<string, number>();
  for (const e of evidence) if (e.paperId) byPaper.set(e.paperId, (byPaper.get(e.paperId) ?? 0) + 1);
  const paperId = [...byPaper].sort((x, y) => y[1] - x[1])[0]?.[0] ?? null;
  const first = evidence.find((e) => e.paperId === paperId) ?? evidence[0];
  const value = answer.table?.find((row) => cited.has(row.evidenceId))?.value ?? null;
  return { paperId, doi: first.doi, paragraphId: externalIdsOf(first)[0] ?? null, value };
}
