/**
 * One execution of an event for every subscriber who would get the same result. A live event is
 * one payload object handed to each subscriber of its topic and key (feed-tailer.ts dispatch), and
 * GraphQL executes the subscription's selection on it once per subscriber: at 1,000 subscribers
 * of one scope that was ~1,000 executions of the same fields on the same rows (execution and the
 * garbage it leaves were about half of the server's CPU per delivery; the reads themselves were
 * already shared, see shared-read.ts). Subscribers share a result when they sent the same document
 * (the parse cache hands out one object per text) with the same operation name and variables, as
 * the same caller (key, actor, acting-for): what the resolvers and the access rules see is then
 * the same. Each subscriber still passes its own delivery check (subscription-guard.ts) before the
 * event reaches execution, and a result with errors is not shared (its errors carry a request's
 * id): the others execute on their own.
 *
 * graphql-tools' `subscribe` maps each event to its result inside, with no hook between: the
 * source stream is made here with graphql-js' createSourceEventStream (after graphql-tools has
 * checked the arguments, so that bad variables are refused as before) and each event executed with
 * graphql-tools' `execute`, as its `subscribe` does.
 */
import { buildExecutionContext, execute, subscribe } from '@graphql-tools/executor';
import { mapAsyncIterator } from '@graphql-tools/utils';
import { createSourceEventStream, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { Context } from '../context.ts';
import { callerKey } from '../modules/events/subscription-guard.ts';

type Results = Map<string, Promise<ExecutionResult>>;
/** Per event payload, per document: the results by operation, variables and caller. */
const shared = new WeakMap<object, WeakMap<DocumentNode, Results>>();

export interface EventResultSharing {
  plugin: Plugin<Context>;
  /** Events delivered, by whether they were executed for their subscriber or shared another's result. */
  delivered(): { own: number; shared: number };
}

export function eventResultSharing(): EventResultSharing {
  const counts = { own: 0, shared: 0 };
  return {
    plugin: {
      onSubscribe({ args, setSubscribeFn }) {
        const caller = callerOf(args.contextValue);
        if (caller === null) return;
        const key = `${args.operationName ?? ''}\n${JSON.stringify(args.variableValues ?? {})}\n${caller}`;
        setSubscribeFn((a: ExecutionArgs) => sharedSubscribe(a, key, counts));
      },
    },
    delivered: () => ({ ...counts }),
  };
}

/** Who the resolvers see: subscribers alike in all of this get alike results. */
function callerOf(ctx: Context): string | null {
  const { caller } = ctx;
  if (!caller) return null;
  return JSON.stringify([callerKey(caller), caller.principal?.admin ?? false, ctx.actor, ctx.onBehalfOf, ctx.exhaustiveRanking]);
}

type Counts = { own: number; shared: number };

async function sharedSubscribe(args: ExecutionArgs, key: string, counts: Counts) {
  // Bad variables, an unknown operation: graphql-tools' own answer (its codes and statuses).
  if (!('schema' in buildExecutionContext(args))) return subscribe(args);
  const source = await createSourceEventStream(args);
  if (!isAsyncIterable(source)) return source;
  return mapAsyncIterator(source, (payload: unknown) => resultOf(args, key, payload, counts));
}

async function resultOf(args: ExecutionArgs, key: string, payload: unknown, counts: Counts): Promise<ExecutionResult> {
  const run = () => {
    counts.own++;
    return execute({ ...args, rootValue: payload }) as Promise<ExecutionResult> | ExecutionResult;
  };
  if (typeof payload !== 'object' || payload === null) return run();
  let byDocument = shared.get(payload);
  if (!byDocument) shared.set(payload, (byDocument = new WeakMap()));
  let results = byDocument.get(args.document);
  if (!results) byDocument.set(args.document, (results = new Map<string, Promise<ExecutionResult>>()));
  const known = results.get(key);
  if (!known) {
    const mine = Promise.resolve(run());
    results.set(key, mine);
    return mine;
  }
  const result = await known.catch(() => null);
  // Errors carry the first subscriber's request id: this one executes on its own.
  if (!result || result.errors) return run();
  counts.shared++;
  return { ...result };
}
