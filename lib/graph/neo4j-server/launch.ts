import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { mavenClasspath } from '../../common/maven.ts';

/**
 * Starts the throw-away Neo4j of Neo4jLauncher.java (Neo4j Community 5.26 embedded, Bolt on loopback, no auth):
 * Maven resolves its classpath once (cached in ~/.m2 and in a classpath file beside the user's cache), then Java
 * runs the launcher as a single source file. Used by `npm run neo4j:dev` and `npm run test:neo4j`.
 */
// The launcher's Java source and pom.xml live with the other Java sources (java/neo4j-server at the repository's top).
// In a Next.js server bundle a module has no import.meta.dirname: the sources' place is then found from the working
// directory (the repository, where \`npm start\` runs).
const here = path.resolve(import.meta.dirname ?? path.join(process.cwd(), 'lib/graph/neo4j-server'), '../../../java/neo4j-server');
const pom = path.join(here, 'pom.xml');
const launcher = path.join(here, 'Neo4jLauncher.java');

export interface RunningNeo4j {
  uri: string;
  port: number;
  /** The server's Java process (for its memory in a benchmark). */
  pid: number | undefined;
  stop(): Promise<void>;
}

/** The Neo4j version pinned in pom.xml. */
export function neo4jVersion(): string {
  return /<neo4j\.version>([^<]+)<\/neo4j\.version>/.exec(fs.readFileSync(pom, 'utf8'))?.[1] ?? 'unknown';
}

/** The launcher's classpath: resolved by Maven on first use, then read from the cache while every jar is there. */
export function neo4jClasspath(log: (line: string) => void = () => {}): string {
  return mavenClasspath(pom, `neo4j-${neo4jVersion()}`, log);
}

/**
 * Starts a Neo4j on `port` (0: a free one is chosen by trying from a random high port) with a temporary store, or
 * `store` when given; resolves when it accepts Bolt connections. It stops when `stop()` is called or this process
 * exits (its standard input closes).
 */
export async function startNeo4j(opts: { port?: number; store?: string; log?: (line: string) => void; timeoutMs?: number } = {}): Promise<RunningNeo4j> {
  const log = opts.log ?? (() => {});
  const cp = neo4jClasspath(log);
  const port = opts.port || 20000 + Math.floor(Math.random() * 20000);
  const args = ['-Xmx1g', '-cp', cp, launcher, String(port), ...(opts.store ? [opts.store] : [])];
  const child: ChildProcess = spawn('java', args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Neo4j did not start within ${(opts.timeoutMs ?? 180_000) / 1000} s:\n${output.slice(-3000)}`)),
      opts.timeoutMs ?? 180_000,
    );
    const onData = (d: Buffer) => {
      output += d.toString();
      if (output.includes('READY bolt://')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Neo4j exited (${code}) before it was ready:\n${output.slice(-3000)}`));
    });
  });
  try {
    await ready;
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const uri = `bolt://127.0.0.1:${port}`;
  log(`Neo4j ${neo4jVersion()} ready at ${uri}`);
  return {
    uri,
    port,
    pid: child.pid,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin?.end(); // the launcher shuts down cleanly when its input closes
        setTimeout(() => child.kill('SIGKILL'), 30_000).unref();
      }),
  };
}
