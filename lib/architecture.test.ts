import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Dependencies point one way along the data flow. Each folder of lib/ has a layer; a module may import its own
 * layer and the layers below, never one above. Leaf modules import no other part of the project. The adapters
 * (db: one module per table; ai: the model registry and prompts) and test support are used from every layer
 * and are left out of the ordering; import cycles anywhere are Biome's noImportCycles rule (`npm test` runs it).
 */
const LAYERS: Record<string, number> = {
  common: 0,
  evidence: 0,
  'config.ts': 0,
  'search-markers.ts': 0,
  auth: 1,
  ingest: 1,
  structure: 2,
  embedding: 3,
  graph: 4,
  retrieval: 5,
  reasoning: 6,
  pipelines: 7,
  answer: 8,
  evaluation: 9,
  jobs: 10,
  grading: 10,
  corpus: 11,
  'startup.ts': 12,
  cli: 12,
};
const UNRANKED = new Set(['db', 'ai', 'testing', 'architecture.test.ts', 'config.test.ts']);

const lib = path.resolve(import.meta.dirname);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'generated' ? [] : sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.ts$|\.contract\.ts$/.test(e.name) ? [p] : [];
  });
}

/** The lib/ folder (or root file) a path belongs to. */
const unitOf = (file: string) => path.relative(lib, file).split(path.sep)[0];

function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'/g), ...text.matchAll(/import\(\s*'([^']+)'\s*\)/g)].map((m) => m[1]);
  return specs.filter((s) => s.startsWith('.')).map((s) => path.resolve(path.dirname(file), s));
}

describe('architecture', () => {
  it('every folder of lib/ has a layer (or is a named adapter)', () => {
    const units = new Set(fs.readdirSync(lib).filter((n) => !n.startsWith('.')));
    const unknown = [...units].filter((u) => !(u in LAYERS) && !UNRANKED.has(u));
    expect(unknown).toEqual([]);
  });

  it('no module imports a layer above its own, and leaf modules import no other part of the project', () => {
    const violations: string[] = [];
    for (const file of sourceFiles(lib)) {
      const from = unitOf(file);
      if (UNRANKED.has(from)) continue;
      for (const target of importsOf(file)) {
        if (!target.startsWith(lib)) continue;
        const to = unitOf(target);
        if (to === from) continue;
        const leaf = LAYERS[from] === 0;
        const upward = !UNRANKED.has(to) && LAYERS[to] > LAYERS[from];
        if (upward || (leaf && LAYERS[to] !== 0)) violations.push(`${path.relative(lib, file)} → ${path.relative(lib, target)}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('no file in lib/retrieval is over 400 lines', () => {
    const long = sourceFiles(path.join(lib, 'retrieval'))
      .map((f) => [path.relative(lib, f), fs.readFileSync(f, 'utf8').split('\n').length] as const)
      .filter(([, n]) => n > 400);
    expect(long).toEqual([]);
  });
});
