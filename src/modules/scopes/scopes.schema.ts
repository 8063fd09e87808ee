import { builder } from '../../graphql/builder.ts';
import { CREATE_ERRORS, InvalidPlacementError, NAMING_ERRORS } from '../../graphql/errors.ts';
import { SCOPE_TYPENAMES, decodeId } from '../../graphql/ids.ts';
import { PAGING } from '../../graphql/paging.ts';
import { MEMBER, can, canOn } from '../../graphql/rules.ts';
import type { Scope } from '../../generated/sqlite/client.ts';
import type { Prisma } from '../../generated/sqlite/client.ts';
import {
  GLOBAL_SCOPE_ID,
  createOrganization,
  createProject,
  startSession,
  updateProject,
  type ScopeKind,
  type SessionMode,
} from './scopes.service.ts';
import { screenScopeInput } from '../redaction/redaction.service.ts';
import type { SessionStatus } from '../sessions/sessions.service.ts';
import { EntryKindEnum } from '../entries/entry-enums.ts';
import { EntryWarningRef, WARNINGS_DESCRIPTION, pageWarnings } from '../entries/entries.schema.ts';

export const ScopeKindEnum = builder.enumType('ScopeKind', {
  description: 'Level of a scope in the tree.',
  values: {
    GLOBAL: { description: 'The single root.' },
    ORGANIZATION: { description: 'Under global.' },
    PROJECT: { description: 'Under an organization or directly under global.' },
    SESSION: { description: 'Under a project: one working period or scratch space of an agent.' },
  },
});
export const SessionStatusEnum = builder.enumType('SessionStatus', {
  description: 'Lifecycle state of a session.',
  values: {
    ACTIVE: { description: 'Running.' },
    PAUSED: { description: 'Suspended; can be resumed.' },
    COMPLETED: { description: 'Ended normally.' },
    DISCARDED: { description: 'Ended and abandoned.' },
    ARCHIVED: { description: 'Ended and kept as a read-only record.' },
  },
});
export const SessionModeEnum = builder.enumType('SessionMode', {
  description: 'What happens to what a session wrote.',
  values: {
    WORKING_PERIOD: { description: 'Entries written in the session persist after it ends.' },
    SCRATCH: { description: 'Entries written in the session are provisional.' },
  },
});

/** The GraphQL type of each kind of scope. */
export const SCOPE_TYPENAME: Record<ScopeKind, string> = {
  GLOBAL: 'GlobalScope',
  ORGANIZATION: 'Organization',
  PROJECT: 'Project',
  SESSION: 'Session',
};

export const ScopeRef = builder.prismaInterface('Scope', {
  name: 'Scope',
  description: 'A node of the scope tree (global > organization > project > session). Entries belong to scopes.',
  interfaces: [builder.nodeInterfaceRef()],
  resolveType: (scope) => SCOPE_TYPENAME[scope.kind as ScopeKind],
  fields: (t) => ({
    kind: t.field({ type: ScopeKindEnum, description: 'Level in the tree.', resolve: (s) => s.kind as ScopeKind }),
    name: t.exposeString('name', { nullable: true, description: 'Unique among siblings. Sessions may be unnamed.' }),
    description: t.exposeString('description', { nullable: true, description: 'Free text.' }),
    metadata: t.expose('metadata', { type: 'JSON', nullable: true, description: 'Free-form JSON object.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the scope was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the scope last changed.' }),
  }),
});

export const GlobalScopeRef = builder.prismaNode('Scope', {
  variant: 'GlobalScope',
  description: 'The root of the scope tree. There is exactly one.',
  interfaces: [ScopeRef],
  id: { field: 'id' },
  findUnique: (id) => ({ id, kind: 'GLOBAL' }),
  nullable: true,
  fields: () => ({}),
});

export const OrganizationRef = builder.prismaNode('Scope', {
  variant: 'Organization',
  description: 'A group of projects.',
  interfaces: [ScopeRef],
  id: { field: 'id' },
  findUnique: (id) => ({ id, kind: 'ORGANIZATION' }),
  nullable: true,
  fields: () => ({}),
});

export const ProjectRef = builder.prismaNode('Scope', {
  variant: 'Project',
  description: 'A codebase or body of work; sessions run inside it.',
  interfaces: [ScopeRef],
  id: { field: 'id' },
  findUnique: (id) => ({ id, kind: 'PROJECT' }),
  nullable: true,
  fields: (t) => ({
    rootPath: t.exposeString('rootPath', { nullable: true, description: 'Filesystem root, if any.' }),
  }),
});

