import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, onReconnect, subscribe } from './api';
import type { TypedDocumentString } from './gql/graphql';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => void;
}

/**
 * Runs `load` when `deps` change, when `reload` is called and when a subscription could not be
 * resumed (onReconnect: its missed events are gone from the server's change feed). A late answer
 * to an older run is dropped.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => onReconnect(() => setTick((t) => t + 1)), []);
  useEffect(() => {
    let current = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => current && setState((s) => ({ ...s, error: asApiError(error), loading: false })),
    );
    return () => {
      current = false;
    };
    // `deps` are what `load` reads: the caller names them, as with useEffect.
  }, [...deps, tick]);
  return { data: state.data, error: state.error, loading: state.loading, reload: () => setTick((t) => t + 1) };
}

/** Follows a subscription while the component shows `deps`; the latest `onData` handles events. */
export function useSubscription<T, V>(
  document: TypedDocumentString<T, V>,
  variables: V | null,
  onData: (data: T) => void,
  deps: unknown[],
): ApiError | undefined {
  const handler = useRef(onData);
  handler.current = onData;
  const [error, setError] = useState<ApiError>();
  useEffect(() => {
    if (!variables) return undefined;
    setError(undefined);
    return subscribe(document, variables, (data) => handler.current(data), setError);
    // `deps` are what `variables` hold.
  }, deps);
  return error;
}

export function asApiError(error: unknown): ApiError {
  return error instanceof ApiError ? error : new ApiError(error instanceof Error ? error.message : String(error), 'ERROR');
}

/** Reloads at most every 300 ms while events stream in, instead of once per event. */
export function useCoalesced(run: () => void): () => void {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  return () => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      run();
    }, 300);
  };
}
