import { createRequire } from 'node:module';
import path from 'node:path';

const required = new Map<string, unknown>();

/**
 * A package's CommonJS build, required from the project root when first needed rather than imported with the module
 * that uses it. For packages that cost real CPU to load and that a process often never uses (a restart's server
 * thread loaded compromise's lexicon and neo4j-driver with rxjs, ~0.8 s of the time to its first answer, although
 * its workers tag the questions and no Neo4j was configured), and for native ones whose ES build finds its binary
 * through the call stack (usearch). From the root, so the app's bundle, the retrieval workers' bundle, tsx and the
 * tests all load the same file.
 */
export function requireFromRoot<T>(name: string): T {
  // Kept by name: callers ask on every use (a question's tags), and a require resolves the name again each time.
  let loaded = required.get(name);
  if (loaded === undefined) {
    loaded = createRequire(path.join(/* turbopackIgnore: true */ process.cwd(), 'package.json'))(name);
    required.set(name, loaded);
  }
  return loaded as T;
}
