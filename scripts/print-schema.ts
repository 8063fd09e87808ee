// Writes schema.graphql from the code (sorted). `--check` exits 1 when the file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { sortedSchema } from '../src/graphql/schema.ts';

const file = new URL('../schema.graphql', import.meta.url);
const printed = `${printSchema(sortedSchema())}\n`;
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    // missing counts as stale
  }
  if (current !== printed) {
    console.error('schema.graphql is stale: run `npm run schema:print`');
    process.exit(1);
  }
} else {
  writeFileSync(file, printed);
}
