import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import type { GraphQLArmorRejectCallback } from '@escape.tech/graphql-armor-types';
import { createComplexityRule } from '@pothos/plugin-complexity';
import {
  getEnterLeaveForKind,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  Kind,
  Lexer,
  OperationTypeNode,
  Source,
  TokenKind,
  TypeInfo,
  ValidationContext,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLInputType,
  type GraphQLSchema,
  type ValidationRule,
  type VariableDefinitionNode,
  typeFromAST,
} from 'graphql';
import { LIMITS } from '../domain/limits.ts';
import { locatedArgumentError } from './argument-location.ts';
import type { Plugin } from 'graphql-yoga';
import type { OperationLimits } from './operation-limits.ts';
import { useResponseSizeLimit } from './response-size.ts';

/**
 * graphql-armor's plugins throw a plain GraphQLError; the callback gives it a stable code and the
 * limit so clients can tell the limits apart (the message keeps what was found).
 */
const coded =
  (code: string, limit: number): GraphQLArmorRejectCallback =>
  (_ctx, error) => {
    Object.assign(error.extensions, { code, limit });
  };

/** Yoga plugins enforcing `limits` on every operation (HTTP, SSE and graphql-ws share them). */
export function useOperationLimits(limits: OperationLimits): Plugin[] {
  return [
    // Armor replaces the parse function; the size and nesting limits wrap it, so they must come after.
    maxTokensPlugin({ n: limits.maxTokens, onReject: [coded('TOO_MANY_TOKENS', limits.maxTokens)] }),
    useBeforeParseLimits(limits.maxNesting),
    maxAliasesPlugin({ n: limits.maxAliases, onReject: [coded('TOO_MANY_ALIASES', limits.maxAliases)] }),
    maxDirectivesPlugin({ n: limits.maxDirectives, onReject: [coded('TOO_MANY_DIRECTIVES', limits.maxDirectives)] }),
    // Before the cost: measuring it maps every argument, a list's items one by one.
    useListLimit(),
    useCostLimit(limits),
    useOperationTimeout(limits.operationTimeoutMs),
    useResponseSizeLimit(),
  ];
}

/**
 * Refuses a document over MAX_DOCUMENT_CHARS, or nested deeper than `max`, before it is parsed
 * (the size first: the nesting check lexes). graphql-js parses recursively and overflows the
 * stack at ~2,000 levels, well inside any useful token limit (`{ a ` is two
 * tokens a level); neither graphql-js nor graphql-armor bounds nesting before parsing (armor's depth
 * rule runs on the parsed document). The lexer is iterative, and stops at maxTokens' worth of
 * tokens anyway. It wraps the parse function (armor's token-counting one: this plugin comes after
 * it), so a document Yoga's parse cache already holds is not lexed again.
 */
function useBeforeParseLimits(max: number): Plugin {
  return {
    onParse({ parseFn, setParseFn }) {
      setParseFn((source, options) => {
        refuseLargeDocument(source as string | Source);
        refuseDeepNesting(source as string | Source, max);
        return parseFn(source, options) as DocumentNode;
      });
    },
  };
}

/**
 * The longest document read, in characters. A token may be of any length, so the token limit
 * does not bound the work of one: graphql-js's lexer splits a block string into its lines, and a
 * 22 MB document whose block string held eleven million line breaks held the event loop 1.4 s
 * (four at once 5.7 s, and +700 MB), escaped quotes in one 1.5 s; a plain 20 MB string 155 ms.
 * Large values belong in variables, which are JSON; the largest document of the suite and of
 * GraphiQL's schema query is a few KB.
 */
export const MAX_DOCUMENT_CHARS = 1024 * 1024;

function refuseLargeDocument(source: string | Source): void {
  const length = (typeof source === 'string' ? source : source.body).length;
  if (length > MAX_DOCUMENT_CHARS) {
    throw new GraphQLError(`Document of ${length} characters: at most ${MAX_DOCUMENT_CHARS} are read (send large values as variables)`, {
      extensions: { code: 'DOCUMENT_TOO_LARGE', limit: MAX_DOCUMENT_CHARS },
    });
  }
}

