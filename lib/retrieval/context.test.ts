import { describe, expect, it } from 'vitest';
import { Deadline } from '../common/deadline.ts';
import { AppError } from '../common/errors.ts';
import { partIfReadyInTime, partInTime } from './context.ts';

const settlesAfter = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('partInTime: a part of the index built on first use, within a question’s time', () => {
  it('gives a part that is ready, and one built well within the time', async () => {
    expect(await partInTime({ deadline: Deadline.in(1000) }, Promise.resolve('ready'), 'records index')).toBe('ready');
    expect(await partInTime({ deadline: Deadline.none() }, settlesAfter(80, 'built'), 'records index')).toBe('built');
  });

  it('ends with 503 while the part is still being built, and with 503 "ready now" when the wait used most of the time', async () => {
    const still = partInTime({ deadline: Deadline.in(60) }, new Promise<string>(() => {}), 'records index');
    await expect(still).rejects.toThrow(/still being built/);
    await expect(still).rejects.toMatchObject({ code: 'unavailable' });

    // Built after three quarters of the time: what is left would not do for the rest of the question.
    const late = partInTime({ deadline: Deadline.in(400) }, settlesAfter(300, 'built'), 'records index');
    const error = await late.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'unavailable', retryAfterSeconds: 1 });
    expect((error as Error).message).toMatch(/records index has just been built/);
  });
});

describe('partIfReadyInTime: a part a question can do without', () => {
  it('gives the part when it is ready or built while half the time is left, null past that, and waits to the end without a deadline', async () => {
    expect(await partIfReadyInTime({ deadline: Deadline.in(1000) }, Promise.resolve('ready'))).toBe('ready');
    expect(await partIfReadyInTime({ deadline: Deadline.in(2000) }, settlesAfter(50, 'built'))).toBe('built');
    const building = new Promise<string>(() => {});
    const t0 = Date.now();
    const deadline = Deadline.in(2000);
    expect(await partIfReadyInTime({ deadline }, building)).toBeNull();
    // It stopped waiting at about half the time (not at the deadline): the rest is the question's.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(deadline.expired()).toBe(false);
    expect(await partIfReadyInTime({ deadline: Deadline.none() }, settlesAfter(80, 'built'))).toBe('built');
    await expect(partIfReadyInTime({ deadline: Deadline.in(1000) }, Promise.reject(new Error('database gone')))).rejects.toThrow('database gone');
  });
});
