// What happened to a transaction the wallet just issued: pending until the chain accepts it, read
// from the activity list (the background settles pending items on each balances refresh).
import { useEffect, useState } from 'preact/hooks';
import { useCall } from '../api.js';
import { AVAX_DECIMALS, chainLabel } from '../format.js';
import type { ActivityItem, Amount, ChainName } from '../../shared/messages.js';
import { AmountText } from './AmountText.js';
import { CopyButton } from './CopyButton.js';
import { Term } from './Term.js';

const POLL_MS = 2000;
const MAX_POLLS = 90;

export interface TxStatusProps {
  chain: ChainName;
  txID: string;
  /** The tx's fee, as the send result reports it: nAVAX, or wei for a C-Chain EVM send (its ceiling until accepted). */
  fee?: Amount | undefined;
  /** Decimals of `fee` (9, nAVAX, unless given). */
  feeDenomination?: number;
  /** Test hook: poll interval. */
  pollMs?: number;
  /** The screen's heading once it went out ("Sent"): while that is unknown, or if refused, it says so instead. */
  heading?: string;
}

export function TxStatus({ chain, txID, fee, feeDenomination = AVAX_DECIMALS, pollMs = POLL_MS, heading }: TxStatusProps) {
  const call = useCall();
  const [state, setState] = useState<ActivityItem['status'] | 'unknown'>('unknown');
  const [checking, setChecking] = useState(false);
  /** The fee listed once accepted: for a C-Chain tx its receipt's, below the ceiling the send reported. */
  const [charged, setCharged] = useState<Amount | undefined>(undefined);
  /** This screen stopped asking (MAX_POLLS): the background still follows it; Activity says when. */
  const [stoppedAsking, setStoppedAsking] = useState(false);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async (round: number) => {
      try {
        const { items } = await call('activity.list', {});
        if (stopped) return;
        const item = items.find((i) => i.txID === txID);
        const now = item?.status ?? 'pending';
        setState(now);
        setChecking(item?.checking === true);
        if (now === 'accepted') setCharged(item?.fee);
        if (now !== 'pending') return;
        if (round >= MAX_POLLS) {
          setStoppedAsking(true);
          return;
        }
        // A balances refresh is what asks the node about pending transactions.
        if (round % 3 === 1) void call('balances.get', { refresh: true }).catch(() => undefined);
      } catch {
        if (stopped) return;
      }
      timer = setTimeout(() => void poll(round + 1), pollMs);
    };
    void poll(0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [call, txID, pollMs]);

  const label =
    state === 'accepted'
      ? `Accepted by the ${chainLabel(chain)}`
      : state === 'failed'
        ? `The ${chainLabel(chain)} refused it`
        : checking
          ? `Checking whether it went through: the node's answer was lost. Don't send it again; if the ${chainLabel(chain)} never got it, the wallet sends this same transaction again.`
          : stoppedAsking
            ? `Issued; the ${chainLabel(chain)} has not accepted it yet. The wallet keeps checking in the background, and Activity shows when it is decided.`
            : `Issued; waiting for the ${chainLabel(chain)} to accept it…`;
  // Paid only once accepted; a C-Chain fee is at most this until then; a refused X/P tx paid nothing.
  const shownFee = fee === undefined || (state === 'failed' && chain !== 'C') ? undefined : state === 'accepted' ? (charged ?? fee) : fee;
  const feeTerm = state === 'accepted' ? 'Fee paid' : chain === 'C' ? 'Fee (at most)' : 'Fee';
  return (
    <div class={`tx-status ${state}`}>
      {heading && <h1>{state === 'failed' ? 'Refused' : checking && state !== 'accepted' ? 'Checking whether it went out' : heading}</h1>}
      <p role="status" aria-live="polite" data-testid="tx-status">
        {(state === 'pending' || state === 'unknown') && !stoppedAsking ? <span class="spinner" aria-hidden="true" /> : null}
        {label}
      </p>
      <dl class="facts">
        <Term term={chain === 'C' ? 'Transaction hash' : 'Transaction ID'} class="id-line">
          <span class="mono break">{txID}</span>
          <CopyButton text={txID} what="transaction ID" />
        </Term>
        {shownFee !== undefined && (
          <Term term={feeTerm}>
            {/* "At most" is a ceiling: rounded up, never shown below it. */}
            <AmountText value={shownFee} denomination={feeDenomination} symbol="AVAX" up={feeTerm === 'Fee (at most)'} />
          </Term>
        )}
      </dl>
    </div>
  );
}
