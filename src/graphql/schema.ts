import { lexicographicSortSchema, type GraphQLSchema } from 'graphql';
import { builder } from './builder.ts';
import './scalars.ts';
import './errors.ts';
import '../modules/scopes/scopes.schema.ts';
import '../modules/scopes/scope-edits.schema.ts';
import '../modules/entries/entries.schema.ts';
import '../modules/entries/entry-edits.schema.ts';
import '../modules/tags/tags.schema.ts';
import '../modules/relations/relations.schema.ts';
import '../modules/conflicts/conflicts.schema.ts';
import '../modules/sessions/sessions.schema.ts';
import '../modules/tasks/tasks.schema.ts';
import '../modules/conversations/conversations.schema.ts';
import '../modules/events/events.schema.ts';
import '../modules/search/search.schema.ts';
import '../modules/redaction/redaction.schema.ts';
import '../modules/deletion/deletion.schema.ts';
import '../modules/lifecycle/lifecycle.schema.ts';
import '../modules/identity/identity.schema.ts';
import '../modules/audit/audit.schema.ts';
import '../modules/leases/leases.schema.ts';
import '../modules/votes/votes.schema.ts';
import '../modules/votes/vote-events.schema.ts';
import '../modules/outcomes/outcomes.schema.ts';
import '../modules/outcomes/analytics.schema.ts';
import { auditMutations } from './audit.ts';
import { describeRelayTypes } from './describe.ts';
import { guardTextInputs } from './input-guard.ts';

let schema: GraphQLSchema | undefined;

/** The executable schema, built once per process. */
export function getSchema(): GraphQLSchema {
  schema ??= auditMutations(guardTextInputs(describeRelayTypes(builder.toSchema())));
  return schema;
}

/** The schema as committed in schema.graphql: sorted so diffs stay readable. */
export function sortedSchema(): GraphQLSchema {
  return lexicographicSortSchema(getSchema());
}
