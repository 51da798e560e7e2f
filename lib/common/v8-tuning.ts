import v8 from 'node:v8';

/**
 * The server's two V8 settings, each measured on the shared corpus with the local model on 2 cores. V8's flags are
 * the process's, so they hold for the server's thread and every worker thread alike; both only change when V8
 * does work it would do anyway (optimise WebAssembly, collect garbage), never what the code computes.
 */

/**
 * At the start, before any WebAssembly loads (PGlite's PostgreSQL, Prisma's query compiler): V8 optimises a wasm
 * function only after 100 times more work in it than by default. By default its helper threads spent ~1.2 s of a
 * restart's CPU optimising that code while the retrieval worker and the model's session needed the cores: first
 * answer after a restart 4.51–4.73 → 3.86–4.07 s, the process's CPU until then 7.9–8.3 → 6.6–7.0 s. Code that
 * stays hot is still optimised: importing the shared corpus took 67 s with it and 69 s without.
 */
export function tuneForStart(): void {
  v8.setFlagsFromString('--wasm-tiering-budget=180000000');
}

/**
 * Once the start-up's indexes are in place: a thread's heap may grow to 1.5 times what the last full collection
 * left alive before the next one (V8 otherwise picks up to 4 times when collecting is cheap). Under bench load the
 * heaps had grown with garbage (the server's thread 286 MB with 67 MB alive, the worker 435 MB with 214 MB) and
 * V8 kept the pages. Set here, 1,000 questions from 50 clients, two alternating pairs: peak RSS 1,145–1,150 →
 * 997–1,030 MiB, 51.7–55.3 → 56.6–57.6 requests/s. Set from the start instead, 1,500 questions: 1,108–1,484 →
 * 930–943 MiB, but the worker's read of the stored index then ran more collections (first answer after a restart
 * 0.3 s later). Importing the shared corpus with it: 66 s.
 */
export function tuneForServing(): void {
  v8.setFlagsFromString('--heap-growing-percent=50');
}
