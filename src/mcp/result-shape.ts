import {
  getNamedType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/**
 * What `simplify` does with each key of a result object, read from the operation's selection and
 * the schema's types: a key is a selected field (or alias), so a key inside a value of a leaf field
 * (a JSON scalar holding `node` or `edges`, an enum, a string) is never looked at.
 */
export type Shape = Map<string, FieldShape>;

type FieldShape =
  /** A leaf (scalar, JSON included, or enum): the value as GraphQL returned it. */
  | { as: 'value' }
  /** `__typename`, and an edge's `cursor` (the connection's `next` says where to go on). */
  | { as: 'drop' }
  /** A connection's `pageInfo`: the cursor of the next page, null on the last. */
  | { as: 'next' }
  /** An edge's `node`: its fields go into the edge, beside `score` and the like. */
  | { as: 'merge'; shape: Shape }
  /** A connection's `edges`, renamed `items`. */
  | { as: 'items'; shape: Shape }
  | { as: 'object'; shape: Shape };

/** The shape of the results of `document`'s operation. */
export function shapeOf(schema: GraphQLSchema, document: DocumentNode): Shape {
  const fragments = new Map<string, FragmentDefinitionNode>();
  let operation: OperationDefinitionNode | undefined;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    else if (definition.kind === Kind.OPERATION_DEFINITION) operation = definition;
  }
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) throw new Error('An MCP tool needs a GraphQL operation');

  const collect = (selectionSet: SelectionSetNode, parent: GraphQLCompositeType, shape: Shape): Shape => {
    const fields = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields() : {};
    // A Relay edge (and `context`'s ranked results, which are edges too): `node` and `cursor`.
    const edge = 'node' in fields && 'cursor' in fields;
    for (const selection of selectionSet.selections) {
      if (selection.kind !== Kind.FIELD) {
        const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(selection.name.value);
        if (!fragment) throw new Error('An MCP tool spreads a fragment it does not define');
        const type = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : parent;
        if (!isCompositeType(type)) throw new Error(`Not a type with fields: ${String(type)}`);
        collect(fragment.selectionSet, type, shape);
        continue;
      }
      const name = selection.name.value;
      const key = selection.alias?.value ?? name;
      if (name === '__typename' || (edge && name === 'cursor')) {
        shape.set(key, { as: 'drop' });
        continue;
      }
      const type = getNamedType(fields[name]?.type);
      if (!selection.selectionSet || !isCompositeType(type)) {
        shape.set(key, { as: 'value' });
        continue;
      }
      if (name === 'pageInfo') {
        shape.set(key, { as: 'next' });
        continue;
      }
      // The same key in several fragments (`... on ToolVersion`, `... on GuidelineVersion`): one shape.
      const known = shape.get(key);
      const inner = collect(selection.selectionSet, type, known && 'shape' in known ? known.shape : (new Map() as Shape));
      shape.set(key, { as: edge && name === 'node' ? 'merge' : name === 'edges' ? 'items' : 'object', shape: inner });
    }
    return shape;
  };
  return collect(operation.selectionSet, root, new Map());
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Shorter for a model: an edge (`{ cursor, score, node }`) becomes its node with the edge's other
 * fields (such as `score`) beside it; a connection's edges become `items`, and its page info
 * `next` (the cursor of the next page, null on the last); type names are dropped. Only the
 * structure `shape` describes is reshaped; values of leaf fields are returned as they are.
 */
export function simplify(value: unknown, shape: Shape): unknown {
  if (Array.isArray(value)) return value.map((item) => simplify(item, shape));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  let node: unknown;
  for (const [key, inner] of Object.entries(value)) {
    const field = shape.get(key);
    if (!field || field.as === 'value') out[key] = inner;
    else if (field.as === 'next') out.next = isObject(inner) && inner.hasNextPage ? inner.endCursor : null;
    else if (field.as === 'merge' && isObject(inner)) node = simplify(inner, field.shape);
    else if (field.as === 'items') out.items = simplify(inner, field.shape);
    else if (field.as !== 'drop') out[key] = simplify(inner, field.shape);
  }
  return node === undefined ? out : { ...out, ...(node as Record<string, unknown>) };
}
