/**
 * Largest request body accepted (bytes): Yoga's default. Also the longest line read from a stream:
 * an MCP message over stdio, a line of an import.
 */
export const MAX_REQUEST_BODY_BYTES = 25_000_000;

/**
 * Subscriptions open at once on one instance, over WebSockets and SSE together (MAX_SUBSCRIPTIONS):
 * each holds ~30 KB of heap (measured 2026-12-01), and the per-socket and per-connection limits
 * alone allowed 100,000 (~3 GB).
 */
export const DEFAULT_MAX_SUBSCRIPTIONS = 10_000;

/**
 * Of those, the subscriptions one API key may hold open on one instance (MAX_SUBSCRIPTIONS_PER_KEY):
 * without it one key could take every place and refuse every other caller. A tenth of the
 * instance's: a dashboard watches a few scopes, an orchestrator a few events per agent, so a
 * thousand serves hundreds of agents on one key, and ten keys are needed to fill an instance.
 * Callers without a key (this machine in protected mode, AUTH=off) are trusted and only the
 * instance's cap applies, as for the rate limits.
 */
export const DEFAULT_MAX_SUBSCRIPTIONS_PER_KEY = 1_000;

/** Every input bound of the API, in one place. Sizes of strings are in characters. */
export const LIMITS = {
  name: 200,
  category: 64,
  description: 4_000,
  /**
   * A word of a search or a task, in UTF-8 bytes: PostgreSQL's full-text index holds no longer word
   * (to_tsvector and to_tsquery drop it), SQLite's FTS5 does; refused so that both answer alike.
   */
  searchWordBytes: 2_047,
  /** Guideline and knowledge content, tool constraints, rationale. */
  content: 100_000,
  /** Serialized JSON (metadata, parameters, examples), in bytes. */
  jsonBytes: 64 * 1024,
  jsonDepth: 32,
  rootPath: 1_024,
  source: 2_000,
  changeReason: 1_000,
  author: 200,
  agentId: 200,
  tagName: 64,
  tagsPerEntry: 50,
  /** A state key, prefix included. */
  stateKey: 200,
  /** Keys written by one state delta. */
  stateDeltaKeys: 100,
  /** Entries a completing scratch session may name for promotion. */
  promote: 1_000,
  userId: 200,
  appName: 200,
  title: 500,
  /** Conversation message text. */
  message: 100_000,
  toolsUsed: 50,
  /** Entries linked by one message or query. */
  contextLinks: 100,
  /** Dependencies of one task. */
  taskDependencies: 100,
  /** Entries accepted by one `importEntries` call. */
  importEntries: 1_000,
  /** A global ID (ours are base64 of a type and a database id: ~60 characters). */
  globalId: 1_000,
  /** The text an erasure matches (SQLite's LIKE takes patterns of at most 50,000 bytes). */
  eraseText: 10_000,
  /** IDs accepted by one `nodes` call. */
  nodesPerCall: 100,
  /**
   * Items in any one list of an operation's variables: twice the largest bound of any argument (an
   * import's entries, a promotion, an outcome batch: 1,000), so that a list a little too long still
   * gets its argument's own error. A list of enum values holds at most as many items as the enum
   * has values.
   */
  listItems: 2_000,
  priority: { min: 0, max: 100, default: 50 },
  confidence: { min: 0, max: 1, default: 1 },
  /** Page sizes of connections. */
  page: { default: 20, max: 100 },
} as const;

/** Documented default categories; categories are free strings. */
export const DEFAULT_CATEGORIES = {
  TOOL: ['mcp', 'cli', 'function', 'api'],
  GUIDELINE: ['code_style', 'behavior', 'security', 'architecture', 'performance', 'error_handling', 'logging'],
  KNOWLEDGE: ['decision', 'fact', 'context', 'reference'],
} as const;