const OPENING = new Set<string>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSING = new Set<string>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

function refuseDeepNesting(source: string | Source, max: number): void {
  const lexer = new Lexer(typeof source === 'string' ? new Source(source) : source);
  let depth = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (OPENING.has(token.kind) && ++depth > max) {
        throw new GraphQLError(`Document nests deeper than ${max} levels`, { extensions: { code: 'TOO_DEEPLY_NESTED', limit: max } });
      } else if (CLOSING.has(token.kind)) depth--;
    }
  } catch (error) {
    // A lexical error is the parser's to report, with its position.
    if (error instanceof GraphQLError && error.extensions.code === 'TOO_DEEPLY_NESTED') throw error;
  }
}

/**
 * A plugin that answers an operation (or subscription) with `refusal`'s errors, when it has any, instead of running it.
 * They are request errors (no `data`), marked as Yoga marks validation errors: 400 for
 * `application/graphql-response+json`, which the GraphQL-over-HTTP spec requires without `data`;
 * `spec` keeps `application/json` and SSE at 200. Yoga leaves the `http` extension out of the body.
 */
function refusing(refusal: (args: ExecutionArgs) => { errors: readonly GraphQLError[] } | null): Plugin {
  const refused = (args: ExecutionArgs) => {
    const errors = refusal(args)?.errors;
    if (!errors) return null;
    for (const error of errors) (error.extensions as Record<string, unknown>).http = { spec: true, status: 400 };
    return { errors };
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const result = refused(args);
      if (result) setResultAndStopExecution(result);
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const result = refused(args);
      if (result) setResultAndStopExecution(result);
    },
  };
}

/**
 * Refuses a variable holding a list longer than any argument takes (LIMITS.listItems; a list of
 * enum values, longer than its enum). Each service bounds its own lists, but only once GraphQL has
 * coerced every item and the cost rule mapped them: 200,000 IDs took the event loop for 16 s, and
 * 100,000 invalid enum values came back as 100,000 errors (16 MB). Literal lists in the document
 * are bounded by its token limit. Hand-written: graphql-armor bounds the document, not the variables.
 */
function useListLimit(): Plugin {
  const refusal = (args: ExecutionArgs) => {
    const operation = getOperationAST(args.document, args.operationName);
    const values = (args.variableValues ?? {}) as Record<string, unknown>;
    for (const definition of operation?.variableDefinitions ?? []) {
      const name = definition.variable.name.value;
      const type = typeFromAST(args.schema, definition.type) as GraphQLInputType | undefined;
      const found = type && tooLong(values[name], type, [`$${name}`], definition);
      if (found) return { errors: [found] };
    }
    return null;
  };
  return refusing(refusal);
}

/** The error for the first list under `value` (of input type `type`, variable `at`) longer than it may be, if any. */
function tooLong(value: unknown, type: GraphQLInputType, path: string[], at: VariableDefinitionNode): GraphQLError | null {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (value === null || value === undefined) return null;
  if (isListType(inner)) {
    // A single value where a list is wanted is coerced to a list of one.
    if (!Array.isArray(value)) return tooLong(value, inner.ofType, path, at);
    const itemType = isNonNullType(inner.ofType) ? inner.ofType.ofType : inner.ofType;
    const max = isEnumType(itemType) ? itemType.getValues().length : LIMITS.listItems;
    if (value.length > max) {
      const what = isEnumType(itemType) ? `${itemType.name} has ${max} values` : `at most ${max} are allowed`;
      return new GraphQLError(`${path.join('.')} lists ${value.length} items; ${what}`, { nodes: at, extensions: { code: 'BAD_USER_INPUT', limit: max } });
    }
    for (let i = 0; i < value.length; i++) {
      const found = tooLong(value[i], inner.ofType, [...path, String(i)], at);
      if (found) return found;
    }
    return null;
  }
  if (isInputObjectType(inner) && typeof value === 'object' && !Array.isArray(value)) {
    const fields = inner.getFields();
    const unknown = Object.keys(value).filter((key) => !Object.hasOwn(fields, key));
    if (unknown.length) return unknownFields(inner.name, unknown, path, at);
    for (const [key, field] of Object.entries(fields)) {
      const found = tooLong((value as Record<string, unknown>)[key], field.type, [...path, key], at);
      if (found) return found;
    }
  }
  return null;
}

