import { afterEach, describe, expect, it, vi } from 'vitest';
import { onCueOrAfter } from './lazy.ts';

describe('onCueOrAfter', () => {
  afterEach(() => vi.useRealTimers());

  it('runs once on the first cue, not again on later cues or when the time has passed', () => {
    vi.useFakeTimers();
    const run = vi.fn();
    const cue = onCueOrAfter(run, 1000);
    vi.advanceTimersByTime(500);
    expect(run).not.toHaveBeenCalled();
    cue();
    cue();
    vi.advanceTimersByTime(2000);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs once after the time when no cue comes, and a late cue does not run it again', () => {
    vi.useFakeTimers();
    const run = vi.fn();
    const cue = onCueOrAfter(run, 1000);
    vi.advanceTimersByTime(999);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
    cue();
    expect(run).toHaveBeenCalledTimes(1);
  });
});
