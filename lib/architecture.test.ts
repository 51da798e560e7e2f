import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Dependencies point one way along the data flow. Every folder of lib/, and app/ and components/ above them, has a
 * layer; a module may import its own layer and the layers below, never one above. Leaf modules (layer 0) import no
 * other part of the project. The database layer stores and loads: it may import values only from the leaves and
 * the types of what it stores from anywhere. The app reaches the database only through lib/services. Import cycles
 * anywhere are Biome's noImportCycles rule (`npm test` runs it).
 */
const LAYERS: Record<string, number> = {
  common: 0,
  evidence: 0,
  'config.ts': 0,
  'search-markers.ts': 0,
  db: 1,
  ai: 1,
  // The job queue every process shares: above the database, below everything that queues work.
  queue: 2,
  auth: 2,
  ingest: 2,
  scholarly: 2,
  structure: 3,
  embedding: 4,
  graph: 5,
  retrieval: 6,
  // The recipe catalogue and its summaries: synthesis questions answered from the structured records.
  synthesis: 6,
  reasoning: 7,
  pipelines: 8,
  answer: 9,
  evaluation: 10,
  jobs: 11,
  grading: 11,
  corpus: 12,
  services: 13,
  // The robustness suite's generator (eval/robustness): rewrites questions with the structure readers; the CLI runs it.
  '@eval': 13,
  'startup.ts': 14,
  cli: 14,
  // Outside lib/: the UI components, then the pages, route handlers and server actions.
  '@components': 15,
  '@app': 16,
};
/** Test support, used from every layer's tests (and the benchmarks). */
const UNRANKED = new Set(['testing', 'architecture.test.ts', 'config.test.ts']);
/** What app/ and components/ must not import: the database and model adapters are reached through lib/services. */
const NOT_FROM_THE_UI = new Set(['db', 'ai']);

/**
 * Longest a lib/ module may be: 400 lines, what one reads in a sitting (the cap lib/retrieval had, now for every
 * folder). A module that needs more holds more than one idea; split it by idea, not by line count.
 */
const MAX_LINES = 400;

const root = path.resolve(import.meta.dirname, '..');
const lib = path.join(root, 'lib');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'generated' || e.name === 'node_modules' ? [] : sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$|\.contract\.ts$|\.d\.ts$/.test(e.name) ? [p] : [];
  });
}

/** The layer unit of a file: its lib/ folder (or root file), or @app / @components. */
function unitOf(file: string): string {
  const rel = path.relative(root, file).split(path.sep);
  if (rel[0] === 'app') return '@app';
  if (rel[0] === 'components') return '@components';
  if (rel[0] === 'eval') return '@eval';
  return rel[0] === 'lib' ? rel[1] : rel[0];
}

interface Import {
  target: string;
  typeOnly: boolean;
}

function importsOf(file: string): Import[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs = [
    ...[...text.matchAll(/(?:^|\n)\s*(import|export)(\s+type)?\s[^'"]*?from\s+'([^']+)'/g)].map((m) => ({ spec: m[3], typeOnly: !!m[2] })),
    ...[...text.matchAll(/import\(\s*'([^']+)'\s*\)/g)].map((m) => ({ spec: m[1], typeOnly: false })),
  ];
  return specs.flatMap(({ spec, typeOnly }) => {
    if (spec.startsWith('@/')) return [{ target: path.join(root, spec.slice(2)), typeOnly }];
    if (spec.startsWith('.')) return [{ target: path.resolve(path.dirname(file), spec), typeOnly }];
    return [];
  });
}

const files = [
  ...sourceFiles(lib),
  ...sourceFiles(path.join(root, 'app')),
  ...sourceFiles(path.join(root, 'components')),
  ...sourceFiles(path.join(root, 'eval')),
];

describe('architecture', () => {
  it('every folder of lib/ has a layer (or is test support)', () => {
    const units = new Set(fs.readdirSync(lib).filter((n) => !n.startsWith('.')));
    const unknown = [...units].filter((u) => !(u in LAYERS) && !UNRANKED.has(u));
    expect(unknown).toEqual([]);
  });

  it('no module imports a layer above its own; leaves import only leaves; the database imports only leaves and types', () => {
    const violations: string[] = [];
    for (const file of files) {
      const from = unitOf(file);
      if (UNRANKED.has(from)) continue;
      for (const { target, typeOnly } of importsOf(file)) {
        const to = unitOf(target);
        if (to === from || UNRANKED.has(to) || !(to in LAYERS)) continue;
        // The database layer may name the types of what it stores, wherever they are declared.
        const upward = LAYERS[to] > LAYERS[from] && !(from === 'db' && typeOnly);
        const leaf = LAYERS[from] === 0 && LAYERS[to] !== 0;
        const storesOnly = from === 'db' && LAYERS[to] !== 0 && !typeOnly;
        if (upward || leaf || storesOnly) violations.push(`${path.relative(root, file)} → ${path.relative(root, target)}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('pages, route handlers, server actions and components reach the database and models only through lib/services', () => {
    const violations = files
      .filter((f) => unitOf(f) === '@app' || unitOf(f) === '@components')
      .flatMap((f) => importsOf(f).map((i) => ({ f, to: unitOf(i.target), target: i.target, typeOnly: i.typeOnly })))
      .filter(({ to, typeOnly }) => NOT_FROM_THE_UI.has(to) && !typeOnly)
      .map(({ f, target }) => `${path.relative(root, f)} → ${path.relative(root, target)}`);
    expect(violations).toEqual([]);
    // Not even their types: a page knows the shapes the services return, not the tables.
    const types = files
      .filter((f) => unitOf(f) === '@app' || unitOf(f) === '@components')
      .flatMap((f) =>
        importsOf(f)
          .filter((i) => unitOf(i.target) === 'db')
          .map((i) => `${path.relative(root, f)} → ${path.relative(root, i.target)}`),
      );
    expect(types).toEqual([]);
  });

  it(`no lib/ module is over ${MAX_LINES} lines`, () => {
    const long = sourceFiles(lib)
      .map((f) => [path.relative(root, f), fs.readFileSync(f, 'utf8').replace(/\n$/, '').split('\n').length] as const)
      .filter(([, n]) => n > MAX_LINES);
    expect(long).toEqual([]);
  });
});
