import { describe, expect, it, vi } from 'vitest';
import { AppError, actionError, errorResponse, handleErrors, publicError } from './errors.ts';

describe('AppError', () => {
  it('maps codes to HTTP statuses and keeps its message for the client', async () => {
    const res = errorResponse(new AppError('not-found', 'no such import run'));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'no such import run', code: 'not-found' });
    expect(new AppError('payload-too-large', 'too big').status).toBe(413);
  });
  it('answers any other error with a generic 500 that leaks neither database text nor paths', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const handler = handleErrors(async () => {
      throw new Error('invalid input syntax for type uuid at /srv/assay/.assay/pglite');
    });
    const res = await handler();
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(JSON.stringify(body)).not.toMatch(/uuid|\/srv/);
    expect(log).toHaveBeenCalled();
    expect(actionError(new Error('SELECT failed')).error).not.toMatch(/SELECT/);
    expect(actionError(new AppError('conflict', 'already running')).error).toBe('already running');
    log.mockRestore();
  });
});

describe('AppError across module instances', () => {
  it('is recognised by another instance of this module (Next.js loads the server start and the routes apart)', async () => {
    const other = (await import(/* @vite-ignore */ `./errors.ts?instance=${Date.now()}`)) as typeof import('./errors.ts');
    expect(other.AppError).not.toBe(AppError);
    const made = new other.AppError('over-budget', 'This question took too long to analyse; try a shorter one.');
    expect(made instanceof AppError).toBe(true);
    expect(publicError(made)).toEqual({ code: 'over-budget', status: 422, message: 'This question took too long to analyse; try a shorter one.' });
    expect(new Error('plain') instanceof AppError).toBe(false);
    const nothing: unknown = null;
    expect(nothing instanceof other.AppError).toBe(false);
  });
});
