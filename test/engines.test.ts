// package.json's engines.node must be true: every Node it admits must satisfy the engines of every
// package installed at run time (package-lock.json, devDependencies excluded), so a user on an
// admitted Node gets no EBADENGINE warning for a runtime dependency and the server runs as tested.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const readJson = <T>(file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as T;

interface LockEntry {
  version?: string;
  dev?: boolean;
  devOptional?: boolean;
  engines?: { node?: string } | string[];
}
const ours = readJson<{ engines: { node: string } }>('package.json').engines.node;
const lock = readJson<{ packages: Record<string, LockEntry> }>('package-lock.json');

/** Runtime packages whose engines.node does not admit every Node our engines admits. */
function runtimeConflicts(range: string): string[] {
  return Object.entries(lock.packages).flatMap(([path, entry]) => {
    const theirs = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
    if (!path || entry.dev || entry.devOptional || !theirs) return [];
    return semver.subset(range, theirs) ? [] : [`${path}@${entry.version} wants node ${theirs}`];
  });
}

describe('engines.node', () => {
  it('is within the engines of every runtime dependency', () => {
    expect(runtimeConflicts(ours)).toEqual([]);
  });

  it('admits the Node LTS lines Engram is tested on (20, 22)', () => {
    for (const version of ['20.19.0', '22.12.0']) expect(semver.satisfies(version, ours)).toBe(true);
  });
});
