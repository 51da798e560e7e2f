import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';

/**
 * Where a data folder keeps its indexes: the paragraph index and the graph index (index-snapshot.ts writes and reads
 * them, with V8's serializer), and the records index (record-file.ts, a file of its own format read a term at a time),
 * one file each, named by kind and key. Apart from index-snapshot.ts so that a server's start can look for them
 * before it loads the index code (lib/serving/prestart.ts).
 */
export type Kind = 'retrieval' | 'graph' | 'records';

export const fileOf = (dir: string, kind: Kind, key: string): string => path.join(dir, `${kind}-${key}.${kind === 'records' ? 'bin' : 'v8'}`);

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

/**
 * V8's deserializer, except that typed arrays are copies: by default they are views into the file's buffer, which
 * would keep all of it (a graph index holds some fifteen thousand entity vectors) for as long as any one is used.
 */
// `_readHostObject` is the documented hook of node:v8's Deserializer, missing from its type declarations.
const readHostObject = (v8.DefaultDeserializer.prototype as unknown as { _readHostObject(this: v8.Deserializer): unknown })._readHostObject;

class CopyingDeserializer extends v8.DefaultDeserializer {
  _readHostObject(): unknown {
    const view = readHostObject.call(this);
    return ArrayBuffer.isView(view) && 'slice' in view ? (view as Float32Array).slice() : view;
  }
}

export function deserializeCopying(buffer: Buffer): unknown {
  const d = new CopyingDeserializer(buffer);
  d.readHeader();
  return d.readValue();
}
