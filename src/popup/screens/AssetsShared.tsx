// What the Assets screens share: their props and holdings, the fee line, the finished-issue view,
// the owner-set editor, how mint rights are named, and a mint whose right was used since its review.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { errorField, type RequestState } from '../api.js';
import { type Check, checkAddress, checkWholeNumber } from '../checks.js';
import { FormError, Muted, TextField } from '../components/Field.js';
import { TxStatus } from '../components/TxStatus.js';
import { AVAX_DECIMALS, formatValue, shortenId } from '../format.js';
import type { Amount, AssetBalanceView, BalancesView, MintRightView, OwnerSet, RequestResult, WalletStatus } from '../../shared/messages.js';

export interface AssetsProps {
  status: WalletStatus;
  hrp: string;
  balances: BalancesView | null;
  onChanged: () => void;
}

/** The wallet's mint rights and NFTs, loaded once for the screen and reloaded after each change; the X-Chain's fees. */
export interface Holdings {
  rights: RequestState<RequestResult<'assets.mintRights'>>;
  nfts: RequestState<RequestResult<'assets.listNfts'>>;
  fees: RequestState<RequestResult<'assets.fees'>>;
}

export type FeeKind = keyof RequestResult<'assets.fees'>;

/**
 * The fee the transaction will burn, shown before it is signed; the same figure goes to the
 * background as the most the user accepts paying. X-Chain fees are fixed per kind of tx.
 */
export function FeeLine({ fees, kind }: { fees: Holdings['fees']; kind: FeeKind }) {
  const fee = fees.data?.[kind];
  return (
    <p class="fee-line" data-testid="asset-fee">
      <strong>Network fee: </strong>
      {fee !== undefined ? formatValue(fee, AVAX_DECIMALS, 'AVAX') : fees.error ? `unknown. ${fees.error}` : 'loading…'}
    </p>
  );
}

export function xAssets(view: BalancesView | null): AssetBalanceView[] {
  return view?.balances.filter((b) => b.chain === 'X') ?? [];
}

/** What a finished issue looks like on every form of this screen. */
export function Issued({ txID, fee, extra, onAgain }: { txID: string; fee?: Amount; extra?: ComponentChildren; onAgain: () => void }) {
  return (
    <div>
      {extra}
      <TxStatus chain="X" txID={txID} fee={fee} />
      <button type="button" onClick={onAgain}>
        Done
      </button>
    </div>
  );
}

// ---- owner sets ----

export interface OwnerDraft {
  addresses: string;
  threshold: string;
}

export function ownerSetOf(draft: OwnerDraft, hrp: string): Check<OwnerSet> {
  const lines = draft.addresses.split(/[\s,]+/).filter((l) => l !== '');
  if (lines.length === 0) return { ok: false, error: 'Enter at least one X-Chain address' };
  for (const [i, line] of lines.entries()) {
    const c = checkAddress(line, 'X', hrp);
    if (!c.ok) return { ok: false, error: `Address ${i + 1}: ${c.error}` };
  }
  if (new Set(lines).size !== lines.length) return { ok: false, error: 'An address is listed twice' };
  const t = checkWholeNumber(draft.threshold, 1, lines.length, 'signatures needed');
  if (!t.ok) return t;
  return { ok: true, value: { addresses: lines, threshold: t.value } };
}

export function OwnerEditor({ label, draft, onChange, hrp }: { label: string; draft: OwnerDraft; onChange: (d: OwnerDraft) => void; hrp: string }) {
  const check = ownerSetOf(draft, hrp);
  // One signature fits any list of addresses: what fails with it is the addresses', the rest the threshold's.
  const addresses = ownerSetOf({ ...draft, threshold: '1' }, hrp);
  const addressError = addresses.ok ? undefined : addresses.error;
  return (
    <fieldset class="owner-set">
      <legend>{label}</legend>
      <TextField label="Addresses (one per line)" multiline rows={2} mono value={draft.addresses} onInput={(v) => onChange({ ...draft, addresses: v })} error={addressError} />
      <TextField label="Signatures needed" inputMode="numeric" value={draft.threshold} onInput={(v) => onChange({ ...draft, threshold: v })} error={check.ok || addressError ? undefined : check.error} />
    </fieldset>
  );
}

// ---- mint rights ----

export function rightLabel(r: MintRightView): string {
  const who = r.threshold > 1 ? ` · ${r.threshold} of ${r.addresses.length} signatures` : '';
  return `${r.symbol} · ${r.name}${r.kind === 'nft' ? ` · group ${r.groupID ?? 0}` : ''} · ID ${shortenId(r.assetID)}${who}`;
}

export function NoRights({ what, h }: { what: string; h: Holdings }) {
  if (h.rights.error) return <FormError error={h.rights.error} />;
  if (!h.rights.data) return <Muted>Loading your mint rights…</Muted>;
  return <Muted>This wallet holds no mint right {what}. Create one under Create.</Muted>;
}

/** A mint form's submit that first pins the right it reviews (`key`), so reading the rights again cannot change it. */
export const pinned =
  (key: string | undefined, pin: (key: string) => void, submit: (e: Event) => void) =>
  (e: Event): void => {
    if (key !== undefined) pin(key);
    submit(e);
  };

/**
 * A mint's request. Its right used since the review (another of its minters minted; the background
 * refuses, field utxoID): the rights are read again and the mint goes back to its form saying so
 * (`note`), never left on a review that would now name another right. Answers undefined then.
 * Callers keep the reviewed asset or group picked, whatever the rights read next list first.
 */
export function useMintRight(h: Holdings) {
  const [used, setUsed] = useState(false);
  const run = async <T,>(request: Promise<T>): Promise<T | undefined> => {
    setUsed(false);
    try {
      return await request;
    } catch (e) {
      if (errorField(e) !== 'utxoID') throw e;
      setUsed(true);
      void h.rights.reload();
      return undefined;
    }
  };
  return { run, note: <FormError error={used ? 'That mint right was used since the review: by another of its minters, or by a mint of yours whose answer was lost (Activity lists your mints). Nothing was signed. Your mint rights were read again: review the mint again.' : undefined} /> };
}
