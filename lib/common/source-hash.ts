import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

let codeHash: string | null | undefined;

/**
 * A hash of the app's code (every module under lib/, tests aside), read once per process; null where the sources
 * are not beside the process. What is made from the code and kept between runs is keyed by it — a stored index
 * (lib/retrieval/index-snapshot.ts), the bundled retrieval worker (lib/serving/worker-bundle.ts) — so new code
 * never uses what older code made.
 */
export function sourceHash(): string | null {
  if (codeHash !== undefined) return codeHash;
  try {
    const root = path.join(/* turbopackIgnore: true */ process.cwd(), 'lib');
    const files = (fs.readdirSync(root, { recursive: true }) as string[])
      .filter((f) => /\.(ts|mjs|json)$/.test(f) && !/\.test\.ts$/.test(f) && !f.includes('generated'))
      .sort();
    const hash = createHash('sha256');
    for (const f of files) hash.update(f).update(fs.readFileSync(path.join(root, f)));
    codeHash = hash.digest('hex');
  } catch {
    codeHash = null;
  }
  return codeHash;
}
