import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

let codeHash: string | null | undefined;

/** Where the app's modules are: beside the process (the repository it runs from), for the server's bundle too. */
const libRoot = () => path.join(/* turbopackIgnore: true */ process.cwd(), 'lib');

/**
 * A hash of the app's code (every module under lib/, tests aside), read once per process; null where the sources
 * are not beside the process. What is made from the code and kept between runs is keyed by it — a stored index
 * (lib/retrieval/index-snapshot.ts), the bundled retrieval worker (lib/serving/worker-bundle.ts) — so new code
 * never uses what older code made.
 */
export function sourceHash(): string | null {
  if (codeHash !== undefined) return codeHash;
  try {
    const root = libRoot();
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

/**
 * A hash of these modules' text (paths under lib/), or null where the sources are not beside the process. What rules
 * made and keeps in the database (a paper's tuples) is stamped with it, so that a change to the rules redoes their
 * work: the files are the same for every process that runs a commit — the CLI and `npm run worker` through tsx, the
 * server as the Next.js bundle, the tests through vitest — where `Function.prototype.toString` prints each
 * transpiler's own output (the graph extractor's id differed between vitest and tsx, so a paper a CLI import had
 * extracted was extracted again by the server's).
 */
export function sourceFilesHash(files: readonly string[], root: string = libRoot()): string | null {
  try {
    const hash = createHash('sha256');
    for (const f of files)
      hash
        .update(f)
        .update('\0')
        .update(fs.readFileSync(path.join(root, f)));
    return hash.digest('hex');
  } catch {
    return null;
  }
}
