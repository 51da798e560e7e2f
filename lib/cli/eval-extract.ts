import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { classifySynthesisMethod } from '../structure/classify.ts';
import { offlineExtractor } from '../structure/paragraph.ts';
import { classificationReport, entityReport, type ClassificationReport } from '../evaluation/classification-metrics.ts';
import { extractSynthesisEntities } from '../structure/entities.ts';
import { materialKey } from '../structure/materials.ts';
import { createLlmExtractor } from '../structure/llm-extractor.ts';
import { chatModel } from '../ai/providers.ts';
import { memoryCache } from '../db/extraction-cache.ts';
import { config } from '../config.ts';
import { cliOptions } from './options.ts';
import { crossValidate, type StructurerScores, trainTest } from '../evaluation/structurer-eval.ts';
import { modelSession, stopModelSessions } from '../embedding/model-session.ts';
import { sharedDataDir } from '../common/shared-data.ts';
import { readGold, readMentionGold, readRecordExcerpts } from '../structurers/heads/training-data.ts';
import { crossValidateMaterialTagger } from '../evaluation/material-tagger-eval.ts';
import { configuredMaterialTagger } from '../structurers/select.ts';
import { RECORD_HOLDOUT_PER_METHOD, RECORD_ROWS_PER_METHOD } from '../structurers/heads/fit.ts';
import type { ParagraphHeadTask } from '../structurers/heads/head.ts';

const usage = `usage: npm run eval:extract -- --task <paragraph-class|synthesis-method|re-ner> --gold <jsonl> [--split all|rules|holdout] [--backend offline|rules|llm] [--json <out>]
       npm run eval:extract -- --task <paragraph-class|synthesis-method|re-ner> --gold <jsonl> --compare [--folds 5] [--records <dir>] [--json <out>]

--backend offline (the default) scores what the product runs offline: for re-ner, the rules with the materials' roles
from the trained material tagger when it is cached in the data folder (ASSAY_MATERIAL_TAGGER=auto); rules: the rules
alone. re-ner --compare: the rules and the tagger cross-validated with folds by paper (tagger fitted on the other folds).

--compare: the offline rules, the trained head on the local model's vectors ("heads") and the two combined as the
product runs them ("both"), cross-validated on the gold rows with folds by paper (heads fitted on the other folds);
for synthesis-method also fitted on every gold row plus the records' training split and scored on the records'
held-out split (${RECORD_HOLDOUT_PER_METHOD} excerpts per method, papers never trained on; --records, default ../shared/data/records).

Scores the offline extractor against gold rows {"id","label","text"} (re-ner: {"id","text","entities":[{"type","text"}]}):
accuracy, macro-F1 and per-class precision/recall/F1; for re-ner micro-F1 and per type, entities matched by type
and normalised material key (so "deionized water" = "DI water", "DMF" = "N,N-dimethylformamide"). --split rules|holdout scores the part of the rows the rules were written on, or the part
kept aside (chosen by the SHA-256 of the row id: first hex digit 0-9 = rules, a-f = holdout).`;

const tasks = {
  // The role the product stores: the classifier plus the extractor's no-material check.
  'paragraph-class': (t: string) => offlineExtractor.structureParagraph(t).role,
  'synthesis-method': (t: string) => classifySynthesisMethod(t).label,
} as const;

export function inSplit(id: string, split: 'all' | 'rules' | 'holdout'): boolean {
  if (split === 'all') return true;
  const rules = createHash('sha256').update(id).digest('hex')[0] < 'a';
  return split === 'rules' ? rules : !rules;
}

