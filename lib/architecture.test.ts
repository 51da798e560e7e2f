import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Dependencies point one way along the data flow. Every folder of lib/, and every source folder outside it, has a
 * layer; a module may import its own layer and the layers below, never one above. Leaf modules (layer 0) import no
 * other part of the project. The database layer stores and loads: it may import values only from the leaves and
 * the types of what it stores from anywhere. Pages, route handlers and server actions (app/) reach lib/ only through
 * lib/services and the leaves. Test support (scripts/test-support) is for tests, benchmarks and the browser tests,
 * never for the product. Import cycles anywhere are Biome's noImportCycles rule (`npm test` runs it).
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
  // Which structurer runs (the rules, the trained heads reading the local model's vectors, a language model) and the
  // structuring stage as shards: above the model, below the graph that reads the structures.
  structurers: 4.5,
  graph: 5,
  retrieval: 6,
  // The recipe catalogue and its summaries: synthesis questions answered from the structured records.
  synthesis: 6,
  reasoning: 7,
  pipelines: 8,
  // Serving the pipelines: the worker threads, the index's lifecycle (build, snapshot, stale serving, warming), admission.
  serving: 9,
  answer: 10,
  evaluation: 11,
  jobs: 12,
  grading: 12,
  corpus: 13,
  services: 14,
  // The suites' generators (eval/robustness, eval/comparisons): questions made with the structure readers; the CLI runs them.
  '@eval': 14,
  'startup.ts': 15,
  cli: 15,
  // Outside lib/: the routes' contracts (app/api/<route>/contract.ts: what each takes and answers, which the handlers
  // and the components' typed client share), the UI components, then the pages, route handlers and server actions.
  '@contracts': 15.5,
  '@components': 16,
  '@app': 17,
  // Next.js's own entries at the top: the server's start hook.
  'instrumentation.ts': 18,
  // Beside the product: test support, the benchmarks, the start and test scripts, the browser tests.
  '@scripts/test-support': 19,
  '@scripts/bench': 20,
  '@scripts': 20,
  '@e2e': 20,
};
/** Where a folder of the repository holds no TypeScript or JavaScript module of the project. */
const NOT_SOURCE = new Set(['node_modules', '.next', '.git', 'docs', 'public', 'prisma', 'java', 'test-results', 'playwright-report', '.assay', '.ci']);
/** The tests of the architecture, the configuration and the dependencies' engines themselves. */
const UNRANKED = new Set(['architecture.test.ts', 'config.test.ts', 'engines.test.ts']);
/** What app/ and components/ must not import: the database and model adapters are reached through lib/services. */
const NOT_FROM_THE_UI = new Set(['db', 'ai']);
/** What app/ may import of lib/ besides lib/services: the leaves (plain helpers and the shared evidence model). */
const APP_DOORS = new Set(['services', 'common', 'evidence', 'config.ts', 'search-markers.ts']);

/**
 * Longest a lib/ module may be: 400 lines, what one reads in a sitting (the cap lib/retrieval had, now for every
 * folder). A module that needs more holds more than one idea; split it by idea, not by line count.
 */
const MAX_LINES = 400;

const root = path.resolve(import.meta.dirname, '..');
const lib = path.join(root, 'lib');
const SOURCE = /\.(tsx?|mjs)$/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'generated' || NOT_SOURCE.has(e.name) ? [] : sourceFiles(p);
    return SOURCE.test(e.name) && !/\.test\.tsx?$|\.contract\.ts$|\.d\.ts$|\.spec\.ts$|\.d\.mts$/.test(e.name) ? [p] : [];
  });
}

/** The layer unit of a file: its lib/ folder (or root file), scripts/'s folder, or the top folder (@app, @e2e, …). */
function unitOf(file: string): string {
  const rel = path.relative(root, file).split(path.sep);
  if (rel[0] === 'lib') return rel[1];
  if (rel[0] === 'scripts') return rel.length > 2 ? `@scripts/${rel[1]}` : '@scripts';
  if (rel[0] === 'app' && rel[1] === 'api' && rel.at(-1) === 'contract.ts') return '@contracts';
  return rel.length > 1 ? `@${rel[0]}` : rel[0];
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
  // A specifier without its extension (`@/lib/config`) names the .ts file beside it.
  const withExtension = (target: string) => (!path.extname(target) && fs.existsSync(`${target}.ts`) ? `${target}.ts` : target);
  return specs.flatMap(({ spec, typeOnly }) => {
    if (spec.startsWith('@/')) return [{ target: withExtension(path.join(root, spec.slice(2))), typeOnly }];
    if (spec.startsWith('.')) return [{ target: withExtension(path.resolve(path.dirname(file), spec)), typeOnly }];
    return [];
  });
}

