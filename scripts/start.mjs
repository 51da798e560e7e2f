#!/usr/bin/env node
// `npm start`: serves the production build, building it first only when there is none or the sources changed since
// it was made (a hash of every file the build reads, kept beside the build). A second start of an unchanged
// checkout serves at once instead of spending minutes in `next build`.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { serverProcessEnv } from '../lib/common/server-process-env.mjs';
import { serveStartingPage } from '../lib/common/starting-page.mjs';

const root = path.resolve(import.meta.dirname, '..');
const next = path.join(root, 'node_modules', '.bin', 'next');
const stampFile = path.join(root, '.next', 'assay-sources.sha256');
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };

/** What the build is made from: the app's code and assets and the files that configure the build. */
const SOURCES = [
  'app',
  'components',
  'lib',
  'public',
  'instrumentation.ts',
  'next.config.ts',
  'postcss.config.mjs',
  'tsconfig.json',
  'package-lock.json',
  'prisma/schema.prisma',
];

function files(p) {
  const full = path.join(root, p);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [p];
  return fs
    .readdirSync(full, { withFileTypes: true })
    .filter((e) => e.name !== 'node_modules' && !e.name.startsWith('.'))
    .flatMap((e) => files(path.join(p, e.name)));
}

function sourcesHash() {
  const hash = createHash('sha256');
  for (const f of SOURCES.flatMap(files).sort()) {
    hash.update(f);
    hash.update('\0');
    hash.update(fs.readFileSync(path.join(root, f)));
  }
  return hash.digest('hex');
}

// The stamp names the build it describes: a build made by anything else (the test suite's) is not vouched for.
const buildId = () => {
  try {
    return fs.readFileSync(path.join(root, '.next', 'BUILD_ID'), 'utf8').trim();
  } catch {
    return null;
  }
};
const current = sourcesHash();
const [builtFrom, builtId] = fs.existsSync(stampFile) ? fs.readFileSync(stampFile, 'utf8').trim().split(' ') : [];
const built = buildId() !== null && builtId === buildId() ? builtFrom : null;
if (built === current) {
  console.log('[assay] the production build is up to date: starting it');
} else {
  console.log(
    `[assay] ${buildId() === null ? 'no production build yet' : built === null ? 'the build was not made by npm start' : 'the sources changed since the last build'}: building (a few minutes on a small machine)`,
  );
  const t = Date.now();
  // Meanwhile the address answers with a page saying so (it reloads itself until the app serves), not a refused connection.
  const starting = await serveStartingPage({ host: process.env.ASSAY_HOST || '127.0.0.1', port: Number(process.env.PORT || 3000), since: t });
  const status = await new Promise((resolve) => {
    const build = spawn(next, ['build'], { cwd: root, stdio: 'inherit', env });
    for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => build.kill(signal));
    build.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
  await starting?.close();
  if (status !== 0) {
    console.error('[assay] the build failed (see above); nothing was started');
    process.exit(status);
  }
  fs.writeFileSync(stampFile, `${current} ${buildId()}\n`);
  console.log(`[assay] built in ${Math.round((Date.now() - t) / 1000)} s`);
}

// The app's own SIGTERM/SIGINT handler stops its jobs and closes the database (NEXT_MANUAL_SIG_HANDLE).
// scripts/serve.mjs: Next.js behind the request gate (lib/common/request-gate.mjs).
const child = spawn(
  process.execPath,
  [path.join(root, 'scripts', 'serve.mjs'), '-H', process.env.ASSAY_HOST || '127.0.0.1', ...(process.env.PORT ? ['-p', process.env.PORT] : [])],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...env, ...serverProcessEnv(env), NEXT_MANUAL_SIG_HANDLE: 'true' },
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
