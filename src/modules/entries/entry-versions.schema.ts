import { builder } from '../../graphql/builder.ts';
import { VERSION_TYPENAME } from '../../graphql/ids.ts';
import { PAGING } from '../../graphql/paging.ts';
import type { EntryKind } from './entries.service.ts';
import type { ToolRef } from './entries.schema.ts';

/**
 * Versions of entries: the EntryVersion interface and one type per kind. Each kind of entry gives
 * its own version type on `currentVersion`, `version` and `versions` (a Guideline's
 * `currentVersion` is a GuidelineVersion), so typed clients read a guideline's content without a
 * fragment; the Entry interface keeps EntryVersion for code that handles every kind.
 */

export const EntryVersionRef = builder.prismaInterface('EntryVersion', {
  name: 'EntryVersion',
  description: 'An immutable version of an entry. Versions are numbered 1, 2, 3... per entry and never edited.',
  interfaces: [builder.nodeInterfaceRef()],
  resolveType: (v) => VERSION_TYPENAME[v.kind as EntryKind],
  fields: (t) => ({
    version: t.exposeInt('version', { description: 'Number of this version, from 1, gapless per entry.' }),
    changeReason: t.exposeString('changeReason', { nullable: true, description: 'Why the writer made this change.' }),
    conflictFlag: t.exposeBoolean('conflictFlag', {
      description: 'True when this version was written concurrently with another one (see conflicts).',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was written.' }),
    createdBy: t.exposeString('createdBy', { nullable: true, description: 'Who wrote it.' }),
  }),
});

const versionNode = (variant: string, kind: EntryKind, description: string) => ({
  variant,
  description,
  interfaces: [EntryVersionRef],
  id: { field: 'id' as const },
  nullable: true as const,
  findUnique: (id: string) => ({ id, kind }),
});

export const ToolVersionRef = builder.prismaNode('EntryVersion', {
  ...versionNode('ToolVersion', 'TOOL', 'A version of a tool.'),
  fields: (t) => ({
    description: t.exposeString('description', { nullable: true, description: 'What the tool does.' }),
    parameters: t.expose('parameters', { type: 'JSON', nullable: true, description: 'JSON Schema of its parameters.' }),
    examples: t.expose('examples', { type: 'JSON', nullable: true, description: 'Usage examples.' }),
    constraints: t.exposeString('constraints', { nullable: true, description: 'Rules for using it.' }),
  }),
});

export const GuidelineVersionRef = builder.prismaNode('EntryVersion', {
  ...versionNode('GuidelineVersion', 'GUIDELINE', 'A version of a guideline.'),
  fields: (t) => ({
    content: t.string({ description: 'The guideline text.', resolve: (v) => v.content ?? '' }),
    rationale: t.exposeString('rationale', { nullable: true, description: 'Why it exists.' }),
    examples: t.expose('examples', { type: 'JSON', nullable: true, description: 'Good and bad examples.' }),
  }),
});

export const KnowledgeVersionRef = builder.prismaNode('EntryVersion', {
  ...versionNode('KnowledgeVersion', 'KNOWLEDGE', 'A version of a knowledge entry.'),
  fields: (t) => ({
    content: t.string({ description: 'The knowledge itself.', resolve: (v) => v.content ?? '' }),
    source: t.exposeString('source', { nullable: true, description: 'Where it came from.' }),
    confidence: t.float({ description: 'How certain it is, 0 to 1.', resolve: (v) => v.confidence ?? 1 }),
    validUntil: t.expose('validUntil', { type: 'DateTime', nullable: true, description: 'When it expires, if ever.' }),
  }),
});

// ---------------------------------------------------------------- pages of versions

/** What every kind's page of versions has; a kind's own page narrows `edges` to its version type. */
export const EntryVersionsEdgeRef = builder.interfaceRef<{ cursor: string; node: unknown }>('EntryVersionsConnectionEdge').implement({
  description: 'A version in a page of versions.',
  fields: (t) => ({
    cursor: t.exposeString('cursor', {}),
    node: t.field({ type: EntryVersionRef, resolve: (edge) => edge.node as never }),
  }),
});

export const EntryVersionsConnectionRef = builder
  .interfaceRef<{ edges: unknown[]; pageInfo: unknown; totalCount?: number }>('EntryVersionsConnection')
  .implement({
    description: 'A page of versions, newest first.',
    fields: (t) => ({
      edges: t.field({ type: [EntryVersionsEdgeRef], resolve: (page) => page.edges as never }),
      pageInfo: t.field({ type: builder.pageInfoRef(), resolve: (page) => page.pageInfo as never }),
      totalCount: t.int({ resolve: (page) => page.totalCount ?? 0 }),
    }),
  });

// The three refs share one TypeScript type (variants of one Prisma model).
type KindVersionRef = typeof ToolVersionRef;

/**
 * `currentVersion`, `version` and `versions` of one kind of entry, typed by its own version type
 * (GraphQL lets an object narrow an interface field's type to a subtype).
 */
export function withKindVersions(entry: typeof ToolRef, version: KindVersionRef, kind: string): void {
  builder.prismaObjectFields(entry, (t) => ({
    currentVersion: t.relation('currentVersion', { type: version, onNull: 'error', description: 'The newest version.' }),
    version: t.field({
      type: version,
      nullable: true,
      description: 'The version with this number; null when there is none.',
      args: { number: t.arg.int({ required: true, description: 'Version number, from 1.' }) },
      select: (args, _ctx, nested) => ({ versions: nested({ where: { version: args.number }, take: 1 }) }),
      resolve: (entry) => entry.versions[0] ?? null,
    }),
    versions: t.relatedConnection(
      'versions',
      {
        type: version,
        cursor: 'id',
        ...PAGING,
        description: 'Version history, newest first.',
        query: () => ({ orderBy: { version: 'desc' } }),
        totalCount: true,
      },
      { name: `${kind}VersionsConnection`, interfaces: [EntryVersionsConnectionRef], description: `A page of ${kind.toLowerCase()} versions.` },
      { name: `${kind}VersionsConnectionEdge`, interfaces: [EntryVersionsEdgeRef], description: 'A version.' },
    ),
  }));
}
