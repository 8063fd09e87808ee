import type { EntryKind } from './entries.service.ts';

/**
 * Memory types (seeds 000 and 003): what kind of remembering an item is. Fixed where the item
 * says it (tools are procedural, tasks prospective, temp:/session: state working, session events
 * episodic), chosen where it does not (guidelines and knowledge).
 */
export const MEMORY_TYPES = ['SEMANTIC', 'EPISODIC', 'PROCEDURAL', 'PROSPECTIVE', 'WORKING'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

/** The type an entry of each kind gets when none is given. */
export const DEFAULT_MEMORY_TYPE: Record<EntryKind, MemoryType> = { TOOL: 'PROCEDURAL', GUIDELINE: 'PROCEDURAL', KNOWLEDGE: 'SEMANTIC' };

/** The types an entry of each kind may be set to. */
export const ALLOWED_MEMORY_TYPES: Record<EntryKind, readonly MemoryType[]> = {
  TOOL: ['PROCEDURAL'],
  GUIDELINE: ['PROCEDURAL', 'SEMANTIC', 'EPISODIC'],
  KNOWLEDGE: ['SEMANTIC', 'EPISODIC', 'PROCEDURAL'],
};

/** The importance of an entry nobody rated. */
export const DEFAULT_IMPORTANCE = 0.5;
