import fs from 'node:fs';
import path from 'node:path';

/**
 * The shared development data (../shared/data beside the repository, or ASSAY_SHARED_DATA). Third-party data:
 * read from there, never copied into the repository. Returns null when absent so tests can skip with a message.
 */
export function sharedDataDir(sub = ''): string | null {
  const base = process.env.ASSAY_SHARED_DATA ?? path.resolve(import.meta.dirname, '../../../shared/data');
  const full = path.join(base, sub);
  return fs.existsSync(full) ? full : null;
}
