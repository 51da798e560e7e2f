import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Where Assay keeps what it derives once per machine (resolved classpaths, compiled launchers). */
export const assayCacheDir = (): string => path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'assay');

/**
 * The classpath of a small Maven project (a `pom.xml` with dependencies only): resolved by `mvn
 * dependency:build-classpath` on first use (the jars cached in ~/.m2, the classpath in a file under the user's cache
 * as `<name>.classpath`), then read from that file while every jar is there. Throws with Maven's message when it
 * cannot resolve (no `mvn`, Maven Central unreachable on first use).
 */
export function mavenClasspath(pom: string, name: string, log: (line: string) => void = () => {}): string {
  const cacheDir = assayCacheDir();
  const cached = path.join(cacheDir, `${name}.classpath`);
  if (fs.existsSync(cached)) {
    const cp = fs.readFileSync(cached, 'utf8').trim();
    if (cp && cp.split(path.delimiter).every((jar) => fs.existsSync(jar))) return cp;
  }
  fs.mkdirSync(cacheDir, { recursive: true });
  log(`resolving ${name} from Maven Central (first time only)…`);
  const mvn = spawnSync('mvn', ['-q', '-B', '-f', pom, 'dependency:build-classpath', `-Dmdep.outputFile=${cached}`], { encoding: 'utf8' });
  if (mvn.error) throw new Error(`Maven (mvn) is needed to fetch ${name}: ${mvn.error.message}`);
  if (mvn.status !== 0) throw new Error(`Maven could not resolve ${name}:\n${(mvn.stdout + mvn.stderr).slice(-2000)}`);
  return fs.readFileSync(cached, 'utf8').trim();
}
