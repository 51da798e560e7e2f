import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mavenClasspath } from '../../common/maven.ts';
import { tempDir } from '../../../scripts/test-support/fixtures.ts';
import { makeTablePdf } from '../../../scripts/test-support/table-fixtures.ts';
import { pdfReader } from '../readers/pdf.ts';
import type { ParsedPaper, ReaderItem } from '../types.ts';

/**
 * PDF tables through Tabula (Java, tabula-java from Maven Central), on an invented PDF whose values live only in a
 * ruled table. Skipped, saying why, on a machine without Java or Maven.
 */
function tabulaMissing(): string | null {
  if (spawnSync('java', ['-version']).error) return 'no java on PATH';
  try {
    mavenClasspath(path.join(import.meta.dirname, 'pom.xml'), 'tabula-1.0.5');
    return null;
  } catch (error) {
    return (error as Error).message.split('\n')[0];
  }
}
const missing = tabulaMissing();
if (missing) console.warn(`PDF table tests skipped: ${missing}`);

async function read(pdfTables: 'tabula' | 'off') {
  const file = path.join(tempDir(), 'pellets.pdf');
  fs.writeFileSync(file, await makeTablePdf());
  const items: ReaderItem[] = [];
  for await (const item of pdfReader.read({ path: file, displayName: 'pellets.pdf', size: fs.statSync(file).size }, { maxItemBytes: 1e8, pdfTables }))
    items.push(item);
  const paper = (items.find((i) => i.type === 'paper') as { paper: ParsedPaper } | undefined)?.paper;
  return { paper: paper!, errors: items.filter((i) => i.type === 'error') };
}

describe.skipIf(!!missing)('PDF tables (Tabula)', () => {
  it('reads a ruled table into rows with their headers and units, cited by cell, and out of the prose', async () => {
    const { paper, errors } = await read('tabula');
    expect(errors).toEqual([]);
    const rows = paper.paragraphs.filter((p) => p.kind === 'table');
    expect(rows.map((r) => r.text)).toEqual([
      'Pellet: Ce0.9Gd0.1O2; Sintering temperature: 1450 °C; Conductivity: 0.0214 S/cm.',
      'Pellet: Ce0.8Sm0.2O2; Sintering temperature: 1400 °C; Conductivity: 0.0347 S/cm.',
      'Pellet: Ce0.85Y0.15O2; Sintering temperature: 1500 °C; Conductivity: 0.0128 S/cm.',
    ]);
    expect(rows[0].externalId).toBe('table:P1T1#r1');
    // Placed after the table's caption, whose label and text the table carries.
    const caption = paper.paragraphs.findIndex((p) => p.text === 'Table 1. Conductivity of the pellets.');
    expect(paper.paragraphs[caption + 1].kind).toBe('table');
    expect((paper.meta as { tables: unknown[] }).tables[0]).toMatchObject({ id: 'P1T1', label: 'Table 1', caption: 'Conductivity of the pellets.' });
    // The table's numbers are not read again as a jumble of prose.
    expect(paper.paragraphs.filter((p) => p.kind !== 'table').some((p) => p.text.includes('0.0214'))).toBe(false);
    expect(paper.paragraphs.some((p) => p.text.startsWith('The samarium-doped pellet conducts best'))).toBe(true);
  });

  it('leaves the table in the prose when off, and imports the paper with a note when Java is missing', async () => {
    const off = await read('off');
    expect(off.paper.paragraphs.some((p) => p.kind === 'table')).toBe(false);
    expect(off.paper.paragraphs.some((p) => p.text.includes('0.0214'))).toBe(true);
    const saved = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      const { paper, errors } = await read('tabula');
      expect(paper.paragraphs.length).toBe(off.paper.paragraphs.length);
      expect(errors).toEqual([{ type: 'error', location: 'tables', reason: expect.stringMatching(/^tables not read: Java is needed for PDF tables/) }]);
    } finally {
      process.env.PATH = saved;
    }
  });
});
