/** Types of scripts/built-server.mjs (plain JavaScript: it runs at install time, before any TypeScript tooling). */
export const DIGEST_FILE: string;
export function sourceDigest(root: string): string;
export function builtModule(root: string, source: string): string | null;
export function launch(root: string, source: string): Promise<void>;
