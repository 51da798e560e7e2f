#!/usr/bin/env node
// `npm test`: the whole suite, ending with one plain "N passed, N failed, N skipped" line.
//  1. migrations vs schema.prisma drift check, formatting and lint with Biome (including its import-cycle
//     check), and the TypeScript type check
//  2. unit + database tests on the embedded PGlite database (vitest)
//  3. the database tests again on PostgreSQL when TEST_DATABASE_URL is set (the parity suite)
//  4. the graph store contract and graph:sync round trip on a real Neo4j (npm run test:neo4j)
//  5. a production build and the browser tests in Debian's chromium (Playwright)
import { spawnSync, execSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'test-results');
fs.mkdirSync(out, { recursive: true });
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
let passed = 0;
let failed = 0;
let skipped = 0;

function run(label, cmd, args, extraEnv = {}) {
  console.log(`\n=== ${label} ===`);
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...env, ...extraEnv } });
  return res.status === 0;
}

function step(label, cmd, args) {
  if (run(label, cmd, args)) passed++;
  else {
    failed++;
    console.log(`FAILED: ${label}`);
  }
}

function vitest(label, reportName, extraEnv) {
  const report = path.join(out, reportName);
  fs.rmSync(report, { force: true });
  const ok = run(label, bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile=${report}`], extraEnv);
  if (!fs.existsSync(report)) {
    failed++;
    console.log(`FAILED: ${label} produced no report`);
    return;
  }
  const r = JSON.parse(fs.readFileSync(report, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests + (ok || r.numFailedTests ? 0 : 1); // a crash with no failed test still fails
  skipped += r.numPendingTests + r.numTodoTests;
}

/**
 * The first of `n` consecutive free loopback ports, tried from random ones: the browser tests' servers listen on
 * E2E_PORT and the next four, and another `npm test` running beside this one (another clone, CI) must not meet them.
 * Below Linux's ephemeral range (32768–60999): a port there that is free now can be taken by the time a test starts
 * its server, by an outgoing connection's local end or a `listen(0)` (the fake servers), and that server then cannot
 * listen.
 */
async function freePorts(n) {
  const free = (port) =>
    new Promise((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
  for (let attempt = 0; attempt < 100; attempt++) {
    const base = 20000 + Math.floor(Math.random() * 12000);
    let all = true;
    for (let i = 0; i < n && all; i++) all = await free(base + i);
    if (all) return base;
  }
  return 3311;
}

function chromium() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    return execSync('command -v chromium || command -v chromium-browser', { encoding: 'utf8', shell: '/bin/sh' }).trim();
  } catch {
    return '';
  }
}

step('migration drift check', process.execPath, ['--import', 'tsx', 'lib/cli/db-migrate.ts', '--check-drift']);
step('format and lint, import cycles (Biome)', bin('biome'), ['ci', '--colors=off']);
step('type check', bin('tsc'), ['--noEmit']);
vitest('unit and database tests (PGlite)', 'vitest-pglite.json', { ASSAY_TEST_DB: 'pglite' });
if (process.env.TEST_DATABASE_URL) {
  vitest('database tests on PostgreSQL (parity)', 'vitest-postgres.json', { ASSAY_TEST_DB: 'postgres' });
} else {
  console.log('\n=== PostgreSQL parity skipped: set TEST_DATABASE_URL=postgresql://user@host:port/db to run the database tests on a server ===');
}

// A real Neo4j (Community 5.26 through Maven, run with Java 17): the graph store contract and the graph:sync
// round trip. Needs java and mvn; CI (ASSAY_REQUIRE_NEO4J) fails without them instead of skipping.
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
if (has('java') && has('mvn')) {
  const report = path.join(out, 'neo4j.json');
  const ok = run('graph store on a real Neo4j (npm run test:neo4j)', process.execPath, ['--import', 'tsx', 'lib/cli/neo4j.ts', 'test', '--report', report]);
  if (fs.existsSync(report)) {
    const r = JSON.parse(fs.readFileSync(report, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests + (ok || r.numFailedTests ? 0 : 1);
  } else failed++;
} else if (process.env.ASSAY_REQUIRE_NEO4J) {
  failed++;
  console.log('FAILED: the Neo4j tests need java (17+) and mvn');
} else {
  console.log('\n=== Neo4j tests skipped: install Java 17 and Maven to run them against a real server ===');
}

if (chromium()) {
  if (run('production build', bin('next'), ['build'])) {
    const report = path.join(out, 'playwright.json');
    fs.rmSync(report, { force: true });
    const ok = run('browser tests (Playwright + chromium)', bin('playwright'), ['test'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: report,
      CHROMIUM_PATH: chromium(),
      E2E_PORT: process.env.E2E_PORT || String(await freePorts(6)),
    });
    if (fs.existsSync(report)) {
      const s = JSON.parse(fs.readFileSync(report, 'utf8')).stats;
      passed += s.expected + s.flaky;
      failed += s.unexpected + (ok || s.unexpected ? 0 : 1);
      skipped += s.skipped;
    } else {
      failed++;
    }
  } else {
    failed++;
    console.log('FAILED: production build');
  }
} else if (process.env.ASSAY_REQUIRE_E2E) {
  failed++;
  console.log('FAILED: browser tests need chromium (apt-get install chromium, or set CHROMIUM_PATH)');
} else {
  console.log('\n=== browser tests skipped: no chromium found (apt-get install chromium, or set CHROMIUM_PATH) ===');
}

console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
