import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { FAMILIES } from '../../eval/bank/families.ts';
import { type BankQuestion, bankSources, generateBank } from '../../eval/bank/generate.ts';
import { answerQuestion, DEFAULT_ANSWER_PIPELINE } from '../answer/answer.ts';
import { databaseLookups } from '../answer/lookups.ts';
import { answerSetup } from '../answer/modes.ts';
import type { AnswerConfidenceRow } from '../evaluation/answer-confidence-fit.ts';
import { answerRow } from './calibrate-answers.ts';
import { OUT_OF_SCOPE_PROBABILITY } from '../retrieval/gate/topic-guard.ts';
import { SYNTHESIS_PROBABILITY } from '../synthesis/ask.ts';
import type { Answer } from '../answer/types.ts';
import { sharedDataDir } from '../common/shared-data.ts';
import { config } from '../config.ts';
import { openMigratedDatabase } from '../db/client.ts';
import { precursorKey } from '../synthesis/recipe.ts';
import { fitReader, type ReaderExample } from '../evaluation/reader-fit.ts';
import { analyseQuestion } from '../retrieval/question.ts';
import { intentProbabilities, READER_INTENTS, type ReaderModel, readerFeatures, readWith } from '../retrieval/reader.ts';
import { createRetrievalService } from '../serving/retrieval-service.ts';
import { cliOptions } from './options.ts';

export const bankUsage = `usage: npm run eval -- --bank [--per-family 30] [--seed 81] [--records <dir>] [--answers [--limit-per-cell n]] [--write] [--l2 0.001] [--json out.json]

The question bank (eval/bank): ${READER_INTENTS.length} intents × ${FAMILIES.length} wording families, filled from the configured database's graph
and the records files (default ../shared/data/records). Prints the question reader's intent accuracy per intent and
family, leave-one-family-out (fitted without the family it is measured on), and the worst family per intent.
--answers also answers every question (extractive, hybrid, records and lookups as the app does; each family read by
the reader fitted without it) and prints per intent × family: answered, answered right (where the bank knows what right is), refused, median latency.
--write fits the reader on every family and writes lib/retrieval/reader-model.json.`;

interface Row {
  q: BankQuestion;
  features: string[];
  /** The question names a preparation technique (what lets a synthesis reading below the threshold reach the records). */
  namesMethod: boolean;
  /** The intent read by the reader fitted without this question's family, and its out-of-scope probability. */
  heldOut?: string;
  heldOutOutside?: number;
  heldOutSynthesis?: number;
  answer?: { answered: boolean; right: boolean | null; refused: boolean; ms: number; shape: string; precursorsNamed?: boolean };
}

const pct = (n: number, d: number) => (d ? (n / d).toFixed(2) : '   –');
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
};

/** Whether an answer does what the bank says a right answer does; null where it does not know. */
function rightAnswer(q: BankQuestion, a: Answer): boolean | null {
  const refused = a.abstention.abstain || a.shape === 'abstain';
  const text = a.sentences.map((s) => s.text).join(' ');
  // Whether the corpus answers a value or descriptive question the bank does not know: answered is all it says.
  if (q.intent === 'value' || q.intent === 'descriptive') return null;
  // A paper asked for by what it says of a material the question does not name ("… of such films"): which papers
  // the asker has in mind is not in the question, so the bank does not know which are right.
  if ((q.intent === 'which-paper' || q.intent === 'paper-list') && q.slots.material && !q.question.includes(q.slots.material)) return null;
  if (q.expect.refuse) return refused || a.confidence < 0.5 || (q.intent === 'synthesis' && /hold no recipe|records hold no|none by/i.test(text));
  if (refused) return false;
  const cited = new Set(a.evidence.map((e) => e.paperId).filter(Boolean));
  switch (q.intent) {
    case 'synthesis':
      // About one paper (a quoted title): its text answers, the bank does not know what right is.
      return q.expect.recipe ? a.shape === 'synthesis' : null;
    case 'which-paper':
      return !!a.evidence[0]?.paperId && (q.expect.paperIds ?? []).includes(a.evidence[0].paperId);
    case 'paper-list':
      return (q.expect.paperIds ?? []).filter((p) => cited.has(p)).length >= 2;
    case 'comparison':
      return [q.slots.material, q.slots.material2].every((m) => !!m && text.includes(m));
  }
  return null;
}

/**
 * For a synthesis answer from the records: whether the precursors it names as usual include one of those the
 * question's own recipe used (the records' usual precursors, as a chemist would check them against one recipe).
 */
function precursorCheck(q: BankQuestion, a: Answer): { precursorsNamed?: boolean } {
  if (!q.expect.recipe?.held || a.shape !== 'synthesis') return {};
  const line = a.sentences.find((s) => s.text.startsWith('Usual precursors:'))?.text ?? '';
  // "Usual precursors: La(NO3)3·6H2O (83 of 167), Fe2O3 (49 of 167)": names hold brackets, so the line is split at the counts.
  const named = line
    .slice('Usual precursors:'.length)
    .split(/\s\(\d+ of \d+\)[,.]?\s*/)
    .map((n) => n.trim())
    .filter(Boolean)
    .map(precursorKey);
  // As a chemist counts precursors: a hydrate and its anhydrous salt are one.
  const used = new Set(q.expect.recipe!.precursorKeys.map(precursorKey));
  return { precursorsNamed: named.some((k) => used.has(k)) };
}

