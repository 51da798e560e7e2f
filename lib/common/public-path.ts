import fs from 'node:fs';
import path from 'node:path';

/**
 * Server paths as a client may see them: relative to the folder they are in (the data folder, a corpus folder, a
 * question folder), under that folder's name, never absolute. A response that names a file (an import's inputs,
 * its errors, an evaluation's question file) names it this way, so the server's layout is not disclosed.
 */
export interface PathRoot {
  label: string;
  dir: string;
}

/** The folders paths are shown relative to: the data folder as "data", each corpus or question folder by its name. */
export function pathRoots(cfg: { dataDir: string; corpusPaths: string[]; questionPaths: string[] }): PathRoot[] {
  const folder = (p: string) => {
    const abs = path.resolve(p);
    try {
      return fs.statSync(abs).isDirectory() ? abs : path.dirname(abs);
    } catch {
      return abs;
    }
  };
  return [
    { label: 'data', dir: path.resolve(cfg.dataDir) },
    ...[...cfg.corpusPaths, ...cfg.questionPaths].map((p) => ({ label: path.basename(folder(p)) || 'corpus', dir: folder(p) })),
  ];
}

/** One path as a client sees it: `<folder name>/<relative path>`, or its base name when it is under no known folder. */
export function publicPath(p: string, roots: PathRoot[]): string {
  if (!path.isAbsolute(p)) return p;
  for (const r of roots) {
    const rel = path.relative(r.dir, p);
    if (!rel.startsWith('..') && !path.isAbsolute(rel)) return rel ? `${r.label}/${rel}` : r.label;
  }
  return path.basename(p);
}

/** A message as a client sees it: every absolute path in it shown as `publicPath` shows it. */
export function publicText(text: string, roots: PathRoot[]): string {
  return text.replace(/(?<![\w.])\/(?:[^\s/'"`:;,()]+\/)*[^\s/'"`:;,()]+/g, (p) => publicPath(p, roots));
}
