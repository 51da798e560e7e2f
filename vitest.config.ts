import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    include: ['lib/**/*.test.ts', 'app/**/*.test.ts', 'components/**/*.test.ts', 'eval/**/*.test.ts', 'scripts/**/*.test.ts'],
    // ASSAY_TEST_DB=postgres runs only the files that touch the database (the parity suite).
    ...(process.env.ASSAY_TEST_DB === 'postgres' ? { include: ['lib/**/*.db.test.ts'] } : {}),
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    env: { NEXT_TELEMETRY_DISABLED: '1' },
  },
});