export async function evalBank(args: string[]): Promise<void> {
  if (args.includes('--help')) return console.log(bankUsage);
  const withAnswers = args.includes('--answers');
  const write = args.includes('--write');
  const opt = cliOptions(
    args.filter((a) => a !== '--answers' && a !== '--write'),
    ['per-family', 'seed', 'records', 'json', 'limit-per-cell', 'l2', 'answer-rows'],
  );
  const recordsDir = opt('records') ?? sharedDataDir('records');
  if (!recordsDir || !fs.existsSync(recordsDir)) throw new Error(`no records files (../shared/data/records, or --records)\n\n${bankUsage}`);
  const cfg = config();
  const db = await openMigratedDatabase(cfg);
  try {
    const bank = generateBank(await bankSources(db, recordsDir), { perFamily: Number(opt('per-family') ?? 30), seed: Number(opt('seed') ?? 81) });
    const fitOptions = opt('l2') ? { l2: Number(opt('l2')) } : {};
    const rows: Row[] = bank.map((q) => {
      const a = analyseQuestion(q.question);
      return { q, features: readerFeatures(a.reading.masked), namesMethod: a.techniques.length > 0 };
    });
    console.log(`bank: ${bank.length} questions, ${READER_INTENTS.length} intents × ${FAMILIES.length} families`);

    // Leave one family out: fitted on the others, read on it (and kept for its answers).
    const t0 = performance.now();
    const heldOutModels = new Map<string, ReaderModel>();
    for (const family of FAMILIES) {
      const train: ReaderExample[] = rows.filter((r) => r.q.family !== family.name).map((r) => ({ features: r.features, intent: r.q.intent }));
      const model = fitReader(train, READER_INTENTS, fitOptions);
      heldOutModels.set(family.name, model);
      for (const r of rows.filter((x) => x.q.family === family.name)) {
        const p = intentProbabilities(model, r.features);
        r.heldOut = READER_INTENTS[p.indexOf(Math.max(...p))];
        r.heldOutOutside = p[READER_INTENTS.indexOf('out-of-scope')];
        r.heldOutSynthesis = p[READER_INTENTS.indexOf('synthesis')];
      }
    }
    console.log(`(${FAMILIES.length} leave-one-family-out fits in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    printReaderTable(rows);

    if (write) {
      const model: ReaderModel = fitReader(
        rows.map((r) => ({ features: r.features, intent: r.q.intent })),
        READER_INTENTS,
        fitOptions,
      );
      const file = path.resolve(import.meta.dirname, '..', 'retrieval', 'reader-model.json');
      fs.writeFileSync(file, `${JSON.stringify(model, null, 2)}\n`);
      // In the repository's format, as `npm run calibrate` leaves its fits.
      spawnSync(path.resolve(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'biome'), ['format', '--write', file], { stdio: 'ignore' });
      console.log(`\nwrote ${path.relative(process.cwd(), file)}: ${Object.keys(model.weights).length} features`);
    }

    if (withAnswers) {
      const service = createRetrievalService(db, cfg, { onStage: (s) => process.stderr.write(`index: ${s}\n`) });
      const index = await service.index();
      const limit = Number(opt('limit-per-cell') ?? Number.POSITIVE_INFINITY);
      const seen = new Map<string, number>();
      const answerRows: AnswerConfidenceRow[] = [];
      for (const r of rows) {
        const cell = `${r.q.intent}/${r.q.family}`;
        if ((seen.get(cell) ?? 0) >= limit) continue;
        seen.set(cell, (seen.get(cell) ?? 0) + 1);
        // Answered as a question of a wording the reader was not fitted on.
        readWith(heldOutModels.get(r.q.family)!);
        const t = performance.now();
        const a = await answerQuestion(index, r.q.question, {
          ...service.options,
          ...answerSetup(cfg, 'extractive'),
          pipeline: DEFAULT_ANSWER_PIPELINE,
          ...databaseLookups(db.prisma),
        });
        const refused = a.abstention.abstain || a.shape === 'abstain';
        r.answer = { answered: !refused, right: rightAnswer(r.q, a), refused, ms: performance.now() - t, shape: a.shape, ...precursorCheck(r.q, a) };
        // For the answer-confidence fit: an answer given where the bank expects a refusal is wrong at any confidence.
        const row = answerRow(`bank:${r.q.family}`, r.q.id, a, r.q.expect.refuse ? false : r.answer.right);
        if (row) answerRows.push(row);
      }
      readWith(null);
      printAnswerTable(rows.filter((r) => r.answer));
      if (opt('answer-rows')) fs.writeFileSync(opt('answer-rows')!, JSON.stringify(answerRows));
    }
    if (opt('json'))
      fs.writeFileSync(
        opt('json')!,
        JSON.stringify(
          rows.map(({ features: _f, namesMethod: _m, ...r }) => r),
          null,
          1,
        ),
      );
  } finally {
    await db.close();
  }
}

function printReaderTable(rows: Row[]) {
  console.log(`\nintent accuracy, leave-one-family-out (rows: intents; columns: families)`);
  console.log(`${'intent'.padEnd(13)} ${FAMILIES.map((f) => f.name.slice(0, 7).padStart(7)).join(' ')}   all  worst family`);
  for (const intent of READER_INTENTS) {
    const of = rows.filter((r) => r.q.intent === intent);
    const cells = FAMILIES.map((f) => {
      const c = of.filter((r) => r.q.family === f.name);
      return { family: f.name, acc: c.length ? c.filter((r) => r.heldOut === intent).length / c.length : null };
    });
    const asked = cells.filter((c): c is { family: string; acc: number } => c.acc !== null);
    const worst = asked.reduce((a, b) => (b.acc < a.acc ? b : a));
    console.log(
      `${intent.padEnd(13)} ${cells.map((c) => (c.acc === null ? '–' : c.acc.toFixed(2)).padStart(7)).join(' ')}  ${pct(of.filter((r) => r.heldOut === intent).length, of.length)}  ${worst.family} ${worst.acc.toFixed(2)}`,
    );
  }
  const right = rows.filter((r) => r.heldOut === r.q.intent).length;
  console.log(`all: ${pct(right, rows.length)} of ${rows.length}`);
  const outside = rows.filter((r) => r.q.intent === 'out-of-scope');
  const inside = rows.filter((r) => r.q.intent !== 'out-of-scope');
  const refusedAt = (rs: Row[]) => rs.filter((r) => (r.heldOutOutside ?? 0) >= OUT_OF_SCOPE_PROBABILITY).length;
  console.log(
    `refused as out of scope (held-out probability ≥ ${OUT_OF_SCOPE_PROBABILITY}): ${pct(refusedAt(outside), outside.length)} of out-of-scope questions, ${pct(refusedAt(inside), inside.length)} of the others (${refusedAt(inside)})`,
  );
  const synthesis = rows.filter((r) => r.q.intent === 'synthesis' && r.q.expect.recipe);
  const notSynthesis = rows.filter((r) => r.q.intent !== 'synthesis');
  const routed = (rs: Row[]) => rs.filter((r) => r.heldOut === 'synthesis' && ((r.heldOutSynthesis ?? 0) >= SYNTHESIS_PROBABILITY || r.namesMethod)).length;
  console.log(
    `sent to the records (held-out: read as synthesis, at ${SYNTHESIS_PROBABILITY} or more or with a method named): ${pct(routed(synthesis), synthesis.length)} of synthesis questions about a material, ${pct(routed(notSynthesis), notSynthesis.length)} of the others (${routed(notSynthesis)})`,
  );
  // Where the misreadings go.
  const confusions = new Map<string, number>();
  for (const r of rows) if (r.heldOut !== r.q.intent) confusions.set(`${r.q.intent} → ${r.heldOut}`, (confusions.get(`${r.q.intent} → ${r.heldOut}`) ?? 0) + 1);
  console.log(
    `most frequent misreadings: ${[...confusions]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([k, n]) => `${k} ${n}`)
      .join('; ')}`,
  );
}

function printAnswerTable(rows: Row[]) {
  console.log(
    `\nanswers (extractive, ${DEFAULT_ANSWER_PIPELINE}; each family read by the reader fitted without it): per intent × family — n, answered, answered right, refused, median ms`,
  );
  for (const intent of READER_INTENTS) {
    const of = rows.filter((r) => r.q.intent === intent);
    if (!of.length) continue;
    const line = (name: string, rs: Row[]) => {
      const known = rs.filter((r) => r.answer!.right !== null);
      return `  ${name.padEnd(17)} ${String(rs.length).padStart(4)}  ${pct(rs.filter((r) => r.answer!.answered).length, rs.length)}  ${known.length ? pct(known.filter((r) => r.answer!.right).length, known.length) : '   –'}  ${pct(rs.filter((r) => r.answer!.refused).length, rs.length)}  ${Math.round(
        median(rs.map((r) => r.answer!.ms)),
      )
        .toString()
        .padStart(5)}`;
    };
    const fromRecords = of.filter((r) => r.answer!.precursorsNamed !== undefined);
    const precursors = fromRecords.length
      ? `; of the ${fromRecords.length} answered from the records, ${pct(fromRecords.filter((r) => r.answer!.precursorsNamed).length, fromRecords.length)} name a precursor its question's recipe used among the usual ones`
      : '';
    console.log(`${intent}${precursors}\n  ${'family'.padEnd(17)}    n  ans.  right refus. p50ms`);
    console.log(line('all', of));
    const cells = FAMILIES.map((f) => ({ f: f.name, rs: of.filter((r) => r.q.family === f.name) })).filter((c) => c.rs.length);
    for (const c of cells) console.log(line(c.f, c.rs));
  }
}
