import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * Every route handler and server action of the app, with the operation it needs (lib/auth/roles.ts ACCESS). The
 * first test fails when a handler or action is added without being listed here; the others call each one on the
 * server, as anonymous visitors, readers and experts do, and check the role is enforced there and nothing is
 * written. The app runs on a fresh embedded database in a temporary data folder.
 */
const state = vi.hoisted(() => {
  const dir = require('node:fs').mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'assay-access-'));
  process.env.ASSAY_DATA_DIR = dir;
  process.env.ASSAY_CORPUS = '';
  process.env.ASSAY_ANONYMOUS = 'reader';
  process.env.ASSAY_ANONYMOUS_ANSWERS_PER_HOUR = '2';
  process.env.ASSAY_EUROPEPMC_URL = 'http://127.0.0.1:9/rest'; // an admin's download in this test must not reach the network
  return { dir, headers: new Headers() };
});
vi.mock('next/headers', () => ({ headers: async () => state.headers, cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => {} }) }));
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));
vi.mock('next/navigation', () => ({
  redirect: (url: string) => {
    throw new Error(`redirect to ${url}`);
  },
  notFound: () => {
    throw new Error('not found');
  },
  // Next.js's auth interrupts (app/allowed-viewer.ts): a refusal with its status, as the server answers it.
  forbidden: () => {
    throw Object.assign(new Error('forbidden'), { interruptStatus: 403 });
  },
  unauthorized: () => {
    throw Object.assign(new Error('unauthorized'), { interruptStatus: 401 });
  },
}));

type Op = 'public' | 'read' | 'evaluations' | 'ask' | 'grade' | 'import' | 'evaluate' | 'curate' | 'campaigns' | 'users';
const EXPECTED: Record<string, Op> = {
  'api/answer/route.ts POST': 'ask',
  'api/answers/route.ts GET': 'read',
  'api/answers/route.ts POST': 'ask',
  'api/answers/[id]/route.ts GET': 'read',
  'api/auth/[...all]/route.ts GET': 'public',
  'api/auth/[...all]/route.ts POST': 'public',
  'api/corpus/fetch/route.ts POST': 'import',
  'api/evaluation/runs/route.ts GET': 'evaluations',
  'api/evaluation/runs/route.ts POST': 'evaluate',
  'api/evaluation/runs/[id]/route.ts GET': 'evaluations',
  'api/grading/[id]/export/route.ts GET': 'campaigns',
  'api/grading/[id]/grades/route.ts PUT': 'grade',
  'api/graph/answer/route.ts GET': 'read',
  'api/graph/neighbourhood/route.ts GET': 'read',
  'api/health/route.ts GET': 'public',
  'api/import/route.ts POST': 'import',
  'api/import/status/route.ts GET': 'public',
  'api/ingest-runs/route.ts GET': 'import',
  'api/ingest-runs/[id]/route.ts GET': 'import',
  'api/ingest-runs/[id]/resume/route.ts POST': 'import',
  'api/jobs/route.ts GET': 'read',
  'api/provenance/route.ts GET': 'read',
  'api/retrieve/route.ts POST': 'ask',
  'admin/users/actions.ts setRoleAction': 'users',
  'answers/actions.ts askAction': 'ask',
  'found/actions.ts askAgainAction': 'ask',
  'found/actions.ts importFoundAction': 'import',
  'found/actions.ts lookForPapersAction': 'ask',
  'grading/actions.ts adjudicateAction': 'campaigns',
  'grading/actions.ts continuePreparationAction': 'campaigns',
  'grading/actions.ts createCampaignAction': 'campaigns',
  'grading/actions.ts judgeCampaignAction': 'campaigns',
  'grading/actions.ts setCampaignOpenAction': 'campaigns',
  'graph/actions.ts allowMergeAction': 'curate',
  'graph/actions.ts rejectLinkAction': 'curate',
  'graph/actions.ts restoreLinkAction': 'curate',
  'import/actions.ts fetchMetadataAction': 'import',
  'graph/actions.ts undoMergeAction': 'curate',
  'papers/[id]/actions.ts restoreVersionAction': 'curate',
};
const RANK: Record<Op, number> = { public: -1, read: 0, evaluations: 0, ask: 0, grade: 1, import: 2, evaluate: 2, curate: 2, campaigns: 2, users: 2 };

