import { storedAnswerOf } from '../answer/stored.ts';
import fs from 'node:fs';
import { type AnswerModeChoice, type AnswerSetup, answerSetup, isAnswerMode } from '../answer/modes.ts';
import { config } from '../config.ts';
import { campaignItemsWithGrades, getCampaign } from '../db/campaigns.ts';
import { sourceIdsOf } from '../db/papers.ts';
import { openMigratedDatabase } from '../db/client.ts';
import { campaignToQuestions } from '../grading/to-questions.ts';
import { runEvaluationJob } from '../evaluation/evaluation-job.ts';
import type { PipelineMetrics } from '../evaluation/retrieval-metrics.ts';
import { isPipelineName, PIPELINES, type PipelineName } from '../pipelines/registry.ts';
import { createRetrievalService } from '../serving/retrieval-service.ts';
import { evalBank } from './eval-bank.ts';
import { evalComparisons } from './eval-comparisons.ts';
import { evalRobustness } from './eval-robustness.ts';
import { isSearchMode, type SearchRun, searchParity, searchSettings } from './eval-search-parity.ts';
import type { EvaluationSummary } from '../evaluation/retrieval-eval.ts';
import { cliOptions } from './options.ts';

const usage = `usage: npm run eval -- --questions <jsonl> [--pipelines a,b,...|all] [--json <out>] [--limit n]
       [--search memory|database|database+vectors[,…]]   (two: compared question by question)
       [--answer [--answer-mode extractive|generative|model-only|naive-kg] [--judge-runs n]]
       npm run eval -- --from-campaign <campaign id> [--out <jsonl>] [--pipelines …] [--answer …]
       npm run eval -- --robustness [--pipelines …] [--sample n] [--transforms a,b]   (the robustness suite; --robustness --help)
       npm run eval -- --comparisons [--pipeline hybrid] [--list]   (the comparison suite; --comparisons --help)
       npm run eval -- --bank [--answers] [--write]   (the question bank, leave-one-family-out; --bank --help)

--from-campaign writes a grading campaign's graded items as a question file (--out, default
campaign-<id>.questions.jsonl): gold papers, paragraphs and values from the experts' marks (or the gold the
campaign's question file gave), then evaluates it like --questions.

Runs the questions (format of ../shared/data/questions.dev.jsonl) through each pipeline on the current database
and prints a table per pipeline, per question type and per source. The run is stored and shown at
/evaluation/runs. With --answer, each retrieval is also answered and the answers are scored: value accuracy,
citation validity, claim support, answer abstention and, for a model's answers, median prompt tokens. The answer
mode is extractive (no model) by default; generative, model-only and naive-kg (method C's baselines; naive-kg
pastes the tuples the pipeline retrieved, so use --pipelines graph) need ASSAY_LLM_BASE_URL and
ASSAY_CHAT_MODEL/ASSAY_ANSWER_MODEL. With ASSAY_JUDGE_MODEL set, a judge model also scores faithfulness, answer
relevance and context relevance, averaged over --judge-runs runs (default 1); judgements that fail are counted
as missing. Pipelines: ${PIPELINES.join(', ')}.`;

const fmt = (x: number | null) => (x === null ? '    –' : x.toFixed(3));

function table(title: string, rows: [string, PipelineMetrics][]) {
  console.log(`\n${title}`);
  console.log(`${'name'.padEnd(22)} ${'n'.padStart(5)} doi@1  doi@5  mrr    par@5  val@3  abst   f.abst  p50ms  p95ms`);
  for (const [name, m] of rows) {
    console.log(
      `${name.padEnd(22)} ${String(m.questions).padStart(5)} ${fmt(m.doi_at_1)}  ${fmt(m.doi_at_5)}  ${fmt(m.mrr)}  ${fmt(m.recall_at_5_paragraph)}  ${fmt(m.value_at_3)}  ${fmt(m.abstain_rate_unanswerable)}  ${fmt(m.false_abstain_rate)}  ${m.latency_ms.p50.toFixed(1).padStart(5)}  ${m.latency_ms.p95.toFixed(1).padStart(5)}`,
    );
  }
}

