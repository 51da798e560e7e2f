import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { config } from '../config.ts';
import { openMigratedDatabase } from '../db/client.ts';
import { type CalibrationPoint, expectedCalibrationError, fitIsotonic, reliabilityTable } from '../evaluation/calibration.ts';
import { loadQuestions } from '../evaluation/questions.ts';
import { scoreQuestion } from '../evaluation/retrieval-metrics.ts';
import { isPipelineName, type PipelineName } from '../pipelines/registry.ts';
import { createRetrievalService } from '../pipelines/service.ts';
import { applyCalibration, type CalibrationMap } from '../retrieval/calibration.ts';
import { cliOptions } from './options.ts';

const usage = `usage: npm run calibrate -- --questions <a.jsonl,b.jsonl,...> [--pipeline json-qr] [--write]

Runs the questions through the pipeline, fits the map from coverage confidence to the share of questions whose
best paper is the right one (isotonic regression; an unanswerable question's best paper is never right), and
prints the reliability table and expected calibration error (ECE) of the raw and the calibrated confidence:
in-sample, and with two-fold cross-validation (fit on one half of the questions, measured on the other).
With --write the map is saved to lib/retrieval/calibration.json, which the API and the UI use.`;

const fmt = (x: number | null) => (x === null ? '    –' : x.toFixed(3));

function printTable(title: string, points: CalibrationPoint[]) {
  console.log(`\n${title}: ECE ${expectedCalibrationError(points).toFixed(3)} over ${points.length} questions`);
  console.log('bin        n     mean.conf  accuracy');
  for (const b of reliabilityTable(points))
    if (b.n) console.log(`${b.from.toFixed(1)}–${b.to.toFixed(1)}  ${String(b.n).padStart(5)}  ${fmt(b.meanConfidence)}      ${fmt(b.accuracy)}`);
}

async function main() {
  const write = process.argv.includes('--write');
  const opt = cliOptions(
    process.argv.slice(2).filter((a) => a !== '--write'),
    ['questions', 'pipeline'],
  );
  const files = (opt('questions') ?? '').split(',').filter(Boolean);
  const pipeline = opt('pipeline') ?? 'json-qr';
  if (files.length === 0 || !isPipelineName(pipeline)) {
    console.error(usage);
    process.exit(2);
  }
  const cfg = config();
  const db = await openMigratedDatabase(cfg);
  try {
    const service = createRetrievalService(db, cfg);
    const index = await service.index();
    const sourceIds = new Map([...index.papers.values()].map((p) => [p.id, p.sourceId ?? null]));
    const points: (CalibrationPoint & { set: string })[] = [];
    for (const file of files) {
      for (const q of await loadQuestions(file)) {
        const r = await service.retrieve(q.question, pipeline as PipelineName);
        const s = scoreQuestion(q, r, sourceIds);
        points.push({ confidence: r.abstention.confidence, correct: q.type !== 'unanswerable' && s.rank === 1, set: path.basename(file) });
      }
    }
    const map = fitIsotonic(points);
    printTable('raw confidence', points);
    printTable(
      'calibrated (in-sample)',
      points.map((p) => ({ ...p, confidence: applyCalibration(map, p.confidence) })),
    );
    const halves = [points.filter((_, i) => i % 2 === 0), points.filter((_, i) => i % 2 === 1)];
    const crossed = [
      ...halves[1].map((p) => ({ ...p, confidence: applyCalibration(fitIsotonic(halves[0]), p.confidence) })),
      ...halves[0].map((p) => ({ ...p, confidence: applyCalibration(fitIsotonic(halves[1]), p.confidence) })),
    ];
    printTable('calibrated (two-fold cross-validated)', crossed);
    for (const set of new Set(points.map((p) => p.set))) {
      const own = crossed.filter((p) => p.set === set);
      console.log(`  ${set}: cross-validated ECE ${expectedCalibrationError(own).toFixed(3)} (${own.length} questions)`);
    }
    console.log(`\nmap: ${map.x.map((x, i) => `≥${x} → ${map.y[i]}`).join(', ')}`);
    if (write) {
      const out: CalibrationMap = {
        ...map,
        fittedOn: `${pipeline} on ${files.map((f) => path.basename(f)).join(', ')} (${points.length} questions), ${new Date().toISOString().slice(0, 10)}`,
      };
      const target = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'retrieval', 'calibration.json');
      // Written the way the formatter (Biome) lays it out, so a fitted map passes the lint check as written.
      const list = (xs: number[]) => `[${xs.join(', ')}]`;
      fs.writeFileSync(target, `{\n  "x": ${list(out.x)},\n  "y": ${list(out.y)},\n  "fittedOn": ${JSON.stringify(out.fittedOn)}\n}\n`);
      console.log(`wrote ${target}`);
    }
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
