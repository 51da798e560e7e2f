import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceHash } from '../common/source-hash.ts';
import { makeRetrievalWorkerBundle, retrievalWorkerFile } from './worker-bundle.ts';

describe('the retrieval worker’s bundle', () => {
  it('is made once for this code, named by its hash, and then is what workers start from', async () => {
    const file = await makeRetrievalWorkerBundle();
    expect(file).not.toBeNull();
    expect(path.basename(path.dirname(file!))).toBe(`retrieval-worker-${sourceHash()!.slice(0, 24)}`);
    expect(retrievalWorkerFile()).toBe(file);
    // lib/ is inside it, packages stay imports; a model's and Neo4j's clients are in chunks loaded only when asked for.
    const code = fs.readFileSync(file!, 'utf8');
    expect(code).toMatch(/lib\/pipelines\/retrieval-worker\.ts/);
    expect(code).toMatch(/from "compromise"/);
    expect(code).not.toMatch(/from "(neo4j-driver|@ai-sdk\/openai|ai|zod)"/);
    const chunks = fs.readdirSync(path.dirname(file!)).filter((f) => f !== 'retrieval-worker.mjs');
    expect(chunks.some((f) => /from "neo4j-driver"/.test(fs.readFileSync(path.join(path.dirname(file!), f), 'utf8')))).toBe(true);
  });
});
