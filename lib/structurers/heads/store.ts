import fs from 'node:fs';
import path from 'node:path';
import { sha256 } from '../../common/hash.ts';
import type { HeadWeights } from './head.ts';

/**
 * The trained heads of one data folder, derived from third-party text, so kept beside the data (like the model's files)
 * and never committed; `npm run train:structure` writes them:
 * - `<dataDir>/models/structuring-heads.json`: paragraph role and synthesis method on the local encoder's vectors;
 * - `<dataDir>/models/material-tagger.json`: the materials' roles from lexical features (no encoder).
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

export interface MaterialTaggerWeights {
  /** "tagger@" and the hash of the weights and the features they read: part of the structurer's id. */
  id: string;
  /** The features' version the weights were fitted on (material-tagger.ts): other weights are not loaded. */
  features: string;
  trainedAt: string;
  sources: { task: string; source: string; rows: number }[];
  weights: HeadWeights;
}

export const headsFile = (dataDir: string) => path.join(dataDir, 'models', 'structuring-heads.json');
export const materialTaggerFile = (dataDir: string) => path.join(dataDir, 'models', 'material-tagger.json');

export const headsId = (role: HeadWeights, method: HeadWeights) => sha256(JSON.stringify([role, method])).slice(0, 10);
export const materialTaggerId = (weights: HeadWeights, features: string) => `tagger@${sha256(JSON.stringify([weights, features])).slice(0, 10)}`;

const loaded = new Map<string, { mtimeMs: number; value: unknown }>();

/** A weights file read once per change on disk: `accept` gives the value, or null for a file that is not what it should be. */
function readCached<T>(file: string, accept: (read: T) => boolean): T | null {
  let mtimeMs: number;
  try {
    mtimeMs = fs.statSync(file).mtimeMs;
  } catch {
    return null;
  }
  const known = loaded.get(file);
  if (known && known.mtimeMs === mtimeMs) return known.value as T | null;
  let value: T | null = null;
  try {
    const read = JSON.parse(fs.readFileSync(file, 'utf8')) as T;
    value = accept(read) ? read : null;
  } catch {
    value = null;
  }
  loaded.set(file, { mtimeMs, value });
  return value;
}

/** The heads cached in the data folder, or null (none trained, or a file that does not read as heads). */
export function loadHeads(dataDir: string, encoder: string): StructuringHeads | null {
  const heads = readCached<StructuringHeads>(headsFile(dataDir), (read) =>
    Boolean(read.role?.kernel?.length && read.method?.kernel?.length && read.id === headsId(read.role, read.method)),
  );
  return heads?.encoder === encoder ? heads : null;
}

/** The material tagger cached in the data folder for the features `features` (its version), or null. */
export function loadMaterialTagger(dataDir: string, features: string): MaterialTaggerWeights | null {
  const tagger = readCached<MaterialTaggerWeights>(materialTaggerFile(dataDir), (read) =>
    Boolean(read.weights?.kernel?.length && read.id === materialTaggerId(read.weights, read.features)),
  );
  return tagger?.features === features ? tagger : null;
}

/** Written beside the final file and renamed into place: a stop half-way leaves the previous weights (or none). */
function saveJson(file: string, value: unknown): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.partial-${process.pid}`;
  fs.writeFileSync(partial, `${JSON.stringify(value)}\n`);
  fs.renameSync(partial, file);
  return file;
}

export const saveHeads = (dataDir: string, heads: StructuringHeads) => saveJson(headsFile(dataDir), heads);
export const saveMaterialTagger = (dataDir: string, tagger: MaterialTaggerWeights) => saveJson(materialTaggerFile(dataDir), tagger);
