import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GRAPH_EXTRACTOR_ID, GRAPH_RULE_FILES, TABLE_RULE_FILES } from './build.ts';
import { chunkerRulesSource } from './clause-chunker.ts';
import { clauseRulesSource } from './clause-tuples.ts';
import { propertyValueRulesSource } from './property-value-tuples.ts';
import { tupleRulesSource } from './tuples.ts';
import { plausibleRulesSource } from './plausible.ts';

/**
 * The graph extractor's version stamp hashes the rules sources; a paper is re-extracted only when its stamp
 * changes. A rule left out of the source is a rule whose change leaves stale tuples in every built graph (it
 * happened: a changed noun-phrase rule was not in the stamp, and a graph built before it kept the old tuples).
 * So every top-level declaration of the two extraction modules must be named in its module's rules source.
 */
const NOT_RULES: Record<string, string[]> = {
  // The rules source itself; a cache (what it holds derives from the rules); the tuple id (not a rule).
  'tuples.ts': ['tupleRulesSource', 'materialEntityCache', 'tupleId', 'PATTERNS'],
  'clause-tuples.ts': ['clauseRulesSource'],
  'clause-chunker.ts': ['chunkerRulesSource'],
  'property-value-tuples.ts': ['propertyValueRulesSource'],
  'plausible.ts': ['plausibleRulesSource'],
};

function topLevelNames(file: string): string[] {
  const text = fs.readFileSync(new URL(file, import.meta.url), 'utf8');
  return [...text.matchAll(/^(?:export )?(?:const|let|function) (\w+)/gm)].map((m) => m[1]);
}

describe('graph extractor rules sources', () => {
  for (const [file, source] of [
    ['tuples.ts', tupleRulesSource],
    ['clause-tuples.ts', clauseRulesSource],
    ['clause-chunker.ts', chunkerRulesSource],
    ['property-value-tuples.ts', propertyValueRulesSource],
    ['plausible.ts', plausibleRulesSource],
  ] as const) {
    it(`names every declaration of ${file}`, () => {
      const body = source.toString();
      const names = topLevelNames(file);
      expect(names.length).toBeGreaterThan(5); // the parser found the module's declarations
      const missing = names.filter((n) => !NOT_RULES[file].includes(n) && !new RegExp(`\\b${n}\\b`).test(body));
      expect(missing).toEqual([]);
    });
  }

  it('changes with a rule', () => {
    // The sources are texts of the rules themselves, not a hand-kept version number.
    expect(clauseRulesSource()).toContain('function nounPhrase');
    expect(clauseRulesSource()).toContain(chunkerRulesSource());
    expect(clauseRulesSource()).toContain(propertyValueRulesSource());
    expect(tupleRulesSource()).toContain('function resolveMaterialEntity');
  });

  it('stamp tuples with the text of every module the rules and their normalisers come from, the same in every process', () => {
    // Every module an extraction module imports a value from is one of the stamped files.
    const lib = path.join(import.meta.dirname, '..');
    for (const file of GRAPH_RULE_FILES.filter((f) => f.startsWith('graph/'))) {
      const text = fs.readFileSync(path.join(lib, file), 'utf8');
      const imported = [...text.matchAll(/^import (?!type )[^;]*? from '(\.{1,2}\/[^']+)';/gm)].map((m) =>
        path.relative(lib, path.resolve(path.dirname(path.join(lib, file)), m[1])),
      );
      expect(
        imported.filter((f) => !(GRAPH_RULE_FILES as readonly string[]).includes(f)),
        file,
      ).toEqual([]);
    }
    expect(TABLE_RULE_FILES.every((f) => fs.existsSync(path.join(lib, f)))).toBe(true);
    // tsx (the CLI, npm run worker) reads the same id as this process: the files' text, not each transpiler's print of the functions.
    const tsx = spawnSync(process.execPath, ['--import', 'tsx', '-e', "import('./lib/graph/build.ts').then((m) => console.log(m.GRAPH_EXTRACTOR_ID))"], {
      cwd: path.join(lib, '..'),
      encoding: 'utf8',
    });
    expect(tsx.stdout.trim()).toBe(GRAPH_EXTRACTOR_ID);
  });
});