/** Every module of the project, wherever it is (top-level config files such as next.config.ts have no layer). */
const files = sourceFiles(root).filter((f) => path.relative(root, f).includes(path.sep) || unitOf(f) in LAYERS);

describe('architecture', () => {
  it('every folder of lib/ has a layer', () => {
    const units = new Set(fs.readdirSync(lib).filter((n) => !n.startsWith('.')));
    const unknown = [...units].filter((u) => !(u in LAYERS) && !UNRANKED.has(u));
    expect(unknown).toEqual([]);
  });

  it('every module outside lib/ has a layer too (scripts/ and e2e/ included, .mjs files included)', () => {
    const unknown = files.map(unitOf).filter((u) => !(u in LAYERS) && !UNRANKED.has(u));
    expect([...new Set(unknown)]).toEqual([]);
    // The walk sees the folders it should: a renamed folder would otherwise drop out of every rule silently.
    for (const unit of ['@app', '@contracts', '@components', '@e2e', '@scripts', '@scripts/bench', '@scripts/test-support', 'serving'])
      expect(files.some((f) => unitOf(f) === unit)).toBe(true);
    expect(files.some((f) => f.endsWith('.mjs'))).toBe(true);
  });

  it('pages, route handlers and server actions reach lib/ only through lib/services (and the leaves)', () => {
    const violations = files
      .filter((f) => unitOf(f) === '@app' || unitOf(f) === '@contracts')
      .flatMap((f) => importsOf(f).map((i) => ({ f, target: i.target })))
      .filter(({ target }) => path.relative(root, target).startsWith(`lib${path.sep}`) && !APP_DOORS.has(unitOf(target)))
      .map(({ f, target }) => `${path.relative(root, f)} → ${path.relative(root, target)}`);
    expect(violations).toEqual([]);
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

  it('the process’s long-lived objects are kept in one module (lib/common/process-registry.ts), not on globalThis here and there', () => {
    const holders = files.filter((f) => /\bglobalThis\b/.test(fs.readFileSync(f, 'utf8'))).map((f) => path.relative(root, f));
    expect(holders).toEqual([path.join('lib', 'common', 'process-registry.ts')]);
  });

  it('components call the JSON routes through the typed client, and every route handler has its contract beside it', () => {
    const ownFetch = files
      .filter((f) => unitOf(f) === '@components' && !f.endsWith('api-client.ts'))
      .filter((f) => /\bfetch\(/.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(root, f));
    expect(ownFetch).toEqual([]);
    // better-auth's catch-all and the health check (no input, read by load balancers) are the exceptions.
    const routes = files.filter((f) => f.endsWith(`${path.sep}route.ts`) && !/\[\.\.\.all\]|health/.test(f));
    const without = routes.filter((f) => !fs.existsSync(path.join(path.dirname(f), 'contract.ts'))).map((f) => path.relative(root, f));
    expect(without).toEqual([]);
  });

  it('server actions read their forms through a schema (formInput or formFields), never field by field', () => {
    const actions = files.filter((f) => fs.readFileSync(f, 'utf8').startsWith("'use server'"));
    expect(actions.length).toBeGreaterThan(0);
    const unparsed = actions
      .filter((f) => {
        const text = fs.readFileSync(f, 'utf8');
        return !/\bform(Input|Fields)\(/.test(text) || /\bform\.get(All)?\('(?!questions')/.test(text);
      })
      .map((f) => path.relative(root, f));
    expect(unparsed).toEqual([]);
  });

  it(`no lib/ module is over ${MAX_LINES} lines`, () => {
    const long = sourceFiles(lib)
      .map((f) => [path.relative(root, f), fs.readFileSync(f, 'utf8').replace(/\n$/, '').split('\n').length] as const)
      .filter(([, n]) => n > MAX_LINES);
    expect(long).toEqual([]);
  });
});
