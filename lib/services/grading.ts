import { judgeModel } from '../ai/providers.ts';
import { isAnswerMode } from '../answer/modes.ts';
import type { Viewer } from '../auth/viewer.ts';
import { AppError, badRequest, notFound } from '../common/errors.ts';
import { listAnswers } from '../db/answers.ts';
import {
  campaignItemsWithGrades,
  createCampaign,
  getCampaign,
  gradeCounts,
  listCampaigns,
  saveGrade,
  setAdjudication,
  setCampaignStatus,
} from '../db/campaigns.ts';
import { listUsers, usersByIds } from '../db/users.ts';
import { type CampaignQuestion, historyQuestions, parseCampaignQuestions } from '../grading/campaign-questions.ts';
import { storedCampaignResults } from '../grading/campaign-results.ts';
import { campaignCsv, campaignJson } from '../grading/export.ts';
import { gradableItem, graderItemView, graderQueue, renameMarks, slotTokens } from '../grading/grader-view.ts';
import { startCampaignJudging } from '../grading/judge.ts';
import { campaignProgress, startCampaignPreparation } from '../grading/prepare.ts';
import { checkMarks, isRubricId, type Marks, missingMarks, RUBRICS, type RubricId } from '../grading/rubrics.ts';
import { isPipelineName } from '../pipelines/registry.ts';
import { appContext, appDatabase } from './app.ts';

/** Grading campaigns as the app runs them: lists, creation, the grading screen, saving grades, results, export. */

const MAX_QUESTION_FILE_BYTES = 5 * 1024 * 1024;

/** The campaigns a viewer may see: all of them for an admin, a grader's own otherwise. */
export async function campaignsFor(viewer: Viewer, admin: boolean) {
  return listCampaigns(await appDatabase(), admin ? {} : { graderId: viewer.user?.id });
}

/** What the new-campaign form offers: the accounts (graders) and the questions asked before. */
export async function campaignFormChoices() {
  const db = await appDatabase();
  const [users, history] = await Promise.all([listUsers(db), listAnswers(db, { take: 100 })]);
  return { users, history };
}

export interface NewCampaign {
  name: string;
  rubric: string;
  pipelines: string[];
  answerMode: string;
  graderIds: string[];
  gradersPerItem: number;
  /** A question file (JSON lines or CSV), or questions picked from the history. */
  file: { name: string; size: number; text: () => Promise<string> } | null;
  history: string[];
}

/** Checks and creates a campaign, and queues the answering of every item by every pipeline; returns its id. */
export async function createCampaignFor(input: NewCampaign, creatorId: string | null): Promise<string> {
  const { name, rubric, pipelines, answerMode, gradersPerItem: perItem } = input;
  if (name.length < 1 || name.length > 200) throw badRequest('give the campaign a name (up to 200 characters)');
  if (!isRubricId(rubric)) throw badRequest('choose a rubric');
  if (!pipelines.length || !pipelines.every(isPipelineName) || new Set(pipelines).size !== pipelines.length)
    throw badRequest('choose the pipelines to compare');
  if (rubric === 'pairwise' && pipelines.length !== 2) throw badRequest('a pairwise campaign compares exactly two pipelines');
  if (!isAnswerMode(answerMode)) throw badRequest('unknown answer mode');
  const { db, cfg } = await appContext();
  const graders = await usersByIds(db, input.graderIds);
  if (!graders.length) throw badRequest('choose at least one grader');
  const notExperts = graders.filter((g) => g.role !== 'expert' && g.role !== 'admin');
  if (notExperts.length) throw badRequest(`graders need the expert role: ${notExperts.map((g) => g.email).join(', ')}`);
  if (!Number.isInteger(perItem) || perItem < 1 || perItem > graders.length)
    throw badRequest(`graders per item is a whole number from 1 to the number of graders (${graders.length})`);
  let questions: CampaignQuestion[];
  let source: string;
  if (input.file && input.file.size > 0) {
    if (input.file.size > MAX_QUESTION_FILE_BYTES) throw new AppError('payload-too-large', 'a question file may be at most 5 MB');
    questions = parseCampaignQuestions(input.file.name, await input.file.text());
    source = input.file.name.slice(0, 200);
  } else if (input.history.length) {
    questions = historyQuestions(input.history);
    source = 'history';
  } else throw badRequest('give a question file (JSON lines or CSV) or pick questions from the history');
  const id = await createCampaign(db, {
    name,
    rubric,
    pipelines,
    answerMode,
    gradersPerItem: perItem,
    source,
    createdById: creatorId,
    graderIds: graders.map((g) => g.id),
    questions,
  });
  await startCampaignPreparation(db, cfg, { id, name });
  return id;
}

/** A campaign's page for a viewer: the campaign, the viewer's queue, grade counts and preparation progress; null when hidden. */
export async function campaignPage(id: string, viewer: Viewer, admin: boolean) {
  const db = await appDatabase();
  const campaign = await getCampaign(db, id);
  if (!campaign || (!admin && !campaign.graders.some((g) => g.userId === viewer.user?.id))) return null;
  const [queue, counts] = await Promise.all([graderQueue(db, campaign, viewer), gradeCounts(db, campaign.id)]);
  return { campaign, queue, counts, progress: await campaignProgress(db, campaign.id) };
}