async function main() {
  const args = process.argv.slice(2);
  const opt = cliOptions(args, ['backend', 'gold', 'json', 'split', 'task', 'folds', 'records'], ['compare']);
  if (opt('compare')) return compare(opt);
  const task = opt('task') as keyof typeof tasks | undefined;
  const gold = opt('gold');
  const split = (opt('split') ?? 'all') as 'all' | 'rules' | 'holdout';
  const backend = opt('backend') ?? 'offline';
  if (!task || !gold || !(task in tasks || task === ('re-ner' as string)) || !['all', 'rules', 'holdout'].includes(split)) {
    console.error(usage);
    process.exit(2);
  }
  if (backend !== 'offline' && backend !== 'rules' && backend !== 'llm') {
    console.error(`unknown backend "${backend}" (offline, rules or llm)`);
    process.exit(2);
  }
  const cfg = config();
  const chat = backend === 'llm' ? chatModel(cfg) : null;
  // The trained material tagger the offline structurer runs (re-ner only; the other tasks' heads: --compare).
  const tagger = backend === 'offline' ? configuredMaterialTagger(cfg) : null;
  const offlineName =
    (task as string) !== 're-ner' || backend === 'rules'
      ? 'offline rules'
      : tagger
        ? `offline rules + ${tagger.id}`
        : 'offline rules (no material tagger trained in the data folder: npm run train:structure)';
  if (backend === 'llm' && !chat) {
    console.error('--backend llm needs a model: set ASSAY_LLM_BASE_URL and ASSAY_CHAT_MODEL (an OpenAI-compatible server)');
    process.exit(2);
  }
  // Model answers are cached in memory for this run only; failures are counted as wrong predictions.
  const llm = chat ? createLlmExtractor({ chat, cache: memoryCache() }) : null;
  let failures = 0;
  const structure = async (text: string) => {
    try {
      return await llm!.structureParagraph(text);
    } catch {
      failures++;
      return null;
    }
  };
  const rows = fs
    .readFileSync(gold, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      try {
        return JSON.parse(l) as { id: string; label: string; text: string; entities?: { type: string; text: string }[] };
      } catch {
        throw new Error(`${gold}: line ${i + 1} is not JSON`);
      }
    })
    .filter((r) => inSplit(String(r.id), split));
  const started = performance.now();
  let base: ClassificationReport;
  if ((task as string) === 're-ner') {
    const docs = [];
    for (const r of rows) {
      const predicted = llm ? ((await structure(r.text))?.entities ?? []) : extractSynthesisEntities(r.text, tagger?.tag);
      docs.push({
        gold: (r.entities ?? []).map((e) => ({ type: e.type.toLowerCase(), key: materialKey(e.text) })),
        predicted: predicted.map((e) => ({ type: e.role, key: e.key })),
      });
    }
    base = entityReport(docs);
  } else {
    const predicted: string[] = [];
    for (const r of rows) {
      if (!llm) predicted.push(tasks[task](r.text));
      else {
        const s = await structure(r.text);
        predicted.push(!s ? '(failed)' : task === 'paragraph-class' ? s.role : (s.method ?? 'others'));
      }
    }
    base = classificationReport(
      rows.map((r) => r.label),
      predicted,
    );
  }
  if (failures) console.log(`${failures} rows got no valid model answer (counted as wrong)`);
  const ms = performance.now() - started;
  const report: ClassificationReport & { task: string; split: string } = { task, split, ...base };
  console.log(
    `${task} (${split}, n=${report.n}, ${llm ? llm.id : offlineName}, ${ms.toFixed(0)} ms): accuracy ${report.accuracy.toFixed(3)}, macro-F1 ${report.macro_f1.toFixed(3)}, micro-F1 ${report.micro_f1.toFixed(3)}`,
  );
  console.log(`${'class'.padEnd(22)}precision  recall     f1  support`);
  for (const [label, m] of Object.entries(report.per_class)) {
    console.log(label.padEnd(22) + [m.precision, m.recall, m.f1].map((x) => x.toFixed(3).padStart(9)).join('  ') + String(m.support).padStart(9));
  }
  const out = opt('json');
  if (out) fs.writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
}

