import fs from 'node:fs';
import path from 'node:path';

/**
 * Where a data folder keeps its indexes (index-snapshot.ts writes and reads them): the paragraph index and the graph
 * index, one file each, named by kind and key. Apart from index-snapshot.ts so that a server's start can look for them
 * before it loads the index code (lib/pipelines/prestart.ts).
 */
export type Kind = 'retrieval' | 'graph';

export const fileOf = (dir: string, kind: Kind, key: string): string => path.join(dir, `${kind}-${key}.v8`);

/** Whether `dir` holds a snapshot under `key` (read or not). */
export const hasSnapshot = (dir: string, key: string): boolean => fs.existsSync(fileOf(dir, 'retrieval', key));

/** The key of the newest snapshot `dir` holds (whichever corpus and code it is of), or null. */
export function newestSnapshotKey(dir: string): string | null {
  try {
    const newest = fs
      .readdirSync(dir)
      .filter((f) => /^retrieval-[0-9a-f]+\.v8$/.test(f))
      .map((f) => ({ f, at: fs.statSync(path.join(dir, f)).mtimeMs }))
      .sort((a, b) => b.at - a.at)[0];
    return newest ? newest.f.slice('retrieval-'.length, -'.v8'.length) : null;
  } catch {
    return null;
  }
}
