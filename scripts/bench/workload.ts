// The issue #4 workload: N entries (50 % tools, 30 % guidelines, 20 % knowledge; 20 % global, 50 %
// one project, 30 % five sessions of it; 1-3 of 20 tags each; N/20 relations between random
// entries), seeded through the service layer's bulk path. Text is 12-31 words of a 2,000-word
// vocabulary with common English words between them (about one word in three), as real notes
// have: a natural-language task then holds words that match most entries.
import Database from 'better-sqlite3';
import { performance } from 'node:perf_hooks';
import { openDatabase, settleAfterBulkLoad } from '../../src/infra/database.ts';
import { createEventBus } from '../../src/infra/events.ts';
import { addEntries, type AddEntryInput, type EntryKind } from '../../src/modules/entries/entries.service.ts';
import { createRelation } from '../../src/modules/relations/relations.service.ts';
import { GLOBAL_SCOPE_ID, createProject, startSession } from '../../src/modules/scopes/scopes.service.ts';
import { freshDatabase, gid, prng, SYLLABLES, type Kind } from './common.ts';

export const TAGS = ['python', 'typescript', 'javascript', 'rust', 'go', 'java', 'sql', 'bash', 'web', 'cli', 'api', 'database', 'ml', 'devops', 'security', 'testing', 'documentation', 'code_style', 'architecture', 'performance'];
export const COMMON_WORDS = ['the', 'and', 'to', 'of', 'in', 'for', 'is', 'on', 'with', 'when', 'use', 'should', 'not', 'be', 'it', 'this', 'that', 'from', 'by', 'before'];
const RELATION_TYPES = ['APPLIES_TO', 'DEPENDS_ON', 'CONFLICTS_WITH', 'RELATED_TO'] as const;

export interface Workload {
  kind: Kind;
  n: number;
  url: string;
  drop(): Promise<void>;
  /** Entry database ids, by seeding index (the index decides the kind: see `typeOf`). */
  ids: string[];
  /** Global IDs. */
  projectId: string;
  sessionId: string;
  guidelineIds: string[];
  vocabulary: string[];
  /** Entries that have relations (as a source), for relatedTo queries. */
  related: string[];
  seedMs: { entries: number; relations: number };
  pick: <T>(items: readonly T[]) => T;
  /** A random entry index. */
  index(): number;
  sentence(words: number): string;
}

/** The scope of the entry seeded at index i: spreads scopes evenly, deterministically. */
export function levelOf(i: number): 'global' | 'project' | 'session' {
  const r = (i * 7919) % 100;
  return r < 20 ? 'global' : r < 70 ? 'project' : 'session';
}

export const typeOf = (i: number) => (i % 10 < 5 ? 'Tool' : i % 10 < 8 ? 'Guideline' : 'Knowledge');

/** The random picks and the words of the memory seeded with `n` entries (the same for every run). */
function wordsOf(n: number) {
  const rand = prng(n);
  const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;
  // 2,000 distinct three-syllable words: none is a prefix of another, as in real text most
  // words are not (a random two-syllable word would prefix-match a sixth of the vocabulary).
  const vocabulary = [...new Set(Array.from({ length: 6_000 }, () => Array.from({ length: 3 }, () => pick(SYLLABLES)).join('')))].slice(0, 2_000);
  const sentence = (words: number) => Array.from({ length: words }, (_, i) => (i % 3 === 1 ? pick(COMMON_WORDS) : pick(vocabulary))).join(' ');
  return { rand, pick, vocabulary, sentence };
}

