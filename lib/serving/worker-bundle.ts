import fs from 'node:fs';
import path from 'node:path';
import { sourceHash } from '../common/source-hash.ts';

/**
 * Which file a retrieval worker runs. The worker's code is TypeScript under lib/; run through tsx it loads ~200
 * modules one by one, each transformed on tsx's loader thread: on the shared corpus's 2-core machine that was ~0.9 s
 * of the worker's own start and 1.7 s of CPU on the loader thread, while the server's thread was opening its
 * database and the first question was waiting for the worker. So the worker is bundled by esbuild (tsx's own
 * transformer; node_modules stay imports, and what the worker imports only when asked — a model's or Neo4j's client —
 * goes into chunks of its own, loaded then) and the bundle is kept under node_modules/.cache, in a folder named by the
 * code's hash: new code never runs an older bundle. Until the bundle of this code exists (its first start) the
 * worker runs through tsx, and the bundle is made in the background (a tenth of a second, in esbuild's process).
 */
const root = () => /* turbopackIgnore: true */ process.cwd();
/** The worker threads' entries (lib/serving/<entry>.ts, each with a tsx entry <entry>.mjs), bundled together. */
const ENTRIES = ['retrieval-worker', 'graph-keeper-worker'] as const;
export type WorkerEntry = (typeof ENTRIES)[number];
const TSX_ENTRY = (entry: WorkerEntry) => path.join(root(), 'lib', 'serving', `${entry}.mjs`);
const cacheDir = () => path.join(root(), 'node_modules', '.cache', 'assay');

const BUNDLE = 'retrieval-worker-';
const folderOf = (hash: string) => path.join(cacheDir(), `${BUNDLE}${hash.slice(0, 24)}`);
const bundleOf = (hash: string, entry: WorkerEntry = 'retrieval-worker') => path.join(folderOf(hash), `${entry}.mjs`);

let making: Promise<string | null> | null = null;

/** The file to start a worker thread from now: this code's bundle when it is made, else the tsx entry (and the bundle is begun). */
export function retrievalWorkerFile(entry: WorkerEntry = 'retrieval-worker'): string {
  const hash = sourceHash();
  if (hash && fs.existsSync(bundleOf(hash, entry))) return bundleOf(hash, entry);
  void makeRetrievalWorkerBundle();
  return TSX_ENTRY(entry);
}

/**
 * Makes this code's bundle of the retrieval worker unless it exists (once per process; written into a folder aside
 * and renamed, so two processes may make it at once: the first rename wins, the other process uses its bundle), and removes older code's bundles. Null when it cannot be made (no
 * sources, no esbuild): workers then run through tsx.
 */
export function makeRetrievalWorkerBundle(): Promise<string | null> {
  making ??= (async () => {
    const hash = sourceHash();
    if (!hash) return null;
    const file = bundleOf(hash);
    if (fs.existsSync(file)) return file;
    try {
      const esbuild = await import(/* turbopackIgnore: true */ 'esbuild');
      fs.mkdirSync(cacheDir(), { recursive: true });
      const partial = `${folderOf(hash)}.${process.pid}.partial`;
      await esbuild.build({
        entryPoints: ENTRIES.map((entry) => path.join(root(), 'lib', 'serving', `${entry}.ts`)),
        outdir: partial,
        outExtension: { '.js': '.mjs' },
        bundle: true,
        splitting: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        packages: 'external',
        logLevel: 'silent',
      });
      try {
        fs.renameSync(partial, folderOf(hash));
      } catch (error) {
        // Another process made it first: its bundle is this code's too.
        fs.rmSync(partial, { recursive: true, force: true });
        if (!fs.existsSync(file)) throw error;
      }
      for (const f of fs.readdirSync(cacheDir()))
        if (f.startsWith(BUNDLE) && path.join(cacheDir(), f) !== folderOf(hash) && !f.endsWith('.partial'))
          fs.rmSync(path.join(cacheDir(), f), { recursive: true, force: true });
      return file;
    } catch (error) {
      console.log(`[assay] the retrieval worker could not be bundled (${(error as Error).message}); it runs through tsx`);
      return null;
    }
  })();
  return making;
}
