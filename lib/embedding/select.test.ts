import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { createEmbedders } from './select.ts';

// The fallback path touches no database: the model is never reached.
const noDatabase = {} as Database;

describe('createEmbedders', () => {
  it('asks for the local model by default', () => {
    expect(readConfig({}).localEmbedder).toBe('model');
  });

  it('keeps the n-gram embedder for passages and names when it is asked for', async () => {
    const cfg = readConfig({ ASSAY_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'assay-emb-')), ASSAY_LOCAL_EMBEDDER: 'ngram' });
    const e = await createEmbedders(noDatabase, cfg, () => ['LSCF cathode sintered at 1100 °C']);
    expect(e.passages).toBe(e.names);
    expect(e.passages.id).toMatch(/^local-hash/);
    expect(e.note).toBeNull();
  });

  it('falls back to the n-gram embedder when the model cannot be had, and says so', async () => {
    const cfg = readConfig({
      ASSAY_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'assay-emb-')),
      ASSAY_LOCAL_EMBEDDER: 'model',
      ASSAY_MODEL_REPOSITORY: 'http://127.0.0.1:9/maven2',
    });
    const lines: string[] = [];
    const unreachable = (async () => {
      throw new TypeError('fetch failed');
    }) as unknown as typeof fetch;
    const e = await createEmbedders(
      noDatabase,
      cfg,
      () => ['LSCF cathode'],
      (l) => lines.push(l),
      { localRepository: null, fetchImpl: unreachable },
    );
    expect(e.passages.id).toMatch(/^local-hash/);
    expect(e.note).toMatch(/bge-small-en-v1\.5-q could not be had \(fetch failed\): passages are embedded by the character n-gram stand-in/);
    expect(lines).toContain(e.note);
  });
});
