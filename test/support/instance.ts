import { createApp, type App } from '../../src/app.ts';
import { openDatabase } from '../../src/infra/database.ts';
import { createEventBus, type EventBus } from '../../src/infra/events.ts';

export interface Instance {
  app: App;
  bus: EventBus;
  port: number;
}

/**
 * A second Engram instance on the database at `databaseUrl`, with its own event bus over
 * `redisUrl`, listening on a port (closing a subscription's connection then ends it on the
 * server). `onCleanup` receives what stops it.
 */
export async function redisInstance(databaseUrl: string, redisUrl: string, onCleanup: (cleanup: () => Promise<void>) => void): Promise<Instance> {
  const database = await openDatabase(databaseUrl);
  const bus = createEventBus({ redisUrl });
  await bus.ready();
  const app = createApp({ database, bus });
  const port = await app.start(0, '127.0.0.1');
  onCleanup(async () => {
    await app.stop(1_000);
    await bus.close();
    await database.close();
  });
  return { app, bus, port };
}
