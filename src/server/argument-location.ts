import { getMappedArgumentValues } from '@pothos/core';
import {
  BREAK,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
} from 'graphql';

/**
 * `error` with the location of the field whose arguments it is about, when it has none. The cost
 * measurement (Pothos' complexity rule) maps every field's arguments before the operation runs,
 * so an argument that does not map (a malformed global ID: `node(id: "x")`) fails there, and the
 * rule reports the failure without the field it came from. Found again here by mapping each
 * field's arguments in document order until one fails with the same message: only on that error's
 * path, so a well-formed request pays nothing.
 */
export function locatedArgumentError(
  error: GraphQLError,
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: unknown,
  operationName: unknown,
  context: object,
): GraphQLError {
  // The cost rule's own refusals (too deep, too costly) carry a code and are about no field.
  if (error.locations?.length || error.extensions.code !== undefined) return error;
  const operation = getOperationAST(document, typeof operationName === 'string' ? operationName : undefined);
  const coerced = getVariableValues(schema, operation?.variableDefinitions ?? [], (variables ?? {}) as Record<string, unknown>);
  if (!operation || !coerced.coerced) return error;
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  const info = { fragments, variableValues: coerced.coerced, schema };
  const typeInfo = new TypeInfo(schema);
  let found: FieldNode | undefined;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const field = typeInfo.getFieldDef();
        if (!field?.extensions.pothosArgMappers || !node.arguments?.length) return undefined;
        try {
          const mapped = getMappedArgumentValues(field, node, context, info);
          // Engram's mappers (global IDs) are synchronous; one that is not cannot be located here.
          if (mapped instanceof Promise) mapped.catch(() => undefined);
        } catch (failure) {
          if (failure instanceof Error && failure.message === error.message) {
            found = node;
            return BREAK;
          }
        }
        return undefined;
      },
    }),
  );
  return found ? new GraphQLError(error.message, { nodes: [found], extensions: error.extensions, originalError: error.originalError ?? error }) : error;
}