export async function seedWorkload(kind: Kind, n: number): Promise<Workload> {
  const { rand, pick, vocabulary, sentence } = wordsOf(n);

  const db = await freshDatabase(kind);
  const database = await openDatabase(db.url);
  const deps = { db: database.prisma, provider: database.provider, bus: createEventBus(), settings: { conflictWindowMs: 5_000 } };
  try {
    const t0 = performance.now();
    const project = await createProject(deps.db, { name: 'bench' });
    const sessions = [];
    for (let i = 0; i < 5; i++) sessions.push(await startSession(deps, { projectId: project.id, name: `s${i}` }));
    const ids: string[] = [];
    for (let start = 0; start < n; start += 5_000) {
      const inputs: AddEntryInput[] = [];
      for (let i = start; i < Math.min(n, start + 5_000); i++) inputs.push(entryInput(i, { global: GLOBAL_SCOPE_ID, project: project.id, sessions: sessions.map((s) => s.id) }, rand, pick, sentence));
      ids.push(...(await addEntries(deps, inputs)));
    }
    const t1 = performance.now();
    const related = new Set<number>();
    for (let i = 0; i < n / 20; i++) {
      const source = Math.floor(rand() * n);
      const target = Math.floor(rand() * n);
      if (source === target) continue;
      try {
        await createRelation(deps, { type: pick(RELATION_TYPES), sourceId: ids[source]!, target: { entryId: ids[target]! } });
        related.add(source);
      } catch {
        // the same random pair twice: skip
      }
    }
    await settleAfterBulkLoad(database.prisma, kind);
    const t2 = performance.now();
    const relatedGlobal = [...related].slice(0, 500).map((i) => gid(typeOf(i), ids[i]!));
    return {
      kind,
      n,
      url: db.url,
      drop: db.drop,
      ids,
      projectId: gid('Project', project.id),
      sessionId: gid('Session', sessions[0]!.id),
      guidelineIds: ids.filter((_, i) => typeOf(i) === 'Guideline').map((id) => gid('Guideline', id)),
      vocabulary,
      related: relatedGlobal,
      seedMs: { entries: t1 - t0, relations: t2 - t1 },
      pick,
      index: () => Math.floor(rand() * n),
      sentence,
    };
  } finally {
    await database.close();
  }
}

/**
 * The workload of a SQLite file that seedWorkload seeded with `n` entries (kept with BENCH_KEEP=1),
 * to ask it again without seeding: its ids by seeding index (the entries' names), its project,
 * first session and related entries, and the same words. Entries it lost since (a purge) are left
 * out of the picks; entries written since are not picked.
 */
export function workloadOfFile(file: string, n: number): Workload {
  const db = new Database(file, { readonly: true });
  try {
    const ids: string[] = [];
    for (const row of db.prepare(`SELECT id, name FROM "Entry"`).iterate() as Iterable<{ id: string; name: string }>) {
      const seeded = /^(?:tool|guideline|knowledge)-(\d+)$/.exec(row.name);
      if (seeded && Number(seeded[1]) < n) ids[Number(seeded[1])] = row.id;
    }
    const project = db.prepare(`SELECT id FROM "Scope" WHERE kind = 'PROJECT' AND name = 'bench'`).get() as { id: string } | undefined;
    if (!project) throw new Error(`${file}: no project "bench" (not a memory seedWorkload seeded)`);
    const session = db.prepare(`SELECT id FROM "Scope" WHERE kind = 'SESSION' AND name = 's0' AND "parentId" = ?`).get(project.id) as { id: string };
    const indexOf = new Map(ids.map((id, i) => [id, i]));
    const sources = (db.prepare(`SELECT DISTINCT "sourceId" AS id FROM "Relation"`).all() as Array<{ id: string }>).filter((r) => indexOf.has(r.id)).slice(0, 500);
    const { pick, vocabulary, sentence } = wordsOf(n);
    const present = [...ids.keys()].filter((i) => ids[i] !== undefined);
    return {
      kind: 'sqlite',
      n,
      url: `file:${file}`,
      drop: () => Promise.resolve(),
      ids,
      projectId: gid('Project', project.id),
      sessionId: gid('Session', session.id),
      guidelineIds: present.filter((i) => typeOf(i) === 'Guideline').map((i) => gid('Guideline', ids[i]!)),
      vocabulary,
      related: sources.map((r) => gid(typeOf(indexOf.get(r.id)!), r.id)),
      seedMs: { entries: 0, relations: 0 },
      pick,
      index: () => pick(present),
      sentence,
    };
  } finally {
    db.close();
  }
}

function entryInput(
  i: number,
  scopes: { global: string; project: string; sessions: string[] },
  rand: () => number,
  pick: <T>(items: readonly T[]) => T,
  sentence: (words: number) => string,
): AddEntryInput {
  const entryKind: EntryKind = i % 10 < 5 ? 'TOOL' : i % 10 < 8 ? 'GUIDELINE' : 'KNOWLEDGE';
  const level = levelOf(i);
  const scopeId = level === 'session' ? scopes.sessions[((i * 7919) % 100) % 5]! : scopes[level];
  const tags = [...new Set(Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(TAGS)))];
  const text = sentence(12 + Math.floor(rand() * 20));
  return {
    kind: entryKind,
    scopeId,
    name: `${entryKind.toLowerCase()}-${i}`,
    category: entryKind === 'TOOL' ? 'cli' : entryKind === 'GUIDELINE' ? 'code_style' : 'fact',
    priority: entryKind === 'GUIDELINE' ? Math.floor(rand() * 101) : null,
    tags,
    author: 'bench',
    version: entryKind === 'TOOL' ? { description: text } : { content: text },
  };
}
