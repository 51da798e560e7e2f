import path from 'node:path';
import { normaliseDoi } from '../text.ts';
import type { Reader } from '../types.ts';
import { classifyJsonObject, jsonLines, recordKindOf } from './jsonl.ts';

/**
 * Structured-record JSON lines: text-mined solid-state / sol-gel recipes and SolarChem experiment rows, streamed
 * line by line (the files are tens of MB uncompressed). Rows are stored unchanged as JSONB.
 */
export const recordsJsonlReader: Reader = {
  name: 'records-jsonl',
  label: 'record JSON lines',
  extensions: ['.jsonl', '.ndjson'],
  detect: (head) => {
    if (!head.firstJson) return null;
    if ('unparsed' in head.firstJson) return /(recipe|solid-state|sol-gel|solarchem|records?)/.test(head.name) || null;
    return classifyJsonObject(head.firstJson.value) === 'record' || null;
  },
  async *read(file, ctx) {
    const base = path
      .basename(file.displayName)
      .replace(/\.gz$/i, '')
      .replace(/\.(jsonl|ndjson|json)$/i, '');
    const source = base.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    for await (const line of jsonLines(file, ctx)) {
      const location = `line ${line.lineNo}`;
      if ('error' in line) {
        yield { type: 'error', location, reason: line.error };
        continue;
      }
      const row = line.value;
      if (!row || typeof row !== 'object' || Array.isArray(row)) {
        yield { type: 'error', location, reason: 'expected a JSON object' };
        continue;
      }
      const o = row as Record<string, unknown>;
      const kind = recordKindOf(o, base);
      if (!kind) {
        yield { type: 'error', location, reason: 'not a recognised record (recipe or SolarChem experiment row)' };
        continue;
      }
      const data = (typeof o.kind === 'string' && o.data && typeof o.data === 'object' ? o.data : o) as Record<string, unknown>;
      yield {
        type: 'record',
        location,
        record: { kind, source, doi: normaliseDoi(stringOrNull(data.doi ?? o.doi)), title: recordTitle(kind, data), data },
      };
    }
  },
};

function stringOrNull(v: unknown): string | null {
  return typeof v === 'string' && v.trim() && v !== 'None' ? v : null;
}

/** A short label for lists: the reaction for recipes, catalyst and products for experiments. */
function recordTitle(kind: string, d: Record<string, unknown>): string | null {
  if (kind.endsWith('-recipe')) return stringOrNull(d.reaction_string) ?? stringOrNull(d.targets_string);
  if (kind === 'solarchem-experiment') {
    const parts = [stringOrNull(d.Catalyst_name) ?? stringOrNull(d.Catalyst)];
    const co = stringOrNull(d.Co_catalyst);
    if (co) parts.push(`+ ${co}`);
    const light = stringOrNull(d.Light_source);
    if (light) parts.push(`(${light})`);
    return parts.filter(Boolean).join(' ') || null;
  }
  return stringOrNull(d.title) ?? stringOrNull(d.name);
}
