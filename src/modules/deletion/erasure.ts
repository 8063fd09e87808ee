import { createHash } from 'node:crypto';
import { scopeChainsOf } from '../../infra/scope-chain.ts';
import { Prisma } from '../../generated/sqlite/client.ts';
import type { Tx } from '../../infra/database.ts';
import type { Emit } from '../../infra/transaction.ts';
import { chunkedWithin, eachList, eachOf, TEXT_CHARS_PER_LIST } from '../../infra/id-lists.ts';

/**
 * What one deletion erased, gathered as it goes: ids per kind and the erased content, hashed in a
 * canonical order so that the receipt proves what went without keeping it.
 */
export class Erasure {
  private readonly ids = new Map<string, string[]>();
  private readonly content: string[] = [];

  add(kind: string, rows: ReadonlyArray<{ id: string }>, contentOf: (row: never) => unknown = () => null): void {
    if (rows.length === 0) return;
    const list = this.ids.get(kind) ?? [];
    this.ids.set(kind, list);
    for (const row of rows) {
      list.push(row.id);
      this.content.push(`${kind}:${row.id}:${JSON.stringify(contentOf(row as never) ?? null)}`);
    }
  }

  /** Rows erased per kind. */
  counts(): Record<string, number> {
    return Object.fromEntries([...this.ids].sort(([a], [b]) => a.localeCompare(b)).map(([kind, ids]) => [kind, ids.length]));
  }

  /** The ids of one kind erased so far, in the order erased. */
  idsOf(kind: string): readonly string[] {
    return this.ids.get(kind) ?? [];
  }

  idsByKind(): Record<string, string[]> {
    return Object.fromEntries([...this.ids].sort(([a], [b]) => a.localeCompare(b)).map(([kind, ids]) => [kind, [...ids].sort()]));
  }

  /** SHA-256 of every erased row's content, sorted: the same data always hashes the same. */
  contentHash(): string {
    const hash = createHash('sha256');
    for (const line of [...this.content].sort()) hash.update(line).update('\n');
    return hash.digest('hex');
  }
}

/**
 * Erases entries with everything that hangs off them: versions, tags, relations from and to them,
 * conflicts, conversation links, and their search rows. Publishes DELETED for each. Any number of
 * entries: IDS_PER_STATEMENT (id-lists.ts) at a time, in the caller's one transaction.
 */
export async function eraseEntries(tx: Tx, emit: Emit, entryIds: readonly string[], erasure: Erasure, actor: string | null): Promise<void> {
  // On SQLite the transaction runs on the event loop (better-sqlite3 answers at once), first
  // statement to last: every other request waited for the whole erasure (~0.1-0.2 ms an entry,
  // the purge's rate at 100K and 1M). Between two lists the loop turns (eachOf); the transaction
  // stays one (other writes wait for it to end, reads go to the readers, which see what was
  // committed: src/infra/serialized-adapter.ts).
  await eachOf(await textBoundedLists(tx, entryIds), (ids) => eraseSomeEntries(tx, emit, ids, erasure, actor));
}

/**
 * The ids in lists of at most IDS_PER_STATEMENT and TEXT_CHARS_PER_LIST characters of searchable
 * text: SQLite's full-text index takes out every word of a list's entries on the event loop (400
 * entries of 24 KB held it ~0.7 s in one list).
 */
async function textBoundedLists(tx: Tx, entryIds: readonly string[]): Promise<string[][]> {
  const chars = new Map<string, number>();
  await eachList(entryIds, async (ids) => {
    const rows = await tx.$queryRaw<Array<{ id: string; chars: number | bigint | null }>>`
      SELECT "entryId" AS id, LENGTH("name") + LENGTH("body") AS chars FROM "EntrySearch" WHERE "entryId" IN (${Prisma.join(ids)})`;
    for (const row of rows) chars.set(row.id, Number(row.chars ?? 0));
  });
  return chunkedWithin(entryIds, (id) => chars.get(id) ?? 0, TEXT_CHARS_PER_LIST);
}

