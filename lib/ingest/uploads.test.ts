import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../scripts/test-support/fixtures.ts';
import { hasControlChars } from '../common/control-chars.mjs';
import { receiveUploads, removeUploadBatch, safeName, UploadError } from './uploads.ts';

const BOUNDARY = 'assay-test-boundary';
const contentType = `multipart/form-data; boundary=${BOUNDARY}`;
const enc = new TextEncoder();
const head = (name: string, field = 'files') =>
  enc.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
const tail = enc.encode(`\r\n--${BOUNDARY}--\r\n`);

/** A multipart body of small files, as one stream. */
function body(files: [string, string][]): ReadableStream<Uint8Array> {
  const parts = files.flatMap(([name, content], i) => [...(i ? [enc.encode('\r\n')] : []), head(name), enc.encode(content)]);
  return new Blob([...parts, tail]).stream();
}

/** A multipart body with one file of `megabytes` MiB, produced as it is read; `pulled` counts what was read. */
function hugeBody(megabytes: number): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let sent = 0;
  const chunk = new Uint8Array(64 * 1024).fill(120);
  let state: 'head' | 'data' | 'tail' | 'done' = 'head';
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state === 'head') {
        controller.enqueue(head('huge.txt'));
        state = 'data';
      } else if (state === 'data') {
        controller.enqueue(chunk);
        sent += chunk.length;
        if (sent >= megabytes * 1048576) state = 'tail';
      } else if (state === 'tail') {
        controller.enqueue(tail);
        state = 'done';
      } else controller.close();
    },
  });
  return { stream, pulled: () => sent };
}

describe('receiveUploads', () => {
  it('stores every file under the data folder with a safe name and remembers the original name', async () => {
    const dir = tempDir();
    const { paths, names } = await receiveUploads(
      {
        contentType,
        body: body([
          ['../../etc/passwd', 'x'],
          ['a paper.pdf', 'pdf'],
        ]),
      },
      dir,
      1000,
    );
    for (const p of paths) expect(p.startsWith(path.join(dir, 'uploads'))).toBe(true);
    expect(paths.map((p) => path.basename(p))).toEqual(['001-passwd', '002-a paper.pdf']);
    expect(names.get(paths[0])).toBe('../../etc/passwd');
    expect(fs.readFileSync(paths[1], 'utf8')).toBe('pdf');
  });

  it('a name with a NUL through filename*= keeps no control character in its shown name, and is written safely', async () => {
    const dir = tempDir();
    const raw = enc.encode(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename*=UTF-8''evil%00name%01.txt\r\nContent-Type: text/plain\r\n\r\nhello${`\r\n--${BOUNDARY}--\r\n`}`,
    );
    const { paths, names } = await receiveUploads({ contentType, body: new Blob([raw]).stream() }, dir, 1000);
    expect(paths).toHaveLength(1);
    expect(names.get(paths[0])).toBe('evilname.txt');
    expect(hasControlChars(path.basename(paths[0]))).toBe(false);
    // And a batch no run took is removed whole.
    await removeUploadBatch(paths);
    expect(fs.existsSync(path.dirname(paths[0]))).toBe(false);
  });

  it('stops reading a body past the limit, whatever its headers said, and keeps nothing of it', async () => {
    const dir = tempDir();
    const huge = hugeBody(200);
    await expect(receiveUploads({ contentType, body: huge.stream }, dir, 1048576)).rejects.toMatchObject({
      status: 413,
      message: 'the upload is larger than the 1 MiB limit (ASSAY_MAX_UPLOAD_MB)',
    });
    // Reading stopped near the limit: the other 199 MiB were never pulled.
    expect(huge.pulled()).toBeLessThan(4 * 1048576);
    expect(fs.readdirSync(path.join(dir, 'uploads'))).toEqual([]);
  });

  it('counts the limit over all the files of an upload', async () => {
    const dir = tempDir();
    const files: [string, string][] = Array.from({ length: 5 }, (_, i) => [`f${i}.txt`, 'x'.repeat(300)]);
    await expect(receiveUploads({ contentType, body: body(files) }, dir, 1000)).rejects.toMatchObject({ status: 413 });
    expect(fs.readdirSync(path.join(dir, 'uploads'))).toEqual([]);
  });

  it('refuses what is not a multipart upload of files, with a clear message', async () => {
    const dir = tempDir();
    await expect(receiveUploads({ contentType: 'text/plain', body: body([['a.txt', 'x']]) }, dir, 1000)).rejects.toThrow(
      'expected a multipart/form-data upload with a "files" field',
    );
    await expect(receiveUploads({ contentType, body: null }, dir, 1000)).rejects.toBeInstanceOf(UploadError);
    await expect(receiveUploads({ contentType, body: new Blob([tail]).stream() }, dir, 1000)).rejects.toThrow('no files were uploaded');
    // A file under another field name is not an upload.
    const other = new Blob([head('a.txt', 'other'), enc.encode('x'), tail]).stream();
    await expect(receiveUploads({ contentType, body: other }, dir, 1000)).rejects.toThrow('no files were uploaded');
    // A body cut off in the middle of a part.
    const cut = new Blob([head('a.txt'), enc.encode('partial')]).stream();
    await expect(receiveUploads({ contentType, body: cut }, dir, 1000)).rejects.toThrow(/the upload could not be read/);
    expect(fs.readdirSync(path.join(dir, 'uploads'))).toEqual([]);
  });

  it('reduces names to a harmless basename', () => {
    expect(safeName('..\\..\\x.xml')).toBe('x.xml');
    expect(safeName('.env')).toBe('env');
    expect(safeName('a<b>|c.txt')).toBe('a_b_c.txt');
  });
});
