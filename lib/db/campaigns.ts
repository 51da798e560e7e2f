import type { Database } from './database.ts';
import { Prisma } from './generated/client.ts';
import { AppError } from '../common/errors.ts';
import type { CampaignQuestion } from '../grading/campaign-questions.ts';
import type { Marks, RubricId } from '../grading/rubrics.ts';

/** The campaign tables' queries (Campaign, CampaignGrader, CampaignItem, CampaignAnswer, Grade): one module. */

export interface NewCampaign {
  name: string;
  rubric: RubricId;
  pipelines: string[];
  answerMode: string;
  gradersPerItem: number;
  source: string;
  createdById: string | null;
  graderIds: string[];
  questions: CampaignQuestion[];
}

export async function createCampaign(db: Database, c: NewCampaign): Promise<string> {
  const created = await db.prisma.campaign.create({
    data: {
      name: c.name,
      rubric: c.rubric,
      pipelines: c.pipelines,
      answerMode: c.answerMode,
      gradersPerItem: c.gradersPerItem,
      source: c.source,
      createdById: c.createdById,
      graders: { create: c.graderIds.map((userId) => ({ userId })) },
      items: {
        create: c.questions.map((q, ordinal) => ({
          ordinal,
          question: q.question,
          questionId: q.questionId,
          type: q.type,
          gold: q.gold === null ? Prisma.DbNull : (q.gold as Prisma.InputJsonValue),
        })),
      },
    },
    select: { id: true },
  });
  return created.id;
}

export const setCampaignStatus = (db: Database, id: string, status: 'preparing' | 'open' | 'closed' | 'failed', message: string | null = null) =>
  db.prisma.campaign.update({
    where: { id },
    data: {
      status,
      message,
      ...(status === 'open' ? { openedAt: new Date(), closedAt: null } : {}),
      ...(status === 'closed' ? { closedAt: new Date() } : {}),
    },
  });

export async function getCampaign(db: Database, id: string) {
  return db.prisma.campaign.findUnique({
    where: { id },
    include: {
      graders: { include: { user: { select: { id: true, name: true, email: true, role: true } } } },
      createdBy: { select: { name: true } },
      _count: { select: { items: true } },
    },
  });
}
export type CampaignDetail = NonNullable<Awaited<ReturnType<typeof getCampaign>>>;

/** Campaigns newest first; with `graderId`, only those the grader is assigned to. */
export async function listCampaigns(db: Database, opts: { graderId?: string } = {}) {
  return db.prisma.campaign.findMany({
    where: opts.graderId ? { graders: { some: { userId: opts.graderId } } } : undefined,
    orderBy: { createdAt: 'desc' },
    include: { _count: { select: { items: true, graders: true } } },
    take: 200,
  });
}

/** Items that still lack an answer from some pipeline (what preparing has left to do). */
export async function itemsToAnswer(db: Database, campaignId: string) {
  return db.prisma.campaignItem.findMany({
    where: { campaignId },
    orderBy: { ordinal: 'asc' },
    select: { id: true, question: true, answers: { select: { pipeline: true } } },
  });
}

export const storeCampaignAnswer = (db: Database, itemId: string, pipeline: string, answerId: string) =>
  db.prisma.campaignAnswer.upsert({ where: { itemId_pipeline: { itemId, pipeline } }, create: { itemId, pipeline, answerId }, update: {} });

/** Every item of a campaign with its answers (payloads included) and every grade: for results and export. */
export async function campaignItemsWithGrades(db: Database, campaignId: string) {
  return db.prisma.campaignItem.findMany({
    where: { campaignId },
    orderBy: { ordinal: 'asc' },
    include: {
      answers: { include: { answer: true }, orderBy: { pipeline: 'asc' } },
      grades: { include: { grader: { select: { id: true, name: true, email: true } } } },
    },
  });
}
export type ItemWithGrades = Awaited<ReturnType<typeof campaignItemsWithGrades>>[number];

/** The items a grader sees (id, ordinal, whether the grader has a draft or submitted grade). */
export async function itemsForGrader(db: Database, campaignId: string, graderId: string) {
  return db.prisma.campaignItem.findMany({
    where: { campaignId },
    orderBy: { ordinal: 'asc' },
    select: { id: true, ordinal: true, question: true, adjudicate: true, grades: { where: { graderId }, select: { submitted: true } } },
  });
}

export async function getItem(db: Database, campaignId: string, ordinal: number) {
  return db.prisma.campaignItem.findUnique({
    where: { campaignId_ordinal: { campaignId, ordinal } },
    include: { answers: { include: { answer: true }, orderBy: { pipeline: 'asc' } } },
  });
}

export const gradeOf = (db: Database, itemId: string, graderId: string) => db.prisma.grade.findUnique({ where: { itemId_graderId: { itemId, graderId } } });

/**
 * Saves a grader's marks (autosave or submit). `revision` is the revision the client last saw: a save based on an
 * older one than stored is refused (409), so an autosave that arrives late never overwrites a newer grade.
 */
export async function saveGrade(
  db: Database,
  g: { itemId: string; graderId: string; marks: Marks; submit: boolean; revision: number },
): Promise<{ revision: number; submitted: boolean }> {
  return db.prisma.$transaction(async (tx) => {
    const current = await tx.grade.findUnique({ where: { itemId_graderId: { itemId: g.itemId, graderId: g.graderId } } });
    if (current && g.revision < current.revision)
      throw new AppError('conflict', 'this grade was saved from elsewhere since you opened it; reload to see the newer version');
    const data = {
      marks: g.marks as unknown as Prisma.InputJsonValue,
      submitted: g.submit || (current?.submitted ?? false),
      submittedAt: g.submit ? new Date() : (current?.submittedAt ?? null),
      revision: (current?.revision ?? 0) + 1,
    };
    const saved = current
      ? await tx.grade.update({ where: { id: current.id }, data })
      : await tx.grade.create({ data: { ...data, itemId: g.itemId, graderId: g.graderId } });
    return { revision: saved.revision, submitted: saved.submitted };
  });
}

/** The judge model's grade of an item (one more rater). */
export const saveJudgeGrade = (db: Database, itemId: string, judge: string, marks: Marks) =>
  db.prisma.grade.upsert({
    where: { itemId_judge: { itemId, judge } },
    create: { itemId, judge, marks: marks as unknown as Prisma.InputJsonValue, submitted: true, submittedAt: new Date() },
    update: { marks: marks as unknown as Prisma.InputJsonValue, submittedAt: new Date() },
  });

export const setAdjudication = (db: Database, campaignId: string, itemIds: string[], adjudicate: boolean) =>
  db.prisma.campaignItem.updateMany({ where: { campaignId, id: { in: itemIds } }, data: { adjudicate } });

/** Per grader: submitted grades in a campaign. */
export async function gradeCounts(db: Database, campaignId: string) {
  const rows = await db.prisma.grade.groupBy({
    by: ['graderId'],
    where: { item: { campaignId }, submitted: true, graderId: { not: null } },
    _count: { _all: true },
  });
  return new Map(rows.map((r) => [r.graderId as string, r._count._all]));
}
