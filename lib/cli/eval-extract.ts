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

const usage = `usage: npm run eval:extract -- --task <paragraph-class|synthesis-method|re-ner> --gold <jsonl> [--split all|rules|holdout] [--backend offline|llm] [--json <out>]

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
  const opt = cliOptions(args, ['backend', 'gold', 'json', 'split', 'task']);
  const task = opt('task') as keyof typeof tasks | undefined;
  const gold = opt('gold');
  const split = (opt('split') ?? 'all') as 'all' | 'rules' | 'holdout';
  const backend = opt('backend') ?? 'offline';
  if (!task || !gold || !(task in tasks || task === ('re-ner' as string)) || !['all', 'rules', 'holdout'].includes(split)) {
    console.error(usage);
    process.exit(2);
  }
  if (backend !== 'offline' && backend !== 'llm') {
    console.error(`unknown backend "${backend}" (offline or llm)`);
    process.exit(2);
  }
  const chat = backend === 'llm' ? chatModel(config()) : null;
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
      const predicted = llm ? ((await structure(r.text))?.entities ?? []) : extractSynthesisEntities(r.text);
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
    `${task} (${split}, n=${report.n}, ${llm ? llm.id : 'offline'}, ${ms.toFixed(0)} ms): accuracy ${report.accuracy.toFixed(3)}, macro-F1 ${report.macro_f1.toFixed(3)}, micro-F1 ${report.micro_f1.toFixed(3)}`,
  );
  console.log(`${'class'.padEnd(22)}precision  recall     f1  support`);
  for (const [label, m] of Object.entries(report.per_class)) {
    console.log(label.padEnd(22) + [m.precision, m.recall, m.f1].map((x) => x.toFixed(3).padStart(9)).join('  ') + String(m.support).padStart(9));
  }
  const out = opt('json');
  if (out) fs.writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
}

main().catch((error) => {
  console.error((error as Error).message);
  process.exit(1);
});
