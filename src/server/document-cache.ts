import type { DocumentNode, Token } from 'graphql';
import { LRUCache } from 'lru-cache';

/** Memory the parsed documents Yoga keeps may take, by the estimate below (bytes). */
export const DOCUMENT_CACHE_BYTES = 64 * 1024 * 1024;
/** A document estimated larger than this is parsed again each time rather than kept. */
export const DOCUMENT_CACHE_ENTRY_BYTES = 2 * 1024 * 1024;
/**
 * Heap per token of a parsed document, with what validating it keeps (its errors included):
 * measured 2026-12-01 as ~500 bytes for documents of 4,900 tokens (1,024 of them took 2.6 GB).
 */
const BYTES_PER_TOKEN = 500;

/**
 * Yoga's parse and validation caches, bounded by the memory their documents take. Yoga's own keep
 * the last 1,024 documents whatever their size (the document's text is the key): 1,100 documents
 * of 4,900 tokens (55 KB each) took the server from 0.3 to 2.9 GB of RSS, and 60 string literals of
 * 5 MB to 1.9 GB. Here a document's size is its text (twice: the key and the values the AST keeps)
 * plus its tokens; the least recently used go past DOCUMENT_CACHE_BYTES. Validation results stay
 * keyed by the parsed document in Yoga (a WeakMap): they go with it.
 *
 * lru-cache (Yoga's own cache library) with a size bound; Yoga's options take any get/set store.
 */
export function boundedParserCache(): { documentCache: LRUCache<string, DocumentNode>; errorCache: LRUCache<string, object> } {
  const bounded = <T extends object>(size: (value: T, key: string) => number) =>
    new LRUCache<string, T>({ max: 1_024, ttl: 3_600_000, maxSize: DOCUMENT_CACHE_BYTES, maxEntrySize: DOCUMENT_CACHE_ENTRY_BYTES, sizeCalculation: (value, key) => Math.max(1, size(value, key)) });
  return {
    documentCache: bounded<DocumentNode>((document, text) => 2 * text.length + BYTES_PER_TOKEN * tokens(document)),
    // A syntax error keeps the source (the key) and its own few objects.
    errorCache: bounded<object>((_error, text) => 2 * text.length + 1_024),
  };
}

/** The tokens of a parsed document (its location's list of them), or an estimate when it has none. */
function tokens(document: DocumentNode): number {
  let token: Token | null | undefined = document.loc?.startToken;
  if (!token) return document.definitions.length * 1_000;
  let count = 0;
  for (; token; token = token.next) count++;
  return count;
}
