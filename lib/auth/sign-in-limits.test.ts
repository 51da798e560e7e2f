import { describe, expect, it } from 'vitest';
import { SignInLimits } from './sign-in-limits.ts';

const opts = { accountFailures: 3, clientFailures: 5, windowMs: 60_000, baseLockMs: 10_000, maxLockMs: 40_000, maxEntries: 1_000 };

describe('sign-in limits', () => {
  it("locks the account attacked, and only it: other accounts and other clients' users sign in", () => {
    const limits = new SignInLimits(opts);
    const t = 1_000_000;
    for (let i = 0; i < 3; i++) limits.failed('ada@example.org', '203.0.113.9', t);
    expect(limits.waitSeconds('ada@example.org', '203.0.113.9', t)).toBe(10);
    // The same account from another address waits too (the guesses were at it) ...
    expect(limits.waitSeconds('ADA@example.org ', '198.51.100.4', t)).toBe(10);
    // ... but nobody else does, from the attacker's address or any other.
    expect(limits.waitSeconds('ben@example.org', '198.51.100.4', t)).toBeNull();
    expect(limits.waitSeconds('ben@example.org', '203.0.113.9', t)).toBeNull();
  });

  it('unlocks by time, the lock doubling with each failure past the threshold up to its maximum', () => {
    const limits = new SignInLimits(opts);
    let t = 0;
    for (let i = 0; i < 3; i++) limits.failed('ada@example.org', `198.51.100.${i}`, t);
    expect(limits.waitSeconds('ada@example.org', 'x', t + 9_999)).toBe(1);
    expect(limits.waitSeconds('ada@example.org', 'x', t + 10_000)).toBeNull();
    t = 10_000;
    limits.failed('ada@example.org', 'x', t);
    expect(limits.waitSeconds('ada@example.org', 'y', t)).toBe(20);
    limits.failed('ada@example.org', 'x', t);
    limits.failed('ada@example.org', 'x', t);
    expect(limits.waitSeconds('ada@example.org', 'y', t)).toBe(40); // capped
    // Long after the lock and the window: counted afresh.
    expect(limits.waitSeconds('ada@example.org', 'y', t + 200_000)).toBeNull();
    limits.failed('ada@example.org', 'y', t + 200_000);
    expect(limits.waitSeconds('ada@example.org', 'y', t + 200_000)).toBeNull();
  });

  it('a client guessing across accounts waits, and a right password clears the account only', () => {
    const limits = new SignInLimits(opts);
    for (let i = 0; i < 5; i++) limits.failed(`user${i}@example.org`, '203.0.113.9', 0);
    expect(limits.waitSeconds('new@example.org', '203.0.113.9', 0)).toBe(10);
    expect(limits.waitSeconds('new@example.org', '198.51.100.4', 0)).toBeNull();
    limits.failed('ada@example.org', '198.51.100.4', 0);
    limits.failed('ada@example.org', '198.51.100.4', 0);
    limits.succeeded('ada@example.org');
    limits.failed('ada@example.org', '198.51.100.4', 0);
    expect(limits.waitSeconds('ada@example.org', '198.51.100.4', 0)).toBeNull();
  });

  it('remembers at most maxEntries accounts', () => {
    const limits = new SignInLimits({ ...opts, maxEntries: 10 });
    for (let i = 0; i < 100; i++) limits.failed(`user${i}@example.org`, `c${i}`, 0);
    expect((limits as unknown as { accounts: Map<string, unknown> }).accounts.size).toBe(10);
  });
});
