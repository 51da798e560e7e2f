import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DOCUMENT_LIMITS } from '../../common/document-limits.ts';
import { corpusPapers, jatsXml, makePdf, recipeRows, teiXml, tempDir } from '../../testing/fixtures.ts';
import { detectReader } from '../detect.ts';
import { boundPaper } from '../limits.ts';
import { InputError } from '../types.ts';
import { seededRandom } from '../../common/random.ts';

/**
 * Every reader fed seeded corruptions of valid inputs: flipped and inserted bytes, truncations, NUL bytes and
 * invalid UTF-8, repeated slices, deep nesting, a huge line, and gzip (whole or cut). Whatever comes in, reading
 * ends, fast, with papers, records or per-item errors: never an exception other than the readers' own
 * `InputError`, never a hang. A failure names its format, seed and mutation, so it can be replayed.
 */

type Mutation = (input: Buffer, rnd: () => number) => Buffer;
const at = (rnd: () => number, n: number) => Math.floor(rnd() * n);

const MUTATIONS: Record<string, Mutation> = {
  flip: (b, rnd) => {
    const out = Buffer.from(b);
    for (let i = 0; i < 1 + at(rnd, 20); i++) out[at(rnd, out.length)] = at(rnd, 256);
    return out;
  },
  truncate: (b, rnd) => b.subarray(0, at(rnd, b.length)),
  insertBytes: (b, rnd) => {
    const i = at(rnd, b.length);
    return Buffer.concat([b.subarray(0, i), Buffer.from(Array.from({ length: 1 + at(rnd, 200) }, () => at(rnd, 256))), b.subarray(i)]);
  },
  nulAndBadUtf8: (b, rnd) => {
    const i = at(rnd, b.length);
    return Buffer.concat([b.subarray(0, i), Buffer.from([0, 0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80, 0]), b.subarray(i)]);
  },
  repeatSlice: (b, rnd) => {
    const i = at(rnd, b.length);
    const slice = b.subarray(i, i + 1 + at(rnd, 64));
    return Buffer.concat([b.subarray(0, i), Buffer.alloc(slice.length * 20_000).fill(slice), b.subarray(i)]);
  },
  deepNesting: (b, rnd) => {
    const depth = 2_000 + at(rnd, 20_000);
    const i = b.indexOf('</p>') >= 0 ? b.indexOf('</p>') : at(rnd, b.length);
    const open = rnd() < 0.5 ? '<sec>'.repeat(depth) : '['.repeat(depth);
    return Buffer.concat([b.subarray(0, i), Buffer.from(open), b.subarray(i)]);
  },
  hugeLine: (b, rnd) => {
    const i = at(rnd, b.length);
    return Buffer.concat([b.subarray(0, i), Buffer.from(`"${'x'.repeat(2_000_000 + at(rnd, 1_000_000))}"`), b.subarray(i)]);
  },
  bom: (b) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]),
};

interface Case {
  format: string;
  name: string;
  input: Buffer;
}

async function validInputs(): Promise<Case[]> {
  return [
    { format: 'corpus-jsonl', name: 'papers.jsonl', input: Buffer.from(`${corpusPapers.map((p) => JSON.stringify(p)).join('\n')}\n`) },
    { format: 'records-jsonl', name: 'sol-gel.jsonl', input: Buffer.from(`${recipeRows.map((r) => JSON.stringify(r)).join('\n')}\n`) },
    { format: 'tei', name: 'paper.tei.xml', input: Buffer.from(teiXml({ doi: '10.9999/fuzz.tei' })) },
    { format: 'jats', name: 'paper.xml', input: Buffer.from(jatsXml()) },
    { format: 'pdf', name: 'paper.pdf', input: Buffer.from(await makePdf({ doi: '10.9999/fuzz.pdf' })) },
    {
      format: 'text',
      name: 'notes.md',
      input: Buffer.from('# NiFe LDH on nickel foam\n\nNiFe LDH reached 10 mA cm⁻² at 1.48 V vs RHE.\n\n## Synthesis\n\nHydrothermal, 120 °C for 12 h.\n'),
    },
  ];
}

/** Reads a file the way an import does: detection, then the reader's items; what went wrong, if anything. */
async function readAll(file: string, display: string): Promise<{ items: number; unexpected: string | null }> {
  const detection = await detectReader(file, display);
  if (!('reader' in detection)) return { items: 0, unexpected: null };
  let items = 0;
  try {
    for await (const item of detection.reader.read(
      { path: file, displayName: display, size: fs.statSync(file).size },
      { maxItemBytes: 8 * 1024 * 1024, limits: DEFAULT_DOCUMENT_LIMITS },
    )) {
      items++;
      if (item.type === 'paper') {
        // What a reader hands on must be a paper the import can bound and store.
        expect(Array.isArray(item.paper.paragraphs)).toBe(true);
        for (const p of item.paper.paragraphs) expect(typeof p.text).toBe('string');
        boundPaper(item.paper, DEFAULT_DOCUMENT_LIMITS);
      }
    }
  } catch (error) {
    if (!(error instanceof InputError)) return { items, unexpected: `${(error as Error).name}: ${(error as Error).message}`.slice(0, 300) };
  }
  return { items, unexpected: null };
}

/** Cases per format and mutation; each seed is `format × mutation × round`. */
const ROUNDS = 3;
/** Slowest read allowed for any one corrupted file. */
const CASE_BUDGET_MS = 15_000;

describe('readers under seeded corruption', () => {
  it('end every corrupted input quickly with items or their own errors, never an unexpected exception', async () => {
    const dir = tempDir('assay-fuzz-');
    const failures: string[] = [];
    let slowest = { ms: 0, label: '' };
    let cases = 0;
    const t0 = performance.now();
    for (const [f, valid] of (await validInputs()).entries()) {
      for (const [m, [mutationName, mutate]] of Object.entries(MUTATIONS).entries()) {
        for (let round = 0; round < ROUNDS; round++) {
          const seed = f * 10_000 + m * 100 + round;
          const rnd = seededRandom(seed);
          let input = mutate(valid.input, rnd);
          let name = valid.name;
          // A third of the cases arrive gzipped, and some of those cut short.
          if (rnd() < 0.33) {
            input = zlib.gzipSync(input);
            name = `${name}.gz`;
            if (rnd() < 0.5) input = input.subarray(0, Math.max(10, at(rnd, input.length)));
          }
          const file = path.join(dir, `${seed}-${name}`);
          fs.writeFileSync(file, input);
          const label = `${valid.format} seed ${seed} ${mutationName}${name.endsWith('.gz') ? ' gzip' : ''}`;
          const t = performance.now();
          const { unexpected } = await readAll(file, name);
          const ms = performance.now() - t;
          cases++;
          if (unexpected) failures.push(`${label}: ${unexpected}`);
          if (ms > CASE_BUDGET_MS) failures.push(`${label}: took ${Math.round(ms)} ms`);
          if (ms > slowest.ms) slowest = { ms, label };
          fs.rmSync(file);
        }
      }
    }
    console.log(`${cases} corrupted inputs read in ${((performance.now() - t0) / 1000).toFixed(1)} s; slowest ${Math.round(slowest.ms)} ms (${slowest.label})`);
    expect(failures).toEqual([]);
  });
});
