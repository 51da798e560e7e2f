export async function register() {
  // Not while `next build` prerenders: only a serving process opens the database.
  if (process.env.NEXT_RUNTIME === 'nodejs' && process.env.NEXT_PHASE !== 'phase-production-build') {
    // Before any WebAssembly loads (lib/common/v8-tuning.ts says why).
    (await import('./lib/common/v8-tuning')).tuneForStart();
    // Before the rest of the app loads: a restart's retrieval workers begin reading the stored index (the first
    // question waits for them), on the other core while this thread loads the app and opens the database.
    const [{ prestartRetrieval }, { config }] = await Promise.all([import('./lib/serving/prestart'), import('./lib/config')]);
    prestartRetrieval(config());
    // The database opens on its own thread (PGlite's) meanwhile too: started before the rest of the app is loaded
    // (a few hundred ms of this thread), not after. startApp below awaits the same opening.
    void (await import('./lib/db/client')).getDatabase().catch(() => {});
    const { startApp } = await import('./lib/startup');
    await startApp();
  }
}
