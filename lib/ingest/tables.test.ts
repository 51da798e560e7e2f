import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../scripts/test-support/fixtures.ts';
import { jatsTableXml, teiTableXml } from '../../scripts/test-support/table-fixtures.ts';
import { jatsReader } from './readers/jats.ts';
import { teiReader } from './readers/tei.ts';
import {
  cellAddress,
  cellAt,
  columnUnit,
  expandSpans,
  headerUnit,
  parseRowExternalId,
  type ParsedTable,
  rowText,
  type SourceCell,
  tableFromRows,
} from './tables.ts';
import type { ParsedPaper, Reader } from './types.ts';

const cell = (text: string, extra: Partial<SourceCell> = {}): SourceCell => ({ text, colspan: 1, rowspan: 1, header: false, ...extra });

async function readPaper(reader: Reader, name: string, xml: string): Promise<ParsedPaper> {
  const file = path.join(tempDir(), name);
  fs.writeFileSync(file, xml);
  for await (const item of reader.read({ path: file, displayName: name, size: xml.length }, { maxItemBytes: 10_000_000 }))
    if (item.type === 'paper') return item.paper;
  throw new Error('no paper');
}

describe('tables', () => {
  it('expand row and column spans into a rectangular grid', () => {
    const grid = expandSpans([
      [cell('A', { rowspan: 2 }), cell('B', { colspan: 2 })],
      [cell('b1'), cell('b2')],
      [cell('1'), cell('2')],
    ]);
    expect(grid.map((r) => r.map((c) => c.text))).toEqual([
      ['A', 'B', 'B'],
      ['A', 'b1', 'b2'],
      ['1', '2', ''],
    ]);
  });

  it('read units from headers in every common spelling, and only things shaped like units', () => {
    expect(headerUnit('Power density (mW cm−2)')).toEqual({ name: 'Power density', unit: 'mW cm−2' });
    expect(headerUnit('σ [S cm−1]')).toEqual({ name: 'σ', unit: 'S cm−1' });
    expect(headerUnit('T / °C')).toEqual({ name: 'T', unit: '°C' });
    expect(headerUnit('Tc, K')).toEqual({ name: 'Tc', unit: 'K' });
    expect(headerUnit('μ0Hc2(0) (T)')).toEqual({ name: 'μ0Hc2(0)', unit: 'T' });
    expect(headerUnit('Sample (composition)').unit).toBeNull();
    expect(headerUnit('Material (this work, refined)').unit).toBeNull();
    expect(columnUnit(['Peak power density (mW cm−2)', '650 °C'])).toEqual({
      name: 'Peak power density',
      unit: 'mW cm−2',
      conditions: ['650 °C'],
      label: 'Peak power density at 650 °C',
    });
    expect(columnUnit(['σ at 600 °C (S cm−1)'])).toEqual({ name: 'σ', unit: 'S cm−1', conditions: ['600 °C'], label: 'σ at 600 °C' });
  });

  it('take an unmarked first row of words above rows of numbers for the header', () => {
    const t = tableFromRows(
      't',
      null,
      null,
      [],
      [
        [cell('Sample'), cell('a (Å)')],
        [cell('X'), cell('3.874')],
      ],
    )!;
    expect(t.columns).toEqual([['Sample'], ['a (Å)']]);
    expect(t.rows).toEqual([['X', '3.874']]);
    // A table of numbers only has no header.
    expect(
      tableFromRows(
        't',
        null,
        null,
        [],
        [
          [cell('1'), cell('2')],
          [cell('3'), cell('4')],
        ],
      )!.columns,
    ).toEqual([[], []]);
  });

  it('write a row with its headers, each number with its column unit, and map a span back to its cell', () => {
    const table: ParsedTable = {
      id: 'tab1',
      label: 'Table 1',
      caption: null,
      columns: [['Cathode'], ['ASR (Ω cm2)'], ['Peak power density (mW cm−2)', '750 °C'], ['Note']],
      rows: [['SSC', '0.094', '911', '']],
    };
    const { text, cells } = rowText(table, 0);
    expect(text).toBe('Cathode: SSC; ASR: 0.094 Ω cm2; Peak power density: 911 mW cm−2 at 750 °C.');
    const at = text.indexOf('911');
    expect(cellAt(cells, at, at + 3)).toEqual({ column: 2, start: at, end: at + '911 mW cm−2'.length });
    expect(cellAddress('tab1', 0, 2)).toBe('table:tab1#r1c3');
    expect(parseRowExternalId('table:tab1#r4')).toEqual({ tableId: 'tab1', row: 3 });
    expect(parseRowExternalId('mulms-sofc-01:p1')).toBeNull();
  });
});

describe('readers with tables', () => {
  it('JATS: a two-level header and a rowspan become columns; every body row is a paragraph citing its table row', async () => {
    const paper = await readPaper(jatsReader, 'tables.xml', jatsTableXml());
    const tables = paper.meta?.tables as ParsedTable[];
    expect(tables.map((t) => t.id)).toEqual(['tab1', 'tab2']);
    expect(tables[0].columns).toEqual([
      ['Cathode'],
      ['Sintering temperature (°C)'],
      ['ASR (Ω cm2)'],
      ['Peak power density (mW cm−2)', '650 °C'],
      ['Peak power density (mW cm−2)', '750 °C'],
    ]);
    expect(tables[0].rows).toHaveLength(4);
    expect(tables[1].columns).toEqual([['Sample'], ['a (Å)'], ['Space group']]);
    const rows = paper.paragraphs.filter((p) => p.kind === 'table');
    expect(rows).toHaveLength(6);
    expect(rows[2]).toEqual({
      kind: 'table',
      section: 'Table 1',
      externalId: 'table:tab1#r3',
      text: 'Cathode: Sm0.5Sr0.5CoO3; Sintering temperature: 1000 °C; ASR: 0.094 Ω cm2; Peak power density: 597 mW cm−2 at 650 °C; Peak power density: 911 mW cm−2 at 750 °C.',
    });
    expect(paper.paragraphs.filter((p) => p.kind === 'caption').map((p) => p.text)).toEqual([
      'Table 1 Electrochemical performance of the cathodes on Ni–YSZ supported cells.',
      'Table 2 Lattice parameters from Rietveld refinement.',
    ]);
  });

  it('TEI: label rows are the header, tables after the body are read, ids come from xml:id', async () => {
    const paper = await readPaper(teiReader, 'tables.tei.xml', teiTableXml());
    const [table] = (paper.meta?.tables ?? []) as ParsedTable[];
    expect(table).toMatchObject({ id: 'tab_0', label: 'Table 1', caption: 'Superconducting parameters of the compounds.' });
    expect(table.columns).toEqual([['Compound'], ['Tc (K)'], ['μ0Hc2(0) (T)']]);
    const rows = paper.paragraphs.filter((p) => p.kind === 'table');
    expect(rows.map((r) => r.text)).toContain('Compound: Mo3Al2C; Tc: 9.1 K; μ0Hc2(0): 15.4 T.');
    expect(rows.map((r) => r.externalId)).toEqual(['table:tab_0#r1', 'table:tab_0#r2', 'table:tab_0#r3']);
  });
});
