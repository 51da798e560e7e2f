import { describe, expect, it, vi } from 'vitest';

declare module './process-registry.ts' {
  interface ProcessObjects {
    registryTestObject: { made: number };
    registryTestOpen: Promise<string>;
  }
}

describe('the process registry', () => {
  it('gives every module instance the same object, made once, until the tests forget it', async () => {
    let made = 0;
    const create = () => ({ made: ++made });
    const first = await import('./process-registry.ts');
    const a = first.processObject('registryTestObject', create);
    // A second module instance (what Next.js's server start and route handlers are) finds the same object.
    vi.resetModules();
    const second = await import('./process-registry.ts');
    expect(second).not.toBe(first);
    expect(second.processObject('registryTestObject', create)).toBe(a);
    expect(made).toBe(1);
    second.forgetProcessObjects();
    expect(second.existingProcessObject('registryTestObject')).toBeUndefined();
    expect(first.processObject('registryTestObject', create)).toEqual({ made: 2 });
  });

  it('forgets a promise that failed, so the next caller opens again', async () => {
    const { processPromise, existingProcessObject } = await import('./process-registry.ts');
    const failed = processPromise('registryTestOpen', () => Promise.reject(new Error('locked')));
    await expect(failed).rejects.toThrow('locked');
    expect(existingProcessObject('registryTestOpen')).toBeUndefined();
    await expect(processPromise('registryTestOpen', async () => 'open')).resolves.toBe('open');
    expect(processPromise('registryTestOpen', async () => 'again')).toBe(existingProcessObject('registryTestOpen'));
  });
});
