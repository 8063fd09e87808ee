import { builder } from '../../graphql/builder.ts';
import { InvalidPlacementError, InvalidStateError, NAMING_ERRORS } from '../../graphql/errors.ts';
import { decodeId } from '../../graphql/ids.ts';
import { can, canOn } from '../../graphql/rules.ts';
import type { Prisma } from '../../generated/sqlite/client.ts';
import { OrganizationRef, ProjectRef, SessionRef } from './scopes.schema.ts';
import { moveProject, updateOrganization, updateSession } from './scope-edits.service.ts';
import { screenScopeInput } from '../redaction/redaction.service.ts';
import { GLOBAL_SCOPE_ID } from './scopes.service.ts';

const UpdateOrganizationInput = builder.inputType('UpdateOrganizationInput', {
  description: 'Changes to an organization. Absent fields stay; null clears description and metadata.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The organization.' }),
    name: t.string({ description: 'New name, unique under global.' }),
    description: t.string({ description: 'New description.' }),
    metadata: t.field({ type: 'JSON', description: 'New metadata (replaces the old object).' }),
  }),
});

const UpdateSessionInput = builder.inputType('UpdateSessionInput', {
  description: 'Changes to a session. Absent fields stay; null clears name, purpose and metadata.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The session.' }),
    name: t.string({ description: "New label, unique among the project's sessions." }),
    purpose: t.string({ description: 'What the session is for.' }),
    metadata: t.field({ type: 'JSON', description: 'New metadata (replaces the old object).' }),
  }),
});

const MoveProjectInput = builder.inputType('MoveProjectInput', {
  description: 'Where to move a project, with its sessions.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The project.' }),
    organization: t.id({ description: 'Its new organization; absent or null: directly under global.' }),
  }),
});

const json = (value: unknown) => value as Prisma.InputJsonValue | null | undefined;

builder.mutationFields((t) => ({
  updateOrganization: t.field({
    type: OrganizationRef,
    description: 'Changes an organization (WRITE on it).',
    args: { input: t.arg({ type: UpdateOrganizationInput, required: true, description: 'The changes.' }) },
    authScopes: (_root, { input }) => can('WRITE', 'scope', input.id, ['Organization'], ['input', 'id'], { label: 'organization' }),
    errors: { types: [...NAMING_ERRORS], dataField: { name: 'organization', description: 'The organization after the change.' } },
    resolve: async (_root, { input }, ctx) => {
      const id = decodeId(String(input.id), ['Organization'], ['input', 'id']);
      const screened = await screenScopeInput(ctx.db, id, input);
      return updateOrganization(ctx.db, { ...screened, id, metadata: json(screened.metadata) });
    },
  }),
  updateSession: t.field({
    type: SessionRef,
    description: 'Changes a session (WRITE on it); an archived session is read-only.',
    args: { input: t.arg({ type: UpdateSessionInput, required: true, description: 'The changes.' }) },
    authScopes: (_root, { input }) => can('WRITE', 'scope', input.id, ['Session'], ['input', 'id'], { label: 'session' }),
    errors: { types: [...NAMING_ERRORS, InvalidStateError], dataField: { name: 'session', description: 'The session after the change.' } },
    resolve: async (_root, { input }, ctx) => {
      const id = decodeId(String(input.id), ['Session'], ['input', 'id']);
      const screened = await screenScopeInput(ctx.db, id, input);
      return updateSession(ctx.db, { ...screened, id, metadata: json(screened.metadata) });
    },
  }),
  moveProject: t.field({
    type: ProjectRef,
    description:
      'Moves a project and its sessions under another organization or global. It changes who may read them, so it needs ADMIN on the project and WRITE where it goes.',
    args: { input: t.arg({ type: MoveProjectInput, required: true, description: 'Project and destination.' }) },
    authScopes: (_root, { input }) => ({
      $all: {
        ...can('ADMIN', 'scope', input.id, ['Project'], ['input', 'id'], { label: 'project' }),
        canEach: [
          input.organization != null
            ? can('WRITE', 'scope', input.organization, ['Organization', 'GlobalScope'], ['input', 'organization']).can
            : canOn('WRITE', 'scope', GLOBAL_SCOPE_ID, ['input', 'organization'], { quiet: true }).can,
        ],
      },
    }),
    errors: { types: [...NAMING_ERRORS, InvalidPlacementError], dataField: { name: 'project', description: 'The project where it now is.' } },
    resolve: async (_root, { input }, ctx) => {
      const moved = await moveProject(ctx.db, {
        id: decodeId(String(input.id), ['Project'], ['input', 'id']),
        organizationId: input.organization != null ? decodeId(String(input.organization), ['Organization', 'GlobalScope'], ['input', 'organization']) : null,
      });
      // Who reads what follows the tree: this instance sees the move at once, others within a second.
      ctx.grantCache.forget();
      return moved;
    },
  }),
}));
