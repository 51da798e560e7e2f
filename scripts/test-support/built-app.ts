import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { serverProcessEnv } from '../../lib/common/server-process-env.mjs';

const root = path.resolve(import.meta.dirname, '..', '..');

/**
 * Starts the built app (scripts/serve.mjs, as `npm start` does, on loopback), the way the browser tests and the load bench need it: its own
 * embedded database unless `env` names another, no telemetry, no question sets unless given, and no material tagger
 * unless asked for (one trained in the background mid-run would change how the papers a test imports are read, and
 * the tests compare them with imports made without it). `detached` puts it in
 * its own process group, so a kill of the group reaches every process it started.
 */
export function startBuiltApp(
  port: string,
  env: Record<string, string>,
  opts: { detached?: boolean; stdio?: 'ignore' | 'inherit' | 'pipe' } = {},
): ChildProcess {
  return spawn(process.execPath, [path.join(root, 'scripts', 'serve.mjs'), '-p', port, '-H', '127.0.0.1'], {
    cwd: root,
    detached: opts.detached ?? true,
    stdio: opts.stdio ?? 'ignore',
    // NEXT_MANUAL_SIG_HANDLE: the app's own SIGTERM handler closes the database (as `npm start` runs it).
    env: {
      ...process.env,
      ...serverProcessEnv(process.env),
      DATABASE_URL: '',
      NEXT_TELEMETRY_DISABLED: '1',
      NEXT_MANUAL_SIG_HANDLE: 'true',
      ASSAY_QUESTIONS: '',
      ASSAY_MATERIAL_TAGGER: 'off',
      ...env,
    },
  });
}
