// The bounds on one GraphQL operation and their defaults, apart from the plugins that enforce them
// (limits.ts): the configuration reads these, and every `engram` command would otherwise load
// graphql-armor, Pothos' complexity rule and graphql-js with it (~0.2 s loaded alone; within a
// command's start, where they share dependencies, that commit's lazy loading saved 0.05-0.1 s).

/** Bounds on one GraphQL operation, checked before it runs (the timeout while it runs). */
export interface OperationLimits {
  /** Largest cost (see `src/graphql/complexity.ts`): lists multiply what is under them by their page size. */
  maxCost: number;
  /** Deepest field nesting, fragments followed. */
  maxDepth: number;
  /** Most aliased fields in one document. */
  maxAliases: number;
  /** Most lexical tokens in one document (bounds parsing, hence the parser's own recursion). */
  maxTokens: number;
  /** Most directives in one document. */
  maxDirectives: number;
  /** Deepest nesting of braces, brackets and parentheses in a document (the parser's recursion). */
  maxNesting: number;
  /** Wall-clock bound of one query, in milliseconds (mutations finish; subscriptions are long-lived). */
  operationTimeoutMs: number;
}

export const DEFAULT_LIMITS: OperationLimits = {
  maxCost: 50_000,
  maxDepth: 15,
  maxAliases: 30,
  maxTokens: 5_000,
  maxDirectives: 50,
  maxNesting: 100,
  operationTimeoutMs: 15_000,
};
