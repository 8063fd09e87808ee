import { stringify } from 'yaml';
import type { Db } from '../../infra/database.ts';
import { scopeIds } from './export.service.ts';

export type DocumentFormat = 'markdown' | 'yaml';

const PAGE = 500;

interface DocumentOptions {
  scope?: string | null;
  onProgress?: (entries: number) => void;
}

/**
 * The active entries' current versions as a document for people (Markdown) or for editing
 * (YAML), scope by scope: what the memory says now, without history (the JSON Lines export has
 * that). Returns how many entries were written.
 */
export async function entriesAsDocument(db: Db, format: DocumentFormat, write: (text: string) => Promise<void>, options: DocumentOptions = {}): Promise<number> {
  const scopes = options.scope ? await scopeIds(db, options.scope) : (await db.scope.findMany({ select: { id: true }, orderBy: { createdAt: 'asc' } })).map((s) => s.id);
  if (format === 'markdown') await write(`# Engram memory\n\nExported ${new Date().toISOString()}${options.scope ? `, scope \`${options.scope}\` and below` : ''}.\n`);
  let written = 0;
  for (const scopeId of scopes) {
    const scope = await db.scope.findUnique({ where: { id: scopeId } });
    if (!scope) continue;
    let heading = false;
    for (let after: string | null = null; ; ) {
      const entries: Entry[] = await db.entry.findMany({
        where: { scopeId, active: true, ...(after ? { id: { gt: after } } : {}) },
        include: { currentVersion: true, tags: { include: { tag: true } } },
        orderBy: { id: 'asc' },
        take: PAGE,
      });
      for (const entry of entries) {
        const doc = documentOf(scope, entry);
        if (format === 'yaml') await write(stringify([doc]));
        else {
          if (!heading) await write(`\n## ${scope.kind.toLowerCase()} ${scope.name ?? scope.id} (\`${scope.id}\`)\n`);
          heading = true;
          await write(markdownOf(doc));
        }
      }
      written += entries.length;
      options.onProgress?.(written);
      if (entries.length < PAGE) break;
      after = entries[entries.length - 1]!.id;
    }
  }
  return written;
}

type Entry = Awaited<ReturnType<Db['entry']['findMany']>>[number] & {
  currentVersion: Awaited<ReturnType<Db['entryVersion']['findMany']>>[number] | null;
  tags: { tag: { name: string } }[];
};

/** The fields of an entry that say something, without empty ones. */
function documentOf(scope: { id: string; kind: string; name: string | null }, entry: Entry): Record<string, unknown> {
  const v = entry.currentVersion;
  const doc: Record<string, unknown> = {
    scope: scope.name ?? scope.id,
    scopeId: scope.id,
    kind: entry.kind,
    name: entry.name,
    version: entry.latestVersion,
    priority: entry.priority,
    category: entry.category,
    memoryType: entry.memoryType,
    tags: entry.tags.map((t) => t.tag.name),
    description: v?.description,
    content: v?.content,
    rationale: v?.rationale,
    constraints: v?.constraints,
    parameters: v?.parameters,
    examples: v?.examples,
    source: v?.source,
    confidence: v?.confidence,
    validUntil: v?.validUntil?.toISOString(),
    updatedAt: entry.updatedAt.toISOString(),
  };
  return Object.fromEntries(Object.entries(doc).filter(([, value]) => value !== null && value !== undefined && !(Array.isArray(value) && !value.length)));
}

function markdownOf(doc: Record<string, unknown>): string {
  const kind = String(doc.kind).charAt(0) + String(doc.kind).slice(1).toLowerCase();
  const lines = [`\n### ${kind}: ${String(doc.name)}\n\n`];
  const facts = ['version', 'priority', 'category', 'memoryType', 'confidence', 'source', 'validUntil', 'updatedAt'].filter((k) => doc[k] !== undefined);
  lines.push(facts.map((k) => `${k} ${String(doc[k])}`).join(' · ') + (doc.tags ? ` · tags ${(doc.tags as string[]).join(', ')}` : '') + '\n');
  for (const field of ['description', 'content', 'rationale', 'constraints']) {
    const text = doc[field];
    if (typeof text === 'string') lines.push(`\n${text}\n`);
  }
  for (const field of ['parameters', 'examples']) {
    if (doc[field] !== undefined) lines.push(`\n**${field}**\n\n\`\`\`json\n${JSON.stringify(doc[field], null, 2)}\n\`\`\`\n`);
  }
  return lines.join('');
}