export const SessionRef = builder.prismaNode('Scope', {
  variant: 'Session',
  description: 'One working period or scratch space of an agent inside a project.',
  interfaces: [ScopeRef],
  id: { field: 'id' },
  findUnique: (id) => ({ id, kind: 'SESSION' }),
  nullable: true,
  fields: (t) => ({
    purpose: t.exposeString('purpose', { nullable: true, description: 'What the session is for.' }),
    agentId: t.exposeString('agentId', { nullable: true, description: 'The agent or tool that started it.' }),
    status: t.field({ type: SessionStatusEnum, description: 'Lifecycle state.', resolve: (s) => s.status as SessionStatus }),
    mode: t.field({ type: SessionModeEnum, description: 'Working period or scratch space.', resolve: (s) => s.mode as SessionMode }),
    startedAt: t.field({ type: 'DateTime', description: 'When it started.', resolve: (s) => s.startedAt ?? s.createdAt }),
    endedAt: t.expose('endedAt', { type: 'DateTime', nullable: true, description: 'When it ended; null while open.' }),
    archivedAt: t.expose('archivedAt', { type: 'DateTime', nullable: true, description: 'When it was archived.' }),
    userId: t.exposeString('userId', { nullable: true, description: 'The user it works for (owner of its user: state keys).' }),
    appName: t.exposeString('appName', { nullable: true, description: 'The application it runs in (owner of its app: state keys).' }),
    autoPromote: t.exposeBoolean('autoPromote', { description: 'SCRATCH: completing promotes every active entry unless the call says otherwise.' }),
    eventCount: t.exposeInt('eventCount', { description: 'Number of events in its log (the last sequence number).' }),
    turn: t.exposeInt('turn', { description: 'The current turn, from 1; ending a turn clears the temp: keys.' }),
  }),
});


// Fields that reference other scope types are added once all refs exist (keeps inference acyclic).
builder.prismaInterfaceFields(ScopeRef, (t) => ({
    parent: t.field({
      type: ScopeRef,
      nullable: true,
      description: 'The enclosing scope; null for global, and when the caller may not read it.',
      select: (_args, _ctx, nested) => ({ parent: nested(true) }),
      resolve: async (scope, _args, ctx) => (scope.parent && (await ctx.access.has('READ', scope.parent.id)) ? scope.parent : null),
    }),
    children: t.relatedConnection(
      'children',
      {
        cursor: 'id',
        ...PAGING,
        description: 'Scopes directly under this one that the caller may read, oldest first.',
        query: (_args, ctx) => ({ where: ctx.access.scopeWhereNow() ?? {}, orderBy: { id: 'asc' } }),
        totalCount: true,
      },
      { description: 'Page of child scopes.' },
      { description: 'A child scope.' },
    ),
    ancestors: t.field({
      type: [ScopeRef],
      description: 'Enclosing scopes from the parent up to global, nearest first (those the caller may read).',
      // The tree is at most four levels deep, so three nested parents reach global in one plan.
      select: (_args, _ctx, nested) => ({ parent: nested({ include: { parent: { include: { parent: true } } } }) }),
      resolve: async (scope, _args, ctx) => {
        const chain: Scope[] = [];
        for (let s = scope.parent as (Scope & { parent?: Scope | null }) | null; s; s = s.parent ?? null) chain.push(s);
        const readable = await ctx.access.readableChain(chain.map((s) => s.id));
        return chain.filter((s) => readable.includes(s.id));
      },
    }),
    entries: t.relatedConnection(
      'entries',
      {
        cursor: 'id',
        ...PAGING,
        description: 'Entries that belong directly to this scope, oldest first.',
        args: {
          kind: t.arg({ type: EntryKindEnum, required: false, description: 'Only entries of this kind.' }),
          includeInactive: t.arg.boolean({ required: false, description: 'Also deactivated entries (default false).' }),
        },
        query: (args) => ({
          where: {
            ...(args.kind ? { kind: args.kind } : {}),
            ...(args.includeInactive ? {} : { active: true }),
          },
          orderBy: { id: 'asc' },
        }),
        totalCount: true,
      },
      {
        description: 'Page of entries of a scope.',
        fields: (c) => ({
          warnings: c.field({
            type: [EntryWarningRef],
            description: WARNINGS_DESCRIPTION,
            resolve: (page, _args, ctx) => pageWarnings(ctx, page.edges),
          }),
        }),
      },
      { description: 'An entry of a scope.' },
    ),
}));

