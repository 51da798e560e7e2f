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

  it("gives a free place to the client with the fewest running: one client's flood does not delay another's question", async () => {
    const line = createAdmission({ concurrency: 2, maxWaiting: 50 });
    const started: string[] = [];
    const job = (client: string, label: string, ms: number) =>
      line.run(
        async () => {
          started.push(label);
          await new Promise((r) => setTimeout(r, ms));
        },
        undefined,
        { client },
      );
    const flood = Array.from({ length: 10 }, (_, i) => job('attacker', `a${i}`, 10));
    await tick();
    const normal = job('visitor', 'v', 1);
    await Promise.all([...flood, normal]);
    // Two of the flood were running; the visitor's question took the next free place, before the other eight.
    expect(started.indexOf('v')).toBe(2);
  });

  it('runs heavy questions in a lane of their own, so ordinary ones start at once however many heavy ones wait', async () => {
    const line = createAdmission({ concurrency: 4, maxWaiting: 50 });
    expect(line.load()).toEqual({ running: 0, waiting: 0 });
    let releaseHeavy = () => {};
    const held = new Promise<void>((r) => (releaseHeavy = r));
    const heavy = Array.from({ length: 6 }, (_, i) => line.run(() => held, undefined, { client: `h${i}`, heavy: true }));
    await tick();
    expect(line.load()).toEqual({ running: 1, waiting: 5 }); // a quarter of 4: one heavy at a time
    const t0 = performance.now();
    const ordinary = await Promise.all([1, 2, 3].map((i) => line.run(async () => i, undefined, { client: `n${i}` })));
    expect(ordinary).toEqual([1, 2, 3]);
    expect(performance.now() - t0).toBeLessThan(1_000); // they did not wait for the heavy ones (held until released)
    releaseHeavy();
    await Promise.all(heavy);
    expect(line.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('shares a full line: a newcomer takes the place of the fullest client, whose own newcomers are refused', async () => {
    const line = createAdmission({ concurrency: 1, maxWaiting: 4 });
    let release = () => {};
    const blocker = line.run(() => new Promise<void>((r) => (release = r)), undefined, { client: 'a' });
    const flood = Array.from({ length: 4 }, (_, i) => line.run(async () => `a${i}`, undefined, { client: 'a' }).catch((e) => e));
    await tick();
    expect(line.load()).toEqual({ running: 1, waiting: 4 });
    // The flooding client's fifth is refused; a visitor gets in, and the flood's newest gives its place.
    expect(await line.run(async () => 'a5', undefined, { client: 'a' }).catch((e) => e)).toMatchObject({ code: 'unavailable' });
    expect(() => line.refuseIfFull('a')).toThrow(/busy/);
    expect(() => line.refuseIfFull('b')).not.toThrow();
    const visitor = line.run(async () => 'b', undefined, { client: 'b' });
    release();
    await blocker;
    expect(await visitor).toBe('b');
    const outcomes = await Promise.all(flood);
    expect(outcomes.slice(0, 3)).toEqual(['a0', 'a1', 'a2']);
    expect(outcomes[3]).toMatchObject({ code: 'unavailable' });
  });

  it("runs background work in a lane of one place, and only when no visitor's question waits", async () => {
    const line = createAdmission({ concurrency: 2, maxWaiting: 3 });
    const started: string[] = [];
    const job = (label: string, ticket: { client?: string; background?: boolean }, ms = 5) =>
      line
        .run(
          async () => {
            started.push(label);
            await new Promise((r) => setTimeout(r, ms));
            return label;
          },
          undefined,
          ticket,
        )
        .catch((e) => e);
    const checks = ['e1', 'e2', 'e3'].map((e) => job(e, { client: 'examples', background: true }, 40));
    await tick();
    expect(line.load()).toEqual({ running: 1, waiting: 2 }); // one place for background work, the other left free
    const visitor = job('v', { client: 'visitor' });
    const later = job('v2', { client: 'visitor2' });
    // The line is full: a visitor's newcomer takes the place of the newest background check.
    const third = job('v3', { client: 'visitor3' });
    await Promise.all([visitor, later, third, ...checks]);
    expect(started.slice(0, 4)).toEqual(['e1', 'v', 'v2', 'v3']);
    expect(await checks[2]).toMatchObject({ code: 'unavailable' });
  });
});
