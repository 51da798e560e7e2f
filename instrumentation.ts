export async function register() {
  // Not while `next build` prerenders: only a serving process opens the database.
  if (process.env.NEXT_RUNTIME === 'nodejs' && process.env.NEXT_PHASE !== 'phase-production-build') {
    // Before any WebAssembly loads (PGlite's PostgreSQL, Prisma's query compiler): V8 optimises a wasm function
    // only after 100 times more work in it than by default. By default its background threads spent ~1.2 s of CPU
    // optimising PGlite's and Prisma's code in a restart's first seconds, on 2 cores the CPU the retrieval worker
    // and the model's session needed: first answer after a restart 4.5–4.7 s → 3.9–4.1 s (CPU until then 7.9–8.3
    // → 6.6–7.0 s), bench load 43.5–45.7 → 50–51 requests/s. Code that stays hot is still optimised: importing the
    // shared corpus took 67 s with it and 69 s without.
    (await import('node:v8')).setFlagsFromString('--wasm-tiering-budget=180000000');
    // Before the rest of the app loads: a restart's retrieval workers begin reading the stored index (the first
    // question waits for them), on the other core while this thread loads the app and opens the database.
    const [{ prestartRetrieval }, { config }] = await Promise.all([import('./lib/pipelines/prestart'), import('./lib/config')]);
    prestartRetrieval(config());
    const { startApp } = await import('./lib/startup');
    await startApp();
  }
}
