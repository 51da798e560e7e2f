'use server';

import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { isAnswerMode } from '@/lib/answer/modes';
import { requireAccess } from '@/lib/auth/session';
import { actionError, AppError } from '@/lib/common/errors';
import { idParam } from '@/lib/common/params';
import { config } from '@/lib/config';
import { createCampaign, getCampaign, setAdjudication, setCampaignStatus } from '@/lib/db/campaigns';
import { getDatabase } from '@/lib/db/client';
import { usersByIds } from '@/lib/db/users';
import { type CampaignQuestion, historyQuestions, parseCampaignQuestions } from '@/lib/grading/campaign-questions';
import { startCampaignJudging } from '@/lib/grading/judge';
import { startCampaignPreparation } from '@/lib/grading/prepare';
import { judgeModel } from '@/lib/ai/providers';
import { isRubricId } from '@/lib/grading/rubrics';
import { isPipelineName } from '@/lib/pipelines/registry';
import { getRetrievalService } from '@/lib/pipelines/service';

const MAX_QUESTION_FILE_BYTES = 5 * 1024 * 1024;

/** Creates a campaign from the form (admin), queues the answering of every item by every pipeline, opens its page. */
export async function createCampaignAction(_previous: { ok: false; error: string } | null, form: FormData): Promise<{ ok: false; error: string }> {
  let id: string;
  try {
    const viewer = await requireAccess(await headers(), 'campaigns');
    const name = String(form.get('name') ?? '').trim();
    const rubric = String(form.get('rubric') ?? '');
    const pipelines = form.getAll('pipelines').map(String);
    const answerMode = String(form.get('answerMode') ?? 'auto');
    const graderIds = form
      .getAll('graders')
      .map((g) => idParam(String(g)))
      .filter((g): g is string => !!g);
    const perItem = Number(form.get('gradersPerItem') ?? 2);
    if (name.length < 1 || name.length > 200) throw new AppError('bad-request', 'give the campaign a name (up to 200 characters)');
    if (!isRubricId(rubric)) throw new AppError('bad-request', 'choose a rubric');
    if (!pipelines.length || !pipelines.every(isPipelineName) || new Set(pipelines).size !== pipelines.length)
      throw new AppError('bad-request', 'choose the pipelines to compare');
    if (rubric === 'pairwise' && pipelines.length !== 2) throw new AppError('bad-request', 'a pairwise campaign compares exactly two pipelines');
    if (!isAnswerMode(answerMode)) throw new AppError('bad-request', 'unknown answer mode');
    const db = await getDatabase();
    const graders = await usersByIds(db, graderIds);
    if (!graders.length) throw new AppError('bad-request', 'choose at least one grader');
    const notExperts = graders.filter((g) => g.role !== 'expert' && g.role !== 'admin');
    if (notExperts.length) throw new AppError('bad-request', `graders need the expert role: ${notExperts.map((g) => g.email).join(', ')}`);
    if (!Number.isInteger(perItem) || perItem < 1 || perItem > graders.length)
      throw new AppError('bad-request', `graders per item is a whole number from 1 to the number of graders (${graders.length})`);
    let questions: CampaignQuestion[];
    let source: string;
    const file = form.get('questions');
    const picked = form.getAll('history').map(String);
    if (file instanceof File && file.size > 0) {
      if (file.size > MAX_QUESTION_FILE_BYTES) throw new AppError('payload-too-large', 'a question file may be at most 5 MB');
      questions = parseCampaignQuestions(file.name, await file.text());
      source = file.name.slice(0, 200);
    } else if (picked.length) {
      questions = historyQuestions(picked);
      source = 'history';
    } else throw new AppError('bad-request', 'give a question file (JSON lines or CSV) or pick questions from the history');
    id = await createCampaign(db, {
      name,
      rubric,
      pipelines,
      answerMode,
      gradersPerItem: perItem,
      source,
      createdById: viewer.user?.id ?? null,
      graderIds: graders.map((g) => g.id),
      questions,
    });
    const cfg = config();
    await startCampaignPreparation(db, getRetrievalService(db, cfg), cfg, { id, name });
  } catch (error) {
    return actionError(error, 'create campaign');
  }
  redirect(`/grading/${id}`);
}

async function adminCampaign(form: FormData) {
  await requireAccess(await headers(), 'campaigns');
  const id = idParam(String(form.get('campaign') ?? ''));
  const db = await getDatabase();
  const campaign = id ? await getCampaign(db, id) : null;
  if (!campaign) throw new AppError('not-found', 'no such campaign');
  return { db, campaign };
}

/** Closes a campaign (grades become visible to its graders; no more saving) or opens it again. */
export async function setCampaignOpenAction(form: FormData) {
  const { db, campaign } = await adminCampaign(form);
  const open = form.get('open') === 'true';
  if (open && campaign.status !== 'closed') throw new AppError('conflict', 'only a closed campaign can be opened again');
  if (!open && campaign.status !== 'open') throw new AppError('conflict', 'only an open campaign can be closed');
  await setCampaignStatus(db, campaign.id, open ? 'open' : 'closed');
  revalidatePath(`/grading/${campaign.id}`);
}

/** Continues answering a campaign whose preparation stopped (a restart, a failing model). */
export async function continuePreparationAction(form: FormData) {
  const { db, campaign } = await adminCampaign(form);
  if (campaign.status !== 'preparing' && campaign.status !== 'failed') throw new AppError('conflict', 'this campaign is already answered');
  await setCampaignStatus(db, campaign.id, 'preparing');
  const cfg = config();
  await startCampaignPreparation(db, getRetrievalService(db, cfg), cfg, campaign);
  revalidatePath(`/grading/${campaign.id}`);
}

/** Sends items back for adjudication (an admin grades them again), or takes them off that list. */
export async function adjudicateAction(form: FormData) {
  const { db, campaign } = await adminCampaign(form);
  const items = form
    .getAll('item')
    .map((i) => idParam(String(i)))
    .filter((i): i is string => !!i);
  await setAdjudication(db, campaign.id, items, form.get('adjudicate') !== 'false');
  if (campaign.status === 'closed') await setCampaignStatus(db, campaign.id, 'open');
  revalidatePath(`/grading/${campaign.id}/results`);
}

/** Has the configured judge model grade every item of the campaign as one more rater. */
export async function judgeCampaignAction(form: FormData) {
  const { db, campaign } = await adminCampaign(form);
  const judge = judgeModel(config());
  if (!judge) throw new AppError('bad-request', 'no judge model is configured (ASSAY_JUDGE_MODEL)');
  if (campaign.status === 'preparing' || campaign.status === 'failed') throw new AppError('conflict', 'the campaign’s answers are not ready yet');
  await startCampaignJudging(db, judge, campaign);
  revalidatePath(`/grading/${campaign.id}/results`);
}
