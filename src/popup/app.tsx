// The popup's top level: which state the vault is in decides the screen (onboarding, unlock, the
// wallet); inside the wallet a tab bar picks the screen. Plain state, no router library.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { isLockedError } from '../core/errors.js';
import type { SendToBackground } from '../shared/client.js';
import type { BalancesView, WalletStatus } from '../shared/messages.js';
import { ApiContext, type Call, errorInfo, errorText, makeCall, selectionOf, useAction, useCall, useRequest } from './api.js';
import { FormError, Muted, SmallButton } from './components/Field.js';
import { NetworkBadge } from './components/NetworkBadge.js';
import { NodeBanner, nodeHealth } from './components/NodeBanner.js';
import { keepFocusOnScreen } from './focus.js';
import { Home } from './screens/Home.js';
import { Receive } from './screens/Receive.js';
import { Unlock } from './screens/Unlock.js';
import { Activity, Assets, LazyStake, LazyTokens, Move, Onboarding, preloadWalletScreens, Send, Settings } from './screens/lazy.js';
import { useBalances, useHiddenAssets, useStatusWatch } from './wallet-hooks.js';

export type Route = 'home' | 'send' | 'receive' | 'move' | 'stake' | 'tokens' | 'assets' | 'activity' | 'settings';

/** The sections of the bottom bar: few, so each has room for its icon and its name. */
const TABS: { route: Route; label: string; icon: string }[] = [
  { route: 'home', label: 'Home', icon: '⌂' },
  { route: 'assets', label: 'Assets', icon: '◆' },
  { route: 'activity', label: 'Activity', icon: '≡' },
  { route: 'settings', label: 'Settings', icon: '⚙' },
];

/** What the user does with the balances, as buttons on Home; their screens belong to Home. */
const ACTIONS: { route: Route; label: string; icon: string }[] = [
  { route: 'send', label: 'Send', icon: '↑' },
  { route: 'receive', label: 'Receive', icon: '↓' },
  { route: 'move', label: 'Move', icon: '⇄' },
  { route: 'stake', label: 'Stake', icon: '◎' },
  { route: 'tokens', label: 'Tokens', icon: '◇' },
];

/** The tab a route belongs to: Send, Receive, Move, Stake and Tokens are Home's. */
function tabOf(route: Route): Route {
  return ACTIONS.some((a) => a.route === route) ? 'home' : route;
}

/** The bech32 hrp typed addresses must match: the network's, else the one of the wallet's own addresses. */
export function hrpOf(status: WalletStatus): string {
  if (status.network.hrp) return status.network.hrp;
  const x = status.account?.xAddress;
  if (!x) return '';
  // A bech32 hrp is what precedes the string's last '1' (the background made this address).
  const body = x.slice(x.indexOf('-') + 1);
  const separator = body.lastIndexOf('1');
  return separator > 0 ? body.slice(0, separator) : '';
}

export interface AppProps {
  /** The transport to the background; the extension runtime when absent. */
  send?: SendToBackground;
}

