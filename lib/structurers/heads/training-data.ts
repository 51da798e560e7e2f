import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createHash } from 'node:crypto';
import { materialKey } from '../../structure/materials.ts';
import type { HeadTask } from './head.ts';
import type { MentionGoldParagraph } from './material-tagger.ts';

/**
 * The labelled paragraphs the heads learn from, read where they lie (a data folder such as ../shared/data, or a
 * user's own files); nothing of them is copied into the repository or the weights' file beyond the weights.
 *
 * - gold paragraphs: `{"id","label","text"}` per line (the KIST dev halves: `gold/kist/paragraph-class.dev.jsonl`,
 *   `gold/kist/synthesis-method.dev.jsonl`, or a user's file of the same shape);
 * - the text-mined synthesis records (`records/solid-state.jsonl.gz`, `records/sol-gel.jsonl.gz`): each carries an
 *   excerpt of the paragraph it was mined from (`paragraph_string`, its first and last ~50 characters) and its
 *   method — solid-state reaction for the first file, `synthesis_type` ("sol-gel") for the second. Only two of the
 *   seven methods, so they add weakly labelled rows to those two classes. Split by DOI: the records of a quarter of
 *   the papers are never trained on and are the "records" evaluation split.
 */
export interface LabelledParagraph {
  id: string;
  text: string;
  label: string;
  /** Rows of one group (one paper) are kept in the same fold. */
  group: string;
  source: string;
}

export interface TrainingSources {
  /** Gold files per task. */
  gold: { task: HeadTask; file: string }[];
  /** The records folder (files above), or null. */
  records: string | null;
}

/** The sources in a data folder laid out like ../shared/data (absent files are left out). */
export function sourcesIn(dataDir: string): TrainingSources {
  const kist = path.join(dataDir, 'gold', 'kist');
  const gold: TrainingSources['gold'] = [];
  const role = path.join(kist, 'paragraph-class.dev.jsonl');
  const method = path.join(kist, 'synthesis-method.dev.jsonl');
  if (fs.existsSync(role)) gold.push({ task: 'paragraph-role', file: role });
  if (fs.existsSync(method)) gold.push({ task: 'synthesis-method', file: method });
  const materials = path.join(kist, 're-ner.dev.jsonl');
  if (fs.existsSync(materials)) gold.push({ task: 'material-role', file: materials });
  const records = path.join(dataDir, 'records');
  return { gold, records: fs.existsSync(records) ? records : null };
}

/** A KIST id names its paper before the paragraph number ("ACS_OER_00002_11.txt" → "ACS_OER_00002"). */
export const paperOfRowId = (id: string) => id.replace(/(?:_\d+)+\.txt(?:#\d+)?$/, '');

/** The rows of a JSON-lines gold file with their ids (the file's name and line where a row has none). */
function goldRows<T extends { id?: unknown }>(file: string): { row: T; id: string; line: number }[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((text, i) => ({ text, line: i + 1 }))
    .filter(({ text }) => text.trim())
    .map(({ text, line }) => {
      let row: T;
      try {
        row = JSON.parse(text);
      } catch {
        throw new Error(`${file}: line ${line} is not JSON`);
      }
      return { row, line, id: typeof row.id === 'string' ? row.id : `${path.basename(file)}:${line}` };
    });
}

export function readGold(file: string): LabelledParagraph[] {
  return goldRows<{ id?: unknown; label?: unknown; text?: unknown }>(file).map(({ row, id, line }) => {
    if (typeof row.label !== 'string' || typeof row.text !== 'string') throw new Error(`${file}: line ${line} has no "label" and "text"`);
    return { id, text: row.text, label: row.label, group: paperOfRowId(id), source: path.basename(file) };
  });
}

/** Gold paragraphs with their materials and roles ({"id","text","entities":[{"type","text"}]} per line). */
export function readMentionGold(file: string): MentionGoldParagraph[] {
  return goldRows<{ id?: unknown; text?: unknown; entities?: { type?: unknown; text?: unknown }[] }>(file).map(({ row, id, line }) => {
    if (typeof row.text !== 'string' || !Array.isArray(row.entities)) throw new Error(`${file}: line ${line} has no "text" and "entities"`);
    const entities = row.entities
      .filter((e) => typeof e.type === 'string' && typeof e.text === 'string')
      .map((e) => ({ role: (e.type as string).toLowerCase(), key: materialKey(e.text as string) }));
    return { id, text: row.text, entities, group: paperOfRowId(id) };
  });
}

/** Whether a record's paper is in the records' evaluation split (never trained on). */
export const inRecordsHoldout = (doi: string) => createHash('sha256').update(doi).digest('hex')[0] >= 'c';

const RECORD_FILES: [string, string][] = [
  ['solid-state.jsonl.gz', 'solid-phase'],
  ['sol-gel.jsonl.gz', 'sol-gel'],
];

/**
 * Up to `perClass` record excerpts per method from one split, the same every time (the records ordered by the hash
 * of their DOI and excerpt), one per paper.
 */
export function readRecordExcerpts(dir: string, split: 'train' | 'holdout', perClass: number): LabelledParagraph[] {
  const out: LabelledParagraph[] = [];
  for (const [name, method] of RECORD_FILES) {
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) continue;
    const byPaper = new Map<string, { key: string; text: string }>();
    for (const line of zlib.gunzipSync(fs.readFileSync(file)).toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      const r = JSON.parse(line) as { doi?: string; paragraph_string?: string; synthesis_type?: string };
      if (!r.doi || !r.paragraph_string) continue;
      if (inRecordsHoldout(r.doi) !== (split === 'holdout')) continue;
      const label = r.synthesis_type ? (r.synthesis_type === 'sol-gel' ? 'sol-gel' : null) : method;
      if (label !== method) continue;
      const key = createHash('sha256').update(`${r.doi}\n${r.paragraph_string}`).digest('hex');
      const seen = byPaper.get(r.doi);
      if (!seen || key < seen.key) byPaper.set(r.doi, { key, text: r.paragraph_string.replace(/\s*<\.\.\.>\s*/g, ' … ') });
    }
    const chosen = [...byPaper.entries()].sort((a, b) => (a[1].key < b[1].key ? -1 : 1)).slice(0, perClass);
    for (const [doi, r] of chosen) out.push({ id: `${name}:${doi}`, text: r.text, label: method, group: doi, source: name });
  }
  return out;
}
