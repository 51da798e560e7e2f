import { cellAddress, cellAt, columnUnit, type ParsedTable, parseRowExternalId, rowText } from '../ingest/tables.ts';
import type { Evidence } from '../evidence/model.ts';
import { propertyEntry } from '../structure/properties.ts';
import { plainTerms } from '../structure/terms.ts';

/**
 * Table rows in the index: a row's paragraph (kind `table`, lib/ingest/tables.ts) knows its table, its row and
 * where each cell's value stands in its text, so a value read from the row is cited to its cell.
 */
export interface TableRowCells {
  tableId: string;
  label: string | null;
  row: number;
  cells: { column: number; header: string; start: number; end: number }[];
}

/** The cells of a table row's paragraph, from its paper's stored tables; nothing when they do not match its text. */
export function tableRowOf(tables: unknown, externalId: string | null, text: string): { table?: TableRowCells } {
  const ref = parseRowExternalId(externalId);
  if (!ref || !Array.isArray(tables)) return {};
  const table = (tables as ParsedTable[]).find((t) => t?.id === ref.tableId);
  if (!table?.rows?.[ref.row] || !Array.isArray(table.columns)) return {};
  const written = rowText(table, ref.row);
  // The stored text is the reader's; a table changed since (or not written by this code) is left uncited by cell.
  if (written.text !== text) return {};
  return {
    table: {
      tableId: table.id,
      label: table.label,
      row: ref.row,
      cells: written.cells.map((c) => ({ ...c, header: columnUnit(table.columns[c.column] ?? []).label })),
    },
  };
}

/** The item with the cell its value (at `span` of its text) is read from, when it is a table row's paragraph. */
export function withValueCell(e: Evidence, row: TableRowCells | undefined, paragraphId: string, span: { start: number; end: number }): Evidence {
  const cell = row ? cellAt(row.cells, span.start, span.end) : null;
  if (!row || !cell) return e;
  return {
    ...e,
    provenance: [
      ...e.provenance.filter((p) => p.kind !== 'cell' && p.kind !== 'sentence'),
      // The cell is the sentence a value from a table stands in: the panel marks it, the answer quotes it.
      { kind: 'sentence', paragraphId, start: cell.start, end: cell.end, text: e.text.slice(cell.start, cell.end) },
      {
        kind: 'cell',
        paragraphId,
        address: cellAddress(row.tableId, row.row, cell.column),
        table: row.label,
        column: cell.header,
        start: cell.start,
        end: cell.end,
      },
    ],
  };
}

/** The plain terms of the lexicon names of a row's properties ("ASR" → area, specific, resistance). */
export function propertyNameTerms(properties: Iterable<string>): string[] {
  return [...properties].flatMap((key) => {
    const label = propertyEntry(key)?.label;
    return label ? plainTerms(label) : [];
  });
}
