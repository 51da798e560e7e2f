import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { expandInputs, openContentStream, readHead, readLines, type Line } from './files.ts';
import { tempDir } from '../../scripts/test-support/fixtures.ts';

async function collect(it: AsyncIterable<Line>): Promise<Line[]> {
  const out: Line[] = [];
  for await (const l of it) out.push(l);
  return out;
}

describe('readLines', () => {
  it('splits on newlines across chunk boundaries and strips CR', async () => {
    const stream = Readable.from([Buffer.from('ab'), Buffer.from('c\r\nde'), Buffer.from('f\n'), Buffer.from('last')]);
    expect(await collect(readLines(stream, 100))).toEqual([
      { lineNo: 1, text: 'abc' },
      { lineNo: 2, text: 'def' },
      { lineNo: 3, text: 'last' },
    ]);
  });
  it('skips an over-long line with an error and carries on with the next', async () => {
    const huge = 'x'.repeat(5000);
    const stream = Readable.from([Buffer.from(`ok\n${huge}`), Buffer.from(`${huge}\nafter\n`)]);
    const lines = await collect(readLines(stream, 1000));
    expect(lines).toEqual([
      { lineNo: 1, text: 'ok' },
      { lineNo: 2, error: 'line is longer than 1000 bytes; skipped' },
      { lineNo: 3, text: 'after' },
    ]);
  });
  it('reports a line that is not UTF-8 without losing its neighbours', async () => {
    const stream = Readable.from([Buffer.concat([Buffer.from('a\n'), Buffer.from([0xff, 0xfe, 0x41]), Buffer.from('\nb\n')])]);
    const lines = await collect(readLines(stream, 100));
    expect(lines[1]).toEqual({ lineNo: 2, error: 'line is not valid UTF-8' });
    expect(lines[2]).toEqual({ lineNo: 3, text: 'b' });
  });
});

describe('gzip handling', () => {
  it('reads gzip content transparently and sniffs the decompressed head', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'x.jsonl.gz');
    fs.writeFileSync(file, zlib.gzipSync('{"a":1}\n{"a":2}\n'));
    expect((await readHead(file)).toString()).toBe('{"a":1}\n{"a":2}\n');
    expect(await collect(readLines(await openContentStream(file), 100))).toHaveLength(2);
  });
  it('turns a truncated gzip file into an error after the lines it could read', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'cut.jsonl.gz');
    const full = zlib.gzipSync(Array.from({ length: 2000 }, (_, i) => `{"line":${i}}`).join('\n'));
    fs.writeFileSync(file, full.subarray(0, Math.floor(full.length / 2)));
    const seen: Line[] = [];
    await expect(async () => {
      for await (const l of readLines(await openContentStream(file), 1000)) seen.push(l);
    }).rejects.toThrow(/could not be read past line/);
    expect(seen.length).toBeGreaterThan(0);
  });
});

describe('expandInputs', () => {
  it('walks folders in name order, skipping hidden and documentation files, and reports missing paths', async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.writeFileSync(path.join(dir, 'b.xml'), '<x/>');
    fs.writeFileSync(path.join(dir, 'README.md'), '# docs');
    fs.writeFileSync(path.join(dir, '.hidden.txt'), 'no');
    fs.writeFileSync(path.join(dir, 'sub', 'a.txt'), 'yes');
    const res = await expandInputs([dir, path.join(dir, 'nope.pdf')]);
    expect(res.files.map((f) => path.relative(dir, f))).toEqual(['b.xml', 'sub/a.txt']);
    expect(res.missing).toEqual([path.join(dir, 'nope.pdf')]);
  });
});
