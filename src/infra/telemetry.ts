import type { useOpenTelemetry } from '@envelop/opentelemetry';

export interface Telemetry {
  /** Yoga's plugin that makes a span per GraphQL operation. */
  plugin: ReturnType<typeof useOpenTelemetry>;
  /** Sends what is still buffered and stops (before the process exits). */
  shutdown(): Promise<void>;
}

/**
 * OpenTelemetry tracing, off unless an OTLP endpoint is configured with the standard variables
 * (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT; OTEL_SERVICE_NAME, default
 * "engram"). Spans: GraphQL operations (envelop's plugin, made here, among Yoga's plugins in app.ts) and Prisma's database calls,
 * sent over OTLP/HTTP in batches.
 */
export async function startTelemetry(env: NodeJS.ProcessEnv = process.env): Promise<Telemetry | null> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return null;
  // Loaded only when tracing is on: ~100-125 ms of every start-up otherwise (measured: their
  // imports after the rest of the server's).
  const [{ OTLPTraceExporter }, { resourceFromAttributes }, { BatchSpanProcessor, NodeTracerProvider }, { PrismaInstrumentation }, envelop] = await Promise.all([
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-node'),
    import('@prisma/instrumentation'),
    import('@envelop/opentelemetry'),
  ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || 'engram' }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // Global provider and AsyncLocalStorage context: Prisma's spans become children of the operation's.
  provider.register();
  const prisma = new PrismaInstrumentation();
  prisma.setTracerProvider(provider);
  prisma.enable();
  return {
    // Variables and results stay out of spans: they may hold what callers keep secret.
    plugin: envelop.useOpenTelemetry({ resolvers: false, variables: false, result: false, document: true }, provider),
    async shutdown() {
      prisma.disable();
      await provider.shutdown();
    },
  };
}
