import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuth } from '../auth/auth.ts';
import { viewerOf, type Viewer } from '../auth/viewer.ts';
import { readConfig } from '../config.ts';
import { campaignItemsWithGrades, createCampaign, getCampaign, saveGrade, setAdjudication, setCampaignStatus } from '../db/campaigns.ts';
import type { Database } from '../db/database.ts';
import { listAnswers } from '../db/answers.ts';
import { createRetrievalService } from '../serving/retrieval-service.ts';
import { openTestDatabase } from '../../scripts/test-support/database.ts';
import { ingestFixtureCorpus } from '../../scripts/test-support/fixture-corpus.ts';
import { tempDir } from '../../scripts/test-support/fixtures.ts';
import { answerOrder, assignedGraders } from './assignment.ts';
import { historyQuestions, parseCampaignQuestions } from './campaign-questions.ts';
import { judgeCampaign } from './judge.ts';
import { mockChatModel } from '../../scripts/test-support/mock-models.ts';
import { storedCampaignResults } from './campaign-results.ts';
import { campaignCsv, campaignJson } from './export.ts';
import { graderItemView, graderQueue } from './grader-view.ts';
import { prepareCampaign } from './prepare.ts';
import { campaignToQuestions } from './to-questions.ts';

let db: Database;
const cfg = readConfig({ ASSAY_DATA_DIR: tempDir('assay-grading-'), ASSAY_LOCAL_EMBEDDER: 'ngram' });
const viewers: Record<string, Viewer> = {};
let campaignId: string;
/** The blinding key (the instance's in the app, grader-view.ts blindingKey). */
const KEY = 'campaign test key';

beforeAll(async () => {
  db = await openTestDatabase();
  await ingestFixtureCorpus(db, cfg);
  const auth = createAuth(db, cfg);
  for (const name of ['admin', 'ann', 'bob', 'rita']) {
    const res = await auth.handler(
      new Request('http://127.0.0.1:3000/api/auth/sign-up/email', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:3000' },
        body: JSON.stringify({ email: `${name}@example.org`, password: 'grading-password', name }),
      }),
    );
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    if (name === 'ann' || name === 'bob') await db.prisma.user.update({ where: { email: `${name}@example.org` }, data: { role: 'expert' } });
    viewers[name] = await viewerOf(auth, new Headers({ cookie }), cfg);
  }
});
afterAll(() => db?.close());

const questionFile = [
  { id: 'g-1', type: 'doi', question: 'Which paper reports a peak power density of 812 mW cm−2 at 700 °C?', answer_doi: '10.9999/demo.sofc.2021.001' },
  { id: 'g-2', type: 'value', question: 'At what temperature was the LiMn2O4 gel formed?', answer_value: '80 °C' },
  { id: 'g-3', type: 'unanswerable', question: 'What is the Tafel slope of CoFeMoP/NF in 1 M KOH?' },
]
  .map((q) => JSON.stringify(q))
  .join('\n');

