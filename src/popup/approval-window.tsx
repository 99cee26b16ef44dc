// The approval window: what a site asks for, shown from the background's decoded view of the
// exact request (for transactions: the unsigned bytes themselves), with Approve / Reject. One
// request at a time, oldest first; closing the window rejects the one on screen. A locked wallet
// asks for the password first: the requests wait in the background meanwhile.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { isLockedError } from '../core/errors.js';
import type { ApprovalSummary, ApprovalView, NetworkView, WalletStatus } from '../shared/messages.js';
import { errorText, useCall } from './api.js';
import { SummaryDetails } from './approval-details.js';
import { formatClock } from './format.js';
import { Unlock } from './screens/Unlock.js';

const TITLES: Record<ApprovalSummary['kind'], string> = {
  connect: 'Connection request',
  'sign-message': 'Message to sign',
  'sign-typed-data': 'Typed data to sign (EIP-712)',
  tx: 'Transaction to sign',
  'evm-tx': 'EVM transaction to sign',
  'switch-chain': 'Switch chain',
  'add-chain': 'Add a chain',
  'watch-asset': 'Add a token',
};

export interface ApprovalWindowProps {
  close?: () => void;
  /** How often the list of requests is asked for again (ms): requests arrive while the window is open. */
  pollMs?: number;
  /**
   * How long after opening (or unlocking) an empty list means "still on its way" rather than
   * "nothing waiting": the background opens the window while it still prepares the request.
   */
  graceMs?: number;
  /**
   * How long Approve stays disabled after a request appears: a second click meant for the
   * previous request must not approve the next one, which the user has not read.
   */
  armMs?: number;
}

