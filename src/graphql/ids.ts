import { PothosValidationError } from '@pothos/core';
import { decodeGlobalID } from '@pothos/plugin-relay';
import { ValidationError } from '../domain/errors.ts';
import { LIMITS } from '../domain/limits.ts';

/**
 * Pothos' decodeGlobalID, refusing first (PothosValidationError) an ID longer than any of ours
 * (LIMITS.globalId): its base64 check is a regular expression that overflows the stack on megabytes.
 */
export function decodeBoundedGlobalID(globalId: string): { typename: string; id: string } {
  if (globalId.length > LIMITS.globalId) throw new PothosValidationError(`Invalid global ID: longer than ${LIMITS.globalId} characters`);
  return decodeGlobalID(globalId);
}

/**
 * The database id inside a global ID, checked to name one of `typenames`. A malformed ID or one
 * of another type is a validation failure of the input at `path`.
 */
export function decodeId(globalId: string, typenames: readonly string[], path: string[]): string {
  let decoded: { typename: string; id: string } | null = null;
  try {
    decoded = decodeBoundedGlobalID(globalId);
  } catch {
    decoded = null;
  }
  if (!decoded || !typenames.includes(decoded.typename) || decoded.id === '' || decoded.id.includes('\u0000')) {
    throw new ValidationError([{ path, message: `must be the ID of a ${typenames.join(' or ')}` }]);
  }
  return decoded.id;
}

/** Like `decodeId`, also returning which type it named. */
export function decodeTypedId(globalId: string, typenames: readonly string[], path: string[]) {
  const id = decodeId(globalId, typenames, path);
  return { id, typename: decodeGlobalID(globalId).typename };
}

/** GraphQL type of an entry's versions, by entry kind. */
export const VERSION_TYPENAME: Record<string, string> = {
  TOOL: 'ToolVersion',
  GUIDELINE: 'GuidelineVersion',
  KNOWLEDGE: 'KnowledgeVersion',
};

export const SCOPE_TYPENAMES = ['GlobalScope', 'Organization', 'Project', 'Session'] as const;
export const ENTRY_TYPENAMES = ['Tool', 'Guideline', 'Knowledge'] as const;

