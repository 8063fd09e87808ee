import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  Kind,
  parse,
  TypeInfo,
  typeFromAST,
  valueFromAST,
  visit,
  visitWithTypeInfo,
  type GraphQLArgument,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';

/** The JSON Schema subset MCP clients read for a tool's input. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: string[];
  format?: string;
  default?: unknown;
  minimum?: number;
  additionalProperties?: boolean;
}

/** How custom scalars look in JSON (the rest are GraphQL's own). */
const SCALARS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTime: { type: 'string', format: 'date-time' },
  JSON: {},
};

/**
 * A tool's input schema, read from its GraphQL operation: one property per variable, typed and
 * described as the argument it feeds. The GraphQL schema stays the one description of every
 * input; an operation whose only variable is `input` exposes that input's fields directly
 * (`flattened`: the arguments are that variable's value).
 */
export function inputSchemaOf(schema: GraphQLSchema, document: string): { schema: JsonSchema; flattened: boolean } {
  const operation = parse(document).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!operation) throw new Error('An MCP tool needs a GraphQL operation');
  const fed = argumentsFedByVariables(schema, operation);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type as never) as GraphQLInputType | undefined;
    if (!type) throw new Error(`Unknown type of $${name}`);
    const property = jsonSchemaOf(type, new Set());
    describe(property, fed.get(name)?.description);
    // A page of no items: a connection answers it with no cursor to go on from (Relay's
    // `endCursor: null`), which a tool result reads as the last page (`next: null`).
    if (fed.get(name)?.name === 'first') property.minimum = 1;
    if (definition.defaultValue) property.default = valueFromAST(definition.defaultValue, type);
    else if (isNonNullType(type)) required.push(name);
    properties[name] = property;
  }
  const input = properties.input;
  if (Object.keys(properties).length === 1 && input?.properties) return { schema: { ...input, description: undefined }, flattened: true };
  return { schema: { type: 'object', properties, required, additionalProperties: false }, flattened: false };
}

/** The argument each variable is passed to (for its description). */
function argumentsFedByVariables(schema: GraphQLSchema, operation: OperationDefinitionNode): Map<string, GraphQLArgument> {
  const typeInfo = new TypeInfo(schema);
  const fed = new Map<string, GraphQLArgument>();
  visit(
    operation,
    visitWithTypeInfo(typeInfo, {
      Argument(node) {
        const argument = typeInfo.getArgument();
        if (argument && node.value.kind === Kind.VARIABLE) fed.set(node.value.name.value, argument);
      },
    }),
  );
  return fed;
}

/** A GraphQL input type as JSON Schema; an input type met again inside itself is left open. */
function jsonSchemaOf(type: GraphQLInputType, seen: Set<string>): JsonSchema {
  if (isNonNullType(type)) return jsonSchemaOf(type.ofType, seen);
  if (isListType(type)) return { type: 'array', items: jsonSchemaOf(type.ofType, seen) };
  const named = getNamedType(type);
  const description = named.description ?? undefined;
  if (isScalarType(named)) return { ...(SCALARS[named.name] ?? { type: 'string' }) };
  if (isEnumType(named)) return { type: 'string', enum: named.getValues().map((v) => v.name), description: enumDescription(named.getValues()) };
  if (!isInputObjectType(named)) throw new Error(`Not an input type: ${String(named)}`);
  if (seen.has(named.name)) return { type: 'object', description };
  const inner = new Set(seen).add(named.name);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const field of Object.values(named.getFields())) {
    const property = jsonSchemaOf(field.type, inner);
    describe(property, field.description);
    if (field.defaultValue !== undefined) property.default = field.defaultValue;
    else if (isNonNullType(field.type)) required.push(field.name);
    properties[field.name] = property;
  }
  return { type: 'object', description, properties, required, additionalProperties: false };
}

/** Sets what a property is for; an enum keeps what its values mean after it. */
function describe(property: JsonSchema, text: string | null | undefined): void {
  if (!text) return;
  property.description = property.enum && property.description ? `${text} (${property.description})` : text;
}

/** An enum's values with what each means, for a model choosing one. */
function enumDescription(values: readonly { name: string; description?: string | null }[]): string | undefined {
  const described = values.filter((v) => v.description);
  if (!described.length) return undefined;
  return described.map((v) => `${v.name}: ${v.description}`).join('; ');
}