const appDir = path.resolve(import.meta.dirname);
function handlerFiles(dir = appDir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return handlerFiles(p);
    return e.name === 'route.ts' || e.name === 'actions.ts' ? [path.relative(appDir, p)] : [];
  });
}

async function handlers(): Promise<Map<string, (...args: unknown[]) => Promise<unknown>>> {
  const out = new Map<string, (...args: unknown[]) => Promise<unknown>>();
  for (const file of handlerFiles()) {
    const mod = await import(path.join(appDir, file));
    for (const [name, value] of Object.entries(mod)) if (typeof value === 'function') out.set(`${file.split(path.sep).join('/')} ${name}`, value as never);
  }
  return out;
}

const cookies: Record<'admin' | 'expert' | 'reader', string> = { admin: '', expert: '', reader: '' };
let all: Map<string, (...args: unknown[]) => Promise<unknown>>;

beforeAll(async () => {
  all = await handlers();
  const { getAuth } = await import('@/lib/auth/auth');
  const { getDatabase } = await import('@/lib/db/client');
  const auth = await getAuth();
  for (const who of ['admin', 'expert', 'reader'] as const) {
    const res = await auth.handler(
      new Request('http://127.0.0.1:3000/api/auth/sign-up/email', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:3000' },
        body: JSON.stringify({ email: `${who}@example.org`, password: 'access-password', name: who }),
      }),
    );
    expect(res.status).toBe(200);
    cookies[who] = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
  }
  const db = await getDatabase();
  await db.prisma.user.update({ where: { email: 'expert@example.org' }, data: { role: 'expert' } });
});
afterAll(async () => {
  const { closeDatabase } = await import('@/lib/db/client');
  await closeDatabase();
  fs.rmSync(state.dir, { recursive: true, force: true });
});

/**
 * Calls a handler or action as `who`; returns the HTTP status, or for an action the status of its refusal (an auth
 * interrupt: 401 or 403), 'refused' (a form's message saying so) or 'ran'.
 */
async function call(key: string, who: 'anonymous' | 'admin' | 'expert' | 'reader'): Promise<number | 'refused' | 'ran'> {
  const fn = all.get(key)!;
  const cookie = who === 'anonymous' ? '' : cookies[who];
  state.headers = new Headers(cookie ? { cookie } : {});
  const [file, name] = key.split(' ');
  if (file.endsWith('route.ts')) {
    const method = name;
    const init: RequestInit = { method, headers: { cookie, 'content-type': 'application/json' } };
    if (method !== 'GET') init.body = '{}';
    const res = (await fn(new Request('http://127.0.0.1:3000/api/x?key=f:X&format=csv', init), {
      params: Promise.resolve({ id: 'nosuchthing00', all: ['get-session'] }),
    })) as Response;
    return res.status;
  }
  const form = new FormData();
  form.set('campaign', 'nosuchthing00');
  form.set('key', 'f:X');
  form.set('version', 'nosuchthing00');
  form.set('userId', 'nosuchthing00');
  form.set('role', 'expert');
  form.set('question', 'What is the band gap of anatase?');
  try {
    const out = (await (['askAction', 'createCampaignAction', 'setRoleAction', 'lookForPapersAction', 'importFoundAction', 'askAgainAction'].includes(name)
      ? fn(null, form)
      : fn(form))) as { ok?: boolean; error?: string } | undefined;
    if (out && out.ok === false && /sign in|needs the .* role/.test(out.error ?? '')) return 'refused';
    return 'ran';
  } catch (error) {
    const status = (error as { interruptStatus?: number }).interruptStatus;
    if (status) return status;
    return 'ran';
  }
}

