/**
 * How many wrong passwords an account, and a client address, may send before sign-in waits: counted apart, so that
 * nobody's failures lock out anybody else. An account's own failures (from any address) lock that account for a
 * while; a client's failures (on any accounts: guessing across them) lock that client. A lock ends by itself, doubling
 * with each failure past the threshold up to `maxLockMs`; a right password clears the account's count.
 *
 * The client is the address the server's request gate vouches for (lib/common/request-gate.mjs: the socket's peer,
 * or X-Forwarded-For only from a configured trusted proxy), so a header a client writes buys no attempts. Counted in
 * the process: behind several app processes each counts its own share (docs/operations.md, "Sign-in limits").
 */
export interface SignInLimitOptions {
  /** Failures of one account within `windowMs` after which it waits. */
  accountFailures: number;
  /** Failures from one client address within `windowMs` after which it waits. */
  clientFailures: number;
  windowMs: number;
  /** The first lock; each further failure doubles it. */
  baseLockMs: number;
  maxLockMs: number;
  /** Most accounts and addresses remembered (the oldest are forgotten first). */
  maxEntries: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimitOptions = {
  accountFailures: 5,
  clientFailures: 20,
  windowMs: 15 * 60_000,
  baseLockMs: 30_000,
  maxLockMs: 15 * 60_000,
  maxEntries: 100_000,
};

interface Count {
  failures: number;
  first: number;
  lockedUntil: number;
}

export class SignInLimits {
  private readonly accounts = new Map<string, Count>();
  private readonly clients = new Map<string, Count>();
  constructor(private readonly opts: SignInLimitOptions = DEFAULT_SIGN_IN_LIMITS) {}

  /** The seconds until `account` (null: none, as for a sign-up) from `client` may try again, or null when it may now. */
  waitSeconds(account: string | null, client: string, now = Date.now()): number | null {
    const accountLock = account === null ? 0 : this.lockOf(this.accounts, normalAccount(account), now);
    const until = Math.max(accountLock, this.lockOf(this.clients, client, now));
    return until > now ? Math.ceil((until - now) / 1000) : null;
  }

  /** A wrong password for `account` (null: a refusal that counts against the client only) from `client`. */
  failed(account: string | null, client: string, now = Date.now()): void {
    if (account !== null) this.count(this.accounts, normalAccount(account), this.opts.accountFailures, now);
    this.count(this.clients, client, this.opts.clientFailures, now);
  }

  succeeded(account: string): void {
    this.accounts.delete(normalAccount(account));
  }

  private lockOf(map: Map<string, Count>, key: string, now: number): number {
    const c = map.get(key);
    if (!c) return 0;
    if (c.lockedUntil <= now && now - c.first > this.opts.windowMs) {
      map.delete(key);
      return 0;
    }
    return c.lockedUntil;
  }

  private count(map: Map<string, Count>, key: string, threshold: number, now: number): void {
    let c = map.get(key);
    if (!c || (c.lockedUntil <= now && now - c.first > this.opts.windowMs)) c = { failures: 0, first: now, lockedUntil: 0 };
    map.delete(key); // re-inserted last: the map's order is the forgetting order
    c.failures++;
    if (c.failures >= threshold) {
      const lock = Math.min(this.opts.maxLockMs, this.opts.baseLockMs * 2 ** (c.failures - threshold));
      c.lockedUntil = now + lock;
    }
    map.set(key, c);
    while (map.size > this.opts.maxEntries) map.delete(map.keys().next().value as string);
  }
}

/** Accounts are e-mail addresses: compared as better-auth stores them (trimmed, lower case). */
const normalAccount = (email: string) => email.trim().toLowerCase();
