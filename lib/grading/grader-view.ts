import { storedAnswerOf } from '../answer/stored.ts';
import type { Answer } from '../answer/types.ts';
import type { Viewer } from '../auth/viewer.ts';
import { AppError } from '../common/errors.ts';
import { type CampaignDetail, getCampaign, getItem, gradeOf, itemsForGrader } from '../db/campaigns.ts';
import type { Database } from '../db/database.ts';
import { instanceKey } from '../auth/auth.ts';
import { answerOrder, assignedGraders, slotLabel, slotToken } from './assignment.ts';
import { emptyMarks, type Marks, marksSchema, RUBRICS, type Rubric } from './rubrics.ts';

/**
 * What one grader sees of a campaign: only the items assigned to them (and, for admins, those sent back for
 * adjudication), each with its answers blind (no pipeline, model, trace, timings or verifier verdicts) in the
 * grader's own shuffled order, their own marks and nothing of anyone else's.
 */

/**
 * An answer as a grader sees it: what it says, what it cites and the cited evidence, and nothing else. Every field
 * is rebuilt (none is passed through), so a field added to answers later is not shown until it is added here. Taken
 * out or set to one value for all: the pipeline, mode, model, trace, timings, tokens, cost, notice and confidence;
 * the verifier's verdicts (they would sway the grader); the reason codes of a refusal (each pipeline has its own);
 * the evidence pool's uncited items (the pool's size and order are a pipeline's), and of the cited ones the
 * retrieval score, coverage, matched facets and graph-path mark, which are on each pipeline's own scale.
 *
 * What can still tell pipelines apart is what the answer says and cites: a records pipeline cites structured records
 * and writes recipes, a graph pipeline cites tuples. Hiding that would hide the evidence the grader must judge.
 */
export function blindAnswer(a: Answer): Answer {
  const cited = new Set([...a.sentences.flatMap((s) => s.citations), ...(a.table ?? []).map((r) => r.evidenceId)]);
  return {
    question: a.question,
    pipeline: '',
    mode: 'extractive',
    modelId: null,
    shape: a.shape,
    sentences: a.sentences.map((s) => ({ text: s.text, citations: s.citations, verdict: 'uncited' as const, check: null, flags: [] })),
    table: a.table,
    disagreement: a.disagreement,
    abstention: {
      abstain: a.abstention.abstain,
      reasons: [],
      explanation: a.abstention.explanation,
      corpusHolds: a.abstention.corpusHolds,
      ...(a.abstention.differences ? { differences: a.abstention.differences } : {}),
    },
    evidence: a.evidence
      .filter((e) => cited.has(e.id))
      .map((e) => ({
        id: e.id,
        kind: e.kind,
        text: e.text,
        score: 0,
        coverage: null,
        matched: { materials: [], quantities: [], properties: [] },
        paperId: e.paperId,
        doi: e.doi,
        section: e.section,
        provenance: e.provenance,
      })),
    notice: null,
    confidence: 0,
    ...(a.unverified ? { unverified: a.unverified } : {}),
    scope: null,
    trace: [],
    tokens: null,
    costUsd: null,
    latencyMs: 0,
  };
}

/** The key the slot order and tokens are made with (assignment.ts): the instance's, never sent to a client. */
export const blindingKey = () => instanceKey('blind-grading');

/** `marks` with every answer id `rename`d (a grade's keys, between row ids as stored and a grader's slot tokens). */
export function renameMarks(marks: Marks, rename: (id: string) => string): Marks {
  const w = marks.preference?.winner;
  return {
    scores: Object.fromEntries(Object.entries(marks.scores).map(([k, v]) => [rename(k), v])),
    preference: marks.preference ? { ...marks.preference, winner: w === 'tie' || !w ? 'tie' : rename(w) } : null,
    claims: Object.fromEntries(Object.entries(marks.claims).map(([k, v]) => [rename(k), v])),
    flags: marks.flags.map((f) => ({ ...f, answerId: rename(f.answerId) })),
    comment: marks.comment,
  };
}

/**
 * Maps between an item's answer row ids and the slot tokens one grader sees them by. A token that names none of the
 * item's answers stays as it is (checkMarks then refuses it by name).
 */
export function slotTokens(answerIds: string[], graderId: string, key = blindingKey()) {
  const token = new Map(answerIds.map((id) => [id, slotToken(key, graderId, id)]));
  const id = new Map([...token].map(([i, t]) => [t, i]));
  return { toToken: (i: string) => token.get(i) ?? i, toId: (t: string) => id.get(t) ?? t };
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

export async function graderItemView(db: Database, campaignId: string, ordinal: number, viewer: Viewer, key = blindingKey()): Promise<GraderItemView> {
  const { campaign, item, queue } = await gradableItem(db, campaignId, ordinal, viewer);
  const userId = viewer.user?.id as string;
  const grade = await gradeOf(db, item.id, userId);
  // Sorted by row id first, so the order the database returns them in (pipeline order) plays no part either.
  const shown = item.answers.filter((a) => campaign.pipelines.includes(a.pipeline)).sort((x, y) => (x.id < y.id ? -1 : 1));
  const ordered = answerOrder(shown, userId, item.id, key);
  const tokens = slotTokens(
    shown.map((a) => a.id),
    userId,
    key,
  );
  return {
    campaign: { id: campaign.id, name: campaign.name, status: campaign.status, rubric: RUBRICS[campaign.rubric as keyof typeof RUBRICS] },
    item: { id: item.id, ordinal: item.ordinal, question: item.question },
    answers: ordered.map((a, i) => ({ slot: slotLabel(i), id: tokens.toToken(a.id), answer: blindAnswer(storedAnswerOf(a.answer)) })),
    marks: grade ? renameMarks(marksSchema.parse(grade.marks), tokens.toToken) : emptyMarks(),
    revision: grade?.revision ?? 0,
    submitted: grade?.submitted ?? false,
    queue,
  };
}
