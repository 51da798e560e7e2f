import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * `npm install` on the Node version package.json asks for warns about no package (docs/operations.md, "Node 20 and
 * the dependencies' engines"): every package the lockfile installs on Linux admits the lowest Node it allows.
 */
const root = path.join(import.meta.dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: Record<string, string> | string[]; optional?: boolean; os?: string[] }>;
};

describe('the dependencies’ engines', () => {
  it('admit the lowest Node version package.json allows', () => {
    const lowest = semver.minVersion(pkg.engines.node)!.version;
    const refused = Object.entries(lock.packages)
      .filter(([name, p]) => name && !Array.isArray(p.engines) && p.engines?.node && !(p.optional && p.os && !p.os.includes('linux')))
      .filter(([, p]) => !semver.satisfies(lowest, (p.engines as Record<string, string>).node))
      .map(([name, p]) => `${name} wants node ${(p.engines as Record<string, string>).node}`);
    expect(refused).toEqual([]);
  });
});