describe('roles are checked on the server for every route handler and server action', () => {
  it('lists every handler and action of app/ (a new one must be classified here)', () => {
    expect([...all.keys()].filter((k) => !/ (dynamic|runtime)$/.test(k)).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it('refuses a reader everything above reading and asking: no grading, no imports, no other graders’ grades', async () => {
    const refused: string[] = [];
    const allowed: string[] = [];
    for (const [key, op] of Object.entries(EXPECTED)) {
      if (op === 'public') continue;
      const r = await call(key, 'reader');
      if (r === 403 || r === 'refused') refused.push(key);
      else allowed.push(key);
    }
    expect(refused.sort()).toEqual(
      Object.entries(EXPECTED)
        .filter(([, op]) => RANK[op] >= 1)
        .map(([k]) => k)
        .sort(),
    );
    expect(refused).toContain('api/grading/[id]/grades/route.ts PUT');
    expect(refused).toContain('api/grading/[id]/export/route.ts GET');
    expect(refused).toContain('api/import/route.ts POST');
    const { getDatabase } = await import('@/lib/db/client');
    const db = await getDatabase();
    expect(await db.prisma.ingestRun.count()).toBe(0);
    expect(await db.prisma.campaign.count()).toBe(0);
    expect(await db.prisma.user.findUnique({ where: { email: 'reader@example.org' } })).toMatchObject({ role: 'reader' });
  });

  it('refuses an expert the admin operations but lets them reach grading', async () => {
    for (const [key, op] of Object.entries(EXPECTED)) {
      if (RANK[op] < 1) continue;
      const r = await call(key, 'expert');
      if (op === 'grade') expect([403, 'refused'], key).not.toContain(r);
      else expect([403, 'refused'], key).toContain(r);
    }
  });

  it('asks anonymous visitors to sign in (401) for anything above reading, and lets an admin through', async () => {
    for (const [key, op] of Object.entries(EXPECTED)) {
      if (RANK[op] < 1) continue;
      expect(await call(key, 'anonymous'), key).toBe(401);
      expect([401, 403], key).not.toContain(await call(key, 'admin'));
    }
  });

  it('answers a role refusal of a server action with 403 (not an error), and a missing account with 401', async () => {
    for (const [key, op] of Object.entries(EXPECTED)) {
      if (RANK[op] < 2 || !key.includes('actions.ts')) continue;
      expect(await call(key, 'reader'), key).toBe(403);
      expect(await call(key, 'anonymous'), key).toBe(401);
    }
  });

  it('shows evaluation runs, their questions and gold answers to signed-in accounts only (the default)', async () => {
    for (const key of ['api/evaluation/runs/route.ts GET', 'api/evaluation/runs/[id]/route.ts GET']) {
      expect(await call(key, 'anonymous'), key).toBe(401);
      expect([401, 403], key).not.toContain(await call(key, 'reader'));
    }
  });

  it('keeps at most the configured answers an hour for one anonymous address, and any number for accounts', async () => {
    const { chargeStoredAnswer } = await import('@/lib/services/ask');
    const anonymous = { user: null, role: 'reader' as const };
    const from = (address: string) => new Headers({ 'x-assay-client': address });
    chargeStoredAnswer(anonymous, from('203.0.113.50'));
    chargeStoredAnswer(anonymous, from('203.0.113.50'));
    let refusal: unknown = null;
    try {
      chargeStoredAnswer(anonymous, from('203.0.113.50'));
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toMatchObject({ status: 429, message: expect.stringMatching(/^Sign in to ask more/) });
    expect((refusal as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
    chargeStoredAnswer(anonymous, from('203.0.113.51'));
    const reader = { user: { id: 'u', name: 'r', email: 'r@example.org', role: 'reader' as const }, role: 'reader' as const };
    for (let i = 0; i < 5; i++) chargeStoredAnswer(reader, from('203.0.113.50'));
  });
});
