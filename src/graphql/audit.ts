import { typeBrandKey } from '@pothos/core';
import { decodeBoundedGlobalID } from './ids.ts';
import {
  defaultFieldResolver,
  getNamedType,
  GraphQLError,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import type { Context } from '../context.ts';
import { MAX_TARGET_IDS, recordAudit, type AuditCategory, type AuditOutcome, type AuditRecord } from '../modules/audit/audit.service.ts';
import { log } from '../infra/log.ts';

/** Mutations that manage principals, keys and grants are IDENTITY events; every other one is a WRITE. */
const IDENTITY_FIELD = /principal|apikey|grant/i;

/**
 * Appends an audit event for every call of every Mutation root field: who (principal, on behalf
 * of whom, from which address), what (the field, and the database ids in its ID arguments and its
 * result) and how it ended (OK; DENIED for a PermissionDeniedError or FORBIDDEN; FAILED for any
 * other error, returned in the result union or thrown). Applied to the built schema, outermost, so
 * a new mutation is audited without code of its own and refusals of the argument guards are too.
 */
export function auditMutations(schema: GraphQLSchema): GraphQLSchema {
  const mutation = schema.getMutationType();
  for (const field of Object.values(mutation?.getFields() ?? {})) auditField(schema, field);
  return schema;
}

function auditField(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>): void {
  const resolve = field.resolve ?? defaultFieldResolver;
  const category: AuditCategory = IDENTITY_FIELD.test(field.name) ? 'IDENTITY' : 'WRITE';
  field.resolve = async (source, args: Record<string, unknown>, context, info) => {
    const ctx = context as Context;
    const row = (outcome: AuditOutcome, result: unknown, detail: Record<string, unknown> | null): AuditRecord => ({
      category,
      operation: field.name,
      principal: ctx.caller.principal,
      onBehalfOf: ctx.onBehalfOf,
      targetIds: [...idsInArguments(schema, field.args, args), ...idsInResult(result)],
      outcome,
      detail,
      clientAddress: ctx.clientAddress,
    });
    const record = (outcome: AuditOutcome, result: unknown, detail: Record<string, unknown> | null) =>
      recordAudit(ctx.db, row(outcome, result, detail)).catch((error: unknown) =>
        log.warn({ err: error }, `Recording an audit event for ${field.name} failed`),
      );
    // A write made in one batch carries the OK row itself (MutationAudit); the row is written
    // here otherwise, and for every failure.
    ctx.audit.begin((result) => row('OK', result, prefixOf(result)));
    let result: unknown;
    try {
      result = await resolve(source, args, context, info);
    } catch (error) {
      if (!ctx.audit.end()) await record(outcomeOf(error), null, { code: codeOf(error) });
      throw error;
    }
    if (ctx.audit.end()) return result;
    if (isErrorResult(result)) await record(outcomeOf(result), null, { code: codeOf(result) });
    else await record('OK', result, prefixOf(result));
    return result;
  };
}

/**
 * An error returned as a member of the field's result union. Pothos' errors plugin returns it
 * behind a proxy whose prototype chain is proxied too (so `instanceof Error` fails); the proxy
 * answers its type brand with the error class.
 */
function isErrorResult(result: unknown): boolean {
  if (result instanceof Error) return true;
  const brand = typeof result === 'object' && result !== null ? (result as Record<symbol, unknown>)[typeBrandKey] : undefined;
  return typeof brand === 'function' && brand.prototype instanceof Error;
}

function codeOf(error: unknown): string {
  const own = (error as { code?: unknown }).code;
  if (typeof own === 'string') return own;
  const code = error instanceof GraphQLError ? (error.extensions.code ?? (error.originalError as { code?: unknown } | undefined)?.code) : undefined;
  return typeof code === 'string' ? code : 'INTERNAL_SERVER_ERROR';
}

const outcomeOf = (error: unknown): AuditOutcome => (codeOf(error) === 'FORBIDDEN' ? 'DENIED' : 'FAILED');

/** A key's prefix (its first characters, shown in listings) when the result is or holds a key; never its secret. */
function prefixOf(result: unknown): Record<string, unknown> | null {
  const candidates = [result, (result as { key?: unknown } | null)?.key];
  for (const candidate of candidates) {
    const prefix = (candidate as { prefix?: unknown } | null | undefined)?.prefix;
    if (typeof prefix === 'string') return { prefix };
  }
  return null;
}

/** Database ids inside the global IDs of `args`, found through the arguments' types (ID fields, lists, input objects). */
function idsInArguments(schema: GraphQLSchema, defs: readonly GraphQLArgument[], args: Record<string, unknown>): string[] {
  const ids: string[] = [];
  const visit = (type: GraphQLInputType, value: unknown): void => {
    if (value === null || value === undefined || ids.length >= MAX_TARGET_IDS) return;
    if (isNonNullType(type)) return visit(type.ofType, value);
    if (isListType(type)) {
      if (Array.isArray(value)) for (const item of value) visit(type.ofType, item);
      return;
    }
    if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) visit(field.type, (value as Record<string, unknown>)[field.name]);
      return;
    }
    if (getNamedType(type).name === 'ID' && typeof value === 'string') {
      const id = databaseId(schema, value);
      if (id) ids.push(id);
    }
  };
  for (const def of defs) visit(def.type, args[def.name]);
  return ids;
}

/**
 * The database id of a global ID naming a type of this schema; null for anything else, and for an
 * id holding a NUL, which no row has (decodeId refuses it) and PostgreSQL's text cannot hold: the
 * audit row naming it failed, and each such call logged a warning.
 */
function databaseId(schema: GraphQLSchema, globalId: string): string | null {
  try {
    const { typename, id } = decodeBoundedGlobalID(globalId);
    return isObjectType(schema.getType(typename)) && id && !id.includes('\u0000') ? id : null;
  } catch {
    return null;
  }
}

/** The `id` of the result (each one, for a list), or of the objects it holds when it has none itself (`{ key, secret }`). */
function idsInResult(result: unknown): string[] {
  const own = (value: unknown): string | null => {
    const id = (value as { id?: unknown } | null)?.id;
    return typeof value === 'object' && typeof id === 'string' ? id : null;
  };
  if (Array.isArray(result)) return result.slice(0, MAX_TARGET_IDS).flatMap((item) => own(item) ?? []);
  if (typeof result !== 'object' || result === null) return [];
  const id = own(result);
  if (id) return [id];
  return Object.values(result).flatMap((value) => own(value) ?? []);
}