/** Runs `step` now and `ms` after each run ends (one at a time), while `active`. */
function usePoll(active: boolean, ms: number, step: () => Promise<void>): void {
  useEffect(() => {
    if (!active) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      await step();
      if (!stopped) timer = setTimeout(() => void poll(), ms);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [active, ms, step]);
}

function waitingNote(sites: readonly string[]): string {
  if (sites.length === 0) return 'A site is waiting for your answer. Unlock the wallet to see its request.';
  const who = sites.length === 1 ? `${sites[0]} is` : `${sites.slice(0, -1).join(', ')} and ${sites[sites.length - 1]} are`;
  return `${who} waiting for your answer. Unlock the wallet to see the request.`;
}

type Phase = { state: 'checking' } | { state: 'none' } | { state: 'locked'; network: NetworkView } | { state: 'open' };

export function ApprovalWindow({ close = () => window.close(), pollMs = 1000, graceMs = 3000, armMs = 1000 }: ApprovalWindowProps) {
  const call = useCall();
  const [phase, setPhase] = useState<Phase>({ state: 'checking' });
  const [approvals, setApprovals] = useState<ApprovalView[] | undefined>(undefined);
  const [settled, setSettled] = useState(false);
  const [listError, setListError] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  /** While locked: the sites waiting, so the user knows who asks before typing the password. */
  const [waitingSites, setWaitingSites] = useState<string[]>([]);
  /** `busy` for the poll, which runs outside renders. */
  const busyRef = useRef(false);
  busyRef.current = busy;
  const rejectRef = useRef<HTMLButtonElement>(null);
  /** Requests this window already answered: closing it must not answer them again. */
  const answered = useRef(new Set<string>());
  /** Only the newest list request may set the list: a slow poll must not bring back an old one. */
  const loadSeq = useRef(0);
  const network = useRef<NetworkView | undefined>(undefined);
  const open = phase.state === 'open';
  const shown = open ? approvals?.[0] : undefined;
  const shownId = useRef<string | undefined>(undefined);
  shownId.current = shown?.id;
  const [armedId, setArmedId] = useState<string | undefined>(undefined);
  /** Times this window came to the front: a new request focuses it, under a cursor meant for the page behind. */
  const [fronted, setFronted] = useState(0);
  /** The last two pointer presses in this window (ms): a click in a fast stream of them is no decision. */
  const presses = useRef([-Infinity, -Infinity]);

  useEffect(() => {
    const front = () => {
      if (document.visibilityState !== 'visible') return;
      // Keys meant for the page behind go to Reject, as for a new request.
      rejectRef.current?.focus();
      setArmedId(undefined);
      setFronted((n) => n + 1);
    };
    const press = (e: PointerEvent) => (presses.current = [presses.current[1]!, e.timeStamp]);
    window.addEventListener('focus', front);
    document.addEventListener('visibilitychange', front);
    window.addEventListener('pointerdown', press, true);
    return () => {
      window.removeEventListener('focus', front);
      document.removeEventListener('visibilitychange', front);
      window.removeEventListener('pointerdown', press, true);
    };
  }, []);

  useEffect(() => {
    const id = shown?.id;
    if (id === undefined) return;
    const timer = setTimeout(() => setArmedId(id), armMs);
    return () => clearTimeout(timer);
  }, [shown?.id, armMs, fronted]);

  const relock = useCallback(() => {
    if (network.current) setPhase({ state: 'locked', network: network.current });
  }, []);

  const load = useCallback(async (fromPoll = false): Promise<ApprovalView[] | undefined> => {
    const seq = ++loadSeq.current;
    try {
      const { approvals: list } = await call('approvals.list', {});
      // While a decision is on its way the request on screen stays until the decision's own reload.
      if (seq !== loadSeq.current || (fromPoll && busyRef.current)) return list;
      setApprovals(list);
      setListError(undefined);
      return list;
    } catch (e) {
      // The wallet locked itself (idle) while requests were on screen: back to the unlock form.
      if (isLockedError(e)) relock();
      else if (seq === loadSeq.current) setListError(errorText(e));
      return undefined;
    }
  }, [call, relock]);

  // The requests are shown only to whoever can unlock the wallet.
  const checkStatus = useCallback(() => {
    setListError(undefined);
    call('wallet.status', {}).then(
      (s) => {
        network.current = s.network;
        setPhase(s.vault === 'locked' ? { state: 'locked', network: s.network } : s.vault === 'none' ? { state: 'none' } : { state: 'open' });
      },
      (e: unknown) => setListError(errorText(e)),
    );
  }, [call]);
  useEffect(checkStatus, [checkStatus]);

  // While open: ask for the list now and every `pollMs`, and give a request still on its way
  // `graceMs` before saying nothing is waiting.
  usePoll(
    open,
    pollMs,
    useCallback(async () => {
      if (!busyRef.current) await load(true);
    }, [load]),
  );
  useEffect(() => {
    if (!open) return;
    setSettled(false);
    const grace = setTimeout(() => setSettled(true), graceMs);
    return () => clearTimeout(grace);
  }, [open, graceMs]);

  // Closing the window answers the request on screen: no.
  useEffect(() => {
    const onHide = () => {
      const id = shownId.current;
      if (id === undefined || answered.current.has(id)) return;
      answered.current.add(id);
      call('approvals.decide', { id, approved: false, closing: true }).catch(() => undefined);
    };
    window.addEventListener('pagehide', onHide);
    return () => window.removeEventListener('pagehide', onHide);
  }, [call]);

  // Each new request starts with Reject focused: Enter never approves by accident.
  useLayoutEffect(() => {
    if (!busy) rejectRef.current?.focus();
  }, [shown?.id, busy]);

  // While locked: who waits, asked again every `pollMs` (a site may start waiting meanwhile).
  usePoll(
    phase.state === 'locked',
    pollMs,
    useCallback(async () => {
      await call('approvals.waiting', {}).then(
        (r) => setWaitingSites(r.sites),
        () => undefined,
      );
    }, [call]),
  );

  const onUnlocked = (s: WalletStatus) => {
    network.current = s.network;
    setError(undefined);
    setPhase({ state: 'open' });
  };

  const decide = async (approved: boolean) => {
    if (!shown || busy) return;
    setBusy(true);
    busyRef.current = true;
    setError(undefined);
    answered.current.add(shown.id);
    try {
      await call('approvals.decide', { id: shown.id, approved });
    } catch (e) {
      // Already answered elsewhere or gone: the list says what is left. If it is still there,
      // it shows again, and closing the window rejects it.
      answered.current.delete(shown.id);
      if (isLockedError(e)) relock();
      setError(errorText(e));
    }
    const list = await load();
    busyRef.current = false;
    setBusy(false);
    if (list && list.length === 0) close();
  };

  if (phase.state === 'none') {
    // No wallet yet: there is nothing to unlock or approve (the background answers sites at once).
    return (
      <main class="approval">
        <h1>XPC Wallet</h1>
        <p data-testid="not-set-up">XPC Wallet is not set up yet. Create or import a wallet first, then try again from the site.</p>
        <a href="index.html" target="_blank" rel="noopener">
          Open XPC Wallet
        </a>
      </main>
    );
  }
  if (phase.state === 'locked') {
    return <Unlock network={phase.network} onUnlocked={onUnlocked} note={waitingNote(waitingSites)} />;
  }
  if (!approvals || (approvals.length === 0 && !settled)) {
    const failed = listError !== undefined && (phase.state === 'checking' || !approvals);
    return (
      <main class="approval">
        <h1>XPC Wallet</h1>
        <p class={failed ? 'error-text' : 'muted'} role={failed ? 'alert' : 'status'}>
          {failed ? listError : 'Loading the request…'}
        </p>
        {failed && phase.state === 'checking' && <button type="button" onClick={checkStatus}>Try again</button>}
      </main>
    );
  }
  if (!shown) {
    return (
      <main class="approval">
        <h1>XPC Wallet</h1>
        <p data-testid="approval-empty">No pending request</p>
      </main>
    );
  }
  const waiting = approvals.length - 1;
  const known = shown.summary.kind in TITLES;
  return (
    <main class="approval" onKeyDown={(e) => e.key === 'Escape' && void decide(false)}>
      <header class="approval-head">
        <div class="small-text muted">{known ? (shown.summary.kind === 'evm-tx' && shown.summary.deploy ? 'Deploy a contract' : TITLES[shown.summary.kind]) : 'Request'}</div>
        {/* The frame that asks is the site that gets the answer: it heads the window; the page
            around it is context only. */}
        <h1 class="origin break" data-testid="origin">
          {shown.frameOrigin ?? shown.origin}
        </h1>
        {shown.frameOrigin !== undefined && (
          <div class="badge warn" data-testid="frame-origin">
            a frame inside {shown.origin}
          </div>
        )}
        <div class="small-text muted">
          <span class="mono">{shown.method}</span> · {formatClock(shown.createdAt)}
          {waiting > 0 && <span data-testid="more-waiting"> · {waiting} more waiting</span>}
        </div>
      </header>
      {/* Focusable: a request longer than the window scrolls, and the keyboard must reach all of it. */}
      <div class="approval-body" tabIndex={0} role="region" aria-label="The request">
        <SummaryDetails summary={shown.summary} />
      </div>
      <footer class="approval-actions">
        {(error ?? listError) !== undefined && (
          <p class="form-error" role="alert">
            {error ?? listError}
          </p>
        )}
        <div class="actions">
          <button type="button" ref={rejectRef} class="wide" disabled={busy} onClick={() => void decide(false)}>
            Reject
          </button>
          {/* A request this window cannot show cannot be approved knowingly. */}
          <button type="button" class="primary wide" disabled={busy || !known || (armMs > 0 && armedId !== shown.id)}
            // A pointer click within half a second of the press before it is part of a stream of clicks, not a decision.
            onClick={(e) => void (e.detail > 0 && presses.current[1]! - presses.current[0]! < 500 ? undefined : decide(true))}>
            Approve
          </button>
        </div>
      </footer>
    </main>
  );
}
