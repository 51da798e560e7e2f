/**
 * /api/health asked every 200 ms, one at a time: its worst latency (a poll still waiting counts for as long as it has
 * waited), how long since it last answered, and the retrieval workers' restarts it reports.
 */
export function pollHealth(base: string) {
  let worst = 0;
  let failures = 0;
  let restarts = 0;
  let stop = false;
  let answered = performance.now();
  let asking: number | null = null;
  const done = (async () => {
    while (!stop) {
      const t0 = performance.now();
      asking = t0;
      try {
        const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(30_000) });
        const body = (await res.json()) as { retrievalWorkers?: { restarts?: number } | null };
        restarts = Math.max(restarts, body.retrievalWorkers?.restarts ?? 0);
        if (res.ok) answered = performance.now();
        else failures++;
      } catch {
        failures++;
      }
      asking = null;
      worst = Math.max(worst, performance.now() - t0);
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  return {
    /** Milliseconds since /api/health last answered. */
    silentMs: () => performance.now() - answered,
    worstSoFar: () => Math.max(worst, asking === null ? 0 : performance.now() - asking),
    stop: async () => {
      stop = true;
      await done;
      return { worstMs: Math.round(Math.max(worst, asking === null ? 0 : performance.now() - asking)), failures, restarts };
    },
  };
}
