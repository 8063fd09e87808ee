import { builder } from '../../graphql/builder.ts';

export const EntryKindEnum = builder.enumType('EntryKind', {
  description: 'The three kinds of memory entry.',
  values: {
    TOOL: { description: 'A tool an agent can call (MCP, CLI, function, API).' },
    GUIDELINE: { description: 'A rule of behaviour or style, with a priority.' },
    KNOWLEDGE: { description: 'A fact, decision, context or reference.' },
  },
});

export const RelationTypeEnum = builder.enumType('RelationType', {
  description: 'How an entry relates to its target.',
  values: {
    APPLIES_TO: { description: 'The entry applies to the target (e.g. a guideline to a project).' },
    DEPENDS_ON: { description: 'The entry needs the target.' },
    CONFLICTS_WITH: { description: 'The entry contradicts the target.' },
    RELATED_TO: { description: 'Loosely related.' },
  },
});

export const TagCategoryEnum = builder.enumType('TagCategory', {
  description: 'Vocabulary a tag belongs to.',
  values: {
    LANGUAGE: { description: 'Programming or markup language.' },
    DOMAIN: { description: 'Area of work (web, database, security, ...).' },
    CATEGORY: { description: 'Kind of concern (code style, performance, ...).' },
    META: { description: 'Status markers (deprecated, stable, ...).' },
    CUSTOM: { description: 'Free-form tag created by a user or agent.' },
  },
});

export const MemoryTypeEnum = builder.enumType('MemoryType', {
  description: 'What kind of remembering an item is (seeds 000, 003).',
  values: {
    SEMANTIC: { description: 'Facts and knowledge, true beyond one episode (knowledge by default).' },
    EPISODIC: { description: 'What happened: session events, notes about an incident.' },
    PROCEDURAL: { description: 'How to do things: tools (always) and guidelines (by default).' },
    PROSPECTIVE: { description: 'What is to be done: tasks.' },
    WORKING: { description: 'Scratch of the moment: temp: and session: state.' },
  },
});
