import fs from 'node:fs';
import path from 'node:path';

/**
 * The dev question forms: the three shared dev sets (plain, paraphrased, KIST unanswerable) and every
 * eval/questions/*.dev.jsonl of this repository but the tables form, each file one form. What calibration fits on and the robustness
 * suite rewrites. `shared` is ../shared/data beside the checkout unless ASSAY_SHARED_DATA says otherwise.
 */
export function devForms(root: string, shared = process.env.ASSAY_SHARED_DATA ?? path.join(root, '..', 'shared', 'data')): string[] {
  const own = path.join(root, 'eval', 'questions');
  return [
    path.join(shared, 'questions.dev.jsonl'),
    path.join(shared, 'questions-hard.dev.jsonl'),
    path.join(shared, 'questions-unanswerable.dev.jsonl'),
    ...(fs.existsSync(own)
      ? fs
          .readdirSync(own)
          // tables.dev.jsonl asks about eval/tables' invented papers, which a corpus holds only once they are imported.
          .filter((f) => f.endsWith('.dev.jsonl') && f !== 'tables.dev.jsonl')
          .sort()
          .map((f) => path.join(own, f))
      : []),
  ];
}

/** A form's name: its file name without `.dev.jsonl`. */
export const formOf = (file: string): string => path.basename(file).replace(/\.dev\.jsonl$|\.jsonl$/, '');