async function main() {
  if (process.argv.includes('--bank')) return evalBank(process.argv.slice(2).filter((a) => a !== '--bank'));
  if (process.argv.includes('--robustness')) return evalRobustness(process.argv.slice(2).filter((a) => a !== '--robustness'));
  if (process.argv.includes('--comparisons')) return evalComparisons(process.argv.slice(2).filter((a) => a !== '--comparisons'));
  const answers = process.argv.includes('--answer');
  const args = process.argv.slice(2).filter((a) => a !== '--answer');
  const opt = cliOptions(args, ['json', 'limit', 'pipelines', 'questions', 'answer-mode', 'judge-runs', 'from-campaign', 'out', 'search']);
  const answerMode = opt('answer-mode') ?? 'extractive';
  const judgeRuns = Number(opt('judge-runs') ?? 1);
  const campaignId = opt('from-campaign');
  const questionsFile = campaignId ? await writeCampaignQuestions(campaignId, opt('out') ?? `campaign-${campaignId}.questions.jsonl`) : opt('questions');
  const list = (opt('pipelines') ?? 'all').split(',').map((s) => s.trim());
  const pipelines: PipelineName[] = list.includes('all') ? [...PIPELINES] : (list.filter(isPipelineName) as PipelineName[]);
  const unknown = list.filter((p) => p !== 'all' && !isPipelineName(p));
  const limit = opt('limit') ? Number(opt('limit')) : undefined;
  const badMode = !isAnswerMode(answerMode) || answerMode === 'auto';
  if (!questionsFile || unknown.length || pipelines.length === 0 || (limit !== undefined && !(limit > 0)) || badMode || !(judgeRuns >= 1)) {
    if (unknown.length) console.error(`unknown pipeline(s): ${unknown.join(', ')}`);
    if (badMode) console.error(`unknown answer mode: ${answerMode}`);
    console.error(usage);
    process.exit(2);
  }
  const cfg = config();
  let setup: AnswerSetup;
  try {
    setup = answerSetup(cfg, answerMode as AnswerModeChoice);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const judge = answers ? setup.judge : null;
  const searches = (opt('search') ?? cfg.search).split(',').map((m) => m.trim());
  if (!searches.every(isSearchMode)) {
    console.error(`--search takes memory, database or database+vectors, or two of them (memory,database); got ${opt('search')}`);
    process.exit(2);
  }
  const db = await openMigratedDatabase(cfg);
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  try {
    const runs: SearchRun[] = [];
    for (const search of searches) {
      if (searches.length > 1) console.log(`\n=== ${search} ===`);
      const service = createRetrievalService(
        db,
        { ...cfg, ...(opt('search') ? searchSettings(search) : {}) },
        { onStage: (s) => process.stderr.write(`index: ${s}\n`) },
      );
      let last = 0;
      const { runId, summary, indexSeconds } = await runEvaluationJob(
        db,
        service,
        { questionsFile, pipelines, limit, answers, answerModel: setup.model, baseline: setup.baseline, judge, judgeRuns },
        {
          signal: controller.signal,
          onProgress: (p) => {
            if (p.stage === 'running' && (p.done - last >= 500 || p.done === p.total)) {
              last = p.done;
              process.stderr.write(`progress: ${p.done}/${p.total} question-pipeline pairs\n`);
            }
          },
        },
      );
      runs.push({ search, runId, summary });
      const index = await service.index();
      console.log(
        `evaluation run ${runId}: ${summary.questions} questions × ${pipelines.length} pipelines on ${index.paragraphs.size} paragraphs, ${index.records.size} records`,
      );
      console.log(
        `index built in ${index.buildSeconds.toFixed(1)} s (${indexSeconds.toFixed(1)} s including loading), embedder ${index.embedderId}, reformulation ${service.reformulator.id}`,
      );
      if (index.embedderNote) console.log(`note: ${index.embedderNote}`);
      printSummary(summary, answers ? { mode: answerMode, model: setup.model?.id ?? null, judge: judge ? { id: judge.id, runs: judgeRuns } : null } : null);
    }
    const parity = runs.length > 1 ? await searchParity(db, runs) : null;
    const out = opt('json');
    if (out) {
      const asJson = (summary: EvaluationSummary) => ({
        questions: summary.questions,
        pipelines: Object.fromEntries(Object.entries(summary.pipelines).map(([k, v]) => [k, { ...v }])),
      });
      const json = runs.length === 1 ? asJson(runs[0].summary) : { search: Object.fromEntries(runs.map((r) => [r.search, asJson(r.summary)])), parity };
      fs.writeFileSync(out, JSON.stringify(json, null, 2));
      console.log(`\nwrote ${out}`);
    }
  } finally {
    await db.close();
  }
}

/** The tables of one run: per pipeline, its answers when scored, and per question type and source. */
function printSummary(summary: EvaluationSummary, answers: { mode: string; model: string | null; judge: { id: string; runs: number } | null } | null) {
  table('per pipeline', Object.entries(summary.pipelines));
  if (answers) {
    const judge = answers.judge;
    const judgeRuns = judge?.runs ?? 0;
    console.log(
      `\nanswers (${answers.mode}${answers.model ? `, ${answers.model}` : ''})\n${'name'.padEnd(22)} val.acc  cit.valid  supported  abst  f.abst  prompt.tok`,
    );
    for (const [name, s] of Object.entries(summary.pipelines)) {
      const a = s.answers;
      if (a)
        console.log(
          `${name.padEnd(22)} ${fmt(a.answer_value_acc)}    ${fmt(a.citation_validity)}      ${fmt(a.claim_support_rate)}      ${fmt(a.answer_abstain_rate_unanswerable)} ${fmt(a.answer_false_abstain_rate)}  ${a.median_prompt_tokens ?? '–'}`,
        );
    }
    for (const [name, s] of Object.entries(summary.pipelines)) {
      const c = s.answers?.value_confidence;
      if (c) console.log(`${name}: ${c.answered} value answers, ${fmt(c.right)} right at a mean confidence of ${fmt(c.mean_confidence)} (ECE ${fmt(c.ece)})`);
      const all = s.answers?.answer_confidence;
      if (all)
        console.log(
          `${name}: ${all.answered} answers given (any shape), ${fmt(all.right)} right at a mean confidence of ${fmt(all.mean_confidence)} (ECE ${fmt(all.ece)}, AUROC right vs wrong ${fmt(all.auroc)})`,
        );
      const u = s.answers?.unanswerable_outcomes;
      if (u)
        console.log(
          `${name}: questions the corpus does not answer: ${fmt(u.refused)} refused, ${fmt(u.below_half)} answered below 0.5, ${fmt(u.above_half)} at 0.5 or more`,
        );
    }
    if (judge) {
      console.log(`\njudge ${judge.id}, ${judgeRuns} run(s) per answer\n${'name'.padEnd(22)} faithful  ans.rel  ctx.rel  missing/attempted`);
      for (const [name, s] of Object.entries(summary.pipelines)) {
        const j = s.answers?.judge;
        if (j)
          console.log(`${name.padEnd(22)} ${fmt(j.faithfulness)}     ${fmt(j.answer_relevance)}    ${fmt(j.context_relevance)}    ${j.missing}/${j.attempted}`);
      }
    }
  }
  for (const [name, s] of Object.entries(summary.pipelines)) {
    table(`${name}: per question type`, Object.entries(s.by_type));
    table(`${name}: per source`, Object.entries(s.by_source));
  }
}

/** Writes a campaign's graded items as a question file; returns its path. */
async function writeCampaignQuestions(campaignId: string, out: string): Promise<string> {
  const db = await openMigratedDatabase(config());
  try {
    const campaign = await getCampaign(db, campaignId);
    if (!campaign) throw new Error(`no campaign ${campaignId}`);
    const items = await campaignItemsWithGrades(db, campaignId);
    const paperIds = [...new Set(items.flatMap((i) => i.answers.flatMap((a) => storedAnswerOf(a.answer).evidence.map((e) => e.paperId))))].filter(
      (p): p is string => !!p,
    );
    const { questions, skipped } = campaignToQuestions(campaign, items, await sourceIdsOf(db.prisma, paperIds));
    fs.writeFileSync(out, questions.map((q) => JSON.stringify(q)).join('\n') + (questions.length ? '\n' : ''));
    console.log(`campaign “${campaign.name}”: ${questions.length} questions written to ${out}; ${skipped.length} items skipped`);
    for (const s of skipped) console.log(`  item ${s.ordinal + 1}: ${s.reason}`);
    if (!questions.length) throw new Error('no graded item gave a question');
    return out;
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
