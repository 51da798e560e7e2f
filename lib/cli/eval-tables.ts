import fs from 'node:fs';
import path from 'node:path';
import { checkedPrecision, sampleTuples, type TablePaper, tableMetrics, type TupleVerdict } from '../evaluation/table-metrics.ts';
import { detectReader } from '../ingest/detect.ts';
import { expandInputs } from '../ingest/files.ts';
import type { ParsedTable } from '../ingest/tables.ts';
import { cliOptions } from './options.ts';

const usage = `usage: npm run eval:tables -- --input <files or folders, comma-separated> [--check <verdicts.jsonl>] [--sample <n> --out <file>] [--json <out>]

Reads the files with Assay's readers (JATS, TEI, PDF, corpus JSON lines) and prints, for their tables: body cells,
cells holding a number, the share of those read as a quantity with their column's unit, and the graph tuples the
rows give. --check scores the tuples against hand-checked verdicts ({"key","reads","verdict":"correct"|"wrong"}
per line; a verdict whose tuple the code no longer gives is reported as stale, not counted). --sample writes n
tuples (a fixed sample) to --out as verdict lines to fill in.`;

async function main() {
  const opt = cliOptions(process.argv.slice(2), ['input', 'check', 'sample', 'out', 'json']);
  const inputs = (opt('input') ?? '').split(',').filter(Boolean);
  if (inputs.length === 0) {
    console.error(usage);
    process.exit(2);
  }
  const papers: TablePaper[] = [];
  let files = 0;
  const { files: paths, missing } = await expandInputs(inputs);
  if (missing.length) console.error(`not found: ${missing.join(', ')}`);
  for (const filePath of paths) {
    const file = { path: filePath, displayName: filePath, size: fs.statSync(filePath).size };
    const found = await detectReader(file.path, file.displayName);
    if (!('reader' in found)) continue;
    files++;
    try {
      for await (const item of found.reader.read(file, { maxItemBytes: 200 * 2 ** 20 })) {
        if (item.type !== 'paper') continue;
        const tables = (item.paper.meta?.tables ?? []) as ParsedTable[];
        papers.push({ file: `${path.basename(file.path)}${item.paper.sourceId ? `#${item.paper.sourceId}` : ''}`, tables });
      }
    } catch (error) {
      console.error(`${file.displayName}: ${(error as Error).message}`);
    }
  }
  const { metrics, tuples } = tableMetrics(papers);
  const withTables = papers.filter((p) => p.tables.length).length;
  console.log(`${files} files, ${metrics.papers} papers, ${withTables} with tables: ${metrics.tables} tables, ${metrics.rows} rows`);
  console.log(
    `cells ${metrics.cells}, with a number ${metrics.numericCells}, read as a quantity ${metrics.quantityCells} (${(100 * metrics.quantityShare).toFixed(1)}% of the numbers)`,
  );
  console.log(`tuples ${metrics.tuples} (${metrics.tuplesPerRow.toFixed(2)} per row)`);
  let precision: ReturnType<typeof checkedPrecision> | null = null;
  const check = opt('check');
  if (check) {
    const verdicts = fs
      .readFileSync(check, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as TupleVerdict);
    precision = checkedPrecision(tuples, verdicts);
    console.log(
      `hand-checked precision ${precision.precision === null ? '–' : precision.precision.toFixed(3)} (${precision.correct}/${precision.checked} correct${precision.stale ? `; ${precision.stale} verdicts stale` : ''})`,
    );
    for (const v of verdicts.filter((x) => x.verdict === 'wrong')) console.log(`  wrong: ${v.reads}${v.note ? ` — ${v.note}` : ''}`);
  }
  const sample = opt('sample');
  const out = opt('out');
  if (sample && out) {
    const picked = sampleTuples(tuples, Number(sample));
    fs.writeFileSync(out, `${picked.map((t) => JSON.stringify({ key: t.key, reads: t.reads, cell: t.cell, row: t.rowText, verdict: '' })).join('\n')}\n`);
    console.log(`${picked.length} tuples written to ${out} for checking`);
  }
  const json = opt('json');
  if (json) fs.writeFileSync(json, JSON.stringify({ ...metrics, precision }, null, 2));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
