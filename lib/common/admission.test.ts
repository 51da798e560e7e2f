import { describe, expect, it } from 'vitest';
import { createAdmission } from './admission.ts';
import { AppError, errorResponse } from './errors.ts';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('admission', () => {
  it('admits in the order asked, concurrency at a time', async () => {
    const line = createAdmission({ concurrency: 2, maxWaiting: 10 });
    const started: number[] = [];
    let peak = 0;
    const job = (i: number, ms: number) =>
      line.run(async () => {
        started.push(i);
        peak = Math.max(peak, line.load().running);
        await new Promise((r) => setTimeout(r, ms));
        return i;
      });
    // Short jobs asked later never overtake a long one asked earlier.
    const results = await Promise.all([job(0, 30), job(1, 5), job(2, 5), job(3, 1), job(4, 1), job(5, 1)]);
    expect(results).toEqual([0, 1, 2, 3, 4, 5]);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(peak).toBe(2);
    expect(line.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses at once beyond the waiting line, with when to try again', async () => {
    const line = createAdmission({ concurrency: 1, maxWaiting: 2, retryAfterSeconds: 3 });
    let release = () => {};
    const blocker = line.run(() => new Promise<void>((r) => (release = r)));
    const queued = [line.run(async () => 'a'), line.run(async () => 'b')];
    expect(line.load()).toEqual({ running: 1, waiting: 2 });
    expect(() => line.refuseIfFull()).toThrow(/busy/);
    const refused = await line.run(async () => 'c').catch((e) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'unavailable', retryAfterSeconds: 3 });
    expect(refused.message).toMatch(/busy: 2 questions are waiting/);
    const response = errorResponse(refused);
    expect(response.status).toBe(503);
    expect(response.headers.get('Retry-After')).toBe('3');
    release();
    await blocker;
    expect(await Promise.all(queued)).toEqual(['a', 'b']);
  });

  it('lets a caller who went away leave the line, and the next one moves up', async () => {
    const line = createAdmission({ concurrency: 1, maxWaiting: 5 });
    let release = () => {};
    const blocker = line.run(() => new Promise<void>((r) => (release = r)));
    const gone = new AbortController();
    const leaving = line.run(async () => 'never', gone.signal).catch((e) => e);
    const staying = line.run(async () => 'ran');
    await tick();
    gone.abort();
    expect(await leaving).toMatchObject({ code: 'unavailable' });
    expect(line.load().waiting).toBe(1);
    release();
    await blocker;
    expect(await staying).toBe('ran');
    // An already aborted signal never joins the line.
    const busy = line.run(() => tick());
    expect(await line.run(async () => 'x', AbortSignal.abort()).catch((e) => e)).toMatchObject({ code: 'unavailable' });
    await busy;
  });

  it('gives the place of a caller who left after being admitted, before starting, to the next one', async () => {
    const line = createAdmission({ concurrency: 1, maxWaiting: 5 });
    let release = () => {};
    const blocker = line.run(() => new Promise<void>((r) => (release = r)));
    const gone = new AbortController();
    let ran = false;
    const leaving = line
      .run(async () => {
        ran = true;
      }, gone.signal)
      .catch((e) => e);
    const staying = line.run(async () => 'next');
    release();
    await blocker;
    // Admitted now, but it starts on the next turn of the event loop: it leaves first.
    gone.abort();
    expect(await leaving).toMatchObject({ code: 'unavailable' });
    expect(await staying).toBe('next');
    expect(ran).toBe(false);
    expect(line.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('frees its place when the work fails', async () => {
    const line = createAdmission({ concurrency: 1, maxWaiting: 5 });
    await expect(line.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await line.run(async () => 'next')).toBe('next');
    expect(line.load()).toEqual({ running: 0, waiting: 0 });
  });
});
