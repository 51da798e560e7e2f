import { createHash } from 'node:crypto';
import { tableRowTuples } from '../graph/table-tuples.ts';
import type { TupleDraft } from '../graph/tuples.ts';
import { type ParsedTable, rowExternalId, rowText } from '../ingest/tables.ts';
import { parseQuantities } from '../structure/quantities.ts';

/**
 * How well tables are read, for `npm run eval:tables`: of the non-empty body cells, how many hold a number and how
 * many of those the quantity parser reads as a quantity (with the unit the header gave); the graph tuples the rows
 * give; and their precision on a hand-checked sample (verdicts kept in a JSON-lines file, matched by tuple key, so a
 * tuple the code no longer produces is not counted).
 */

export interface TablePaper {
  file: string;
  tables: ParsedTable[];
}

export interface TableTuple {
  /** Stable across runs: file, row, relation, property and value. */
  key: string;
  file: string;
  row: string;
  /** "SmBaCo2O5 has_property power density = 701 mW/cm^2 (measured_at 650 °C)" */
  reads: string;
  cell: string;
  rowText: string;
}

export interface TableMetrics {
  papers: number;
  tables: number;
  rows: number;
  cells: number;
  numericCells: number;
  /** Numeric cells whose value (with the column unit) parses as one quantity. */
  quantityCells: number;
  quantityShare: number;
  tuples: number;
  tuplesPerRow: number;
}

const NUMERIC = /^[-−–+±~≈<>≤≥]?\s*\d/;

export function describeTuple(t: TupleDraft): string {
  const value = t.value === null ? '' : ` = ${t.value === t.valueMax || t.valueMax === null ? t.value : `${t.value}–${t.valueMax}`} ${t.unit ?? ''}`.trimEnd();
  const reference = t.referenceRelation ? ` (${t.referenceRelation} ${t.referenceNode})` : '';
  return `${t.subject.surface} ${t.relation} ${t.object.surface}${value}${reference}`;
}

export function tableMetrics(papers: TablePaper[]): { metrics: TableMetrics; tuples: TableTuple[] } {
  let tables = 0;
  let rows = 0;
  let cells = 0;
  let numericCells = 0;
  let quantityCells = 0;
  const tuples: TableTuple[] = [];
  for (const paper of papers) {
    for (const table of paper.tables) {
      tables++;
      for (let r = 0; r < table.rows.length; r++) {
        rows++;
        const written = rowText(table, r);
        for (const c of written.cells) {
          cells++;
          const raw = table.rows[r][c.column];
          if (!NUMERIC.test(raw)) continue;
          numericCells++;
          const value = written.text.slice(c.start, c.end);
          const found = parseQuantities(value);
          if (found.length === 1 && found[0].text.length >= value.trim().length - 2) quantityCells++;
        }
        const row = rowExternalId(table.id, r);
        for (const t of tableRowTuples(written.text, row)) {
          const reads = describeTuple(t);
          tuples.push({
            key: createHash('sha256').update(`${paper.file}|${row}|${reads}`).digest('hex').slice(0, 16),
            file: paper.file,
            row,
            reads,
            cell: t.sentence ?? '',
            rowText: written.text,
          });
        }
      }
    }
  }
  return {
    metrics: {
      papers: papers.length,
      tables,
      rows,
      cells,
      numericCells,
      quantityCells,
      quantityShare: numericCells ? quantityCells / numericCells : 0,
      tuples: tuples.length,
      tuplesPerRow: rows ? tuples.length / rows : 0,
    },
    tuples,
  };
}

export interface TupleVerdict {
  key: string;
  reads: string;
  verdict: 'correct' | 'wrong';
  note?: string;
}

/** A deterministic sample of `n` tuples (by key order), for hand-checking. */
export function sampleTuples(tuples: TableTuple[], n: number): TableTuple[] {
  return [...tuples].sort((a, b) => a.key.localeCompare(b.key)).slice(0, n);
}

/** Precision over the checked tuples the code still produces (a verdict whose tuple is gone is listed as stale). */
export function checkedPrecision(
  tuples: TableTuple[],
  verdicts: TupleVerdict[],
): { checked: number; correct: number; precision: number | null; stale: number } {
  const produced = new Set(tuples.map((t) => t.key));
  const live = verdicts.filter((v) => produced.has(v.key));
  const correct = live.filter((v) => v.verdict === 'correct').length;
  return { checked: live.length, correct, precision: live.length ? correct / live.length : null, stale: verdicts.length - live.length };
}