async function eraseSomeEntries(tx: Tx, emit: Emit, listed: string[], erasure: Erasure, actor: string | null): Promise<void> {
  // The entry points at a version (and versions at the entry): unhooked before either is deleted,
  // and first, since this also locks each entry until the transaction ends (PostgreSQL; SQLite has
  // one writer). A write of the entry committed meanwhile is read below, so its version is in the
  // receipt; one waiting on the lock finds the entry gone; an entry a concurrent erasure took
  // first is not here (RETURNING leaves it out) and stays in that erasure's receipt alone. Before,
  // two erasures of one tag on PostgreSQL both answered with receipts of all its entries, and an
  // update acknowledged meanwhile was erased without its version in either. In SQL, not
  // updateMany: Prisma would also set "updatedAt", whose trigger then copies it to every tag link
  // of the entry (and its index) just before they are deleted.
  const unhooked = await tx.$queryRaw<Array<{ id: string }>>`UPDATE "Entry" SET "currentVersionId" = NULL WHERE "id" IN (${Prisma.join(listed)}) RETURNING "id"`;
  const ids = unhooked.map((row) => row.id);
  if (!ids.length) return;
  const entries = await tx.entry.findMany({ where: { id: { in: ids } } });
  const versions = await tx.entryVersion.findMany({ where: { entryId: { in: ids } } });
  // Those between two entries of different lists go with the first list (the second finds them gone).
  const touching = { OR: [{ sourceId: { in: ids } }, { targetEntryId: { in: ids } }] };
  const relations = await tx.relation.findMany({ where: touching, select: { id: true, type: true } });
  const conflicts = await tx.conflict.findMany({ where: { entryId: { in: ids } }, select: { id: true, note: true } });
  const links = await tx.conversationContext.findMany({ where: { entryId: { in: ids } }, select: { id: true } });
  const tags = await tx.entryTag.findMany({ where: { entryId: { in: ids } }, select: { entryId: true, tagId: true } });
  // Read now: the scopes may be erased in this transaction too, before the events are published.
  const scopeIds = [...new Set(entries.map((e) => e.scopeId))];
  const chains = new Map((await scopeChainsOf(tx, scopeIds)).map((chain, i) => [scopeIds[i]!, chain ?? [scopeIds[i]!]]));
  await tx.conflict.deleteMany({ where: { entryId: { in: ids } } });
  await tx.relation.deleteMany({ where: touching });
  await tx.conversationContext.deleteMany({ where: { entryId: { in: ids } } });
  // The search rows before the tags: on SQLite each tag link's delete trigger re-indexes its
  // entry's full-text row (deleted, then tokenized and inserted again without the tag), and
  // PostgreSQL's rewrites its tag ids; with the row gone first they find nothing to do. The purge's
  // batch of 500 entries took ~140 ms instead of ~57 (dry run, 100K memory), two thirds of it in
  // that DELETE; what is left afterwards is the same.
  await tx.$executeRaw`DELETE FROM "EntrySearch" WHERE "entryId" IN (${Prisma.join(ids)})`;
  await tx.entryTag.deleteMany({ where: { entryId: { in: ids } } });
  await tx.entryVersion.deleteMany({ where: { entryId: { in: ids } } });
  await tx.entry.deleteMany({ where: { id: { in: ids } } });
  erasure.add('Entry', entries, (e: (typeof entries)[number]) => [e.kind, e.scopeId, e.name, e.category, e.createdBy]);
  erasure.add('EntryVersion', versions, (v: (typeof versions)[number]) => [v.description, v.parameters, v.examples, v.constraints, v.content, v.rationale, v.source, v.createdBy]);
  erasure.add('Relation', relations, (r: (typeof relations)[number]) => r.type);
  erasure.add('Conflict', conflicts, (c: (typeof conflicts)[number]) => c.note);
  erasure.add('ConversationContext', links);
  erasure.add('EntryTag', tags.map((t) => ({ id: `${t.entryId}:${t.tagId}` })));
  for (const e of entries) {
    emit({ topic: 'entryChanged', payload: { type: 'DELETED', entryId: e.id, kind: e.kind, scopeId: e.scopeId, chain: chains.get(e.scopeId), versionId: null, actor } });
  }
}
