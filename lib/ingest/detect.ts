import { readHead } from './files.ts';
import { READERS } from './readers/registry.ts';
import { looksBinary } from './text.ts';
import type { FileHead, Reader } from './types.ts';

export type Detection =
  | { reader: Reader }
  /** Not something to ingest; inside a folder walk this is skipped quietly, named explicitly it is an error. */
  | { skip: string }
  | { error: string };

/**
 * Picks the reader for a file from its content (gunzipped), using the file name only to break ties: each reader of
 * the registry is asked in turn (`Reader.detect`); what none claims is skipped or refused with a reason.
 */
export async function detectReader(filePath: string, displayName = filePath, readers: readonly Reader[] = READERS): Promise<Detection> {
  let bytes: Buffer;
  try {
    bytes = await readHead(filePath);
  } catch (error) {
    return { error: `cannot read the file: ${(error as Error).message}` };
  }
  if (bytes.length === 0) return { error: 'the file is empty' };
  const head = fileHead(bytes, displayName);
  for (const reader of readers) {
    const claim = reader.detect(head);
    if (claim === true) return { reader };
    if (claim) return claim;
  }
  return unclaimed(head, readers);
}

/** What detection knows of a file's start (see FileHead); a binary head has no text. */
export function fileHead(bytes: Buffer, displayName: string): FileHead {
  const name = displayName.toLowerCase().replace(/\.gz$/, '');
  const binary = looksBinary(bytes.subarray(0, 4096)) && !startsWithBom(bytes);
  const text = binary
    ? ''
    : bytes
        .toString('utf8')
        .replace(/^\uFEFF/, '')
        .trimStart();
  const xmlRoot = text.startsWith('<') ? (/<(?![?!])(?:[\w.-]+:)?([\w.-]+)/.exec(text.replace(/<!--[\s\S]*?-->/g, ''))?.[1]?.toLowerCase() ?? '') : null;
  let firstJson: FileHead['firstJson'] = null;
  if (xmlRoot === null && text && (text.startsWith('{') || /\.(jsonl|ndjson)$/.test(name))) {
    try {
      firstJson = { value: JSON.parse(text.split('\n', 1)[0]) };
    } catch {
      // The line may be longer than the head read.
      firstJson = { unparsed: true };
    }
  }
  return { bytes, binary, text, name, xmlRoot, firstJson };
}

/** Why no reader took the file. */
function unclaimed(head: FileHead, readers: readonly Reader[]): Detection {
  if (head.binary) return { error: `unsupported binary file (accepted: ${readers.map((r) => r.label).join(', ')}; optionally gzip)` };
  if (head.xmlRoot === 'html') return { error: 'HTML pages are not supported; save the article as PDF or JATS XML' };
  if (head.xmlRoot !== null) return { error: `unsupported XML document with root <${head.xmlRoot || '?'}> (expected TEI or JATS)` };
  if (head.firstJson && 'unparsed' in head.firstJson) return { skip: 'JSON lines of an unrecognised kind (first line too long to identify)' };
  if (head.firstJson) return { skip: 'JSON lines that are neither corpus papers nor structured records' };
  return { skip: `unrecognised file type "${head.name.split('.').pop()}"` };
}

function startsWithBom(head: Buffer) {
  return (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
}
