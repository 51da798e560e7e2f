import { describe, expect, it } from 'vitest';
import { HourlyQuota } from './hourly-quota.ts';

describe('HourlyQuota', () => {
  it('allows perHour takes per key in any rolling hour, and says when the next one is free', () => {
    const q = new HourlyQuota(3);
    expect([q.take('a', 0), q.take('a', 1_000), q.take('a', 2_000)]).toEqual([null, null, null]);
    expect(q.take('a', 3_000)).toBe(3_597);
    expect(q.take('b', 3_000)).toBeNull(); // another client is not touched
    expect(q.take('a', 3_600_001)).toBeNull(); // the first take has left the hour
    expect(q.take('a', 3_600_002)).not.toBeNull();
  });

  it('a quota of 0 allows nothing, and it remembers at most maxKeys keys', () => {
    expect(new HourlyQuota(0).take('a')).toBe(3600);
    const q = new HourlyQuota(1, 5);
    for (let i = 0; i < 50; i++) q.take(`k${i}`, 0);
    expect((q as unknown as { taken: Map<string, number[]> }).taken.size).toBe(5);
  });
});
