import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { CONTROL_CHARS } from '../common/control-chars.mjs';
import { AppError } from '../common/errors.ts';

/** A refused upload: 400 for a bad request, 413 for one over the limit. */
export class UploadError extends AppError {
  constructor(message: string, status: 400 | 413 = 400) {
    super(status === 413 ? 'payload-too-large' : 'bad-request', message);
  }
}

/** Files one upload may hold at most (each becomes an input of one import run). */
export const MAX_UPLOAD_FILES = 500;
/** Bytes of a multipart body that are not file content (boundaries and part headers) allowed beyond the limit. */
const MULTIPART_OVERHEAD = 1024 * 1024;

/**
 * Receives a multipart/form-data upload (`files` fields) straight to `<dataDir>/uploads/<batch>/`, before anything
 * parses the files, so a failed import never loses what the user sent. The body is read as it arrives (busboy)
 * and every byte is counted: past `maxBytes` in total, reading stops at once, the partial batch is removed and a
 * 413 is thrown, whatever Content-Length said (or when there was none, as with a chunked upload). Names are
 * reduced to a safe basename (no path traversal, no hidden files); the original name is kept for display.
 */
export async function receiveUploads(
  upload: { contentType: string | null; body: ReadableStream<Uint8Array> | null },
  dataDir: string,
  maxBytes: number,
): Promise<{ paths: string[]; names: Map<string, string> }> {
  const limitText = `the upload is larger than the ${(maxBytes / 1048576).toFixed(0)} MiB limit (ASSAY_MAX_UPLOAD_MB)`;
  if (!upload.body || !/^multipart\/form-data;/i.test(upload.contentType ?? ''))
    throw new UploadError('expected a multipart/form-data upload with a "files" field');
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': upload.contentType! },
      // preservePath keeps the name as sent, for display; what is written uses only its safe basename.
      preservePath: true,
      limits: { files: MAX_UPLOAD_FILES, fields: 20, fieldSize: 4096, parts: MAX_UPLOAD_FILES + 20, fileSize: maxBytes },
    });
  } catch (error) {
    throw new UploadError(`the upload is not valid multipart/form-data (${(error as Error).message})`);
  }
  const dir = path.join(dataDir, 'uploads', `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`);
  await fs.promises.mkdir(dir, { recursive: true });
  const source = Readable.fromWeb(upload.body as import('node:stream/web').ReadableStream<Uint8Array>);
  const paths: string[] = [];
  const names = new Map<string, string>();
  const writes: Promise<unknown>[] = [];
  let total = 0;
  let content = 0;
  let failure: Error | null = null;
  let stop: (error: Error) => void = () => {};
  const finished = new Promise<void>((resolve, reject) => {
    stop = reject;
    parser.once('close', resolve);
    parser.once('error', reject);
    source.once('error', reject);
  });
  // The first failure stops reading: the rest of the body is never pulled into memory or onto disk.
  const fail = (error: Error) => {
    failure ??= error;
    source.unpipe(parser);
    source.destroy();
    // Ends the file streams still open, so no write is left waiting for data that will not come; deferred, as
    // this may run inside busboy's own parse step, which must finish first.
    setImmediate(() => parser.destroy());
    stop(failure);
  };
  parser.on('file', (field, stream, info) => {
    if (field !== 'files' || failure) {
      stream.resume();
      return;
    }
    const i = paths.length;
    const target = path.join(dir, `${String(i + 1).padStart(3, '0')}-${safeName(info.filename ?? '') || `upload-${i + 1}`}`);
    paths.push(target);
    // The name as sent, for display, without control characters (a NUL sent through `filename*=` failed the run's
    // row, whose text PostgreSQL refuses to hold, after the files were written).
    names.set(target, (info.filename ?? '').replace(CONTROL_CHARS, '').slice(0, 300) || `upload-${i + 1}`);
    // busboy stops a file at the limit and says so here, as it parses (a file's own data may lag behind).
    stream.once('limit', () => fail(new UploadError(limitText, 413)));
    // …and the files' bytes together are held to the limit exactly.
    stream.on('data', (chunk: Buffer) => {
      content += chunk.length;
      if (content > maxBytes) fail(new UploadError(limitText, 413));
    });
    writes.push(pipeline(stream, fs.createWriteStream(target)).catch((error: Error) => fail(error)));
  });
  parser.on('filesLimit', () => fail(new UploadError(`an upload holds at most ${MAX_UPLOAD_FILES} files`)));
  // The body itself is counted as it is read: the files' bytes plus the parts' headers, which are small.
  source.on('data', (chunk: Buffer) => {
    total += chunk.length;
    if (total > maxBytes + MULTIPART_OVERHEAD) fail(new UploadError(limitText, 413));
  });
  source.pipe(parser);
  try {
    await finished;
    await Promise.all(writes);
  } catch (error) {
    failure ??= error as Error;
  }
  if (failure || paths.length === 0) {
    await fs.promises.rm(dir, { recursive: true, force: true });
    if (!failure) throw new UploadError('no files were uploaded');
    if (failure instanceof AppError) throw failure;
    throw new UploadError(`the upload could not be read (${(failure as Error).message.slice(0, 200)})`);
  }
  return { paths, names };
}

/** Removes an upload batch's folder (the folder of `paths`), when no import run took it. */
export async function removeUploadBatch(paths: string[]): Promise<void> {
  const dirs = new Set(paths.map((p) => path.dirname(p)));
  for (const d of dirs) await fs.promises.rm(d, { recursive: true, force: true });
}

export function safeName(name: string): string {
  return path
    .basename(name.replace(/\\/g, '/'))
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._ -]+/gu, '_')
    .replace(/^\.+/, '')
    .slice(0, 120);
}
