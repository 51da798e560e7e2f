import fs from 'node:fs';
import path from 'node:path';

/**
 * The question sets the evaluation page may run: `.jsonl` files named in ASSAY_QUESTIONS, or found at the top of
 * a folder named there. Only these can be chosen from the browser (a request names a set, never a path).
 */
export interface QuestionSet {
  name: string;
  path: string;
  bytes: number;
}

export function listQuestionSets(paths: string[]): QuestionSet[] {
  const out: QuestionSet[] = [];
  const add = (file: string) => {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat?.isFile() && /\.jsonl(\.gz)?$/.test(file) && !out.some((s) => s.path === file))
      out.push({ name: path.basename(file), path: file, bytes: stat.size });
  };
  for (const p of paths) {
    const stat = fs.statSync(p, { throwIfNoEntry: false });
    if (stat?.isDirectory()) for (const f of fs.readdirSync(p).sort()) add(path.join(p, f));
    else if (stat) add(p);
  }
  return out;
}
