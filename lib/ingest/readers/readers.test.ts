import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { detectReader } from '../detect.ts';
import { InputError, type ParsedPaper, type Reader, type ReaderItem } from '../types.ts';
import { corpusJsonlReader } from './corpus-jsonl.ts';
import { recordsJsonlReader } from './records-jsonl.ts';
import { teiReader } from './tei.ts';
import { jatsReader } from './jats.ts';
import { pdfReader } from './pdf.ts';
import { textReader } from './text.ts';
import {
  corpusPapers,
  jatsXml,
  makePdf,
  recipeRows,
  solarchemRow,
  teiXml,
  tempDir,
  writeCorpusJsonl,
  writeRecordsJsonl,
} from '../../../scripts/test-support/fixtures.ts';
import { sharedDataDir } from '../../common/shared-data.ts';

const ctx = { maxItemBytes: 4 * 1024 * 1024 };
const dir = tempDir();
let n = 0;
function write(name: string, content: string | Uint8Array): string {
  const file = path.join(dir, `${++n}-${name}`);
  fs.writeFileSync(file, content);
  return file;
}
async function readAll(reader: Reader, file: string): Promise<ReaderItem[]> {
  const out: ReaderItem[] = [];
  for await (const item of reader.read({ path: file, displayName: path.basename(file), size: fs.statSync(file).size }, ctx)) out.push(item);
  return out;
}
async function onePaper(reader: Reader, file: string): Promise<ParsedPaper> {
  const items = await readAll(reader, file);
  expect(items).toHaveLength(1);
  const item = items[0];
  if (item.type !== 'paper') throw new Error(`expected a paper, got ${JSON.stringify(item)}`);
  return item.paper;
}

describe('corpus JSON lines', () => {
  it('reads papers with paragraphs, sections, DOIs and paragraph ids (plain and gzip)', async () => {
    for (const gzip of [false, true]) {
      const file = writeCorpusJsonl(dir, `c${++n}.jsonl`, corpusPapers, gzip);
      const items = await readAll(corpusJsonlReader, file);
      expect(items.map((i) => i.type)).toEqual(['paper', 'paper', 'paper']);
      const p = (items[0] as { paper: ParsedPaper }).paper;
      expect(p.doi).toBe('10.9999/demo.sofc.2021.001');
      expect(p.sourceId).toBe('demo-sofc-01');
      expect(p.paragraphs[0]).toMatchObject({ kind: 'abstract', section: 'Abstract', externalId: 'demo-sofc-01:p1' });
      expect(p.abstract).toContain('812 mW cm−2');
      expect((items[2] as { paper: ParsedPaper }).paper.doi).toBeNull();
    }
  });
  it('reports each bad line with its number and keeps the good ones', async () => {
    const lines = [
      JSON.stringify(corpusPapers[0]),
      '{"id": "broken", ',
      JSON.stringify({ id: 'x', source: 'Demo', paragraphs: [] }),
      '[1,2,3]',
      JSON.stringify(corpusPapers[1]),
      'z'.repeat(5 * 1024 * 1024),
      '',
    ];
    const items = await readAll(corpusJsonlReader, write('bad.jsonl', lines.join('\n')));
    expect(items.filter((i) => i.type === 'paper')).toHaveLength(2);
    const errors = items.filter((i): i is Extract<ReaderItem, { type: 'error' }> => i.type === 'error');
    expect(errors.map((e) => e.location)).toEqual(['line 2', 'line 3', 'line 4', 'line 6']);
    expect(errors[0].reason).toMatch(/invalid JSON/);
    expect(errors[1].reason).toMatch(/at least one paragraph/);
    expect(errors[3].reason).toMatch(/longer than/);
  });
});