builder.prismaObjectFields(GlobalScopeRef, (t) => ({
    organizations: t.relatedConnection(
      'children',
      {
        cursor: 'id',
        ...PAGING,
        description: 'Organizations the caller may read, oldest first.',
        query: (_args, ctx) => ({ where: { kind: 'ORGANIZATION', ...ctx.access.scopeWhereNow() }, orderBy: { id: 'asc' } }),
        totalCount: true,
        type: OrganizationRef,
      },
      { name: 'GlobalOrganizationsConnection', description: 'Page of organizations.' },
      { name: 'GlobalOrganizationsEdge', description: 'An organization.' },
    ),
}));

builder.prismaObjectFields(OrganizationRef, (t) => ({
    projects: t.relatedConnection(
      'children',
      {
        cursor: 'id',
        ...PAGING,
        description: 'Projects of the organization, oldest first.',
        query: () => ({ orderBy: { id: 'asc' } }),
        totalCount: true,
        type: ProjectRef,
      },
      { name: 'OrganizationProjectsConnection', description: 'Page of projects.' },
      { name: 'OrganizationProjectsEdge', description: 'A project.' },
    ),
}));

builder.prismaObjectFields(ProjectRef, (t) => ({
    organization: t.field({
      type: OrganizationRef,
      nullable: true,
      description: 'The owning organization; null when the project sits directly under global, or when the caller may not read it.',
      select: (_args, _ctx, nested) => ({ parent: nested(true) }),
      resolve: async (project, _args, ctx) =>
        project.parent?.kind === 'ORGANIZATION' && (await ctx.access.has('READ', project.parent.id)) ? project.parent : null,
    }),
    sessions: t.relatedConnection(
      'children',
      {
        cursor: 'id',
        ...PAGING,
        description: 'Sessions of the project, newest first.',
        args: { status: t.arg({ type: SessionStatusEnum, required: false, description: 'Only sessions in this status.' }) },
        query: (args) => ({ where: args.status ? { status: args.status } : {}, orderBy: { id: 'desc' } }),
        totalCount: true,
        type: SessionRef,
      },
      { name: 'ProjectSessionsConnection', description: 'Page of sessions.' },
      { name: 'ProjectSessionsEdge', description: 'A session.' },
    ),
}));

builder.prismaObjectFields(SessionRef, (t) => ({
    project: t.field({
      type: ProjectRef,
      nullable: true,
      description: 'The project it runs in; null when the caller may not read it (a grant on the session alone).',
      select: (_args, _ctx, nested) => ({ parent: nested(true) }),
      resolve: async (session, _args, ctx) => (session.parent && (await ctx.access.has('READ', session.parent.id)) ? session.parent : null),
    }),
}));

type Json = Prisma.InputJsonValue;

const CreateOrganizationInput = builder.inputType('CreateOrganizationInput', {
  description: 'A new organization under global.',
  fields: (t) => ({
    name: t.string({ required: true, description: 'Unique among siblings under global.' }),
    description: t.string({ description: 'Free text.' }),
    metadata: t.field({ type: 'JSON', description: 'Free-form JSON object.' }),
  }),
});

const CreateProjectInput = builder.inputType('CreateProjectInput', {
  description: 'A new project.',
  fields: (t) => ({
    name: t.string({ required: true, description: 'Unique among siblings.' }),
    organization: t.id({ description: 'Owning organization; the project goes directly under global when absent.' }),
    description: t.string({ description: 'Free text.' }),
    rootPath: t.string({ description: 'Filesystem root.' }),
    metadata: t.field({ type: 'JSON', description: 'Free-form JSON object (goals, constraints, state).' }),
  }),
});

const UpdateProjectInput = builder.inputType('UpdateProjectInput', {
  description: 'Changes to a project. Absent fields stay; null clears description, rootPath and metadata.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The project.' }),
    name: t.string({ description: 'New name, unique among siblings.' }),
    description: t.string({ description: 'New description.' }),
    rootPath: t.string({ description: 'New filesystem root.' }),
    metadata: t.field({ type: 'JSON', description: 'New metadata (replaces the old object).' }),
  }),
});

