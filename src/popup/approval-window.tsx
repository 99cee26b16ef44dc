// The approval window: what a site asks for, shown from the background's decoded view of the
// exact request (for transactions: the unsigned bytes themselves), with Approve / Reject. One
// request at a time, oldest first; closing the window rejects the one on screen.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { LegView, OwnersView, TxView } from '../core/describe.js';
import type { ApprovalAssetInfo, ApprovalSummary, ApprovalView } from '../shared/messages.js';
import { errorText, useCall } from './api.js';
import { AVAX_DECIMALS, formatClock, formatDateTime, formatUnits, formatValue, units, WEI_DECIMALS } from './format.js';

type TxSummary = Extract<ApprovalSummary, { kind: 'tx' }>;
type EvmSummary = Extract<ApprovalSummary, { kind: 'evm-tx' }>;
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

function TxDetails({ summary }: { summary: TxSummary }) {
  const view: TxView = summary.view;
  return (
    <div class="stack" data-testid="tx-summary">
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
      <details class="section">
        <summary>Exact bytes ({hexLength(summary.unsignedHex)} bytes)</summary>
        <div class="section-body mono break small-text" data-testid="exact-bytes">
          {summary.unsignedHex}
        </div>
      </details>
    </div>
  );
}

function EvmDetails({ summary }: { summary: EvmSummary }) {
  const feeCap = units(summary.gasLimit) * units(summary.maxFeePerGas);
  const hasData = summary.data !== '' && summary.data !== '0x';
  return (
    <div class="stack" data-testid="evm-summary">
      <dl class="facts compact">
        <dt>Chain</dt>
        <dd>C-Chain (chain ID {summary.chainId})</dd>
        <dt>To</dt>
        <dd class="mono break">{summary.to}</dd>
        <dt>Value</dt>
        <dd class="amount">{formatValue(summary.valueWei, WEI_DECIMALS, 'AVAX')}</dd>
        <dt>Fee at most</dt>
        <dd data-testid="fee">
          {formatValue(feeCap, WEI_DECIMALS, 'AVAX')}
          <div class="small-text muted">
            {formatUnits(summary.gasLimit, 0)} gas × {formatUnits(summary.maxFeePerGas, 9)} nAVAX; tip up to {formatUnits(summary.maxPriorityFeePerGas, 9)} nAVAX per gas
          </div>
        </dd>
      </dl>
      {hasData ? (
        <details class="section">
          <summary>Data ({hexLength(summary.data)} bytes)</summary>
          <div class="section-body mono break small-text">{summary.data}</div>
        </details>
      ) : (
        <p class="muted">No call data</p>
      )}
    </div>
  );
}

function SummaryDetails({ summary }: { summary: ApprovalSummary }) {
  switch (summary.kind) {
    case 'connect':
      return (
        <div class="stack" data-testid="connect-summary">
          <p>Connect to this wallet and see these addresses:</p>
          <ul class="plain-list">
            {summary.accounts.map((a) => (
              <li key={a} class="mono break">
                {a}
              </li>
            ))}
          </ul>
        </div>
      );
    case 'sign-message':
      return (
        <div class="stack" data-testid="message-summary">
          <p>Sign this message{summary.encoding === 'hex' ? ' (binary, shown as hex)' : ''}:</p>
          <pre class="message mono break">{summary.encoding === 'hex' ? `0x${summary.message.replace(/^0x/, '')}` : summary.message}</pre>
          <dl class="facts compact">
            <dt>Signed by</dt>
            <dd class="mono break">{summary.signer}</dd>
          </dl>
        </div>
      );
    case 'tx':
      return <TxDetails summary={summary} />;
    case 'evm-tx':
      return <EvmDetails summary={summary} />;
    default:
      return <p class="error-text">This request cannot be shown; reject it.</p>;
  }
}

const TITLES: Record<ApprovalSummary['kind'], string> = {
  connect: 'Connection request',
  'sign-message': 'Signature request',
  tx: 'Transaction to sign',
  'evm-tx': 'C-Chain transaction to sign',
};

export function ApprovalWindow({ close = () => window.close() }: { close?: () => void }) {
  const call = useCall();
  const [approvals, setApprovals] = useState<ApprovalView[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const rejectRef = useRef<HTMLButtonElement>(null);
  const shown = approvals?.[0];
  const shownId = useRef<string | undefined>(undefined);
  shownId.current = shown?.id;
  /** Requests this window already answered: closing it must not answer them again. */
  const answered = useRef(new Set<string>());

  const load = useCallback(async (): Promise<ApprovalView[] | undefined> => {
    try {
      const { approvals: list } = await call('approvals.list', {});
      setApprovals(list);
      return list;
    } catch (e) {
      setError(errorText(e));
      return undefined;
    }
  }, [call]);

  useEffect(() => {
    void load();
  }, [load]);

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

  const decide = async (approved: boolean) => {
    if (!shown || busy) return;
    setBusy(true);
    setError(undefined);
    answered.current.add(shown.id);
    try {
      await call('approvals.decide', { id: shown.id, approved });
    } catch (e) {
      // Already answered elsewhere or gone: the list says what is left. If it is still there,
      // closing the window rejects it.
      answered.current.delete(shown.id);
      setError(errorText(e));
    }
    const list = await load();
    setBusy(false);
    if (list && list.length === 0) close();
  };

  if (!approvals) {
    return (
      <main class="approval">
        <p class={error ? 'error-text' : 'muted'} role={error ? 'alert' : 'status'}>
          {error ?? 'Loading…'}
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
  return (
    <main class="approval" onKeyDown={(e) => e.key === 'Escape' && void decide(false)}>
      <header class="approval-head">
        <div class="small-text muted">{TITLES[shown.summary.kind] ?? 'Request'}</div>
        <h1 class="origin break" data-testid="origin">
          {shown.origin}
        </h1>
        {shown.frameOrigin !== undefined && (
          <div class="badge warn" data-testid="frame-origin">
            via frame {shown.frameOrigin}
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
        {error && (
          <p class="form-error" role="alert">
            {error}
          </p>
        )}
        <div class="actions">
          <button type="button" ref={rejectRef} class="wide" disabled={busy} onClick={() => void decide(false)}>
            Reject
          </button>
          <button type="button" class="primary wide" disabled={busy} onClick={() => void decide(true)}>
            Approve
          </button>
        </div>
      </footer>
    </main>
  );
}
