import type { Reader } from '../types.ts';
import { corpusJsonlReader } from './corpus-jsonl.ts';
import { jatsReader } from './jats.ts';
import { pdfReader } from './pdf.ts';
import { recordsJsonlReader } from './records-jsonl.ts';
import { teiReader } from './tei.ts';
import { textReader } from './text.ts';

/**
 * Every import format, one reader each (one file per reader in this folder). Detection asks them in this order and
 * the first claim wins; the import screen lists their labels and extensions. A new format is its reader's file and a
 * line here.
 */
export const READERS: readonly Reader[] = [pdfReader, teiReader, jatsReader, corpusJsonlReader, recordsJsonlReader, textReader];

/** What the import screen offers: each format's label, and every extension for the upload dialog (`.gz` of any too). */
export interface ImportFormats {
  labels: string[];
  accept: string;
}

export function importFormats(readers: readonly Reader[] = READERS): ImportFormats {
  const labels = [...new Set(readers.map((r) => r.label))];
  const extensions = [...new Set(readers.flatMap((r) => r.extensions))];
  return { labels, accept: [...extensions, '.gz'].join(',') };
}