export function App({ send }: AppProps) {
  const base = useMemo(() => makeCall(send), [send]);
  const [status, setStatus] = useState<WalletStatus | null>(null);
  const [fatal, setFatal] = useState<string | undefined>(undefined);
  /** A forgotten password: the wallet made again from its phrase or its private key. */
  const [restoring, setRestoring] = useState<'phrase' | 'key' | undefined>(undefined);

  // Any request that finds the wallet locked (idle lock while the popup is open) shows the unlock screen.
  const call = useMemo<Call>(
    () =>
      (async (type, params, selection) => {
        try {
          return await base(type, params, selection);
        } catch (e) {
          if (isLockedError(e)) {
            // Asked, not assumed: a lock and a quick unlock can refuse a request of a wallet unlocked again.
            const now = await base('wallet.status', {}).catch(() => null);
            if (now?.vault !== 'unlocked') setStatus((s) => (s && s.vault === 'unlocked' ? { ...s, vault: 'locked', account: null } : s));
          }
          throw e;
        }
      }) as Call,
    [base],
  );

  // The cached balances that came with the status on opening: taken once, by Wallet's first screen.
  const opened = useRef<BalancesView | null>(null);
  const takeOpened = useCallback(() => {
    const view = opened.current;
    opened.current = null;
    return view;
  }, []);
  const load = useCallback(() => {
    call('wallet.open', {}).then(
      (r) => {
        opened.current = r.balances;
        setStatus(r.status);
        setFatal(undefined);
      },
      (e: unknown) => setFatal(errorText(e)),
    );
  }, [call]);
  // A layout effect: the request leaves as the first render commits, not a frame later.
  useLayoutEffect(load, [load]);
  useEffect(() => keepFocusOnScreen(document), []);

  let body;
  if (!status) {
    body = (
      <main class="screen center">
        <h1>XPC Wallet</h1>
        {fatal ? (
          <>
            <p class="form-error" role="alert">
              {fatal}
            </p>
            <button onClick={load}>Try again</button>
          </>
        ) : (
          <Muted>Opening…</Muted>
        )}
      </main>
    );
  } else if (status.vault === 'none' || restoring !== undefined) {
    body = (
      <Onboarding
        network={status.network}
        restoreOnly={restoring}
        onCancel={() => setRestoring(undefined)}
        onDone={(s) => {
          setRestoring(undefined);
          setStatus(s);
        }}
      />
    );
  } else if (status.vault === 'locked' || !status.account) {
    body = <Unlock network={status.network} onUnlocked={setStatus} onRestore={setRestoring} />;
  } else {
    body = <Wallet status={status} onStatus={setStatus} takeOpened={takeOpened} />;
  }
  return <ApiContext.Provider value={call}>{body}</ApiContext.Provider>;
}

function AccountSwitcher({ status, onStatus }: { status: WalletStatus; onStatus: (s: WalletStatus) => void }) {
  const call = useCall();
  const action = useAction();
  const list = useRequest('accounts.list', {}, `${status.account?.id}:${status.account?.name}:${status.network.id}`);
  const accounts = list.data?.accounts ?? (status.account ? [status.account] : []);
  const select = async (id: string) => {
    // Ignored while busy (the next render puts the choice back), never disabled: focus stays here.
    if (action.busy) return;
    const s = await action.run(() => call('accounts.select', { id }));
    if (s) onStatus(s);
  };
  return (
    <>
      <select
        class="account-switcher"
        aria-label="Account"
        value={status.account?.id}
        aria-disabled={action.busy}
        // Accounts added in Settings appear the next time the list is opened.
        onFocus={() => void list.reload()}
        onChange={(e) => void select(e.currentTarget.value)}
      >
        {accounts.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name}
          </option>
        ))}
      </select>
      {action.error && <span class="error-text small-text" role="alert">{action.error}</span>}
    </>
  );
}

/** The screens holding a form or review of their own, which a switch of account or network closes. */
const FORM_ROUTES: ReadonlySet<Route> = new Set(['send', 'move', 'stake', 'tokens', 'assets']);

/** Said when the popup followed a switch made in another window, so nothing changes under the user unexplained. */
export function followedText(s: WalletStatus, closedForm: boolean): string {
  const now = `Switched in another window to ${s.account?.name ?? 'another account'} on ${s.network.name}.`;
  return closedForm ? `${now} What was open here was closed: anything not yet confirmed was not sent (Activity shows what was).` : now;
}