/** --compare: rules, heads and both, per task, with per-class figures and the worst class's confusion. */
async function compare(opt: (name: 'gold' | 'json' | 'split' | 'task' | 'folds' | 'records') => string | undefined) {
  if (opt('task') === 're-ner') return compareMaterials(opt);
  const tasksByName: Record<string, ParagraphHeadTask> = { 'paragraph-class': 'paragraph-role', 'synthesis-method': 'synthesis-method' };
  const task = tasksByName[opt('task') ?? ''];
  const gold = opt('gold');
  if (!task || !gold) {
    console.error(usage);
    process.exit(2);
  }
  const split = (opt('split') ?? 'all') as 'all' | 'rules' | 'holdout';
  const rows = readGold(gold).filter((r) => inSplit(r.id, split));
  const folds = Number(opt('folds') ?? 5);
  const cfg = config();
  const model = await modelSession(cfg, console.log);
  const embed = (texts: string[]) => model.embed(texts);
  const recordsDir = opt('records') ?? sharedDataDir('records');
  const recordsTrain = task === 'synthesis-method' && recordsDir ? readRecordExcerpts(recordsDir, 'train', RECORD_ROWS_PER_METHOD) : [];
  const started = performance.now();
  const out: Record<string, StructurerScores[]> = {};
  out[`dev folds (${folds} by paper, n=${rows.length})`] = await crossValidate(task, rows, embed, { folds, extraTraining: recordsTrain });
  if (recordsDir && task === 'synthesis-method') {
    const holdout = readRecordExcerpts(recordsDir, 'holdout', RECORD_HOLDOUT_PER_METHOD);
    out[`records held-out split (n=${holdout.length}: solid-phase and sol-gel only)`] = await trainTest(task, [...rows, ...recordsTrain], holdout, embed);
  }
  console.log(`${opt('task')} (${split}), ${((performance.now() - started) / 1000).toFixed(0)} s`);
  for (const [name, list] of Object.entries(out)) {
    console.log(`\n${name}`);
    const labels = Object.keys(list[0].report.per_class).filter((l) => list[0].report.per_class[l].support > 0);
    console.log(`${'structurer'.padEnd(11)}${'macro-F1'.padStart(9)}${'accuracy'.padStart(9)}  ${labels.map((l) => l.slice(0, 12).padStart(12)).join('')}`);
    for (const s of list)
      console.log(
        `${s.structurer.padEnd(11)}${s.report.macro_f1.toFixed(3).padStart(9)}${s.report.accuracy.toFixed(3).padStart(9)}  ${labels.map((l) => (s.report.per_class[l]?.f1 ?? 0).toFixed(3).padStart(12)).join('')}`,
      );
    for (const s of list) {
      const w = s.worst;
      const list_ = (m: Record<string, number>) =>
        Object.entries(m)
          .map(([l, n]) => `${l} ${n}`)
          .join(', ') || 'none';
      console.log(
        `  ${s.structurer}: worst class ${w.label} (F1 ${w.f1.toFixed(3)}): its rows went to ${list_(w.predictedAs)}; it took rows of ${list_(w.takenFrom)}`,
      );
    }
  }
  const json = opt('json');
  if (json) fs.writeFileSync(json, `${JSON.stringify(out, null, 2)}\n`);
  await stopModelSessions();
}

/** re-ner --compare: the rules and the material tagger, cross-validated with folds by paper. */
async function compareMaterials(opt: (name: 'gold' | 'json' | 'split' | 'folds') => string | undefined) {
  const gold = opt('gold');
  if (!gold) {
    console.error(usage);
    process.exit(2);
  }
  const split = (opt('split') ?? 'all') as 'all' | 'rules' | 'holdout';
  const rows = readMentionGold(gold).filter((r) => inSplit(r.id, split));
  const folds = Number(opt('folds') ?? 5);
  const started = performance.now();
  const list = await crossValidateMaterialTagger(rows, folds);
  console.log(`re-ner (${split}), dev folds (${folds} by paper, n=${rows.length}), ${((performance.now() - started) / 1000).toFixed(0)} s`);
  const labels = Object.keys(list[0].report.per_class).filter((l) => list[0].report.per_class[l].support > 0);
  console.log(`${'structurer'.padEnd(11)}${'micro-F1'.padStart(9)}${'macro-F1'.padStart(9)}  ${labels.map((l) => l.padStart(11)).join('')}`);
  for (const s of list)
    console.log(
      `${s.structurer.padEnd(11)}${s.report.micro_f1.toFixed(3).padStart(9)}${s.report.macro_f1.toFixed(3).padStart(9)}  ${labels.map((l) => (s.report.per_class[l]?.f1 ?? 0).toFixed(3).padStart(11)).join('')}`,
    );
  for (const s of list) {
    console.log(
      `${s.structurer}: precision/recall per role ${labels.map((l) => `${l} ${s.report.per_class[l].precision.toFixed(2)}/${s.report.per_class[l].recall.toFixed(2)}`).join(', ')}`,
    );
    const w = s.worst;
    const list_ = (m: Record<string, number>) =>
      Object.entries(m)
        .sort((a, b) => b[1] - a[1])
        .map(([l, n]) => `${l} ${n}`)
        .join(', ') || 'none';
    console.log(`  worst role ${w.label} (F1 ${w.f1.toFixed(3)}): its gold materials went to ${list_(w.predictedAs)}; it took ${list_(w.takenFrom)}`);
  }
  const json = opt('json');
  if (json) fs.writeFileSync(json, `${JSON.stringify(list, null, 2)}\n`);
}

main().catch((error) => {
  console.error((error as Error).message);
  process.exit(1);
});
