import { openDatabase } from '../../src/infra/database.ts';
import { createEventBus } from '../../src/infra/events.ts';
import { addEntries, type AddEntryInput } from '../../src/modules/entries/entries.service.ts';
import { createApiKey, createPrincipal } from '../../src/modules/identity/keys.service.ts';
import { grantRole } from '../../src/modules/identity/grants.service.ts';
import { GLOBAL_SCOPE_ID, createProject, startSession } from '../../src/modules/scopes/scopes.service.ts';
import { freshDatabase, iterations, opts, post, prng, serverProcess, stopProcess, summarize, SYLLABLES, timed, type Kind } from './common.ts';

/**
 * What authentication costs: two server processes on one database, one with API keys (sent as a
 * key) and one with AUTH=off, asked in turn (so that drift in machine load falls on both alike):
 * memoryQuery and a create. Prints both p50s and the overhead.
 */
export async function authSuite(kind: Kind) {
  const n = Number(opts['auth-size']);
  console.log(`\nauth (${kind}, N = ${n.toLocaleString('en')}): memoryQuery and create through HTTP as an agent with a grant, and with AUTH=off, in turn`);
  const db = await freshDatabase(kind);
  const database = await openDatabase(db.url);
  const deps = { db: database.prisma, provider: database.provider, bus: createEventBus(), settings: { conflictWindowMs: 5_000 } };
  const project = await createProject(deps.db, { name: 'auth' });
  const session = await startSession(deps, { projectId: project.id, name: 'auth' });
  await seedAuthEntries(deps, [GLOBAL_SCOPE_ID, project.id, session.id], n);
  // A non-admin principal: every read and write goes through its grant, not the admin shortcut.
  const principal = await createPrincipal(database.prisma, { name: 'bench-agent', kind: 'AGENT' });
  await grantRole(database.prisma, { principalId: principal.id, scopeId: project.id, role: 'WRITE' });
  const { secret } = await createApiKey(database.prisma, { principalId: principal.id, name: 'bench' });
  await database.close();
  const servers = { on: await serverProcess(db.url, { AUTH: 'on' }), off: await serverProcess(db.url, { AUTH: 'off' }) };
  try {
    const ask = (mode: 'on' | 'off', query: string, variables: Record<string, unknown>) =>
      post(servers[mode].port, query, variables, {
        'x-engram-actor': 'agent:bench-agent',
        ...(mode === 'on' ? { authorization: `Bearer ${secret}` } : {}),
      });
    const scope = Buffer.from(`Project:${project.id}`).toString('base64');
    const sessionScope = Buffer.from(`Session:${session.id}`).toString('base64');
    const samples = { on: { query: [] as number[], create: [] as number[] }, off: { query: [] as number[], create: [] as number[] } };
    for (let i = 0; i < iterations + 20; i++) {
      for (const mode of i % 2 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
        const keep = i >= 20;
        await timed(keep ? samples[mode].create : [], () =>
          ask(mode, 'mutation($s: ID!, $n: String!) { addKnowledge(input: { scope: $s, title: $n, content: "auth bench" }) { __typename } }', { s: scope, n: `${mode}${i}` }),
        );
        await timed(keep ? samples[mode].query : [], () =>
          ask(mode, 'query($s: ID!) { memoryQuery(input: { scope: $s, search: "lokami" }, first: 20) { edges { node { id name } } } }', { s: sessionScope }),
        );
      }
    }
    for (const op of ['query', 'create'] as const) {
      const on = summarize('auth', kind, `${op}, with a key and a grant`, samples.on[op]).p50;
      const off = summarize('auth', kind, `${op}, AUTH=off`, samples.off[op]).p50;
      console.log(`  ${op}: authorization adds ${(((on - off) / off) * 100).toFixed(1)} % to p50 (target: under 10 %)`);
    }
  } finally {
    await stopProcess(servers.on.child);
    await stopProcess(servers.off.child);
    await db.drop();
  }
}

/** n knowledge entries spread over the scopes of a session's chain (global, project, session), in bulk. */
async function seedAuthEntries(deps: Parameters<typeof addEntries>[0], scopes: string[], n: number): Promise<void> {
  const rand = prng(n);
  const word = () => Array.from({ length: 3 }, () => SYLLABLES[Math.floor(rand() * SYLLABLES.length)]).join('');
  for (let start = 0; start < n; start += 5_000) {
    const batch: AddEntryInput[] = [];
    for (let i = start; i < Math.min(n, start + 5_000); i++) {
      const content = Array.from({ length: 16 }, word).join(' ');
      batch.push({ kind: 'KNOWLEDGE', scopeId: scopes[i % scopes.length]!, name: `k-${i}`, tags: [], author: 'bench', version: { content } });
    }
    await addEntries(deps, batch);
  }
  await deps.db.$executeRawUnsafe('ANALYZE');
}
