import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, readConfig } from './config.ts';

describe('readConfig', () => {
  it('defaults to the embedded database in .assay with nothing configured', () => {
    const cfg = readConfig({});
    expect(cfg).toMatchObject({ dataDir: path.resolve('.assay'), databaseUrl: null, corpusPaths: [], port: 3000 });
  });
  it('reads PostgreSQL, corpus paths and limits', () => {
    const cfg = readConfig({ DATABASE_URL: 'postgresql://u:p@db:5432/assay', ASSAY_CORPUS: `a${path.delimiter}b`, ASSAY_MAX_UPLOAD_MB: '2' });
    expect(cfg.databaseUrl).toBe('postgresql://u:p@db:5432/assay');
    expect(cfg.corpusPaths).toEqual([path.resolve('a'), path.resolve('b')]);
    expect(cfg.maxUploadBytes).toBe(2 * 1024 * 1024);
  });
  it('names the variable that is wrong', () => {
    expect(() => readConfig({ DATABASE_URL: 'mysql://x' })).toThrow(ConfigError);
    expect(() => readConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must be a postgres/);
    expect(() => readConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });
  it('chooses retrieval backends: rules and the local embedder by default, the model when configured', () => {
    expect(readConfig({})).toMatchObject({ reformulation: 'rules', embedding: null, questionPaths: [] });
    const llm = readConfig({ ASSAY_LLM_BASE_URL: 'http://127.0.0.1:8000/v1', ASSAY_CHAT_MODEL: 'm', ASSAY_EMBEDDING_MODEL: 'e', ASSAY_QUESTIONS: 'q' });
    expect(llm).toMatchObject({ reformulation: 'llm', embedding: { baseUrl: 'http://127.0.0.1:8000/v1', model: 'e' }, questionPaths: [path.resolve('q')] });
    expect(readConfig({ ASSAY_LLM_BASE_URL: 'http://127.0.0.1:8000/v1', ASSAY_CHAT_MODEL: 'm', ASSAY_REFORMULATION: 'rules' }).reformulation).toBe('rules');
    expect(() => readConfig({ ASSAY_REFORMULATION: 'llm' })).toThrow(/ASSAY_REFORMULATION=llm needs/);
    expect(() => readConfig({ ASSAY_EMBEDDING_MODEL: 'e' })).toThrow(/ASSAY_EMBEDDING_MODEL needs ASSAY_LLM_BASE_URL/);
  });
  it('retrieves 4 questions at once per retrieval worker, 2 on the server thread, unless told', () => {
    expect(readConfig({}).admission).toEqual({ concurrency: 4, maxWaiting: 200, workers: 1 });
    expect(readConfig({ ASSAY_RETRIEVAL_WORKERS: '2' }).admission.concurrency).toBe(8);
    expect(readConfig({ ASSAY_RETRIEVAL_WORKERS: '0' }).admission.concurrency).toBe(2);
    expect(readConfig({ ASSAY_SEARCH: 'database', DATABASE_URL: 'postgresql://u:p@db:5432/assay' }).admission.concurrency).toBe(2);
    expect(readConfig({ ASSAY_RETRIEVAL_WORKERS: '2', ASSAY_RETRIEVAL_CONCURRENCY: '3' }).admission.concurrency).toBe(3);
  });
});

describe('the README’s configuration table', () => {
  const root = path.resolve(import.meta.dirname, '..');
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));
  // The first column of each row: the variables it names, in backticks.
  const named = new Set(
    section
      .split('\n')
      .filter((line) => line.startsWith('|'))
      .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1])),
  );
  // Read by the start script (scripts/start.mjs) rather than lib/config.ts: the port and address Next.js listens on.
  const READ_BY_START = ['PORT', 'ASSAY_HOST'];

  it('names every variable lib/config.ts reads', () => {
    expect(CONFIG_VARIABLES.length).toBeGreaterThan(40);
    expect(CONFIG_VARIABLES.filter((v) => !named.has(v))).toEqual([]);
  });

  it('names no variable the code does not read', () => {
    const start = fs.readFileSync(path.join(root, 'scripts', 'start.mjs'), 'utf8');
    for (const v of READ_BY_START) expect(start).toContain(`process.env.${v}`);
    expect([...named].filter((v) => !CONFIG_VARIABLES.includes(v) && !READ_BY_START.includes(v))).toEqual([]);
  });
});
