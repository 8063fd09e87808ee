// OpenTelemetry: with an OTLP endpoint configured, the real server process sends spans of GraphQL
// operations and of Prisma's database calls over OTLP/HTTP (JSON) to a collector the test runs.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabaseUrl } from './support/harness.ts';
import { eventually } from './support/redis-server.ts';
import { startServerProcess } from './support/server-process.ts';

interface Span {
  name: string;
  traceId: string;
  parentSpanId?: string;
  spanId: string;
}
const spans: Span[] = [];
const services = new Set<string>();
let collector: Server;
let database: { url: string; drop(): Promise<void> } | undefined;

beforeAll(async () => {
  collector = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const sent = JSON.parse(body) as { resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] }; scopeSpans: { spans: Span[] }[] }[] };
      for (const resource of sent.resourceSpans) {
        for (const a of resource.resource.attributes) if (a.key === 'service.name' && a.value.stringValue) services.add(a.value.stringValue);
        for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  database = await createDatabaseUrl();
});
afterAll(async () => {
  collector.close();
  await database?.drop();
});

describe('OpenTelemetry tracing', () => {
  it('sends a span per operation with the database calls beneath it', async () => {
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    const server = await startServerProcess(database!.url, { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: 'engram-test', OTEL_BSP_SCHEDULE_DELAY: '100' });
    try {
      const response = await fetch(`${server.base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'query TracedOrganizations { organizations { totalCount } }' }),
      });
      expect(response.status).toBe(200);
      await eventually('the operation span arrives', async () => spans.some((s) => s.name.includes('TracedOrganizations')), 15_000);
      const operation = spans.find((s) => s.name.includes('TracedOrganizations'))!;
      await eventually('a database span of the same trace arrives', async () => spans.some((s) => s.traceId === operation.traceId && s.name.startsWith('prisma:')), 15_000);
      expect(services).toEqual(new Set(['engram-test']));
    } finally {
      await server.kill();
    }
  });
});