const StartSessionInput = builder.inputType('StartSessionInput', {
  description: 'A new session in a project.',
  fields: (t) => ({
    project: t.id({ required: true, description: 'The project it runs in.' }),
    name: t.string({ description: 'Optional label, unique among the project\'s sessions.' }),
    purpose: t.string({ description: 'What the session is for.' }),
    agentId: t.string({ description: 'The agent or tool starting it.' }),
    userId: t.string({ description: 'The user it works for: owner of the user: state keys it reads and writes.' }),
    appName: t.string({ description: 'The application it runs in: owner of its app: state keys.' }),
    mode: t.field({ type: SessionModeEnum, description: 'Default WORKING_PERIOD.' }),
    autoPromote: t.boolean({ description: 'SCRATCH only: completing the session promotes all its active entries (default false).' }),
    metadata: t.field({ type: 'JSON', description: 'Free-form JSON object.' }),
  }),
});


const nonNullJson = (value: unknown): Json | undefined => (value === null || value === undefined ? undefined : (value));
const optionalJson = (value: unknown): Json | null | undefined => (value === undefined ? undefined : (value));

builder.queryFields((t) => ({
  globalScope: t.prismaField({
    type: GlobalScopeRef,
    description: 'The root scope.',
    authScopes: canOn('READ', 'scope', GLOBAL_SCOPE_ID, [], { quiet: true }),
    resolve: (query, _root, _args, ctx) => ctx.db.scope.findUniqueOrThrow({ ...query, where: { id: GLOBAL_SCOPE_ID } }),
  }),
  scope: t.prismaField({
    type: ScopeRef,
    nullable: true,
    description: 'A scope of any level by ID; null when there is none.',
    args: { id: t.arg.id({ required: true, description: 'Global ID of the scope.' }) },
    authScopes: (_root, args) => can('READ', 'scope', args.id, SCOPE_TYPENAMES, ['id'], { quiet: true }),
    unauthorizedResolver: () => null,
    resolve: (query, _root, args, ctx) =>
      ctx.db.scope.findUnique({ ...query, where: { id: decodeId(String(args.id), SCOPE_TYPENAMES, ['id']) } }),
  }),
  organizations: t.prismaConnection(
    {
      type: OrganizationRef,
      cursor: 'id',
      ...PAGING,
      description: 'The organizations the caller may read, oldest first.',
      authScopes: MEMBER,
      totalCount: async (_parent, _args, ctx) => ctx.db.scope.count({ where: { kind: 'ORGANIZATION', ...(await ctx.access.scopeWhere()) } }),
      resolve: async (query, _root, _args, ctx) =>
        ctx.db.scope.findMany({ ...query, where: { kind: 'ORGANIZATION', ...(await ctx.access.scopeWhere()) }, orderBy: { id: 'asc' } }),
    },
    { description: 'Page of organizations.' },
    { description: 'An organization.' },
  ),
  projects: t.prismaConnection(
    {
      type: ProjectRef,
      cursor: 'id',
      ...PAGING,
      description: 'The projects the caller may read, oldest first.',
      authScopes: MEMBER,
      args: { organization: t.arg.id({ description: 'Only the projects of this organization (or of GlobalScope: those directly under global).' }) },
      totalCount: async (_parent, args, ctx) => ctx.db.scope.count({ where: { ...projectsWhere(args.organization), ...(await ctx.access.scopeWhere()) } }),
      resolve: async (query, _root, args, ctx) =>
        ctx.db.scope.findMany({ ...query, where: { ...projectsWhere(args.organization), ...(await ctx.access.scopeWhere()) }, orderBy: { id: 'asc' } }),
    },
    { description: 'Page of projects.' },
    { description: 'A project.' },
  ),
  sessions: t.prismaConnection(
    {
      type: SessionRef,
      cursor: 'id',
      ...PAGING,
      description: 'The sessions the caller may read, newest first.',
      authScopes: MEMBER,
      args: {
        project: t.arg.id({ description: 'Only the sessions of this project.' }),
        status: t.arg({ type: SessionStatusEnum, description: 'Only sessions in this status.' }),
      },
      totalCount: async (_parent, args, ctx) => ctx.db.scope.count({ where: { ...sessionsWhere(args), ...(await ctx.access.scopeWhere()) } }),
      resolve: async (query, _root, args, ctx) =>
        ctx.db.scope.findMany({ ...query, where: { ...sessionsWhere(args), ...(await ctx.access.scopeWhere()) }, orderBy: { id: 'desc' } }),
    },
    { description: 'Page of sessions.' },
    { description: 'A session.' },
  ),
}));

