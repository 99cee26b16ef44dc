// The wallet view's state hooks: the balances snapshot and its polling, the hidden-assets list, and the
// watch that follows a lock or switch made in another window. app.tsx draws; these keep the state.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { BalancesView, WalletStatus } from '../shared/messages.js';
import { errorText, useCall } from './api.js';

const POLL_MS = 1000;
/** The snapshot is read again this often anyway: the background refreshes on its own (alarm, sends). */
const IDLE_POLL_MS = 15_000;
/** While refreshes fail, one is tried this often, so the popup sees the node come back. */
const RETRY_MS = 30_000;

/**
 * The balances snapshot: shown at once, refreshed in the background, polled closely while a refresh
 * runs, now and then otherwise (so the banner follows the node), and retried while refreshes fail.
 */
export function useBalances(key: string, takeOpened: () => BalancesView | null): { view: BalancesView | null; error: string | undefined; refresh: () => void } {
  const call = useCall();
  const [opened] = useState(takeOpened);
  const [view, setView] = useState<BalancesView | null>(opened);
  // The snapshot that came with the popup's opening is shown at once, for the account it was read
  // for; the refresh is asked for right after (effects run once the page has painted).
  const first = useRef<{ key: string; view: BalancesView } | null>(opened ? { key, view: opened } : null);
  const [error, setError] = useState<string | undefined>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const alive = useRef(true);
  const keyRef = useRef(key);
  keyRef.current = key;

  const fetchView = useCallback(
    async (refresh: boolean) => {
      clearTimeout(timer.current);
      try {
        const v = await call('balances.get', refresh ? { refresh: true } : {});
        if (!alive.current) return;
        // Another account or network's snapshot (switched elsewhere; the status watch follows soon):
        // never shown under this one's name.
        if (v.of !== undefined && v.of !== keyRef.current) {
          timer.current = setTimeout(() => void fetchView(false), POLL_MS);
          return;
        }
        setView(v);
        setError(undefined);
        // Followed closely while a refresh runs; retried while refreshes fail; read now and then otherwise.
        if (v.refreshing) timer.current = setTimeout(() => void fetchView(false), POLL_MS);
        else if (v.error) timer.current = setTimeout(() => void fetchView(true), RETRY_MS);
        else timer.current = setTimeout(() => void fetchView(false), IDLE_POLL_MS);
      } catch (e) {
        if (!alive.current) return;
        setError(errorText(e));
        timer.current = setTimeout(() => void fetchView(false), IDLE_POLL_MS);
      }
    },
    [call],
  );

  useEffect(() => {
    alive.current = true;
    const given = first.current?.key === key ? first.current.view : undefined;
    first.current = null;
    if (!given) setView(null);
    void fetchView(true);
    return () => {
      alive.current = false;
      clearTimeout(timer.current);
    };
  }, [fetchView, key]);

  // A click is the user's doing, unlike the polls: balances.refresh (the same refresh, joined) keeps
  // the wallet from locking as idle.
  const refresh = useCallback(() => {
    call('balances.refresh', {}).catch(() => undefined);
    void fetchView(true);
  }, [call, fetchView]);
  return { view, error, refresh };
}

/**
 * Asset IDs hidden from the balances on this network, kept by the background (storage.local). A
 * failure to load or save leaves the list as it is on screen: hiding is a view setting, not funds.
 */
export function useHiddenAssets(networkId: string): { hidden: ReadonlySet<string>; toggle: (id: string) => void; error: string | undefined } {
  const call = useCall();
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<string | undefined>(undefined);
  const latest = useRef(hidden);
  latest.current = hidden;
  // A toggle made before the stored list arrived waits for it, so it neither is undone by it nor
  // drops it; one made on another network, or when the list could not be read, saves nothing.
  // (Pending from the first render: the rows can be on screen before the effect asks for the list.)
  const [firstLoad] = useState(() => {
    let done: (read: boolean) => void = () => undefined;
    const promise = new Promise<boolean>((resolve) => (done = resolve));
    return { promise, done };
  });
  const loaded = useRef<Promise<boolean>>(firstLoad.promise);
  const network = useRef(networkId);
  network.current = networkId;
  useEffect(() => {
    let stale = false;
    setHidden(new Set());
    setError(undefined);
    loaded.current = call('settings.getHiddenAssets', { networkId }).then(
      (r) => {
        if (stale) return false;
        latest.current = new Set(r.assetIDs);
        setHidden(latest.current);
        return true;
      },
      (e: unknown) => {
        if (!stale) setError(errorText(e));
        return false;
      },
    );
    void loaded.current.then(firstLoad.done);
    return () => {
      stale = true;
    };
  }, [call, networkId, firstLoad]);
  const toggle = useCallback(
    async (id: string) => {
      const asked = network.current;
      const read = await loaded.current;
      if (asked !== network.current) return;
      if (!read) {
        setError('Not saved: the list of hidden assets could not be read, so changing it could lose what it holds');
        return;
      }
      const next = new Set(latest.current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      latest.current = next;
      setHidden(next);
      call('settings.setHiddenAssets', { assetIDs: [...next], networkId: asked }).then(
        () => setError(undefined),
        (e: unknown) => setError(`Not saved: ${errorText(e)}`),
      );
    },
    [call],
  );
  return { hidden, toggle, error };
}

/** How often an open popup asks whether the wallet is still unlocked (the idle lock runs in the background). */
const LOCK_CHECK_MS = 5000;

/**
 * Follows what another window changed: every open view goes to the unlock screen as soon as the
 * background locks (idle lock, another window), and to the account or network selected elsewhere,
 * so no screen shows one account's balances under another's name. Answers are compared with what
 * this popup shows or has just chosen itself (`noteOwn`, called before its state re-renders), so a
 * check in flight across the user's own switch is not taken for a switch made elsewhere.
 */
export function useStatusWatch(status: WalletStatus, onStatus: (s: WalletStatus) => void, onFollowed: (s: WalletStatus) => void): (s: WalletStatus) => void {
  const call = useCall();
  const shown = useRef({ account: status.account?.id, network: status.network.id });
  shown.current = { account: status.account?.id, network: status.network.id };
  // Bumped by each change made here: a check asked before it answers from before it, and is dropped.
  const ownChanges = useRef(0);
  useEffect(() => {
    let stopped = false;
    const check = () => {
      const asked = ownChanges.current;
      void call('wallet.status', {}).then(
        (s) => {
          if (stopped || asked !== ownChanges.current) return;
          if (s.vault === 'unlocked' && s.account?.id === shown.current.account && s.network.id === shown.current.network) return;
          if (s.vault === 'unlocked') onFollowed(s);
          shown.current = { account: s.account?.id, network: s.network.id };
          onStatus(s);
        },
        () => undefined,
      );
    };
    const timer = setInterval(check, LOCK_CHECK_MS);
    window.addEventListener('focus', check);
    return () => {
      stopped = true;
      clearInterval(timer);
      window.removeEventListener('focus', check);
    };
  }, [call, onStatus, onFollowed]);
  return useCallback((s: WalletStatus) => {
    ownChanges.current += 1;
    shown.current = { account: s.account?.id, network: s.network.id };
  }, []);
}

