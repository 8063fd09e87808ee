import { builder } from '../../graphql/builder.ts';
import { WRITE_ERRORS } from '../../graphql/errors.ts';
import { SCOPE_TYPENAMES, decodeId } from '../../graphql/ids.ts';
import { can } from '../../graphql/rules.ts';
import { ScopeRef } from '../scopes/scopes.schema.ts';
import { effectivePolicy, setSecretPolicy, type SecretPolicy } from './redaction.service.ts';

const SecretPolicyEnum = builder.enumType('SecretPolicy', {
  description: 'What a write that contains a secret (an API key, a token, a private key, a password) gets in a scope.',
  values: {
    REDACT: { description: 'Each secret is replaced by `[REDACTED:<kind>]` before it is stored (the default).' },
    REFUSE: { description: 'The write is refused with a ValidationError naming the field and the kind of secret.' },
    ALLOW: { description: 'Stored as written.' },
  },
});

builder.prismaInterfaceFields(ScopeRef, (t) => ({
  secretPolicy: t.field({
    type: SecretPolicyEnum,
    nullable: true,
    description: "This scope's own secret policy; null when it takes its parent's.",
    resolve: (scope) => scope.secretPolicy as SecretPolicy | null,
  }),
  effectiveSecretPolicy: t.field({
    type: SecretPolicyEnum,
    description: 'The secret policy writes here get: its own, else the nearest ancestor\'s, else REDACT.',
    resolve: (scope, _args, ctx) => effectivePolicy(ctx.db, scope.id),
  }),
}));

const SetSecretPolicyInput = builder.inputType('SetSecretPolicyInput', {
  description: "A scope's secret policy.",
  fields: (t) => ({
    scope: t.id({ required: true, description: 'The scope; the policy covers it and what is below it (unless they set their own).' }),
    policy: t.field({ type: SecretPolicyEnum, description: 'The policy; null (or absent) to take the parent\'s again.' }),
  }),
});

builder.mutationField('setSecretPolicy', (t) =>
  t.field({
    type: ScopeRef,
    description: 'Sets what writes containing secrets get in a scope and below (ADMIN on the scope).',
    args: { input: t.arg({ type: SetSecretPolicyInput, required: true, description: 'Scope and policy.' }) },
    authScopes: (_root, { input }) => can('ADMIN', 'scope', input.scope, SCOPE_TYPENAMES, ['input', 'scope']),
    errors: { types: [...WRITE_ERRORS], dataField: { name: 'scope', description: 'The scope with its policy.' } },
    resolve: async (_root, { input }, ctx) => {
      const id = decodeId(String(input.scope), SCOPE_TYPENAMES, ['input', 'scope']);
      return setSecretPolicy(ctx.db, id, input.policy ?? null);
    },
  }),
);
