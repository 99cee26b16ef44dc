// The popup's only way to the background: typed requests of src/shared/messages.ts through
// callBackground. The transport is injectable (ApiContext), so component tests hand in a fake
// `send` instead of mocking modules.
import { createContext } from 'preact';
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks';
import { BackgroundError, callBackground, type SendToBackground } from '../shared/client.js';
import type { RequestParams, RequestResult, RequestType, Selection, WalletStatus } from '../shared/messages.js';
import { type PlainError, plainError } from './errors.js';

/**
 * One request to the background. `selection`: the account and network the user reviewed it on;
 * the background refuses it if either was switched since (for everything that moves funds).
 */
export type Call = <T extends RequestType>(type: T, params: RequestParams<T>, selection?: Selection) => Promise<RequestResult<T>>;

/** A Call over `send`; without one, the extension runtime. */
export function makeCall(send?: SendToBackground): Call {
  return (type, params, selection) => callBackground(type, params, send, selection);
}

/** The account and network a status shows: what a review is made on. */
export function selectionOf(status: WalletStatus): Selection | undefined {
  return status.account ? { accountId: status.account.id, networkId: status.network.id } : undefined;
}

export const ApiContext = createContext<Call>(makeCall());

export function useCall(): Call {
  return useContext(ApiContext);
}

export { sentence } from './errors.js';

/** A failed request in plain words, with what the background said as the detail (src/popup/errors.ts). */
export function errorInfo(e: unknown): PlainError {
  if (e instanceof BackgroundError) return plainError(e.code, e.message, e.field);
  if (e instanceof Error) return plainError('', e.message);
  return { text: 'Something went wrong.' };
}

/** What to show the user for a failed request: the sentence alone. */
export function errorText(e: unknown): string {
  return errorInfo(e).text;
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
 * Keeps the last data while reloading the same key, so nothing on screen jumps; drops it when the
 * key changes, so nothing of another account or network is shown.
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

  // Another key (another account or network): what was shown belongs to the old one, so it goes.
  const shownKey = useRef(key);
  useEffect(() => {
    if (shownKey.current !== key) {
      shownKey.current = key;
      setData(undefined);
      setError(undefined);
    }
    void reload();
  }, [reload, key]);

  return { data, error, loading, reload };
}

export interface Action {
  busy: boolean;
  error: string | undefined;
  /** What the background said about the last failure, when the sentence is not that already. */
  detail: string | undefined;
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
  const [error, setError] = useState<PlainError | undefined>(undefined);
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
          setError(errorInfo(e));
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
  return { busy, error: error?.text, detail: error?.detail, field, run, clear };
}
