import { storedAnswerOf } from '../answer/stored.ts';
import { stringify } from 'csv-stringify/sync';
import type { Answer } from '../answer/types.ts';
import { answerText } from '../answer/types.ts';
import type { ItemWithGrades } from '../db/campaigns.ts';

import { marksSchema, RUBRICS, type RubricId } from './rubrics.ts';

/**
 * A campaign's grades as rows a spreadsheet opens (CSV, one row per item × answer × rater) and as JSON (items with
 * their answers, citations, evidence ids and every grade). Pipelines are named here: export is for the team
 * after grading, not for graders.
 */
export interface ExportCampaign {
  id: string;
  name: string;
  rubric: string;
  pipelines: string[];
  status: string;
}

export function campaignJson(campaign: ExportCampaign, items: ItemWithGrades[]) {
  return {
    campaign,
    items: items.map((item) => ({
      ordinal: item.ordinal,
      questionId: item.questionId,
      type: item.type,
      question: item.question,
      gold: item.gold,
      answers: item.answers.map((a) => {
        const answer = storedAnswerOf(a.answer);
        return {
          id: a.id,
          pipeline: a.pipeline,
          answerId: a.answerId,
          text: answerText(answer),
          abstained: answer.abstention.abstain,
          sentences: answer.sentences.map((s) => ({ text: s.text, citations: s.citations, verifier: s.verdict })),
          evidenceIds: answer.evidence.map((e) => e.id),
        };
      }),
      grades: item.grades
        .filter((g) => g.submitted)
        .map((g) => ({ rater: g.grader?.email ?? `judge:${g.judge}`, submittedAt: g.submittedAt, marks: marksSchema.parse(g.marks) })),
    })),
  };
}

export function campaignCsv(campaign: ExportCampaign, items: ItemWithGrades[]): string {
  const rubric = RUBRICS[campaign.rubric as RubricId];
  const criteria = rubric.criteria.map((c) => c.id);
  const header = [
    'campaign',
    'item',
    'question_id',
    'type',
    'question',
    'pipeline',
    'rater',
    ...criteria,
    ...(rubric.pairwise ? ['preference', 'reason'] : []),
    'claims_supported',
    'claims_unsupported',
    'claims_wrong_citation',
    'evidence_flags',
    'comment',
    'answer',
    'citations',
    'evidence_ids',
  ];
  const rows: (string | number | null)[][] = [];
  for (const item of items)
    for (const a of item.answers) {
      const answer: Answer = storedAnswerOf(a.answer);
      for (const g of item.grades.filter((x) => x.submitted)) {
        const m = marksSchema.parse(g.marks);
        const claims = Object.values(m.claims[a.id] ?? {});
        const pref = m.preference ? (m.preference.winner === 'tie' ? 'tie' : m.preference.winner === a.id ? 'preferred' : 'not preferred') : null;
        rows.push([
          campaign.name,
          item.ordinal + 1,
          item.questionId,
          item.type,
          item.question,
          a.pipeline,
          g.grader?.email ?? `judge:${g.judge}`,
          ...criteria.map((c) => m.scores[a.id]?.[c] ?? null),
          ...(rubric.pairwise ? [pref, m.preference?.reason ?? ''] : []),
          claims.filter((c) => c === 'supported').length,
          claims.filter((c) => c === 'unsupported').length,
          claims.filter((c) => c === 'wrong-citation').length,
          m.flags
            .filter((f) => f.answerId === a.id)
            .map((f) => `${f.kind} ${f.evidenceId}${f.comment ? `: ${f.comment}` : ''}`)
            .join(' | '),
          m.comment,
          answerText(answer),
          [...new Set(answer.sentences.flatMap((s) => s.citations))].join(' '),
          answer.evidence.map((e) => e.id).join(' '),
        ]);
      }
    }
  // A byte-order mark so spreadsheet programs read the file as UTF-8 (units, Greek letters, dashes).
  return `\uFEFF${stringify([header, ...rows])}`;
}