describe('a grading campaign, end to end on the database', () => {
  it('is created from a question file, answered by every pipeline before grading opens, and resumable', async () => {
    campaignId = await createCampaign(db, {
      name: 'SOFC check',
      rubric: 'content-citation',
      pipelines: ['hybrid', 'bm25'],
      answerMode: 'extractive',
      gradersPerItem: 2,
      source: 'q.jsonl',
      createdById: viewers.admin.user!.id,
      graderIds: [viewers.ann.user!.id, viewers.bob.user!.id],
      questions: parseCampaignQuestions('q.jsonl', questionFile),
    });
    const service = createRetrievalService(db, cfg);
    const stop = new AbortController();
    let seen = 0;
    // Stopped after the first answer (as a shutdown would), then continued: nothing is answered twice.
    await prepareCampaign(db, service, cfg, campaignId, {
      signal: stop.signal,
      onProgress: (p) => {
        seen = p.done;
        if (p.done === 1) stop.abort();
      },
    });
    expect(seen).toBe(1);
    expect((await getCampaign(db, campaignId))?.status).toBe('preparing');
    await prepareCampaign(db, service, cfg, campaignId);
    expect((await getCampaign(db, campaignId))?.status).toBe('open');
    const items = await campaignItemsWithGrades(db, campaignId);
    expect(items.map((i) => i.answers.length)).toEqual([2, 2, 2]);
    expect(await db.prisma.answer.count()).toBe(6);
    expect(await listAnswers(db)).toEqual([]); // not in the history, which names pipelines
  });

  it('shows each grader blind answers in their own order, and only their own items and marks', async () => {
    const campaign = (await getCampaign(db, campaignId))!;
    expect(await graderQueue(db, campaign, viewers.rita)).toEqual([]); // a reader who is not a grader
    await expect(graderItemView(db, campaignId, 0, viewers.rita, KEY)).rejects.toThrow(/not a grader/);
    const ann = await graderItemView(db, campaignId, 0, viewers.ann, KEY);
    const bob = await graderItemView(db, campaignId, 0, viewers.bob, KEY);
    expect(ann.answers.map((a) => a.slot)).toEqual(['A', 'B']);
    // Each grader names the answers by tokens of their own, none of them a row id.
    const rowIds = (await campaignItemsWithGrades(db, campaignId))[0].answers.map((a) => a.id);
    const tokens = [...ann.answers, ...bob.answers].map((a) => a.id);
    expect(new Set(tokens).size).toBe(4);
    expect(tokens.filter((t) => rowIds.includes(t))).toEqual([]);
    for (const a of ann.answers) {
      expect(a.answer.pipeline).toBe('');
      expect(a.answer.trace).toEqual([]);
      expect(JSON.stringify(a.answer)).not.toMatch(/"(hybrid|bm25)"/);
      expect(a.answer.sentences.every((s) => s.verdict === 'uncited' && s.check === null)).toBe(true);
      expect(a.answer.evidence.every((e) => e.score === 0)).toBe(true);
    }
    // Over many items, the order differs between graders for some (seeded by grader and item). Forty items: with
    // six, two random grader ids gave the same order for all of them about once in 64 runs.
    const orders = Array.from({ length: 40 }, (_, i) => `item-${i}`).map((item) =>
      [viewers.ann.user!.id, viewers.bob.user!.id].map((g) => JSON.stringify(answerOrder([1, 2], g, item, 'a key'))),
    );
    expect(orders.some(([a, b]) => a !== b)).toBe(true);
    expect(assignedGraders(0, ['b', 'a', 'c'], 2)).toEqual(['a', 'b']);
  });

  it('autosaves drafts with revisions (a stale save is refused), and counts only submitted grades', async () => {
    const view = await graderItemView(db, campaignId, 0, viewers.ann, KEY);
    const [a, b] = view.answers.map((x) => x.id);
    const first = await saveGrade(db, {
      itemId: view.item.id,
      graderId: viewers.ann.user!.id,
      marks: { scores: { [a]: { content: 3 } }, preference: null, claims: {}, flags: [], comment: '' },
      submit: false,
      revision: 0,
    });
    expect(first).toEqual({ revision: 1, submitted: false });
    await expect(
      saveGrade(db, {
        itemId: view.item.id,
        graderId: viewers.ann.user!.id,
        marks: { scores: {}, preference: null, claims: {}, flags: [], comment: '' },
        submit: false,
        revision: 0,
      }),
    ).rejects.toThrow(/saved from elsewhere/);
    expect((await storedCampaignResults(db, campaignId))!.results.gradedItems).toBe(0);
    // Both graders grade every item: ann prefers the first-listed pipeline's answers, bob agrees within a point.
    const items = await campaignItemsWithGrades(db, campaignId);
    for (const item of items)
      for (const [name, bias] of [
        ['ann', 0],
        ['bob', 1],
      ] as const) {
        const grader = viewers[name].user!.id;
        const current = await db.prisma.grade.findUnique({ where: { itemId_graderId: { itemId: item.id, graderId: grader } } });
        const [hybrid, bm25] = ['hybrid', 'bm25'].map((p) => item.answers.find((x) => x.pipeline === p)!.id);
        await saveGrade(db, {
          itemId: item.id,
          graderId: grader,
          marks: {
            scores: { [hybrid]: { content: 4, citation: 4 - bias }, [bm25]: { content: 2, citation: 2 } },
            preference: null,
            claims: { [hybrid]: { '0': 'supported' } },
            flags: item.ordinal === 0 ? [{ answerId: bm25, evidenceId: 'paragraph:x', kind: 'wrong-paragraph', comment: 'off topic' }] : [],
            comment: '',
          },
          submit: true,
          revision: current?.revision ?? 0,
        });
      }
    expect(b).toBeTruthy();
    const { results } = (await storedCampaignResults(db, campaignId))!;
    expect(results.gradedItems).toBe(3);
    expect(results.scores.hybrid.total!.mean).toBeCloseTo(7.5, 10);
    expect(results.scores.bm25.total!.mean).toBe(4);
    expect(results.winRates[0]).toMatchObject({ a: 'hybrid', b: 'bm25', wins: 3 });
    expect(results.agreement.pairs).toHaveLength(1);
  });

  it('exports CSV a spreadsheet opens and JSON, and turns graded items into a question file', async () => {
    await setCampaignStatus(db, campaignId, 'closed');
    const campaign = (await getCampaign(db, campaignId))!;
    const items = await campaignItemsWithGrades(db, campaignId);
    const meta = { id: campaign.id, name: campaign.name, rubric: campaign.rubric, pipelines: campaign.pipelines, status: campaign.status };
    const csv = campaignCsv(meta, items);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const rows = parse(csv, { columns: true, bom: true }) as Record<string, string>[];
    expect(rows).toHaveLength(3 * 2 * 2); // items × answers × graders
    expect(rows[0]).toMatchObject({ campaign: 'SOFC check', item: '1', question_id: 'g-1' });
    expect(rows.some((r) => r.evidence_flags.includes('wrong-paragraph paragraph:x: off topic'))).toBe(true);
    expect(rows.every((r) => r.evidence_ids.length > 0 || r.answer.length > 0)).toBe(true);
    const json = campaignJson(meta, items);
    expect(json.items[0].grades).toHaveLength(2);
    expect(json.items[0].answers[0].evidenceIds.length).toBeGreaterThan(0);
    const file = campaignToQuestions(campaign, items, new Map());
    // Items from a question file keep their gold.
    expect(file.questions.map((q) => [q.id, q.type])).toEqual([
      ['g-1', 'doi'],
      ['g-2', 'value'],
      ['g-3', 'unanswerable'],
    ]);
    expect(file.questions[0].answer_doi).toBe('10.9999/demo.sofc.2021.001');
  });

  it('has the judge model grade every item as one more rater (a mock model here, never a real one)', async () => {
    const judge = mockChatModel(({ user }) => {
      expect(user).not.toMatch(/hybrid|bm25/); // blind: answers are labelled A and B only
      return JSON.stringify({ scores: { A: { content: 4, citation: 4 }, B: { content: 2, citation: 2 } } });
    }, 'mock/judge');
    const out = await judgeCampaign(db, judge, campaignId);
    expect(out).toEqual({ judged: 3, failed: 0 });
    const { results } = (await storedCampaignResults(db, campaignId))!;
    expect(results.agreement.judge?.judge).toBe('mock/judge');
    expect(results.agreement.judge?.pairs).toHaveLength(2);
    const broken = mockChatModel(() => 'not json', 'mock/broken');
    expect(await judgeCampaign(db, broken, campaignId)).toEqual({ judged: 0, failed: 3 });
  });

  it('derives gold from the experts’ marks for questions that came without it (from the history)', async () => {
    const id = await createCampaign(db, {
      name: 'From history',
      rubric: 'content-citation',
      pipelines: ['hybrid'],
      answerMode: 'extractive',
      gradersPerItem: 1,
      source: 'history',
      createdById: null,
      graderIds: [viewers.ann.user!.id],
      questions: historyQuestions(['Which paper reports a peak power density of 812 mW cm−2 at 700 °C?']),
    });
    await prepareCampaign(db, createRetrievalService(db, cfg), cfg, id);
    const [item] = await campaignItemsWithGrades(db, id);
    const answer = item.answers[0];
    const stored = answer.answer.payload as unknown as { sentences: { citations: string[] }[] };
    const cited = stored.sentences.findIndex((x) => x.citations.length > 0);
    expect(cited).toBeGreaterThanOrEqual(0);
    await saveGrade(db, {
      itemId: item.id,
      graderId: viewers.ann.user!.id,
      marks: {
        scores: { [answer.id]: { content: 5, citation: 5 } },
        preference: null,
        claims: { [answer.id]: { [String(cited)]: 'supported' } },
        flags: [],
        comment: '',
      },
      submit: true,
      revision: 0,
    });
    const papers = await db.prisma.paper.findMany({ select: { id: true, sourceId: true } });
    const file = campaignToQuestions((await getCampaign(db, id))!, await campaignItemsWithGrades(db, id), new Map(papers.map((p) => [p.id, p.sourceId ?? ''])));
    expect(file.skipped).toEqual([]);
    expect(file.questions[0]).toMatchObject({ type: 'doi', answer_doi: '10.9999/demo.sofc.2021.001', source: 'campaign:From history' });
    expect(file.questions[0].evidence?.paragraph_id).toBeTruthy();
  });

  it('sends disputed items to the admins for adjudication', async () => {
    const campaign = (await getCampaign(db, campaignId))!;
    expect(await graderQueue(db, campaign, viewers.admin)).toEqual([]);
    const [first] = await campaignItemsWithGrades(db, campaignId);
    await setAdjudication(db, campaignId, [first.id], true);
    expect((await graderQueue(db, campaign, viewers.admin)).map((q) => [q.ordinal, q.adjudicate])).toEqual([[0, true]]);
    expect((await graderItemView(db, campaignId, 0, viewers.admin, KEY)).answers).toHaveLength(2);
  });
});
