import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { DEFAULT_DOCUMENT_LIMITS } from '../../lib/common/document-limits.ts';
import { seededRandom } from '../../lib/common/random.ts';
import { corpusPapers, jatsXml, makePdf, recipeRows, teiXml } from './fixtures.ts';
import { detectReader } from '../../lib/ingest/detect.ts';
import { boundPaper } from '../../lib/ingest/limits.ts';
import { InputError } from '../../lib/ingest/types.ts';

/**
 * Seeded corruptions of a valid input of every format: flipped and inserted bytes, truncations, NUL bytes and
 * invalid UTF-8, repeated slices, deep nesting, a huge line, and gzip (whole or cut). The fuzz test asserts what
 * reading each one ends with; `npm run bench -- fuzz` times them (a time limit belongs in a benchmark, where a busy
 * machine shows as a figure rather than as a failed test). Each case names its format, seed and mutation, so it can
 * be replayed.
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

/** One valid input per format the import reads. */
async function validInputs(): Promise<{ format: string; name: string; input: Buffer }[]> {
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

export interface FuzzCase {
  format: string;
  mutation: string;
  seed: number;
  /** The file name the import sees (`.gz` when the case arrives gzipped). */
  name: string;
  /** `format seed N mutation [gzip]`: enough to replay it. */
  label: string;
  input: Buffer;
}

/** Every case, `format × mutation × round`, in a fixed order; a third arrive gzipped, some of those cut short. */
export async function* fuzzCases(rounds = 3): AsyncGenerator<FuzzCase> {
  for (const [f, valid] of (await validInputs()).entries()) {
    for (const [m, [mutation, mutate]] of Object.entries(MUTATIONS).entries()) {
      for (let round = 0; round < rounds; round++) {
        const seed = f * 10_000 + m * 100 + round;
        const rnd = seededRandom(seed);
        let input = mutate(valid.input, rnd);
        let name = valid.name;
        if (rnd() < 0.33) {
          input = zlib.gzipSync(input);
          name = `${name}.gz`;
          if (rnd() < 0.5) input = input.subarray(0, Math.max(10, at(rnd, input.length)));
        }
        const label = `${valid.format} seed ${seed} ${mutation}${name.endsWith('.gz') ? ' gzip' : ''}`;
        yield { format: valid.format, mutation, seed, name, label, input };
      }
    }
  }
}

export interface FuzzOutcome {
  /** Papers, records or per-item errors the reader handed on. */
  items: number;
  /** An exception other than the readers' own InputError, or a paper the import could not store. */
  unexpected: string | null;
}

/** Reads a case the way an import does (detection, then the reader's items) from a file in `dir`. */
export async function readFuzzCase(c: FuzzCase, dir: string): Promise<FuzzOutcome> {
  const file = path.join(dir, `${c.seed}-${c.name}`);
  fs.writeFileSync(file, c.input);
  try {
    const detection = await detectReader(file, c.name);
    if (!('reader' in detection)) return { items: 0, unexpected: null };
    let items = 0;
    try {
      for await (const item of detection.reader.read(
        { path: file, displayName: c.name, size: c.input.length },
        { maxItemBytes: 8 * 1024 * 1024, limits: DEFAULT_DOCUMENT_LIMITS },
      )) {
        items++;
        if (item.type === 'paper') {
          // What a reader hands on must be a paper the import can bound and store.
          if (!Array.isArray(item.paper.paragraphs) || item.paper.paragraphs.some((p) => typeof p.text !== 'string'))
            return { items, unexpected: 'a paper whose paragraphs are not text' };
          boundPaper(item.paper, DEFAULT_DOCUMENT_LIMITS);
        }
      }
    } catch (error) {
      if (!(error instanceof InputError)) return { items, unexpected: `${(error as Error).name}: ${(error as Error).message}`.slice(0, 300) };
    }
    return { items, unexpected: null };
  } finally {
    fs.rmSync(file, { force: true });
  }
}
