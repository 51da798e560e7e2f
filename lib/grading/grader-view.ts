import { storedAnswerOf } from '../answer/stored.ts';
import type { Answer } from '../answer/types.ts';
import type { Viewer } from '../auth/viewer.ts';
import { AppError } from '../common/errors.ts';
import { type CampaignDetail, getCampaign, getItem, gradeOf, itemsForGrader } from '../db/campaigns.ts';
import type { Database } from '../db/database.ts';
import { answerOrder, assignedGraders, slotLabel } from './assignment.ts';
import { emptyMarks, type Marks, marksSchema, RUBRICS, type Rubric } from './rubrics.ts';

/**
 * What one grader sees of a campaign: only the items assigned to them (and, for admins, those sent back for
 * adjudication), each with its answers blind (no pipeline, model, trace, timings or verifier verdicts) in the
 * grader's own shuffled order, their own marks and nothing of anyone else's.
 */

/** An answer with everything that could reveal its pipeline (names, trace, timings, retrieval scores), or sway the grader (the verifier's verdicts), taken out. */
export function blindAnswer(a: Answer): Answer {
  return {
    ...a,
    pipeline: '',
    mode: 'extractive',
    modelId: null,
    trace: [],
    tokens: null,
    costUsd: null,
    latencyMs: 0,
    notice: null,
    confidence: 0,
    sentences: a.sentences.map((s) => ({ text: s.text, citations: s.citations, verdict: 'uncited' as const, check: null, flags: [] })),
    // Retrieval scores are on each pipeline's own scale: they would tell the pipelines apart.
    evidence: a.evidence.map((e) => ({ ...e, score: 0 })),
  };
}

export interface GraderQueueEntry {
  ordinal: number;
  question: string;
  state: 'todo' | 'draft' | 'submitted';
  adjudicate: boolean;
}

export interface GraderItemView {
  campaign: { id: string; name: string; status: string; rubric: Rubric };
  item: { id: string; ordinal: number; question: string };
  answers: { slot: string; id: string; answer: Answer }[];
  marks: Marks;
  revision: number;
  submitted: boolean;
  queue: GraderQueueEntry[];
}

const isGrader = (c: CampaignDetail, userId: string) => c.graders.some((g) => g.userId === userId);

/** The items this viewer grades in the campaign, in order, with their state. */
export async function graderQueue(db: Database, campaign: CampaignDetail, viewer: Viewer): Promise<GraderQueueEntry[]> {
  const userId = viewer.user?.id;
  if (!userId) return [];
  const graderIds = campaign.graders.map((g) => g.userId);
  const items = await itemsForGrader(db, campaign.id, userId);
  return items
    .filter(
      (i) =>
        (isGrader(campaign, userId) && assignedGraders(i.ordinal, graderIds, campaign.gradersPerItem).includes(userId)) ||
        (i.adjudicate && viewer.role === 'admin'),
    )
    .map((i) => ({
      ordinal: i.ordinal,
      question: i.question,
      adjudicate: i.adjudicate,
      state: i.grades[0]?.submitted ? 'submitted' : i.grades[0] ? 'draft' : 'todo',
    }));
}

/** Loads the campaign and checks this viewer may grade `ordinal` in it (404 for an item that is not theirs). */
export async function gradableItem(db: Database, campaignId: string, ordinal: number, viewer: Viewer) {
  const campaign = await getCampaign(db, campaignId);
  if (!campaign || !viewer.user) throw new AppError('not-found', 'no such campaign');
  const queue = await graderQueue(db, campaign, viewer);
  if (!queue.length) throw new AppError('forbidden', 'you are not a grader of this campaign');
  const entry = queue.find((q) => q.ordinal === ordinal);
  if (!entry) throw new AppError('not-found', `item ${ordinal + 1} is not one of yours in this campaign`);
  const item = await getItem(db, campaignId, ordinal);
  if (!item) throw new AppError('not-found', 'no such item');
  return { campaign, item, queue };
}

export async function graderItemView(db: Database, campaignId: string, ordinal: number, viewer: Viewer): Promise<GraderItemView> {
  const { campaign, item, queue } = await gradableItem(db, campaignId, ordinal, viewer);
  const userId = viewer.user?.id as string;
  const grade = await gradeOf(db, item.id, userId);
  const ordered = answerOrder(
    item.answers.filter((a) => campaign.pipelines.includes(a.pipeline)),
    userId,
    item.id,
  );
  return {
    campaign: { id: campaign.id, name: campaign.name, status: campaign.status, rubric: RUBRICS[campaign.rubric as keyof typeof RUBRICS] },
    item: { id: item.id, ordinal: item.ordinal, question: item.question },
    answers: ordered.map((a, i) => ({ slot: slotLabel(i), id: a.id, answer: blindAnswer(storedAnswerOf(a.answer)) })),
    marks: grade ? marksSchema.parse(grade.marks) : emptyMarks(),
    revision: grade?.revision ?? 0,
    submitted: grade?.submitted ?? false,
    queue,
  };
}
