import { performance } from 'node:perf_hooks';
import { createApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './infra/database.ts';
import { applyMigrations } from './infra/migrations.ts';

const started = performance.now();
const config = loadConfig();
const redacted = config.databaseUrl.replace(/\/\/[^@/]*@/, '//***@');

const { applied } = await applyMigrations(config.databaseUrl);
const database = await openDatabase(config.databaseUrl);
const app = createApp({ database, graphiql: config.graphiql });
const port = await app.start(config.port, config.host);
console.log(
  `Engram listening on http://localhost:${port}/graphql (${database.provider}: ${redacted}; ` +
    `${applied.length} migration(s) applied; ready in ${Math.round(performance.now() - started)} ms)`,
);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: finishing open requests, then stopping`);
  await app.stop(config.shutdownGraceMs);
  await database.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
