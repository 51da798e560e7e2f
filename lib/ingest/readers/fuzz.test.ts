import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../scripts/test-support/fixtures.ts';
import { fuzzCases, readFuzzCase } from '../../../scripts/test-support/fuzz-cases.ts';

/**
 * Every reader fed seeded corruptions of valid inputs ends with papers, records or per-item errors: never an
 * exception other than the readers' own `InputError`, never a paper the import cannot store, and never a hang (the
 * suite's own timeout). How long each takes is `npm run bench -- fuzz`'s figure, not this test's.
 */
describe('readers under seeded corruption', () => {
  it('end every corrupted input with items or their own errors, never an unexpected exception', async () => {
    const dir = tempDir('assay-fuzz-');
    const failures: string[] = [];
    let cases = 0;
    for await (const c of fuzzCases()) {
      const { unexpected } = await readFuzzCase(c, dir);
      cases++;
      if (unexpected) failures.push(`${c.label}: ${unexpected}`);
    }
    expect(cases).toBe(6 * 8 * 3);
    expect(failures).toEqual([]);
  });
});