/** A campaign and its stored results (null: no such campaign, or no results yet), and the judge model's name when one is configured. */
export async function campaignResultsPage(id: string) {
  const { db, cfg } = await appContext();
  const campaign = await getCampaign(db, id);
  if (!campaign) return null;
  return { campaign, stored: await storedCampaignResults(db, campaign.id), judge: judgeModel(cfg)?.id ?? null };
}

/** The grading screen at an item (default: the grader's first not submitted); `redirect` when the answers are not ready. */
export async function gradingScreen(id: string, viewer: Viewer, item: number | null) {
  const db = await appDatabase();
  const campaign = await getCampaign(db, id);
  if (!campaign) return { kind: 'missing' as const };
  if (campaign.status === 'preparing' || campaign.status === 'failed') return { kind: 'not-ready' as const, campaignId: campaign.id };
  let ordinal = item;
  if (ordinal === null) {
    const queue = await graderQueue(db, campaign, viewer);
    const next = queue.find((q) => q.state !== 'submitted') ?? queue[0];
    if (!next) return { kind: 'not-a-grader' as const };
    ordinal = next.ordinal;
  }
  return { kind: 'item' as const, campaignId: campaign.id, ordinal, view: await graderItemView(db, campaign.id, ordinal, viewer) };
}

/**
 * Saves the viewer's own grade of one item, as a draft or submitted. Only the item's assigned grader (or an admin
 * adjudicating) may save it, only while the campaign is open; a save based on an older revision than stored is 409.
 */
export async function saveOwnGrade(campaignId: string, viewer: Viewer, input: { ordinal: number; marks: Marks; submit: boolean; revision: number }) {
  const db = await appDatabase();
  const { campaign, item } = await gradableItem(db, campaignId, input.ordinal, viewer);
  if (campaign.status !== 'open') throw new AppError('conflict', `this campaign is ${campaign.status}; grades can be saved only while it is open`);
  const rubric = RUBRICS[campaign.rubric as RubricId];
  const answerIds = item.answers.map((a) => a.id);
  // The grader's page names answers by slot tokens (grader-view.ts): stored under their row ids.
  const marks = renameMarks(input.marks, slotTokens(answerIds, viewer.user?.id as string).toId);
  const invalid = checkMarks(rubric, marks, answerIds);
  if (invalid) throw badRequest(invalid);
  if (input.submit) {
    const missing = missingMarks(rubric, marks, answerIds);
    if (missing.length) throw badRequest(`to submit, give ${missing.join(', ')}`);
  }
  return saveGrade(db, { itemId: item.id, graderId: viewer.user?.id as string, marks, submit: input.submit, revision: input.revision });
}

/** The campaign's grades, answers, citations and evidence ids as a CSV or JSON file. */
export async function campaignExport(id: string, format: 'csv' | 'json') {
  const db = await appDatabase();
  const campaign = await getCampaign(db, id);
  if (!campaign) throw notFound('no such campaign');
  const items = await campaignItemsWithGrades(db, id);
  const meta = { id: campaign.id, name: campaign.name, rubric: campaign.rubric, pipelines: campaign.pipelines, status: campaign.status };
  return {
    file: `campaign-${campaign.id}.${format}`,
    type: format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json',
    body: format === 'csv' ? campaignCsv(meta, items) : JSON.stringify(campaignJson(meta, items), null, 2),
  };
}

async function existingCampaign(id: string) {
  const { db, cfg } = await appContext();
  const campaign = await getCampaign(db, id);
  if (!campaign) throw new AppError('not-found', 'no such campaign');
  return { db, cfg, campaign };
}

/** Closes a campaign (grades become visible to its graders; no more saving) or opens it again. */
export async function setCampaignOpen(id: string, open: boolean) {
  const { db, campaign } = await existingCampaign(id);
  if (open && campaign.status !== 'closed') throw new AppError('conflict', 'only a closed campaign can be opened again');
  if (!open && campaign.status !== 'open') throw new AppError('conflict', 'only an open campaign can be closed');
  await setCampaignStatus(db, campaign.id, open ? 'open' : 'closed');
}

/** Continues answering a campaign whose preparation stopped (a restart, a failing model). */
export async function continuePreparation(id: string) {
  const { db, cfg, campaign } = await existingCampaign(id);
  if (campaign.status !== 'preparing' && campaign.status !== 'failed') throw new AppError('conflict', 'this campaign is already answered');
  await setCampaignStatus(db, campaign.id, 'preparing');
  await startCampaignPreparation(db, cfg, campaign);
}

/** Sends items back for adjudication (an admin grades them again), or takes them off that list. */
export async function adjudicate(id: string, items: string[], on: boolean) {
  const { db, campaign } = await existingCampaign(id);
  await setAdjudication(db, campaign.id, items, on);
  if (campaign.status === 'closed') await setCampaignStatus(db, campaign.id, 'open');
}

/** Has the configured judge model grade every item of the campaign as one more rater. */
export async function judgeCampaign(id: string) {
  const { db, cfg, campaign } = await existingCampaign(id);
  const judge = judgeModel(cfg);
  if (!judge) throw badRequest('no judge model is configured (ASSAY_JUDGE_MODEL)');
  if (campaign.status === 'preparing' || campaign.status === 'failed') throw new AppError('conflict', 'the campaign’s answers are not ready yet');
  await startCampaignJudging(db, cfg, judge, campaign);
}
