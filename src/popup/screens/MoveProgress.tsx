// One move as the Moves list shows it: its milestones, why it is paused or failed, its txs and fees.
// Its own file beside Move.tsx (which lists the moves) so each screen file stays readable.
import { plainError } from '../errors.js';
import { AmountText } from '../components/AmountText.js';
import { CopyButton } from '../components/CopyButton.js';
import { ErrorDetail, Facts, FormError, Muted, MutedText } from '../components/Field.js';
import { Term } from '../components/Term.js';
import { AVAX_DECIMALS, chainLabel, formatSince, formatValue, shortenId } from '../format.js';
import type { TransferView } from '../../shared/messages.js';
import { FUNDS_NO_LONGER_SHOWN } from '../../shared/messages-transfers.js';

// Milestones, in order; a transfer's state is the last one reached.
const STEPS: { state: TransferView['state']; label: string }[] = [
  { state: 'pending', label: 'Started' },
  { state: 'export-signed', label: 'Export issued' },
  { state: 'export-accepted', label: 'Export accepted' },
  { state: 'import-signed', label: 'Import issued' },
  { state: 'completed', label: 'Imported' },
];

/** A move still under way: neither imported nor failed. */
export function isActive(t: TransferView): boolean {
  return t.state !== 'completed' && t.state !== 'failed';
}

/** Failures of the node itself: the move waits for it, not for anything the user can do. */
const NODE_CODES = new Set(['node-unreachable', 'timeout', 'node-response', 'rpc', 'codec']);

/** Waits the chain ends by itself; any other stop's reason is shown, the move tried again. */
const CHAIN_WAITS = new Set(['tx-processing', 'evm-tx-in-flight']);

/** Why a move under way is not moving, in words; the background's reason one click away. */
function MovePaused({ t, nodeDown, about }: { t: TransferView; nodeDown: boolean; about: string }) {
  const waitsForNode = nodeDown || (t.paused !== undefined && NODE_CODES.has(t.paused.code));
  // A stop's reason often quotes the move's last error: said once.
  const error = t.error && !t.paused?.message.includes(t.error) ? t.error : undefined;
  const detail = [t.paused?.message, error].filter((x): x is string => x !== undefined).join(' · ');
  return (
    <div class="paused" data-testid="transfer-paused" data-reason={waitsForNode ? 'node' : 'waiting'}>
      <p>
        {waitsForNode
          ? `Paused — waiting for the node to answer${t.paused ? ` (since ${formatSince(t.paused.since, Date.now())})` : ''}. The move continues by itself when it does; nothing is lost meanwhile.`
          : t.paused?.code === 'fee-above-approved'
            ? 'Waiting — its import now costs more than you approved. It is tried again every minute within the fee you approved; or use Import now at the top of this screen, reviewing the new fee first.'
            : t.paused?.code === 'import-stuck'
              ? 'Waiting — the network refused its import several times; the funds wait in atomic memory. It is tried again every minute; or use Import now at the top of this screen, reviewing the fee first.'
              : t.paused?.code === 'funds-not-shown'
                ? `Waiting — its funds have not shown in the ${chainLabel(t.to)} for a while. If another wallet with your phrase, or a site, imported them, they are already in your ${chainLabel(t.to)} balance; if they show again, the move imports them by itself.`
                : !t.paused || CHAIN_WAITS.has(t.paused.code)
                ? 'Waiting for the chain — the move continues by itself.'
                : `Stopped — ${plainError(t.paused.code, t.paused.message).text.replace(/\.?$/, '.')} The wallet tries it again every minute.`}
      </p>
      <ErrorDetail detail={detail || undefined} about={about} />
    </div>
  );
}

/** One move's progress. `nodeDown`: the node is not answering, so a move under way is paused. */
export function TransferProgress({ t, nodeDown = false }: { t: TransferView; nodeDown?: boolean }) {
  const at = STEPS.findIndex((s) => s.state === t.state);
  // Names its Details apart from another move's (and from the node banner's).
  const about = `of moving ${formatValue(t.amount, AVAX_DECIMALS, 'AVAX')} from the ${chainLabel(t.from)} to the ${chainLabel(t.to)}`;
  return (
    <li class="transfer" data-testid="transfer">
      <div class="tx-top">
        <strong>
          {chainLabel(t.from)} → {chainLabel(t.to)}
        </strong>
        <span class="amount">
          <AmountText value={t.amount} denomination={AVAX_DECIMALS} symbol="AVAX" />
        </span>
      </div>
      {t.state === 'failed' ? (
        <FormError
          error={
            t.exportKept === 'unclear'
              ? `This move may have gone through after all: the node no longer shows the funds its export spent. Check Activity before you move again.`
              : `This move did not happen: its export was not ${t.exportTxID ? 'accepted' : 'made'}, so nothing left the wallet.${t.exportKept ? ` Your next ${chainLabel(t.from)} move or send takes its place, so the two can never both go through.` : ''}`
          }
          detail={t.error}
          about={about}
        />
      ) : (
        <ol class="steps">
          {STEPS.map((s, i) => (
            <li key={s.state} class={i <= at ? 'done' : i === at + 1 ? 'now' : ''} aria-current={i === at + 1 ? 'step' : undefined}>
              {s.label}
            </li>
          ))}
        </ol>
      )}
      {t.state === 'completed' && t.error && (
        <Muted data-testid="transfer-elsewhere">
          {t.error === FUNDS_NO_LONGER_SHOWN
            ? `Its funds no longer wait in the ${chainLabel(t.to)}'s atomic memory, and no import of this move took them: most likely "Import now" brought them in with other waiting funds. They are not lost; if they show as waiting again, Import now brings them.`
            : `Another import, not this move's own, brought its funds into the ${chainLabel(t.to)}: they are not lost.`}
        </Muted>
      )}
      {isActive(t) && (nodeDown || t.paused || t.error) && <MovePaused t={t} nodeDown={nodeDown} about={about} />}
      <Facts>
        {t.exportTxID && (
          <Term term="Export" class="id-line">
            <span class="mono">{shortenId(t.exportTxID)}</span>
            <CopyButton text={t.exportTxID} what={`export transaction ID ${shortenId(t.exportTxID)}`} />
            {t.exportFee !== undefined && <MutedText>fee <AmountText value={t.exportFee} denomination={AVAX_DECIMALS} symbol="AVAX" /></MutedText>}
          </Term>
        )}
        {t.importTxIDs.map((id) => (
          <Term key={id} term="Import" class="id-line">
            <span class="mono">{shortenId(id)}</span>
            <CopyButton text={id} what={`import transaction ID ${shortenId(id)}`} />
          </Term>
        ))}
        {t.importFee !== undefined && (
          <Term term="Import fee">
            <AmountText value={t.importFee} denomination={AVAX_DECIMALS} symbol="AVAX" />
          </Term>
        )}
      </Facts>
    </li>
  );
}
