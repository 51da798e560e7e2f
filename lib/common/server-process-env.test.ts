import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverProcessEnv } from './server-process-env.mjs';

describe('serverProcessEnv', () => {
  it('limits glibc to two malloc arenas unless the environment already says how many', () => {
    expect(serverProcessEnv({})).toEqual({ MALLOC_ARENA_MAX: '2' });
    expect(serverProcessEnv({ MALLOC_ARENA_MAX: '8' })).toEqual({ MALLOC_ARENA_MAX: '8' });
  });

  it('is what both ways of starting the server add: npm start and the tests’ and benches’ servers', () => {
    const root = path.resolve(import.meta.dirname, '..', '..');
    for (const file of ['scripts/start.mjs', 'scripts/test-support/built-app.ts'])
      expect(fs.readFileSync(path.join(root, file), 'utf8'), file).toMatch(/\.\.\.serverProcessEnv\((process\.)?env\)/);
  });
});
