import { AppError } from '../common/errors.ts';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

/** A refused upload: 400 for a bad request, 413 for one over the limit. */
export class UploadError extends AppError {
  constructor(message: string, status: 400 | 413 = 400) {
    super(status === 413 ? 'payload-too-large' : 'bad-request', message);
  }
}

export interface UploadedFile {
  name: string;
  size: number;
  stream(): ReadableStream<Uint8Array>;
}

/**
 * Saves uploaded files under `<dataDir>/uploads/<batch>/` before anything parses them, so a failed import
 * never loses what the user sent. Names are reduced to a safe basename (no path traversal, no hidden files).
 */
export async function saveUploads(dataDir: string, files: UploadedFile[], maxBytes: number): Promise<{ paths: string[]; names: Map<string, string> }> {
  if (files.length === 0) throw new UploadError('no files were uploaded');
  const total = files.reduce((n, f) => n + f.size, 0);
  if (total > maxBytes) {
    throw new UploadError(`the upload is ${(total / 1048576).toFixed(1)} MiB; the limit is ${(maxBytes / 1048576).toFixed(0)} MiB (ASSAY_MAX_UPLOAD_MB)`, 413);
  }
  const dir = path.join(dataDir, 'uploads', `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`);
  await fs.promises.mkdir(dir, { recursive: true });
  const paths: string[] = [];
  const names = new Map<string, string>();
  for (const [i, f] of files.entries()) {
    const safe = safeName(f.name) || `upload-${i + 1}`;
    const target = path.join(dir, `${String(i + 1).padStart(3, '0')}-${safe}`);
    const out = fs.createWriteStream(target);
    let written = 0;
    const reader = f.stream().getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        written += value.length;
        if (written > maxBytes) throw new UploadError(`${f.name} is larger than the upload limit`, 413);
        if (!out.write(value)) await new Promise<void>((r) => out.once('drain', () => r()));
      }
    } finally {
      await new Promise<void>((resolve) => out.end(resolve));
    }
    paths.push(target);
    names.set(target, f.name.slice(0, 300));
  }
  return { paths, names };
}

export function safeName(name: string): string {
  return path
    .basename(name.replace(/\\/g, '/'))
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._ -]+/gu, '_')
    .replace(/^\.+/, '')
    .slice(0, 120);
}
