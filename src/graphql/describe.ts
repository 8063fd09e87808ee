import { isObjectType, type GraphQLSchema } from 'graphql';

/**
 * The Relay plugin generates PageInfo, connection and edge fields without descriptions; every
 * public field of Engram's API has one, so they are filled in here.
 */
export function describeRelayTypes(schema: GraphQLSchema): GraphQLSchema {
  const generic: Record<string, string> = {
    edges: 'The items of this page, each with its cursor.',
    pageInfo: 'Where this page sits in the whole list.',
    totalCount: 'Number of items in the whole list (all pages).',
    node: 'The item.',
    cursor: 'Opaque position of this item; pass it as `after` or `before`.',
  };
  const pageInfo: Record<string, string> = {
    hasNextPage: 'True when items follow this page.',
    hasPreviousPage: 'True when items precede this page.',
    startCursor: 'Cursor of the first item of the page.',
    endCursor: 'Cursor of the last item of the page.',
  };
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    const names = type.name === 'PageInfo' ? pageInfo : /(Connection|Edge)$/.test(type.name) ? generic : null;
    if (!names) continue;
    for (const field of Object.values(type.getFields())) {
      field.description ??= names[field.name] ?? null;
    }
  }
  return schema;
}
