import { wrapOrThrow } from '@pothos/plugin-errors';
import { Kind, defaultFieldResolver, isObjectType, type GraphQLField, type GraphQLResolveInfo, type GraphQLSchema, type SelectionSetNode, type ValueNode } from 'graphql';
import { ValidationError } from '../domain/errors.ts';

const NUL = '\u0000';

/**
 * Refuses text with a NUL character (U+0000) in any argument of any field, on both databases:
 * PostgreSQL cannot store it in text or jsonb (SQLite can), and one database must not accept what
 * the other refuses. A field whose result union has a ValidationError returns one naming the
 * argument; any other field fails with that error (code VALIDATION_FAILED). Applied to the built
 * schema so that no field with arguments can miss it.
 */
export function guardTextInputs(schema: GraphQLSchema): GraphQLSchema {
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.args.length > 0 || roots.has(type)) guardField(field, roots.has(type));
    }
  }
  return schema;
}

/**
 * `root`: a root field also refuses a NUL in the arguments of the fields below it. Pothos' Prisma
 * plugin reads a nested field's arguments into its parent's query (a session's `events(filter:)`
 * under `node(id:)`), which ran before the nested field's own guard: PostgreSQL's refusal of the
 * text was an INTERNAL_SERVER_ERROR (found by a sweep on PostgreSQL).
 */
function guardField(field: GraphQLField<unknown, unknown>, root: boolean): void {
  // The error classes the field's result union holds (Pothos' errors plugin records them).
  const errorClasses = (field.extensions as { pothosErrors?: (new (...args: never[]) => Error)[] }).pothosErrors ?? [];
  const resolve = field.resolve ?? defaultFieldResolver;
  field.resolve = (source, args: Record<string, unknown>, context, info) => {
    const refused = refuseNul(args) ?? refuseForeignCursor(args) ?? (root ? refuseNestedNul(info) : null);
    // wrapOrThrow makes the error a member of the result union, or throws it when it is none.
    return refused ? wrapOrThrow(refused, errorClasses) : resolve(source, args, context, info);
  };
  const subscribe = field.subscribe;
  if (subscribe) {
    field.subscribe = (source, args: Record<string, unknown>, context, info) => {
      const refused = refuseNul(args) ?? (root ? refuseNestedNul(info) : null);
      if (refused) throw refused;
      return subscribe(source, args, context, info);
    };
  }
}

/**
 * A ValidationError for an `after` or `before` cursor in Pothos' Prisma format (`GPC:` and a
 * tagged value) that holds anything but a string: every Prisma connection of this schema pages by
 * a string id, and Pothos hands the value to Prisma unchecked, which then fails the query
 * (`GPC:N:1` as a tag's id was an INTERNAL_SERVER_ERROR on every such list). The other
 * connections' cursors are not in this format and are checked where they are read.
 */
function refuseForeignCursor(args: Record<string, unknown>): ValidationError | null {
  for (const name of ['after', 'before']) {
    const cursor = args[name];
    if (typeof cursor !== 'string') continue;
    // Buffer's decoder, not Pothos' (a regular expression that overflows the stack on megabytes).
    const decoded = Buffer.from(cursor.slice(0, 8), 'base64').toString('latin1');
    if (decoded.startsWith('GPC:') && !decoded.startsWith('GPC:S:')) return new ValidationError([{ path: [name], message: 'is not a cursor of this list' }]);
  }
  return null;
}

/** A ValidationError for a NUL in an argument of a field below this one (literal or variable), naming the field and argument. */
function refuseNestedNul(info: GraphQLResolveInfo): ValidationError | null {
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode | undefined): ValidationError | null => {
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        if (seen.has(selection.name.value)) continue;
        seen.add(selection.name.value);
        const found = walk(info.fragments[selection.name.value]?.selectionSet);
        if (found) return found;
        continue;
      }
      if (selection.kind === Kind.FIELD) {
        for (const argument of selection.arguments ?? []) {
          const found = refuseNul({ [argument.name.value]: valueOf(argument.value, info.variableValues) });
          if (found) return prefixed(found, selection.name.value);
        }
      }
      const found = walk(selection.selectionSet);
      if (found) return found;
    }
    return null;
  };
  for (const node of info.fieldNodes) {
    const found = walk(node.selectionSet);
    if (found) return found;
  }
  return null;
}

/** An argument's value as written: literals as they are, variables from the operation's values. */
function valueOf(node: ValueNode, variables: Record<string, unknown>): unknown {
  switch (node.kind) {
    case Kind.VARIABLE:
      return variables[node.name.value];
    case Kind.STRING:
      return node.value;
    case Kind.LIST:
      return node.values.map((v) => valueOf(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, valueOf(f.value, variables)]));
    default:
      return null;
  }
}

/** The error with its paths under the nested field's name. */
function prefixed(error: ValidationError, field: string): ValidationError {
  return new ValidationError(error.issues.map((issue) => ({ ...issue, path: [field, ...issue.path] })));
}

/** A ValidationError for the first string (or object key) under `args` holding a NUL, if any. */
function refuseNul(args: Record<string, unknown>): ValidationError | null {
  const stack: [unknown, string[]][] = [[args, []]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes(NUL)) return new ValidationError([{ path, message: 'must not contain NUL characters (U+0000)' }]);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key.includes(NUL)) return new ValidationError([{ path, message: 'must not have keys containing NUL characters (U+0000)' }]);
        stack.push([child, [...path, key]]);
      }
    }
  }
  return null;
}
