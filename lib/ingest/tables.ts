import { cleanText } from './text.ts';
import type { ParsedParagraph } from './types.ts';

/**
 * Tables as evidence. A reader turns a JATS `table-wrap` or a TEI `<figure type="table">` into a `ParsedTable`:
 * one header per column (the header rows' texts joined, spans expanded) and the body rows, every cell addressable
 * as `table:<id>#r<row>c<column>` (1-based, body rows only). Each body row becomes a paragraph of kind `table`
 * whose text reads the row with its headers ("Cathode: LSCF; power density: 450 mW cm−2; T: 700 °C"): a column's
 * unit, given once in its header, is written after each of its numbers, so the quantity parser, the index, the
 * graph extractor and the answer read a cell as they read a sentence, and a cited span maps back to its cell.
 * The tables themselves are kept with the paper (`meta.tables`) for the provenance panel to draw.
 */
export interface ParsedTable {
  /** The source's id (`table-wrap/@id`, `figure/@xml:id`), else `T<n>` by position. */
  id: string;
  label: string | null;
  caption: string | null;
  /** Each column's header, one text per header level, outermost first (empty where the table has none). */
  columns: string[][];
  /** Body rows, each with one text per column ("" for an empty cell). */
  rows: string[][];
}

/** A cell as the source wrote it, before spans are expanded. */
export interface SourceCell {
  text: string;
  colspan: number;
  rowspan: number;
  /** A header cell (`th`, TEI `role="label"`). */
  header: boolean;
}

/** Largest table kept as evidence: beyond it a "table" is usually a data dump better read from the file. */
const MAX_ROWS = 500;
const MAX_COLUMNS = 40;

/** The cell address a citation names. */
export const cellAddress = (tableId: string, row: number, column: number) => `table:${tableId}#r${row + 1}c${column + 1}`;

/** The externalId of a table row's paragraph (`table:<id>#r<row>`), and back. */
export const rowExternalId = (tableId: string, row: number) => `table:${tableId}#r${row + 1}`;
export function parseRowExternalId(externalId: string | null | undefined): { tableId: string; row: number } | null {
  const m = /^table:(.+)#r(\d+)$/.exec(externalId ?? '');
  return m ? { tableId: m[1], row: Number(m[2]) - 1 } : null;
}

/** Rows of source cells → a rectangular grid, each spanning cell repeated over the positions it covers. */
export function expandSpans(rows: SourceCell[][]): { text: string; header: boolean }[][] {
  const grid: ({ text: string; header: boolean } | undefined)[][] = rows.map(() => []);
  for (const [r, cells] of rows.entries()) {
    let c = 0;
    for (const cell of cells) {
      while (grid[r][c]) c++;
      const colspan = Math.min(Math.max(1, cell.colspan || 1), MAX_COLUMNS);
      const rowspan = Math.min(Math.max(1, cell.rowspan || 1), rows.length - r);
      for (let dr = 0; dr < rowspan; dr++)
        for (let dc = 0; dc < colspan && c + dc < MAX_COLUMNS; dc++) grid[r + dr][c + dc] = { text: cleanText(cell.text), header: cell.header };
      c += colspan;
    }
  }
  const width = Math.max(0, ...grid.map((row) => row.length));
  return grid.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? { text: '', header: false }));
}

const NUMERIC = /^[-−–+±~≈<>≤≥]?\s*\d/;

/**
 * The table of a source's header rows and body rows. Without marked header rows, a first row with no number in it
 * above rows with numbers is taken for the header (how most tables are typed when the markup says nothing).
 */
