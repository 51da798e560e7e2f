import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceHash } from '../common/source-hash.ts';
import { makeRetrievalWorkerBundle, retrievalWorkerFile } from './worker-bundle.ts';

describe('the retrieval worker’s bundle', () => {
  it('is made once for this code, named by its hash, and then is what workers start from', async () => {
    const file = await makeRetrievalWorkerBundle();
    expect(file).not.toBeNull();
    expect(path.basename(file!)).toBe(`retrieval-worker-${sourceHash()!.slice(0, 24)}.mjs`);
    expect(retrievalWorkerFile()).toBe(file);
    // One module: lib/ is inside it, packages stay imports.
    const code = fs.readFileSync(file!, 'utf8');
    expect(code).toMatch(/lib\/pipelines\/retrieval-worker\.ts/);
    expect(code).not.toMatch(/from "\.\.?\//);
    expect(code).toMatch(/from "compromise"/);
  });
});
