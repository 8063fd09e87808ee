import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { PrismaInstrumentation } from '@prisma/instrumentation';

export interface Telemetry {
  provider: NodeTracerProvider;
  /** Sends what is still buffered and stops (before the process exits). */
  shutdown(): Promise<void>;
}

/**
 * OpenTelemetry tracing, off unless an OTLP endpoint is configured with the standard variables
 * (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT; OTEL_SERVICE_NAME, default
 * "engram"). Spans: GraphQL operations (envelop's plugin, in app.ts) and Prisma's database calls,
 * sent over OTLP/HTTP in batches.
 */
export function startTelemetry(env: NodeJS.ProcessEnv = process.env): Telemetry | null {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return null;
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
    provider,
    async shutdown() {
      prisma.disable();
      await provider.shutdown();
    },
  };
}
