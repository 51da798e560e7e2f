import { createHash } from 'node:crypto';

/** The SHA-256 of a text as lower-case hex: content hashes, cache keys, version stamps. */
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
