import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { betterAuth } from 'better-auth';
import { prismaAdapter } from 'better-auth/adapters/prisma';
import { nextCookies } from 'better-auth/next-js';
import { admin } from 'better-auth/plugins';
import type { AssayConfig } from '../config.ts';
import { config } from '../config.ts';
import { CLIENT_HEADER } from '../common/request-gate.mjs';
import { getDatabase } from '../db/client.ts';
import type { Database } from '../db/database.ts';
import { authAccessControl, authRoles } from './roles.ts';
import { processPromise } from '../common/process-registry.ts';

/**
 * Accounts through better-auth: email + password, sessions in the database (its Prisma adapter on our one
 * client, PGlite or PostgreSQL), roles through its admin plugin. Chosen over hand-written auth because password
 * hashing, session cookies, CSRF checks and rate limits are solved there and need no network.
 */
export function createAuth(db: Database, cfg: AssayConfig) {
  return betterAuth({
    appName: 'Assay',
    secret: authSecret(cfg),
    // Origin checks accept the public address (ASSAY_PUBLIC_URL, default loopback on PORT) and both loopback names.
    baseURL: cfg.publicUrl,
    trustedOrigins: [...new Set([cfg.publicUrl, `http://127.0.0.1:${cfg.port}`, `http://localhost:${cfg.port}`])],
    database: prismaAdapter(db.prisma, { provider: 'postgresql', transaction: true }),
    emailAndPassword: { enabled: true, minPasswordLength: 8, maxPasswordLength: 128, autoSignIn: true },
    session: { expiresIn: 60 * 60 * 24 * 14, updateAge: 60 * 60 * 24 },
    telemetry: { enabled: false },
    // Its own per-path rate limits key on the address the server's request gate vouches for (never a header a client
    // may write). Sign-in is limited by auth-requests.ts instead (wrong passwords per account and per client): its
    // default of 3 sign-ins per address in 10 s counted right passwords too, and locked out everyone behind one
    // address. Sign-up keeps a limit per address, wider than its default for a room of people on one network.
    rateLimit: { customRules: { '/sign-in/email': false, '/sign-up/email': { window: 60, max: 20 } } },
    advanced: { useSecureCookies: cfg.publicUrl.startsWith('https://'), ipAddress: { ipAddressHeaders: [CLIENT_HEADER] } },
    plugins: [admin({ ac: authAccessControl, roles: authRoles, defaultRole: 'reader', adminRoles: ['admin'] }), nextCookies()],
  });
}

export type Auth = ReturnType<typeof createAuth>;

/**
 * A key of this instance's for `purpose` (the blind grading's slot order and tokens), derived from the secret that
 * signs session cookies: never sent to a client, the same in every process of one instance and across restarts.
 */
export function instanceKey(purpose: string, cfg: AssayConfig = config()): string {
  // Asked on every grader's view and save: the secret is read from its file once per data folder and purpose.
  const id = `${cfg.authSecret ?? cfg.dataDir}\u0000${purpose}`;
  let key = instanceKeys.get(id);
  if (!key) {
    key = crypto.createHmac('sha256', authSecret(cfg)).update(`assay:${purpose}`).digest('hex');
    instanceKeys.set(id, key);
  }
  return key;
}
const instanceKeys = new Map<string, string>();

/** The key that signs session cookies: ASSAY_AUTH_SECRET, else one generated once into the data folder. */
function authSecret(cfg: AssayConfig): string {
  if (cfg.authSecret) return cfg.authSecret;
  const file = path.join(cfg.dataDir, 'auth-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(cfg.dataDir, { recursive: true });
    const secret = crypto.randomBytes(32).toString('hex');
    try {
      fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
      return secret;
    } catch {
      return fs.readFileSync(file, 'utf8').trim(); // another process wrote it first
    }
  }
}

declare module '../common/process-registry.ts' {
  interface ProcessObjects {
    auth: Promise<Auth>;
  }
}

/** The process-wide auth instance on the process-wide database. */
export function getAuth(): Promise<Auth> {
  return processPromise('auth', () => getDatabase().then((db) => createAuth(db, config())));
}