function Wallet({ status, onStatus, takeOpened = () => null }: { status: WalletStatus; onStatus: (s: WalletStatus) => void; takeOpened?: () => BalancesView | null }) {
  const call = useCall();
  const [route, setRoute] = useState<Route>('home');
  const [followed, setFollowed] = useState<string | undefined>(undefined);
  const routeNow = useRef(route);
  routeNow.current = route;
  const onFollowed = useCallback((s: WalletStatus) => setFollowed(followedText(s, FORM_ROUTES.has(routeNow.current))), []);
  const noteOwn = useStatusWatch(status, onStatus, onFollowed);
  // The wallet's screens are their own chunks: fetched once the home screen is painted and the
  // browser is idle, so the first load stays small and a tab or action still opens at once.
  useEffect(() => {
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(() => void preloadWalletScreens(), 200);
      return () => clearTimeout(timer);
    }
    const idle = requestIdleCallback(() => void preloadWalletScreens(), { timeout: 1_000 });
    return () => cancelIdleCallback(idle);
  }, []);
  // A change made here (switcher, Settings) is the user's own: any notice of one made elsewhere goes,
  // also when a status check in flight saw this very change first.
  const ownStatus = (s: WalletStatus) => {
    noteOwn(s);
    setFollowed(undefined);
    onStatus(s);
  };
  const go = (r: Route) => {
    setFollowed(undefined);
    setRoute(r);
  };
  const { hidden, toggle: toggleHidden, error: hiddenError } = useHiddenAssets(status.network.id);
  const key = `${status.network.id}:${status.account?.id}`;
  const balances = useBalances(key, takeOpened);
  const hrp = hrpOf(status);
  // A lock the background did not confirm is said, never shown as done: the session survives a
  // worker restart, so a wallet shown locked after a failed request could still be unlocked.
  const [lockError, setLockError] = useState<{ text: string; detail?: string | undefined } | undefined>(undefined);
  const lock = async () => {
    setLockError(undefined);
    try {
      onStatus(await call('wallet.lock', {}));
    } catch (e) {
      const now = await call('wallet.status', {}).catch(() => null);
      if (now?.vault === 'locked') onStatus(now);
      else {
        // The reason is the detail: its own advice (reopen the popup) does not lock anything.
        const why = errorInfo(e);
        setLockError({ text: 'The wallet could not be locked, so it may still be unlocked. Try again; closing the browser also locks it.', detail: why.detail ?? why.text });
      }
    }
  };
  let screen;
  switch (route) {
    case 'home':
      screen = (
        <>
          <Home
            account={status.account}
            selection={selectionOf(status)}
            actions={
              <nav class="action-row" aria-label="Actions">
                {ACTIONS.map((a) => (
                  <button key={a.route} type="button" onClick={() => go(a.route)}>
                    <span class="icon" aria-hidden="true">
                      {a.icon}
                    </span>
                    {a.label}
                  </button>
                ))}
              </nav>
            }
            view={balances.view} loadError={balances.error} hidden={hidden} onToggleHidden={toggleHidden} onRefresh={balances.refresh} />
          <FormError error={hiddenError} />
        </>
      );
      break;
    case 'send':
      // Keyed by account and network: a switch drops any form or review of the one before.
      screen = <Send key={key} status={status} hrp={hrp} balances={balances.view} hidden={hidden} onSent={balances.refresh} />;
      break;
    case 'receive':
      screen = <Receive account={status.account!} network={status.network.name} />;
      break;
    case 'move':
      screen = <Move key={key} selection={selectionOf(status)} balances={balances.view} hidden={hidden} onChanged={balances.refresh} nodeDown={['unreachable', 'slow'].includes(nodeHealth(balances.view, Date.now()).state)} />;
      break;
    case 'stake':
      screen = <LazyStake key={key} status={status} hrp={hrp} balances={balances.view} onChanged={balances.refresh} />;
      break;
    case 'tokens':
      screen = <LazyTokens key={key} status={status} hrp={hrp} selection={selectionOf(status)} listKey={key} />;
      break;
    case 'assets':
      screen = <Assets key={key} status={status} hrp={hrp} balances={balances.view} onChanged={balances.refresh} />;
      break;
    case 'activity':
      screen = <Activity balances={balances.view} listKey={key} selection={selectionOf(status)} />;
      break;
    case 'settings':
      screen = <Settings status={status} onStatus={ownStatus} />;
      break;
  }
  return (
    <div class="wallet">
      <header class="topbar">
        <NetworkBadge network={status.network} />
        <AccountSwitcher status={status} onStatus={ownStatus} />
        <button type="button" class="small lock" onClick={() => void lock()}>
          Lock
        </button>
      </header>
      <FormError error={lockError?.text} detail={lockError?.detail} />
      <NodeBanner view={balances.view} />
      {followed && (
        <div class="node-banner info" role="status" data-testid="followed-switch">
          <p>{followed}</p>
          <SmallButton onClick={() => setFollowed(undefined)}>
            Dismiss
          </SmallButton>
        </div>
      )}
      <main class="screen" id="screen">
        {screen}
      </main>
      <nav class="tabs" aria-label="Wallet sections">
        {TABS.map((t) => (
          <button key={t.route} type="button" aria-current={tabOf(route) === t.route ? 'page' : undefined} onClick={() => go(t.route)}>
            <span class="icon" aria-hidden="true">
              {t.icon}
            </span>
            {t.label}
          </button>
        ))}
      </nav>
    </div>
  );
}
