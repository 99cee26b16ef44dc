// The approval window: what a site asks for, shown from the background's decoded view of the
// exact request (for transactions: the unsigned bytes themselves), with Approve / Reject. One
// request at a time, oldest first; closing the window rejects the one on screen. A locked wallet
// asks for the password first: the requests wait in the background meanwhile.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { LegView, OwnersView, TxView } from '../core/describe.js';
import { BackgroundError } from '../shared/client.js';
import type { ApprovalAssetInfo, ApprovalSummary, ApprovalView, NetworkView, WalletStatus } from '../shared/messages.js';
import { errorText, useCall } from './api.js';
import { AVAX_DECIMALS, formatClock, formatDateTime, formatUnits, formatValue, units, WEI_DECIMALS } from './format.js';
import { Unlock } from './screens/Unlock.js';

type Summary<K extends ApprovalSummary['kind']> = Extract<ApprovalSummary, { kind: K }>;
type Assets = Record<string, ApprovalAssetInfo>;

const TX_KINDS: Record<string, string> = {
  BaseTx: 'Send',
  ImportTx: 'Import',
  ExportTx: 'Export',
  CreateAssetTx: 'Create an asset',
  OperationTx: 'Mint or NFT operation',
};

const OUTPUT_KINDS: Record<string, string> = {
  MintOutput: 'Right to mint',
  NftMintOutput: 'Right to mint NFTs',
  NftTransferOutput: 'NFT',
  PropertyMintOutput: 'Right to mint properties',
  PropertyOwnedOutput: 'Property',
};

function chainText(chain: string): string {
  return `${chain}-Chain`;
}

/** Unix seconds as local date and time, with the raw value for the exact record. */
function timeText(seconds: string): string {
  const n = Number(seconds);
  return Number.isSafeInteger(n) && n * 1000 <= 8.64e15 ? `${formatDateTime(n * 1000)} (${seconds})` : seconds;
}

function Owners({ owners }: { owners: OwnersView }) {
  const n = owners.addresses.length;
  return (
    <div class="owners">
      {owners.addresses.map((a) => (
        <div key={a} class="mono break">
          {a}
        </div>
      ))}
      {(n !== 1 || owners.threshold !== 1) && (
        <div class="small-text" data-testid="threshold">
          {owners.threshold} of {n} signatures
        </div>
      )}
      {owners.locktime !== '0' && (
        <div class="small-text">Locked until {timeText(owners.locktime)}</div>
      )}
    </div>
  );
}

function LegAmount({ leg, assets }: { leg: LegView; assets: Assets }) {
  if (leg.amount === undefined) {
    return (
      <div>
        <div>{OUTPUT_KINDS[leg.kind] ?? leg.kind}</div>
        <AssetName assetID={leg.assetID} info={assets[leg.assetID]} />
        {leg.payloadHex !== undefined && <div class="mono break small-text">Payload 0x{leg.payloadHex}</div>}
      </div>
    );
  }
  const info = assets[leg.assetID];
  return (
    <div>
      <div class="amount">
        {info ? formatValue(leg.amount, info.denomination, info.symbol) : `${formatUnits(leg.amount, 0)} base units`}
      </div>
      <AssetName assetID={leg.assetID} info={info} />
      {leg.stakeableUntil !== undefined && <div class="small-text">Locked for staking until {timeText(leg.stakeableUntil)}</div>}
    </div>
  );
}

function AssetName({ assetID, info }: { assetID: string; info: ApprovalAssetInfo | undefined }) {
  if (info?.verified) {
    return (
      <span class="badge verified" title="The network's own AVAX asset">
        ✓ Verified {info.symbol}
      </span>
    );
  }
  return (
    <div class="small-text">
      {info ? `${info.symbol}, not AVAX · ` : 'Unknown asset · '}
      <span class="mono break">ID {assetID}</span>
    </div>
  );
}

