/**
 * What the server's environment adds when `npm start` (scripts/start.mjs) or a test or bench (scripts/test-support/built-app.ts)
 * starts `next start`; it must be there when the process starts, so it cannot be set from inside. Plain JavaScript:
 * `npm start` reads it before any build exists.
 *
 * MALLOC_ARENA_MAX=2: glibc gives each thread that allocates its own malloc arena, and the server has many (its
 * request thread, the retrieval worker, PGlite's thread, the model's session and its pool, V8's and libuv's helpers),
 * each keeping freed memory for itself. With two arenas, bench load (1,000 questions from 50 clients, shared corpus,
 * local model, two alternating pairs) peaked at 935–940 MiB instead of 1,006–1,059, at 55.5–56.1 requests/s against
 * 56.8–58.9 (within the runs' spread). Whoever sets it already keeps their value.
 */
export function serverProcessEnv(env) {
  return { MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX || '2' };
}