function projectsWhere(organization: string | number | null | undefined): Prisma.ScopeWhereInput {
  if (organization == null) return { kind: 'PROJECT' };
  return { kind: 'PROJECT', parentId: decodeId(String(organization), ['Organization', 'GlobalScope'], ['organization']) };
}

function sessionsWhere(args: { project?: string | number | null; status?: string | null }): Prisma.ScopeWhereInput {
  return {
    kind: 'SESSION',
    ...(args.project != null ? { parentId: decodeId(String(args.project), ['Project'], ['project']) } : {}),
    ...(args.status ? { status: args.status } : {}),
  };
}

builder.mutationFields((t) => ({
  createOrganization: t.field({
    type: OrganizationRef,
    description: 'Creates an organization under global (WRITE on global).',
    authScopes: canOn('WRITE', 'scope', GLOBAL_SCOPE_ID, ['input'], { quiet: true }),
    args: { input: t.arg({ type: CreateOrganizationInput, required: true, description: 'The organization.' }) },
    errors: { types: [...CREATE_ERRORS], dataField: { name: 'organization', description: 'The new organization.' } },
    resolve: async (_root, { input }, ctx) => {
      const screened = await screenScopeInput(ctx.db, GLOBAL_SCOPE_ID, input);
      return createOrganization(ctx.db, { ...screened, metadata: nonNullJson(screened.metadata) });
    },
  }),
  createProject: t.field({
    type: ProjectRef,
    description: 'Creates a project under an organization or under global (WRITE there).',
    authScopes: (_root, { input }) =>
      input.organization != null
        ? can('WRITE', 'scope', input.organization, SCOPE_TYPENAMES, ['input', 'organization'])
        : canOn('WRITE', 'scope', GLOBAL_SCOPE_ID, ['input', 'organization'], { quiet: true }),
    args: { input: t.arg({ type: CreateProjectInput, required: true, description: 'The project.' }) },
    errors: {
      types: [...NAMING_ERRORS, InvalidPlacementError],
      dataField: { name: 'project', description: 'The new project.' },
    },
    resolve: async (_root, { input }, ctx) => {
      const parentId = input.organization != null ? decodeId(String(input.organization), SCOPE_TYPENAMES, ['input', 'organization']) : null;
      const screened = await screenScopeInput(ctx.db, parentId ?? GLOBAL_SCOPE_ID, input);
      return createProject(ctx.db, { ...screened, parentId, metadata: nonNullJson(screened.metadata) });
    },
  }),
  updateProject: t.field({
    type: ProjectRef,
    description: 'Changes a project (WRITE on it).',
    authScopes: (_root, { input }) => can('WRITE', 'scope', input.id, ['Project'], ['input', 'id'], { label: 'project' }),
    args: { input: t.arg({ type: UpdateProjectInput, required: true, description: 'The changes.' }) },
    errors: { types: [...NAMING_ERRORS], dataField: { name: 'project', description: 'The project after the change.' } },
    resolve: async (_root, { input }, ctx) => {
      const id = decodeId(String(input.id), ['Project'], ['input', 'id']);
      const screened = await screenScopeInput(ctx.db, id, input);
      return updateProject(ctx.db, { ...screened, id, metadata: optionalJson(screened.metadata) });
    },
  }),
  startSession: t.field({
    type: SessionRef,
    description: 'Starts a session in a project (WRITE on it).',
    authScopes: (_root, { input }) => can('WRITE', 'scope', input.project, SCOPE_TYPENAMES, ['input', 'project']),
    args: { input: t.arg({ type: StartSessionInput, required: true, description: 'The session.' }) },
    errors: {
      types: [...NAMING_ERRORS, InvalidPlacementError],
      dataField: { name: 'session', description: 'The new session.' },
    },
    resolve: async (_root, { input }, ctx) => {
      const projectId = decodeId(String(input.project), SCOPE_TYPENAMES, ['input', 'project']);
      const screened = await screenScopeInput(ctx.db, projectId, input);
      return startSession(ctx, {
        ...screened,
        projectId,
        agentId: await ctx.author(input.agentId, ['input', 'agentId']),
        metadata: nonNullJson(screened.metadata),
        actor: ctx.actor,
      });
    },
  }),
}));