function Legs({ title, legs, assets, testid }: { title: string; legs: LegView[]; assets: Assets; testid: string }) {
  return (
    <section class="legs" data-testid={testid}>
      <h3>
        {title} ({legs.length})
      </h3>
      {legs.length === 0 ? (
        <p class="muted">None</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Chain</th>
              <th scope="col">{title === 'Inputs' ? 'Spent from' : 'Paid to'}</th>
              <th scope="col">Amount</th>
            </tr>
          </thead>
          <tbody>
            {legs.map((leg, i) => (
              <tr key={`${leg.utxoID ?? ''}${i}`}>
                <td>{leg.chain}</td>
                <td>
                  {leg.evmAddress !== undefined && <div class="mono break">{leg.evmAddress}</div>}
                  {leg.owners && <Owners owners={leg.owners} />}
                  {leg.unknownUtxo && (
                    <div class="badge warn" role="note">
                      Unknown UTXO: the wallet cannot see what this input spends or who owns it
                    </div>
                  )}
                </td>
                <td>
                  <LegAmount leg={leg} assets={assets} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function hexLength(hex: string): number {
  return Math.floor(hex.replace(/^0x/, '').length / 2);
}

function TxAction({ summary }: { summary: Summary<'tx'> }) {
  // What happens after Approve matters as much as what is signed: say it before anything else.
  const text = !summary.complete
    ? 'Partly signed: the site gets it back to collect the other signatures'
    : summary.action === 'send'
      ? 'Your signatures complete this transaction: the wallet sends it'
      : 'Signed and handed back to the site (not sent by the wallet)';
  return (
    <p class={`action-line${summary.action === 'send' && summary.complete ? ' sends' : ''}`} data-testid="tx-action">
      {text}
    </p>
  );
}

/** The bytes a signature covers, folded: what a careful user (or another tool) can check. */
function ExactBytes({ hex, what, digest }: { hex: string; what?: string; digest?: string }) {
  return (
    <details class="section">
      <summary>Exact bytes ({hexLength(hex)} bytes)</summary>
      <div class="section-body small-text">
        {what && <p class="muted">{what}</p>}
        <div class="mono break" data-testid="exact-bytes">
          {hex}
        </div>
        {digest !== undefined && (
          <p>
            Hash the key signs: <span class="mono break" data-testid="signed-digest">{digest}</span>
          </p>
        )}
      </div>
    </details>
  );
}

function TxDetails({ summary }: { summary: Summary<'tx'> }) {
  const view: TxView = summary.view;
  return (
    <div class="stack" data-testid="tx-summary">
      <TxAction summary={summary} />
      <dl class="facts compact">
        <dt>Chain</dt>
        <dd>{chainText(summary.chain)}</dd>
        <dt>Kind</dt>
        <dd>
          {TX_KINDS[view.kind] ?? view.kind} <span class="muted">({view.kind})</span>
        </dd>
        <dt>Network ID</dt>
        <dd>{view.networkID}</dd>
      </dl>
      {view.asset && (
        <dl class="facts compact" data-testid="new-asset">
          <dt>New asset</dt>
          <dd>{view.asset.name}</dd>
          <dt>Symbol</dt>
          <dd>{view.asset.symbol}</dd>
          <dt>Denomination</dt>
          <dd>{view.asset.denomination}</dd>
        </dl>
      )}
      <Legs title="Inputs" legs={view.inputs} assets={summary.assets} testid="inputs" />
      <Legs title="Outputs" legs={view.outputs} assets={summary.assets} testid="outputs" />
      {view.operations.map((op, i) => (
        <Legs key={i} title={`Operation: ${op.kind}`} legs={op.outputs} assets={summary.assets} testid={`operation-${i}`} />
      ))}
      <dl class="facts compact">
        <dt>Fee</dt>
        <dd data-testid="fee">{formatValue(view.burned, AVAX_DECIMALS, 'AVAX')} burned</dd>
        <dt>Memo</dt>
        <dd data-testid="memo" class="break">
          {view.memoText !== undefined ? view.memoText : view.memoHex !== undefined ? <span class="mono">0x{view.memoHex} (hex)</span> : <span class="muted">None</span>}
        </dd>
      </dl>
      <ExactBytes hex={summary.unsignedHex} />
    </div>
  );
}

function EvmDetails({ summary }: { summary: Summary<'evm-tx'> }) {
  const feeCap = units(summary.gasLimit) * units(summary.maxFeePerGas);
  // What a unit of gas likely costs: the base fee bound plus the tip, never above the cap.
  const likelyPrice = units(summary.baseFeePerGas) + units(summary.maxPriorityFeePerGas);
  const likelyFee = units(summary.expectedGas) * (likelyPrice < units(summary.maxFeePerGas) ? likelyPrice : units(summary.maxFeePerGas));
  // Helicon charges at least half the gas limit: a limit far above what the call uses costs real money.
  const use = summary.estimatedGasUse === undefined ? undefined : units(summary.estimatedGasUse);
  const oversized = use !== undefined && units(summary.expectedGas) > use;
  const hasData = summary.data !== '' && summary.data !== '0x';
  // Gas prices in the chain's own small unit: nAVAX on Avalanche, gwei elsewhere (both 10^-9).
  const gwei = summary.symbol === 'AVAX' ? 'nAVAX' : 'gwei';
  return (
    <div class="stack" data-testid="evm-summary">
      <dl class="facts compact">
        <dt>Chain</dt>
        <dd data-testid="evm-chain">
          {summary.chainName} (chain ID {summary.chainId})
        </dd>
        <dt>From</dt>
        <dd class="mono break">{summary.from}</dd>
        <dt>To</dt>
        <dd class="mono break">{summary.to === '' ? <span class="badge warn">Creates a contract</span> : summary.to}</dd>
        <dt>Value</dt>
        <dd class="amount" data-testid="evm-value">
          {formatValue(summary.valueWei, WEI_DECIMALS, summary.symbol)}
        </dd>
        <dt>Nonce</dt>
        <dd data-testid="evm-nonce">{summary.nonce}</dd>
        <dt>Likely fee</dt>
        <dd data-testid="fee-likely">
          about {formatValue(likelyFee, WEI_DECIMALS, summary.symbol)}
          <div class="small-text muted">
            {formatUnits(summary.expectedGas, 0)} gas charged (at least half the gas limit is always charged)
          </div>
          {oversized ? (
            <div class="badge warn" data-testid="gas-limit-oversized">
              The gas limit is {formatUnits(summary.gasLimit, 0)}, but this call uses about {formatUnits(use, 0)}: half the limit is charged anyway.
            </div>
          ) : null}
        </dd>
        <dt>Fee at most</dt>
        <dd data-testid="fee">
          {formatValue(feeCap, WEI_DECIMALS, summary.symbol)}
          <div class="small-text muted">
            {formatUnits(summary.gasLimit, 0)} gas × {formatUnits(summary.maxFeePerGas, 9)} {gwei}; tip up to {formatUnits(summary.maxPriorityFeePerGas, 9)} {gwei} per gas
          </div>
        </dd>
      </dl>
      {hasData ? (
        <details class="section" data-testid="evm-data">
          {/* The first 4 bytes select the contract function: shown without opening the details. */}
          <summary>
            Call data ({hexLength(summary.data)} bytes, function <span class="mono">{summary.data.slice(0, 10)}</span>)
          </summary>
          <div class="section-body mono break small-text">{summary.data}</div>
        </details>
      ) : (
        <p class="muted">No call data</p>
      )}
      <ExactBytes hex={summary.unsignedHex} what="EIP-1559 transaction, unsigned: its keccak-256 is what is signed" />
    </div>
  );
}

function MessageDetails({ summary }: { summary: Summary<'sign-message'> }) {
  return (
    <div class="stack" data-testid="message-summary">
      <p>Sign this message{summary.encoding === 'hex' ? ' (binary, shown as hex)' : ''}:</p>
      <pre class="message mono break">{summary.encoding === 'hex' ? `0x${summary.message.replace(/^0x/, '')}` : summary.message}</pre>
      <dl class="facts compact">
        <dt>Format</dt>
        <dd data-testid="message-format">{summary.format === 'personal' ? 'Ethereum personal message (EIP-191)' : 'Avalanche signed message'}</dd>
        <dt>Signed by</dt>
        <dd class="mono break">{summary.signer}</dd>
      </dl>
      <ExactBytes
        hex={summary.bytesHex}
        digest={summary.digestHex}
        what={
          summary.format === 'personal'
            ? 'The message bytes. The key signs their EIP-191 hash: keccak-256 of "\\x19Ethereum Signed Message:\\n", the length and the bytes.'
            : 'The message bytes. The key signs sha256 of "\\x1AAvalanche Signed Message:\\n", the length (4 bytes) and the bytes.'
        }
      />
    </div>
  );
}

function TypedDataDetails({ summary }: { summary: Summary<'sign-typed-data'> }) {
  return (
    <div class="stack" data-testid="typed-data-summary">
      <p>Sign this structured data (EIP-712):</p>
      <dl class="facts compact">
        <dt>Type</dt>
        <dd class="mono break">{summary.primaryType}</dd>
        <dt>Signed by</dt>
        <dd class="mono break">{summary.signer}</dd>
        {summary.chainId !== undefined && (
          <>
            <dt>Chain ID</dt>
            <dd>{summary.chainId}</dd>
          </>
        )}
      </dl>
      <h3>Domain</h3>
      <pre class="message mono break" data-testid="typed-domain">
        {summary.domainJson}
      </pre>
      <h3>Message</h3>
      <pre class="message mono break" data-testid="typed-message">
        {summary.messageJson}
      </pre>
      <details class="section">
        <summary>Type definitions</summary>
        <pre class="section-body message mono break small-text" data-testid="typed-types">
          {summary.typesJson}
        </pre>
      </details>
    </div>
  );
}

function AddChainDetails({ summary }: { summary: Summary<'add-chain'> }) {
  return (
    <div class="stack" data-testid="add-chain-summary">
      <p>Add this EVM chain to the wallet:</p>
      <dl class="facts compact">
        <dt>Name</dt>
        <dd class="break">{summary.chainName}</dd>
        <dt>Chain ID</dt>
        <dd>{summary.chainId}</dd>
        <dt>RPC URL</dt>
        <dd class="mono break" data-testid="add-chain-rpc">
          {summary.rpcUrl}
        </dd>
        <dt>Symbol</dt>
        <dd>
          {summary.symbol} <span class="muted">({summary.decimals} decimals)</span>
        </dd>
        <dt>Explorer</dt>
        <dd class="mono break">{summary.explorerUrl ?? <span class="muted">None</span>}</dd>
      </dl>
      <p class="warn-box" role="note">
        The RPC URL&apos;s operator sees your addresses and what you do on this chain, and could answer with false data: add only chains you trust. An
        added chain is EVM-only: the X-Chain and P-Chain are not on it.
      </p>
    </div>
  );
}

function SummaryDetails({ summary }: { summary: ApprovalSummary }) {
  switch (summary.kind) {
    case 'connect':
      return (
        <div class="stack" data-testid="connect-summary">
          <p>
            Connect to this wallet with the account <strong data-testid="connect-account">{summary.accountName}</strong>. The site will see these addresses:
          </p>
          <ul class="plain-list">
            {summary.accounts.map((a) => (
              <li key={a} class="mono break">
                {a}
              </li>
            ))}
          </ul>
          <p class="muted small-text">Every signature it asks for later still needs your approval.</p>
        </div>
      );
    case 'sign-message':
      return <MessageDetails summary={summary} />;
    case 'sign-typed-data':
      return <TypedDataDetails summary={summary} />;
    case 'tx':
      return <TxDetails summary={summary} />;
    case 'evm-tx':
      return <EvmDetails summary={summary} />;
    case 'switch-chain':
      return (
        <div class="stack" data-testid="switch-summary">
          <p>
            Switch from <strong>{summary.fromName}</strong> to <strong>{summary.toName}</strong> (chain ID {summary.chainId})
          </p>
          <p class="muted small-text">Sites then see this chain for their EVM requests.</p>
        </div>
      );
    case 'add-chain':
      return <AddChainDetails summary={summary} />;
    default:
      return <p class="error-text">This request cannot be shown; reject it.</p>;
  }
}

const TITLES: Record<ApprovalSummary['kind'], string> = {
  connect: 'Connection request',
  'sign-message': 'Message to sign',
  'sign-typed-data': 'Typed data to sign (EIP-712)',
  tx: 'Transaction to sign',
  'evm-tx': 'EVM transaction to sign',
  'switch-chain': 'Switch chain',
  'add-chain': 'Add a chain',
};

function isLockedError(e: unknown): boolean {
  return e instanceof BackgroundError && e.code === 'vault-locked';
}

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

type Phase = { state: 'checking' } | { state: 'locked'; network: NetworkView } | { state: 'open' };

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

  useEffect(() => {
    const id = shown?.id;
    if (id === undefined) return;
    const timer = setTimeout(() => setArmedId(id), armMs);
    return () => clearTimeout(timer);
  }, [shown?.id, armMs]);

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
  useEffect(() => {
    call('wallet.status', {}).then(
      (s) => {
        network.current = s.network;
        setPhase(s.vault === 'locked' ? { state: 'locked', network: s.network } : { state: 'open' });
      },
      (e: unknown) => setListError(errorText(e)),
    );
  }, [call]);

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
      call('approvals.decide', { id, approved: false }).catch(() => undefined);
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

  if (phase.state === 'locked') {
    return <Unlock network={phase.network} onUnlocked={onUnlocked} note={waitingNote(waitingSites)} />;
  }
  if (!approvals || (approvals.length === 0 && !settled)) {
    const failed = listError !== undefined && (phase.state === 'checking' || !approvals);
    return (
      <main class="approval">
        <p class={failed ? 'error-text' : 'muted'} role={failed ? 'alert' : 'status'}>
          {failed ? listError : 'Loading the request…'}
        </p>
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
        <div class="small-text muted">{known ? TITLES[shown.summary.kind] : 'Request'}</div>
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
      <div class="approval-body">
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
          <button type="button" class="primary wide" disabled={busy || !known || (armMs > 0 && armedId !== shown.id)} onClick={() => void decide(true)}>
            Approve
          </button>
        </div>
      </footer>
    </main>
  );
}
