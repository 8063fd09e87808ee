/** Types of scripts/build-ui.mjs (plain JavaScript: it runs at install time, before any TypeScript tooling). */
export function sourceDigest(): string;
export function buildUi(): Promise<string[]>;