export function tableFromRows(id: string, label: string | null, caption: string | null, head: SourceCell[][], body: SourceCell[][]): ParsedTable | null {
  const grid = expandSpans([...head, ...body]);
  let headerRows = head.length;
  // Leading body rows made of header cells (`th` in `tbody`) are header rows too.
  while (headerRows < grid.length - 1 && grid[headerRows].every((c) => c.header || !c.text)) headerRows++;
  if (headerRows === 0 && grid.length > 1) {
    const first = grid[0];
    const numbersBelow = grid.slice(1).some((row) => row.some((c) => NUMERIC.test(c.text)));
    if (first.some((c) => c.text) && !first.some((c) => NUMERIC.test(c.text)) && numbersBelow) headerRows = 1;
  }
  const width = grid[0]?.length ?? 0;
  const columns = Array.from({ length: width }, (_, c) => {
    const levels: string[] = [];
    for (const row of grid.slice(0, headerRows)) if (row[c].text && levels[levels.length - 1] !== row[c].text) levels.push(row[c].text);
    return levels;
  });
  const rows = grid
    .slice(headerRows)
    .map((row) => row.map((c) => c.text))
    .filter((row) => row.some(Boolean))
    .slice(0, MAX_ROWS);
  if (rows.length === 0 || width === 0) return null;
  return { id, label: label ? cleanText(label) || null : null, caption: caption ? cleanText(caption) || null : null, columns, rows };
}

/**
 * A header text's name and unit: "Power density (mW cm−2)", "σ [S cm−1]", "T / °C", "Tc, K" → the unit, if it
 * looks like one, and the text without it. Ingestion cannot consult the quantity parser's unit table (it reads
 * before structuring, a layer below it), so the test is by shape: short, symbols and unit-sized words. A wrong guess
 * costs little: "0.5 x" after a value is no quantity to the parser, which decides what a cell's number means.
 */
export function headerUnit(header: string): { name: string; unit: string | null } {
  const h = cleanText(header);
  const forms: RegExp[] = [/^(.*?)\s*\(([^()]+)\)\s*$/, /^(.*?)\s*\[([^[\]]+)\]\s*$/, /^(.*?\S)\s+\/\s*(\S.*)$/, /^(.*?\S),\s*(\S[^,]*)$/];
  for (const form of forms) {
    const m = form.exec(h);
    if (m?.[2] && looksLikeUnit(m[2].trim())) return { name: m[1].trim() || h, unit: m[2].trim() };
  }
  return { name: h, unit: null };
}

/**
 * A column's name, unit and conditions from its header levels: the unit from the first level that gives one ("Peak
 * power density (mW cm−2)"), and a level that is itself a quantity ("650 °C" under it) a condition of the column.
 * `label` is how a reader names the column ("Peak power density at 650 °C").
 */
export function columnUnit(levels: string[]): { name: string; unit: string | null; conditions: string[]; label: string } {
  let unit: string | null = null;
  const names: string[] = [];
  const conditions: string[] = [];
  for (const level of levels) {
    const parsed = headerUnit(level);
    if (!unit && parsed.unit) {
      unit = parsed.unit;
      names.push(parsed.name);
    } else if (BARE_QUANTITY.test(level)) conditions.push(level);
    else names.push(level);
  }
  let name = names.join(' ');
  // A condition written into the header text ("σ at 600 °C (S cm−1)") is a condition too.
  const inline = /^(.+?)\s+at\s+([-−]?\d[\d.,]*\s*\S{1,8})$/.exec(name);
  if (inline) {
    name = inline[1];
    conditions.unshift(inline[2]);
  }
  return { name, unit, conditions, label: conditions.length ? `${name} at ${conditions.join(', ')}` : name };
}

/** A header level that is a number with a unit: a condition of the column ("650 °C", "0.7 V"). */
const BARE_QUANTITY = /^[-−]?\d[\d.,]*\s*\S{1,8}$/;

/** Words longer than five letters that are units. */
const LONG_UNITS = new Set(['hours', 'minutes', 'cycles', 'kelvin', 'celsius', 'months', 'weeks', 'seconds', 'volts', 'ohm·cm']);