describe('record JSON lines', () => {
  it('recognises recipes and SolarChem rows and keeps the row unchanged as data', async () => {
    const file = writeRecordsJsonl(dir, 'sol-gel.jsonl', [...recipeRows, solarchemRow, { hello: 'world' }], true);
    const items = await readAll(recordsJsonlReader, file);
    expect(items.map((i) => (i.type === 'record' ? i.record.kind : i.type))).toEqual(['sol-gel-recipe', 'sol-gel-recipe', 'solarchem-experiment', 'error']);
    const first = items[0] as Extract<ReaderItem, { type: 'record' }>;
    expect(first.record).toMatchObject({ source: 'sol-gel', doi: '10.9999/demo.battery.2019.002', title: recipeRows[0].reaction_string });
    expect(first.record.data).toEqual(recipeRows[0]);
    expect((items[2] as Extract<ReaderItem, { type: 'record' }>).record.title).toBe('TiO2 + Pt (UV)');
  });
});

describe('TEI XML', () => {
  it('extracts header metadata, abstract, sections from div/head, paragraphs and captions in order', async () => {
    const p = await onePaper(teiReader, write('a.tei.xml', teiXml({ doi: 'https://doi.org/10.9999/DEMO.TEI.1' })));
    expect(p.title).toBe('Proton conduction in BaZr0.8Y0.2O3−δ thin films');
    expect(p.doi).toBe('10.9999/demo.tei.1');
    expect(p.authors).toEqual(['Rosalind Franklin', 'Lise M Meitner']);
    expect(p.journal).toBe('Invented Solid State Ionics');
    expect(p.year).toBe(2020);
    expect(p.license).toBe('https://creativecommons.org/licenses/by/4.0/');
    expect(p.paragraphs.map((x) => [x.kind, x.section])).toEqual([
      ['abstract', 'Abstract'],
      ['body', '1. Introduction'],
      ['body', '2. Experimental'],
      ['body', '2. Experimental'],
      ['caption', 'Figure caption'],
      ['caption', 'Table caption'],
    ]);
    expect(p.paragraphs[0].text).toBe('Yttrium-doped barium zirconate films showed a proton conductivity of 0.01 S cm−1 at 600 °C.');
    expect(p.paragraphs[2].text).toContain('750 °C & 0.1 mbar O2.');
    expect(p.paragraphs[4].text).toBe('Fig. 1 1 Arrhenius plot of the film conductivity.');
    expect(p.paragraphs.some((x) => x.text.includes('A cited paper'))).toBe(false);
  });
  it('reads the real GROBID TEI samples in the shared data', async (t) => {
    const samples = sharedDataDir('samples/tei');
    if (!samples) return t.skip('../shared/data/samples/tei is absent; set ASSAY_SHARED_DATA to run this test');
    const files = fs.readdirSync(samples).filter((f) => f.endsWith('.xml'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const p = await onePaper(teiReader, path.join(samples, f));
      expect(p.title, f).toBeTruthy();
      expect(p.paragraphs.length, f).toBeGreaterThan(3);
      expect(
        p.paragraphs.some((x) => x.kind === 'abstract'),
        f,
      ).toBe(true);
      expect(
        p.paragraphs.every((x) => !/<rs|<\/?p>/.test(x.text)),
        f,
      ).toBe(true);
    }
  });
  it('reports truncated XML with line and column', async () => {
    const xml = teiXml();
    await expect(readAll(teiReader, write('cut.xml', xml.slice(0, Math.floor(xml.length * 0.6))))).rejects.toMatchObject({
      message: expect.stringMatching(/malformed XML/),
      location: expect.stringMatching(/^line \d+, column \d+$/),
    });
  });
  it('rejects entity-expansion bombs, empty files and documents of another kind', async () => {
    const bomb = '<?xml version="1.0"?><!DOCTYPE TEI [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><TEI><text><body><p>&b;</p></body></text></TEI>';
    await expect(readAll(teiReader, write('bomb.xml', bomb))).rejects.toThrow(/entity declarations/);
    await expect(readAll(teiReader, write('empty.xml', ''))).rejects.toThrow(/empty/);
    await expect(readAll(teiReader, write('jats.xml', jatsXml()))).rejects.toThrow(/expected a <TEI> root/);
  });
  it('honours a declared ISO-8859-1 encoding and rejects undeclared non-UTF-8 bytes', async () => {
    const latin = Buffer.from(teiXml().replace('encoding="UTF-8"', 'encoding="ISO-8859-1"').replace(/[−δ]/g, '-'), 'latin1');
    const p = await onePaper(teiReader, write('latin.xml', latin));
    expect(p.paragraphs[0].text).toContain('600 °C');
    const wrong = Buffer.from(teiXml().replace(/[−δ]/g, '-'), 'latin1');
    await expect(readAll(teiReader, write('wrong.xml', wrong))).rejects.toThrow(/not valid UTF-8/);
  });
});

describe('JATS XML', () => {
  it('extracts front matter, nested sections, figure captions, and tables as a caption and their rows', async () => {
    const p = await onePaper(jatsReader, write('a.jats.xml', jatsXml({ pmcid: '1234567' })));
    expect(p).toMatchObject({
      title: 'Nickel–yttria-stabilised zirconia anodes under methane',
      doi: '10.9999/demo.jats.2018.004',
      sourceId: 'PMC1234567',
      authors: ['Emmy Noether'],
      journal: 'Invented Reports',
      year: 2018,
      license: 'http://creativecommons.org/licenses/by/4.0/',
    });
    expect(p.paragraphs.map((x) => [x.section, x.text])).toEqual([
      ['Abstract', 'Ni–YSZ anodes lost 4% of their performance over 500 h in dry methane at 800 °C.'],
      ['Introduction', 'Carbon deposition limits direct methane operation1.'],
      ['Cell fabrication', 'Anode-supported cells were co-sintered at 1350 °C.'],
      ['Figure caption', 'Figure 1 Cross-section of the anode.'],
      ['Cell fabrication', 'The power density was 0.45 W cm−2 at 0.7 V.'],
      ['Table caption', 'Table 1 Cell performance summary.'],
      ['Table 1', '0.45.'],
    ]);
  });
  it('reports a JATS file without article metadata or with binary junk', async () => {
    await expect(readAll(jatsReader, write('nometa.xml', '<article><body><p>x</p></body></article>'))).rejects.toThrow(/article-meta/);
    await expect(readAll(jatsReader, write('junk.xml', Buffer.from([0x3c, 0x61, 0x00, 0xff, 0x13])))).rejects.toBeInstanceOf(InputError);
  });
});

describe('PDF', () => {
  it('rebuilds title, headings, paragraphs and hyphenated words from the layout', async () => {
    const p = await onePaper(pdfReader, write('a.pdf', await makePdf({ doi: '10.9999/demo.pdf.5' })));
    expect(p.title).toBe('Thermal expansion of doped ceria electrolytes');
    expect(p.doi).toBe('10.9999/demo.pdf.5');
    const abstract = p.paragraphs.find((x) => x.kind === 'abstract');
    expect(abstract?.text).toBe(
      'Gadolinium-doped ceria expands by 12.5 ppm per kelvin between 300 and 1000 K, a value we measured by dilatometry on dense pellets sintered at 1450 °C.',
    );
    const intro = p.paragraphs.filter((x) => x.section === 'Introduction');
    expect(intro).toHaveLength(2);
    expect(intro[0].text).toContain('Its thermal expansion must match the electrodes.');
    const experimental = p.paragraphs.filter((x) => x.section === 'Experimental');
    expect(experimental.length).toBeGreaterThan(0);
    expect(experimental.at(-1)?.page).toBeGreaterThanOrEqual(1);
    expect(p.paragraphs.map((x) => x.text).join(' ')).toContain('Sample 40 was heated');
  });
  it('reports corrupt and text-less PDFs clearly', async () => {
    const good = await makePdf();
    await expect(readAll(pdfReader, write('cut.pdf', good.subarray(0, 400)))).rejects.toBeInstanceOf(InputError);
    const { PDFDocument } = await import('pdf-lib');
    const blank = await PDFDocument.create();
    blank.addPage();
    await expect(readAll(pdfReader, write('blank.pdf', await blank.save()))).rejects.toThrow(/no extractable text/);
  });
});

describe('text and Markdown', () => {
  it('splits Markdown into title, sections and paragraphs and strips markup', async () => {
    const md =
      '# Layered double hydroxides\n\n## Synthesis\nNiFe **LDH** was grown on [nickel foam](http://x) at 120 °C.\n\nThen washed.\n\n```\ncode\n```\n\n## Results\n- The overpotential was 230 mV at 10 mA cm⁻².\n';
    const p = await onePaper(textReader, write('notes.md', md));
    expect(p.title).toBe('Layered double hydroxides');
    expect(p.paragraphs).toEqual([
      { text: 'NiFe LDH was grown on nickel foam at 120 °C.', section: 'Synthesis', kind: 'body' },
      { text: 'Then washed.', section: 'Synthesis', kind: 'body' },
      { text: 'The overpotential was 230 mV at 10 mA cm⁻².', section: 'Results', kind: 'body' },
    ]);
  });
  it('reads plain text with a title line, headings and a DOI label', async () => {
    const txt =
      'Hydrothermal growth of ZnO nanorods\n\ndoi: 10.9999/demo.txt.6\n\nIntroduction\n\nZnO nanorods were grown at 90 °C for 6 h.\nThe rods were 2 µm long.\n';
    const p = await onePaper(textReader, write('paper.txt', txt));
    expect(p.title).toBe('Hydrothermal growth of ZnO nanorods');
    expect(p.doi).toBe('10.9999/demo.txt.6');
    expect(p.paragraphs.at(-1)).toEqual({ text: 'ZnO nanorods were grown at 90 °C for 6 h. The rods were 2 µm long.', section: 'Introduction', kind: 'body' });
  });
  it('rejects empty, binary and non-UTF-8 text', async () => {
    await expect(readAll(textReader, write('empty.txt', '  \n'))).rejects.toThrow(/empty/);
    await expect(readAll(textReader, write('bin.txt', Buffer.from([1, 2, 0, 4, 5])))).rejects.toThrow(/binary/);
    await expect(readAll(textReader, write('latin.txt', Buffer.from('800 \xb0C', 'latin1')))).rejects.toThrow(/not valid UTF-8/);
  });
});

describe('detectReader', () => {
  it('routes files by content, including gzip and misleading names', async () => {
    const cases: [string, string | Uint8Array, string][] = [
      ['x.xml', teiXml(), 'tei'],
      ['y.xml', jatsXml(), 'jats'],
      ['paper.bin', await makePdf(), 'pdf'],
      ['c.jsonl', `${JSON.stringify(corpusPapers[0])}\n`, 'corpus-jsonl'],
      ['r.jsonl.gz', zlib.gzipSync(`${JSON.stringify(recipeRows[0])}\n`), 'records-jsonl'],
      ['notes.md', '# Title\n\ntext', 'text'],
    ];
    for (const [name, content, expected] of cases) {
      const d = await detectReader(write(name, content), name);
      expect('reader' in d ? d.reader.name : JSON.stringify(d), name).toBe(expected);
    }
  });
  it('skips unknown JSON lines and refuses binary, HTML and other XML with reasons', async () => {
    expect(await detectReader(write('q.jsonl', '{"question":"?"}\n'))).toMatchObject({ skip: expect.stringMatching(/neither/) });
    expect(await detectReader(write('x.docx', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0])))).toMatchObject({
      error: expect.stringMatching(/unsupported binary/),
    });
    expect(await detectReader(write('p.html', '<html><body>x</body></html>'))).toMatchObject({ error: expect.stringMatching(/HTML/) });
    expect(await detectReader(write('s.xml', '<svg></svg>'))).toMatchObject({ error: expect.stringMatching(/root <svg>/) });
    expect(await detectReader(write('e.txt', ''))).toMatchObject({ error: 'the file is empty' });
  });
});
