import { openContentStream, readLines } from '../files.ts';
import type { InputFile, ReaderContext } from '../types.ts';

export type JsonLine = { lineNo: number; value: unknown } | { lineNo: number; error: string };

/** Parsed JSON values of a JSON-lines file (gzip or not); blank lines skipped, bad lines reported. */
export async function* jsonLines(file: InputFile, ctx: ReaderContext): AsyncGenerator<JsonLine> {
  const stream = await openContentStream(file.path);
  try {
    for await (const line of readLines(stream, ctx.maxItemBytes)) {
      if ('error' in line) {
        yield line;
        continue;
      }
      if (!line.text.trim()) continue;
      try {
        yield { lineNo: line.lineNo, value: JSON.parse(line.text) };
      } catch (error) {
        yield { lineNo: line.lineNo, error: `invalid JSON: ${(error as Error).message}` };
      }
    }
  } finally {
    stream.destroy();
  }
}

/** What kind of JSON-lines file this is, from its first object. */
export function classifyJsonObject(value: unknown): 'corpus' | 'record' | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const o = value as Record<string, unknown>;
  if (Array.isArray(o.paragraphs)) return 'corpus';
  if (recordKindOf(o, '')) return 'record';
  return null;
}

/** The record kind of a row: text-mined synthesis recipes (Ceder group) and SolarChem experiment rows. */
export function recordKindOf(o: Record<string, unknown>, fileName: string): string | null {
  if (typeof o.kind === 'string' && o.data && typeof o.data === 'object') return o.kind; // Assay's own export form
  if ('reaction_string' in o || 'targets_string' in o) {
    const type = typeof o.synthesis_type === 'string' ? o.synthesis_type : /sol-?gel/i.test(fileName) ? 'sol-gel' : 'solid-state';
    return `${type.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-recipe`;
  }
  if ('Catalyst' in o && ('No_de_Ref' in o || 'Light_source' in o)) return 'solarchem-experiment';
  return null;
}