export function looksLikeUnit(s: string): boolean {
  if (s.length === 0 || s.length > 18 || !/^[A-Za-zµμΩ°%‰·/\-−–^0-9⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺\s.]+$/.test(s)) return false;
  if (!/[A-Za-zµμΩ°%‰]/.test(s) || /^\d/.test(s)) return false;
  const words = s.split(/[\s·/]+/).filter(Boolean);
  return words.length <= 4 && words.every((w) => (w.match(/[A-Za-z]+/g) ?? []).every((run) => run.length <= 5 || LONG_UNITS.has(run.toLowerCase())));
}

/** Where each cell's value sits in its row's text. */
export interface CellSpan {
  column: number;
  start: number;
  end: number;
}

/**
 * A body row as text, with its cells' spans: "<header>: <value> <unit> at <conditions>" per non-empty cell, joined
 * by "; ". A unit is added only after a value that is a number (or a range of numbers) and does not carry a unit of
 * its own; a column's conditions follow its value, as prose states them ("911 mW cm−2 at 750 °C"), so a question's
 * condition ties the value it qualifies.
 */
export function rowText(table: ParsedTable, row: number): { text: string; cells: CellSpan[] } {
  let text = '';
  const cells: CellSpan[] = [];
  for (const [c, value] of table.rows[row].entries()) {
    if (!value) continue;
    const { name, unit, conditions } = columnUnit(table.columns[c] ?? []);
    const bare = /^[-−–+±~≈<>≤≥]?\s*\d[\d.,]*(?:\s*(?:±|[-–−]|to)\s*\d[\d.,]*)?$/.test(value);
    const shown = unit && bare ? `${value} ${unit}` : value;
    if (text) text += CELL_SEPARATOR;
    if (name) text += `${name}: `;
    cells.push({ column: c, start: text.length, end: text.length + shown.length });
    text += shown;
    if (conditions.length) text += ` at ${conditions.join(', ')}`;
  }
  return { text: text ? `${text}.` : '', cells };
}

/** What `rowText` writes between cells. */
const CELL_SEPARATOR = '; ';

/** A cell of a row's text read back: where it stands, its header (null for a column without one), value and conditions. */
export interface RowSegment {
  text: string;
  start: number;
  header: string | null;
  value: string;
  valueStart: number;
  conditions: string | null;
}

/**
 * A row paragraph's cells read back from its text, as `rowText` wrote them ("header: value[ at conditions]", joined
 * by "; "): the one reading of the format, for the value reader, the graph and the answers.
 */
export function rowSegments(text: string): RowSegment[] {
  const out: RowSegment[] = [];
  let at = 0;
  for (const part of text.replace(/\.$/, '').split(CELL_SEPARATOR)) {
    const m = /^([^:;]{1,120}): (.+?)(?: at ([^;]+))?$/.exec(part);
    out.push(
      m
        ? { text: part, start: at, header: m[1], value: m[2], valueStart: at + m[1].length + 2, conditions: m[3] ?? null }
        : { text: part, start: at, header: null, value: part, valueStart: at, conditions: null },
    );
    at += part.length + CELL_SEPARATOR.length;
  }
  return out;
}

/** Whether a text reads as a table row: two or more cells, each with its header. */
export function isRowText(text: string): boolean {
  const segments = rowSegments(text);
  return segments.length > 1 && segments.every((x) => x.header !== null);
}

/** The cell whose value covers character `offset` of its row's text (the start of a cited span), or null. */
export function cellAt<C extends CellSpan>(cells: C[], start: number, end = start + 1): C | null {
  return cells.find((c) => start < c.end && end > c.start) ?? null;
}

/** A table's caption paragraph and one paragraph per body row, in reading order. */
export function tableParagraphs(table: ParsedTable): ParsedParagraph[] {
  const section = table.label ?? 'Table';
  const out: ParsedParagraph[] = [];
  const caption = [table.label, table.caption].filter(Boolean).join(' ');
  if (caption) out.push({ text: caption, section: 'Table caption', kind: 'caption' });
  for (let r = 0; r < table.rows.length; r++) {
    const { text } = rowText(table, r);
    if (text) out.push({ text, section, kind: 'table', externalId: rowExternalId(table.id, r) });
  }
  return out;
}
