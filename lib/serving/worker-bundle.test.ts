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
    // The graph keeper's entry is bundled beside it, sharing its chunks.
    expect(retrievalWorkerFile('graph-keeper-worker')).toBe(path.join(path.dirname(file!), 'graph-keeper-worker.mjs'));
    expect(fs.readFileSync(retrievalWorkerFile('graph-keeper-worker'), 'utf8')).toMatch(/lib\/serving\/graph-keeper-worker\.ts/);
    // lib/ is inside it, packages stay imports; a model's client is in a chunk loaded only when asked for.
    const code = fs.readFileSync(file!, 'utf8');
    expect(code).toMatch(/lib\/serving\/retrieval-worker\.ts/);
    expect(code).not.toMatch(/from "(neo4j-driver|@ai-sdk\/openai|ai|zod)"/);
    const chunks = fs.readdirSync(path.dirname(file!)).filter((f) => f !== 'retrieval-worker.mjs');
    const everything = [code, ...chunks.map((f) => fs.readFileSync(path.join(path.dirname(file!), f), 'utf8'))].join('\n');
    expect(everything).toMatch(/from "stemmer"/);
    // compromise and neo4j-driver are required on first use (lib/common/root-require.ts), not imported.
    expect(everything).not.toMatch(/from "(compromise|neo4j-driver)"/);
    expect(chunks.some((f) => /from "@ai-sdk\/openai"/.test(fs.readFileSync(path.join(path.dirname(file!), f), 'utf8')))).toBe(true);
  });
});
