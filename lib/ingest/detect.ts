import { readHead } from './files.ts';
import { looksBinary } from './text.ts';
import { classifyJsonObject } from './readers/jsonl.ts';
import { corpusJsonlReader } from './readers/corpus-jsonl.ts';
import { recordsJsonlReader } from './readers/records-jsonl.ts';
import { teiReader } from './readers/tei.ts';
import { jatsReader } from './readers/jats.ts';
import { pdfReader } from './readers/pdf.ts';
import { textReader } from './readers/text.ts';
import type { Reader } from './types.ts';

export const readers: Reader[] = [corpusJsonlReader, recordsJsonlReader, teiReader, jatsReader, pdfReader, textReader];

export type Detection =
  | { reader: Reader }
  /** Not something to ingest; inside a folder walk this is skipped quietly, named explicitly it is an error. */
  | { skip: string }
  | { error: string };

/** Picks the reader for a file from its content (gunzipped), using the file name only to break ties. */
export async function detectReader(filePath: string, displayName = filePath): Promise<Detection> {
  let head: Buffer;
  try {
    head = await readHead(filePath);
  } catch (error) {
    return { error: `cannot read the file: ${(error as Error).message}` };
  }
  const name = displayName.toLowerCase().replace(/\.gz$/, '');
  if (head.length === 0) return { error: 'the file is empty' };
  if (head.subarray(0, 1024).includes('%PDF-')) return { reader: pdfReader };
  if (looksBinary(head.subarray(0, 4096)) && !startsWithBom(head)) {
    return { error: 'unsupported binary file (accepted: PDF, TEI/JATS XML, JSON lines, text, Markdown; optionally gzip)' };
  }
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  const trimmed = text.trimStart();
  if (trimmed.startsWith('<')) {
    const root = /<(?![?!])(?:[\w.-]+:)?([\w.-]+)/.exec(trimmed.replace(/<!--[\s\S]*?-->/g, ''))?.[1]?.toLowerCase();
    if (root === 'tei' || root === 'teicorpus') return { reader: teiReader };
    if (root === 'article') return { reader: jatsReader };
    if (root === 'html') return { error: 'HTML pages are not supported; save the article as PDF or JATS XML' };
    return { error: `unsupported XML document with root <${root ?? '?'}> (expected TEI or JATS)` };
  }
  if (trimmed.startsWith('{') || /\.(jsonl|ndjson)$/.test(name)) {
    const firstLine = trimmed.split('\n', 1)[0];
    let value: unknown;
    try {
      value = JSON.parse(firstLine);
    } catch {
      // The line may be longer than the head we read; fall back on the file name.
      if (/papers?\.jsonl$/.test(name) || name.includes('corpus')) return { reader: corpusJsonlReader };
      if (/(recipe|solid-state|sol-gel|solarchem|records?)/.test(name)) return { reader: recordsJsonlReader };
      return { skip: 'JSON lines of an unrecognised kind (first line too long to identify)' };
    }
    const kind = classifyJsonObject(value);
    if (kind === 'corpus') return { reader: corpusJsonlReader };
    if (kind === 'record') return { reader: recordsJsonlReader };
    return { skip: 'JSON lines that are neither corpus papers nor structured records' };
  }
  if (/\.(txt|text|md|markdown)$/.test(name) || !/\.[a-z0-9]{1,5}$/.test(name)) return { reader: textReader };
  return { skip: `unrecognised file type "${name.split('.').pop()}"` };
}

function startsWithBom(head: Buffer) {
  return (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
}