/**
 * Fields an input object does not define, told once without the value. graphql-js' error quotes the
 * whole object, once per unknown field (up to the 50 errors kept): 50,000 unknown keys (0.5 MB)
 * were answered with 27 MB after 1.7 s of the event loop, a million with no answer at all.
 */
function unknownFields(type: string, unknown: string[], path: string[], at: VariableDefinitionNode): GraphQLError {
  const named = unknown.slice(0, 3).map((key) => JSON.stringify(key.length > 100 ? `${key.slice(0, 100)}…` : key)).join(', ');
  const more = unknown.length > 3 ? ` and ${unknown.length - 3} more` : '';
  return new GraphQLError(`Variable "${path.join('.')}" has fields ${type} does not define: ${named}${more}`, { nodes: at, extensions: { code: 'BAD_USER_INPUT' } });
}

/**
 * Cost and depth, from Pothos' complexity plugin (it knows each field's cost and list multiplier,
 * see `src/graphql/complexity.ts`, and memoizes fragments, so a fragment fan-out costs linear time
 * to measure). Checked when the operation is about to run rather than as a validation rule: the
 * cost depends on the variables (`first: $n`), and Yoga caches validation results per document.
 */
function useCostLimit(limits: OperationLimits): Plugin {
  const check = (schema: GraphQLSchema, document: DocumentNode, variables: unknown, operationName: unknown, context: object) => {
    const rule = () => createComplexityRule({
      context,
      variableValues: (variables ?? {}) as Record<string, unknown>,
      operationName: typeof operationName === 'string' ? operationName : undefined,
      validate: (result, report) => {
        if (result.depth > limits.maxDepth) {
          report(
            new GraphQLError(`Query is ${result.depth} levels deep; at most ${limits.maxDepth} are allowed`, {
              extensions: { code: 'QUERY_TOO_DEEP', depth: result.depth, limit: limits.maxDepth },
            }),
          );
        } else if (result.complexity > limits.maxCost) {
          report(
            new GraphQLError(`Query costs ${result.complexity}; at most ${limits.maxCost} is allowed (lists multiply the cost of what they select by their page size)`, {
              extensions: { code: 'QUERY_TOO_COSTLY', cost: result.complexity, limit: limits.maxCost },
            }),
          );
        }
      },
    });
    // Measuring maps the arguments, so a malformed one (a bad global ID) fails here already; the
    // variables are checked first, the rule's own coercion reporting every error.
    const invalid = invalidVariables(schema, document, variables, operationName);
    const errors = invalid ?? onOperations(schema, document, rule()).map((error) => locatedArgumentError(error, schema, document, variables, operationName, context));
    // The errors themselves, made for this request: a copy would lose graphql-js' locations.
    for (const error of errors) (error.extensions as Record<string, unknown>).code ??= 'BAD_USER_INPUT';
    return errors;
  };
  // Envelop types the arguments loosely; these are graphql-js ExecutionArgs.
  const refusal = (args: ExecutionArgs) => {
    const errors = check(args.schema, args.document, args.variableValues, args.operationName, args.contextValue as object);
    return errors.length > 0 ? { errors } : null;
  };
  return refusing(refusal);
}

/** Errors of variables the executor would refuse too, and no more of them than it reports. */
const MAX_VARIABLE_ERRORS = 50;

/**
 * The errors of the operation's variables that do not fit their types (at most
 * MAX_VARIABLE_ERRORS and a last one saying so), or null. The complexity rule coerces the
 * variables with no bound on their errors (Pothos calls graphql-js' getVariableValues without
 * one), each error costing ~0.2 ms: 2,000 empty outcomes came back as 6,000 errors after 1.2 s.
 */
