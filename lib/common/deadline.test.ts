import { describe, expect, it } from 'vitest';
import { Deadline, isOverBudget, overBudget } from './deadline.ts';
import { AppError } from './errors.ts';
import { createTrace } from './trace.ts';

describe('Deadline', () => {
  it('passes checks until its time, then throws the over-budget error (422) asking for shorter input', () => {
    expect(() => Deadline.in(60_000).check('analyse')).not.toThrow();
    const past = Deadline.at(Date.now() - 1, 5000);
    expect(past.expired()).toBe(true);
    expect(() => past.check('analyse')).toThrow(/took too long to analyse \(over its 5 s budget\); try a shorter one/);
    const error = overBudget(past);
    expect(error).toBeInstanceOf(AppError);
    expect(error.status).toBe(422);
    expect(isOverBudget(error)).toBe(true);
    expect(overBudget({ budgetMs: 2500, what: 'search' }).message).toMatch(/search took too long \(over its 2\.5 s budget\); try fewer or shorter words/);
  });

  it('never expires without a budget', () => {
    const none = Deadline.none();
    expect(none.expired()).toBe(false);
    expect(() => none.check()).not.toThrow();
    expect(none.share(0.5)).toBe(none);
  });

  it('stops waiting for work at its time and leaves the work to finish for whoever waits next', async () => {
    let finish: (v: string) => void = () => {};
    const slow = new Promise<string>((resolve) => {
      finish = resolve;
    });
    await expect(Deadline.in(20).race(slow)).rejects.toThrow(/took too long/);
    await expect(Deadline.in(20).race(slow, () => new Error('still building'))).rejects.toThrow('still building');
    finish('built');
    await expect(slow).resolves.toBe('built');
    await expect(Deadline.in(60_000).race(Promise.resolve('quick'))).resolves.toBe('quick');
    await expect(Deadline.at(Date.now() - 1, 1000).race(Promise.resolve('late'))).rejects.toThrow(/took too long/);
  });

  it('gives a share of the time left (a model’s reformulation gets half)', () => {
    const d = Deadline.in(10_000);
    const half = d.share(0.5);
    expect(half.at).toBeLessThan(d.at);
    expect(half.remainingMs()).toBeGreaterThan(4000);
    expect(half.remainingMs()).toBeLessThanOrEqual(5000);
  });

  it('ends a trace at the first step that starts past the time', async () => {
    const { trace, step } = createTrace(Deadline.at(Date.now() - 1, 100));
    await expect(
      step(
        'analyse',
        () => 1,
        () => ({}),
      ),
    ).rejects.toThrow(/took too long/);
    expect(trace).toEqual([]);
    const open = createTrace(Deadline.in(60_000));
    await expect(
      open.step(
        'analyse',
        () => 1,
        () => ({}),
      ),
    ).resolves.toBe(1);
  });
});
