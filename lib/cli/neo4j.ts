import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { neo4jVersion, startNeo4j } from '../graph/neo4j-server/launch.ts';
import { cliOptions } from './options.ts';

/**
 * npm run neo4j:dev [-- --port 7687 --store <folder>]   a Neo4j for local use, until Ctrl-C
 * npm run test:neo4j [-- --report <json>]               a throw-away Neo4j, the suites that need one, then stop
 */
const usage = `usage: npm run neo4j:dev [-- --port 7687] [--store <folder>]
       npm run test:neo4j [-- --report <vitest json>]`;

/** The test files that talk to a real Neo4j (each skips without NEO4J_URI; here none may skip). They share one server, so they run one file at a time. */
const NEO4J_SUITES = ['lib/graph/stores/neo4j.test.ts', 'lib/graph/sync.neo4j.test.ts', 'lib/retrieval/graph-sources/parity.neo4j.test.ts'];

async function main() {
  const [what, ...rest] = process.argv.slice(2);
  const opt = cliOptions(rest, ['port', 'store', 'report']);
  const log = (line: string) => console.error(`[neo4j] ${line}`);
  if (what === 'dev') {
    const server = await startNeo4j({ port: Number(opt('port') ?? 7687), store: opt('store'), log });
    console.log(`Neo4j ${neo4jVersion()} at ${server.uri} (no authentication${opt('store') ? `, store ${opt('store')}` : ', temporary store'}). Use it with:`);
    console.log(`  NEO4J_URI=${server.uri} npm run graph:sync && NEO4J_URI=${server.uri} npm start`);
    console.log('Ctrl-C stops it.');
    const stop = () => void server.stop().then(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    return;
  }
  if (what === 'test') {
    const root = path.resolve(import.meta.dirname, '..', '..');
    const report = path.resolve(opt('report') ?? path.join(root, 'test-results', 'neo4j.json'));
    fs.mkdirSync(path.dirname(report), { recursive: true });
    fs.rmSync(report, { force: true });
    const server = await startNeo4j({ log });
    let status = 1;
    try {
      const run = spawnSync(
        path.join(root, 'node_modules', '.bin', 'vitest'),
        ['run', ...NEO4J_SUITES, '--no-file-parallelism', '--reporter=default', '--reporter=json', `--outputFile=${report}`],
        { cwd: root, stdio: 'inherit', env: { ...process.env, NEO4J_URI: server.uri, NEO4J_USER: 'neo4j', NEO4J_PASSWORD: '', ASSAY_TEST_DB: '' } },
      );
      status = run.status ?? 1;
    } finally {
      await server.stop();
    }
    if (!fs.existsSync(report)) {
      console.log('0 passed, 1 failed, 0 skipped');
      process.exit(1);
    }
    const r = JSON.parse(fs.readFileSync(report, 'utf8'));
    const skipped = r.numPendingTests + r.numTodoTests;
    console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
    // Against a real server nothing may skip: a skip here means a suite did not see the server.
    process.exit(status === 0 && r.numFailedTests === 0 && skipped === 0 ? 0 : 1);
  }
  console.error(usage);
  process.exit(2);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
