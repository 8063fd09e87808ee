import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/**
 * Whether the operation selects `path` (field names, aliases aside) below the field being
 * resolved, through inline fragments and named fragments. Lets a resolver skip work for a field
 * nobody asked for (e.g. an exact total) before it plans a query.
 */
export function selectsPath(info: GraphQLResolveInfo, path: readonly string[]): boolean {
  const within = (set: SelectionSetNode | undefined, rest: readonly string[], seen: Set<string>): boolean => {
    if (!set) return false;
    const [name, ...deeper] = rest;
    return set.selections.some((selection) => {
      if (selection.kind === Kind.FIELD) return selection.name.value === name && (deeper.length === 0 || within(selection.selectionSet, deeper, seen));
      if (selection.kind === Kind.INLINE_FRAGMENT) return within(selection.selectionSet, rest, seen);
      const fragmentName = selection.name.value;
      // A fragment spread twice on one path is looked at once (cycles are invalid GraphQL anyway).
      if (seen.has(fragmentName)) return false;
      return within(info.fragments[fragmentName]?.selectionSet, rest, new Set(seen).add(fragmentName));
    });
  };
  return info.fieldNodes.some((node) => within(node.selectionSet, path, new Set()));
}