function invalidVariables(schema: GraphQLSchema, document: DocumentNode, variables: unknown, operationName: unknown): readonly GraphQLError[] | null {
  const operation = getOperationAST(document, typeof operationName === 'string' ? operationName : undefined);
  if (!operation?.variableDefinitions?.length) return null;
  const errors = getVariableValues(schema, operation.variableDefinitions, (variables ?? {}) as Record<string, unknown>, { maxErrors: MAX_VARIABLE_ERRORS }).errors;
  return errors?.map(shortened) ?? null;
}

/** Longest message of a variable's error: graphql-js quotes the value refused whole (a 20 MB string, once); the quote is cut, the reason kept. */
const MAX_VARIABLE_MESSAGE = 1_000;

function shortened(error: GraphQLError): GraphQLError {
  if (error.message.length <= MAX_VARIABLE_MESSAGE) return error;
  // "Variable "$v" got invalid value <the value>; <why>": the value is cut, the reason kept.
  const head = /^Variable "[^"]*" got invalid value /.exec(error.message)?.[0] ?? '';
  const why = error.message.lastIndexOf('; ');
  const value = error.message.slice(head.length, why > head.length ? why : undefined);
  const reason = why > head.length ? error.message.slice(why) : '';
  const message = `${head}${value.slice(0, 300)}… (cut)${reason.length > 500 ? `${reason.slice(0, 500)}… (cut)` : reason}`;
  return new GraphQLError(message, { nodes: error.nodes, extensions: error.extensions });
}

/**
 * The errors `rule` reports, run on the document's operation definitions alone. The complexity
 * rule acts only when an operation is entered and left (it walks the selections itself), but
 * graphql-js' `validate` visits every node of the document with a TypeInfo beside it, every
 * request, for nothing: the check of the bench's `entry(id)` document took 101-117 µs through
 * `validate` and 13-25 µs this way (20,000 checks each, 2026-11-29).
 */
function onOperations(schema: GraphQLSchema, document: DocumentNode, rule: ValidationRule): GraphQLError[] {
  const errors: GraphQLError[] = [];
  const visitor = rule(new ValidationContext(schema, document, new TypeInfo(schema), (error) => errors.push(error)));
  const { enter, leave } = getEnterLeaveForKind(visitor, Kind.OPERATION_DEFINITION);
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    enter?.call(visitor, definition, undefined, undefined, [], []);
    leave?.call(visitor, definition, undefined, undefined, [], []);
  }
  return errors;
}

/**
 * Ends a query that runs longer than `ms` with OPERATION_TIMEOUT. The executor stops
 * resolving at the next field once its signal aborts (a statement already sent to the database
 * finishes on its own). No maintained Yoga/envelop plugin sets a deadline; Yoga's
 * useExecutionCancellation only forwards the request's abort signal, which this also honours.
 */
function useOperationTimeout(ms: number): Plugin {
  return {
    onExecute({ args }) {
      // A mutation is never cut off: its answer must say whether it was written. Its transaction
      // has a deadline of its own (src/infra/transaction.ts).
      const { document, operationName } = args as ExecutionArgs;
      if (getOperationAST(document, operationName)?.operation !== OperationTypeNode.QUERY) return undefined;
      const controller = new AbortController();
      const timer = setTimeout(
        () =>
          controller.abort(
            new GraphQLError(`Operation took longer than ${ms} ms and was stopped`, {
              extensions: { code: 'OPERATION_TIMEOUT', limit: ms },
            }),
          ),
        ms,
      );
      // The request's abort is forwarded by hand rather than joined with AbortSignal.any: the
      // executor listens on the signal until it aborts, and Node keeps a composite signal with a
      // listener alive for as long as the listener is there, so every query that finished in time
      // stayed in memory for good (~15 KB each, measured: 1,500 queries grew the heap by 22 MB).
      const request = (args.contextValue as { request?: Request } | undefined)?.request;
      const forward = () => controller.abort(request?.signal.reason);
      if (request?.signal.aborted) forward();
      else request?.signal.addEventListener('abort', forward, { once: true });
      (args as { signal?: AbortSignal }).signal = controller.signal;
      return {
        onExecuteDone() {
          clearTimeout(timer);
          request?.signal.removeEventListener('abort', forward);
        },
      };
    },
  };
}
