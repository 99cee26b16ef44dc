// The popup's only way to the background: typed requests of src/shared/messages.ts through
// callBackground. The transport is injectable (ApiContext), so component tests hand in a fake
// `send` instead of mocking modules.
import { createContext } from 'preact';
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks';
import { BackgroundError, callBackground, type SendToBackground } from '../shared/client.js';
import type { RequestParams, RequestResult, RequestType } from '../shared/messages.js';

export type Call = <T extends RequestType>(type: T, params: RequestParams<T>) => Promise<RequestResult<T>>;

/** A Call over `send`; without one, the extension runtime. */
export function makeCall(send?: SendToBackground): Call {
  return (type, params) => callBackground(type, params, send);
}

export const ApiContext = createContext<Call>(makeCall());

export function useCall(): Call {
  return useContext(ApiContext);
}

/** Sentence case: background and core messages start in lower case. */
export function sentence(text: string): string {
  return text.length === 0 ? text : text[0]!.toUpperCase() + text.slice(1);
}

/** What to show the user for a failed request. */
export function errorText(e: unknown): string {
  if (e instanceof BackgroundError) {
    if (e.code === 'unreachable') return 'The wallet background is not answering. Close and reopen the popup.';
    // Validation messages name the field first ("to.addresses[0]: …"); the form shows it in place.
    return sentence(e.message.replace(/^[\w.[\]]+: /, ''));
  }
  if (e instanceof Error) return sentence(e.message);
  return 'Something went wrong.';
}

/** The request field a failure is about, reduced to its first segment ('to.addresses[0]' → 'to'). */
export function errorField(e: unknown): string | undefined {
  if (e instanceof BackgroundError && e.field) return e.field.split(/[.[]/)[0];
  return undefined;
}

/** Guards setState after unmount (a request that outlives its screen). */
function useMounted(): { readonly current: boolean } {
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return mounted;
}

export interface RequestState<R> {
  data: R | undefined;
  error: string | undefined;
  loading: boolean;
  reload: () => Promise<void>;
}

/**
 * Runs a request when the screen mounts and whenever `key` changes; `reload` runs it again.
 * Keeps the last data while reloading, so nothing on screen jumps.
 */
export function useRequest<T extends RequestType>(type: T, params: RequestParams<T>, key = ''): RequestState<RequestResult<T>> {
  const call = useCall();
  const mounted = useMounted();
  const [data, setData] = useState<RequestResult<T> | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const paramsRef = useRef(params);
  paramsRef.current = params;

  const reload = useCallback(async () => {
    setLoading(true);
    try {
      const result = await call(type, paramsRef.current);
      if (!mounted.current) return;
      setData(result);
      setError(undefined);
    } catch (e) {
      if (mounted.current) setError(errorText(e));
    } finally {
      if (mounted.current) setLoading(false);
    }
  }, [call, type, mounted]);

  useEffect(() => {
    void reload();
  }, [reload, key]);

  return { data, error, loading, reload };
}

export interface Action {
  busy: boolean;
  error: string | undefined;
  /** The request field of the last failure, if the background named one. */
  field: string | undefined;
  /** Runs `task`; returns its result, or undefined when it failed (the error is kept). */
  run: <R>(task: () => Promise<R>) => Promise<R | undefined>;
  clear: () => void;
}

/** State for a form's submit: busy while running, the failure as text and field. */
export function useAction(): Action {
  const mounted = useMounted();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [field, setField] = useState<string | undefined>(undefined);
  const run = useCallback(
    async <R>(task: () => Promise<R>): Promise<R | undefined> => {
      setBusy(true);
      setError(undefined);
      setField(undefined);
      try {
        return await task();
      } catch (e) {
        if (mounted.current) {
          setError(errorText(e));
          setField(errorField(e));
        }
        return undefined;
      } finally {
        if (mounted.current) setBusy(false);
      }
    },
    [mounted],
  );
  const clear = useCallback(() => {
    setError(undefined);
    setField(undefined);
  }, []);
  return { busy, error, field, run, clear };
}
