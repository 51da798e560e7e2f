import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Readable } from 'node:stream';
import { InputError } from './types.ts';

export const isGzip = (head: Uint8Array) => head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;

async function rawHead(filePath: string, bytes: number): Promise<Buffer> {
  const fd = await fs.promises.open(filePath, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fd.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fd.close();
  }
}

/** First bytes of a file, decompressed when it is gzip (so detection sees the content). */
export async function readHead(filePath: string, bytes = 64 * 1024): Promise<Buffer> {
  const raw = await rawHead(filePath, bytes);
  if (!isGzip(raw)) return raw;
  const chunks: Buffer[] = [];
  let total = 0;
  const stream = fs.createReadStream(filePath).pipe(zlib.createGunzip());
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      total += chunk.length;
      if (total >= bytes) break;
    }
  } catch {
    /* corrupt gzip: detection works on what could be read; the reader reports the error */
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, bytes);
}

/** A byte stream of the file's content, gunzipped when needed. */
export async function openContentStream(filePath: string): Promise<Readable> {
  const head = await rawHead(filePath, 2);
  const raw = fs.createReadStream(filePath);
  if (!isGzip(head)) return raw;
  const gunzip = zlib.createGunzip();
  raw.on('error', (e) => gunzip.destroy(e));
  return raw.pipe(gunzip);
}

/** The whole (decompressed) content, refusing files larger than `maxBytes` with a clear error. */
export async function readWhole(filePath: string, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of (await openContentStream(filePath)) as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) {
        throw new InputError(`the file is larger than the ${Math.round(maxBytes / 1048576)} MiB limit for this format`);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`could not read the file: ${(error as Error).message}`);
  }
  return Buffer.concat(chunks);
}

export type Line = { lineNo: number; text: string } | { lineNo: number; error: string };

/**
 * Splits a byte stream into UTF-8 lines without ever holding more than `maxLineBytes` of one line: an
 * over-long line is skipped to its end and reported, so one bad line cannot exhaust memory.
 */
export async function* readLines(stream: Readable, maxLineBytes: number): AsyncGenerator<Line> {
  let parts: Buffer[] = [];
  let partBytes = 0;
  let oversized = false;
  let lineNo = 1;
  const decoder = () => new TextDecoder('utf-8', { fatal: true });
  const finish = (): Line | null => {
    const no = lineNo++;
    if (oversized) {
      oversized = false;
      parts = [];
      partBytes = 0;
      return { lineNo: no, error: `line is longer than ${maxLineBytes} bytes; skipped` };
    }
    const buf = parts.length === 1 ? parts[0] : Buffer.concat(parts);
    parts = [];
    partBytes = 0;
    try {
      return { lineNo: no, text: decoder().decode(buf).replace(/\r$/, '') };
    } catch {
      return { lineNo: no, error: 'line is not valid UTF-8' };
    }
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      while (start < chunk.length) {
        const nl = chunk.indexOf(0x0a, start);
        const end = nl === -1 ? chunk.length : nl;
        if (!oversized) {
          const piece = chunk.subarray(start, end);
          if (partBytes + piece.length > maxLineBytes) {
            oversized = true;
            parts = [];
            partBytes = 0;
          } else if (piece.length) {
            parts.push(Buffer.from(piece));
            partBytes += piece.length;
          }
        }
        if (nl === -1) break;
        const line = finish();
        if (line) yield line;
        start = nl + 1;
      }
    }
  } catch (error) {
    throw new InputError(`the file could not be read past line ${lineNo - 1}: ${(error as Error).message}`, `line ${lineNo}`);
  }
  if (partBytes > 0 || oversized) {
    const line = finish();
    if (line) yield line;
  }
}

const skippedNames = /^(readme|license|licence|copying|changelog|notice)(\.[a-z0-9]+)*$/i;

/**
 * The files a list of paths stands for. Folders are walked recursively in name order; hidden files and
 * documentation files (README, LICENSE …) inside folders are not papers and are skipped.
 */
export async function expandInputs(inputs: string[]): Promise<{ files: string[]; missing: string[] }> {
  const files: string[] = [];
  const missing: string[] = [];
  const walk = async (dir: string) => {
    const entries = await fs.promises.readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const full = path.join(dir, e.name);
      if (e.isDirectory()) await walk(full);
      else if (e.isFile() && !skippedNames.test(e.name)) files.push(full);
    }
  };
  for (const input of inputs) {
    const stat = await fs.promises.stat(input).catch(() => null);
    if (!stat) missing.push(input);
    else if (stat.isDirectory()) await walk(input);
    else files.push(input);
  }
  return { files: [...new Set(files)], missing };
}
