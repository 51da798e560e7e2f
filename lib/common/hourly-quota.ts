/**
 * At most `perHour` takes per key (a client's address) in any rolling hour, counted in the process: what an anonymous
 * visitor may have stored (config.anonymousAnswersPerHour). Remembers at most `maxKeys` keys, forgetting the ones
 * least recently used first, so a flood of addresses cannot grow it without bound.
 */
export class HourlyQuota {
  private readonly taken = new Map<string, number[]>();
  constructor(
    private readonly perHour: number,
    private readonly maxKeys = 100_000,
  ) {}

  /** Takes one for `key` and returns null, or returns the seconds until one is free again (nothing taken). */
  take(key: string, now = Date.now()): number | null {
    if (this.perHour <= 0) return 3600;
    const hourAgo = now - 3_600_000;
    const times = (this.taken.get(key) ?? []).filter((t) => t > hourAgo);
    this.taken.delete(key);
    if (times.length >= this.perHour) {
      this.taken.set(key, times);
      return Math.max(1, Math.ceil((times[0] - hourAgo) / 1000));
    }
    times.push(now);
    this.taken.set(key, times);
    while (this.taken.size > this.maxKeys) this.taken.delete(this.taken.keys().next().value as string);
    return null;
  }
}
