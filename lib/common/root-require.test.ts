import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireFromRoot } from './root-require.ts';

/** Packages the app requires on first use (see root-require.ts), never imports with the modules that use them. */
const ON_FIRST_USE = ['compromise', 'neo4j-driver', 'usearch'];
const lib = path.resolve(import.meta.dirname, '..');

function appModules(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return ['generated', 'cli'].includes(e.name) ? [] : appModules(p);
    return /\.(ts|mjs)$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [p] : [];
  });
}

describe('requireFromRoot', () => {
  it('loads a package’s CommonJS build from the project root', () => {
    const nlp = requireFromRoot<typeof import('compromise').default>('compromise');
    expect(nlp('The film was annealed at 500 °C.').match('#Verb').out('array')).toContain('annealed');
  });

  it('is how the app loads the packages it needs only sometimes: no module of the app imports them', () => {
    const offenders = appModules(lib).filter((file) => {
      const text = fs.readFileSync(file, 'utf8');
      return ON_FIRST_USE.some((name) => new RegExp(`^import (?!type )[^;]*from '${name}'`, 'm').test(text));
    });
    expect(offenders.map((f) => path.relative(lib, f))).toEqual([]);
  });
});
