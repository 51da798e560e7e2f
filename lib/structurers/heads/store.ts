import fs from 'node:fs';
import path from 'node:path';
import { sha256 } from '../../common/hash.ts';
import type { HeadWeights } from './head.ts';

/**
 * The trained heads of one data folder: `<dataDir>/models/structuring-heads.json`. Derived from third-party text, so
 * kept beside the data (like the model's files) and never committed; `npm run train:structure` writes it.
 */
export interface StructuringHeads {
  /** Hash of the weights: part of the extractor's id, so new weights re-structure the stored paragraphs. */
  id: string;
  /** The encoder whose vectors the heads read. */
  encoder: string;
  trainedAt: string;
  /** What each head learned from: file and rows per label. */
  sources: { task: string; source: string; rows: number }[];
  role: HeadWeights;
  method: HeadWeights;
}

export const headsFile = (dataDir: string) => path.join(dataDir, 'models', 'structuring-heads.json');

export const headsId = (role: HeadWeights, method: HeadWeights) => sha256(JSON.stringify([role, method])).slice(0, 10);

const loaded = new Map<string, { mtimeMs: number; heads: StructuringHeads | null }>();

/** The heads cached in the data folder, or null (none trained, or a file that does not read as heads). */
export function loadHeads(dataDir: string, encoder: string): StructuringHeads | null {
  const file = headsFile(dataDir);
  let mtimeMs: number;
  try {
    mtimeMs = fs.statSync(file).mtimeMs;
  } catch {
    return null;
  }
  const known = loaded.get(file);
  if (known && known.mtimeMs === mtimeMs) return known.heads?.encoder === encoder ? known.heads : null;
  let heads: StructuringHeads | null = null;
  try {
    const read = JSON.parse(fs.readFileSync(file, 'utf8')) as StructuringHeads;
    if (read.role?.kernel?.length && read.method?.kernel?.length && read.id === headsId(read.role, read.method)) heads = read;
  } catch {
    heads = null;
  }
  loaded.set(file, { mtimeMs, heads });
  return heads?.encoder === encoder ? heads : null;
}

/** Written beside the final file and renamed into place: a stop half-way leaves the previous heads (or none). */
export function saveHeads(dataDir: string, heads: StructuringHeads): string {
  const file = headsFile(dataDir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.partial-${process.pid}`;
  fs.writeFileSync(partial, `${JSON.stringify(heads)}\n`);
  fs.renameSync(partial, file);
  return file;
}
