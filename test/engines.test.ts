// package.json's engines.node must be true: every Node it admits must satisfy the engines of every
// package installed at run time (package-lock.json, devDependencies excluded), so a user on an
// admitted Node gets no EBADENGINE warning for a runtime dependency and the server runs as tested.
// A package loaded only under some Nodes (better-sqlite3 13 from Node 22 on, 12 before it: see
// packages/better-sqlite3) is held to our range where it is loaded (npm still warns of 13 on Node
// 20, where it is installed and never loaded).
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

/** The Nodes under which packages/better-sqlite3/index.js loads each version. */
const LOADED_UNDER: Record<string, string> = {
  'node_modules/better-sqlite3-v12': '<22',
  'node_modules/better-sqlite3-v13': '>=22',
};

/**
 * `range` narrowed to the Nodes of `under`: each alternative of it that meets `under`, and `under`
 * (semver.subset answers false for a union holding an empty alternative, such as `^24 <22`).
 */
function narrowed(range: string, under: string | undefined): string {
  if (!under) return range;
  const parts = range.split('||').map((part) => part.trim());
  return parts.filter((part) => semver.intersects(part, under)).map((part) => `${part} ${under}`).join(' || ');
}

/** Runtime packages whose engines.node does not admit every Node our engines admits (where they are loaded). */
function runtimeConflicts(range: string): string[] {
  return Object.entries(lock.packages).flatMap(([path, entry]) => {
    const theirs = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
    if (!path || entry.dev || entry.devOptional || !theirs) return [];
    return semver.subset(narrowed(range, LOADED_UNDER[path]), theirs) ? [] : [`${path}@${entry.version} wants node ${theirs}`];
  });
}

describe('engines.node', () => {
  it('is within the engines of every runtime dependency', () => {
    expect(runtimeConflicts(ours)).toEqual([]);
  });

  it('admits the Node LTS lines Engram is tested on (20, 22, 24, 26)', () => {
    for (const version of ['20.19.0', '22.12.0', '24.0.0', '26.0.0']) expect(semver.satisfies(version, ours)).toBe(true);
  });

  it('holds each version of better-sqlite3 to the Nodes it is loaded under', () => {
    // Unnarrowed, 13 (Node >= 22) would not admit Node 20, which our range admits.
    expect(LOADED_UNDER['node_modules/better-sqlite3-v13']).toBe('>=22');
    expect(semver.subset(narrowed(ours, '>=22'), '>=22')).toBe(true);
    expect(semver.subset(ours, '>=22')).toBe(false);
    expect(Object.keys(LOADED_UNDER).every((path) => lock.packages[path])).toBe(true);
  });
});
