// X-Chain assets: what the wallet holds (with details), its NFTs (each with a Send button), creating
// fixed-cap, variable-cap and NFT families, and minting from the mint rights the wallet holds (the
// background lists them: nothing to paste). An NFT payload is shown as text; a link in it is only
// a link: nothing is fetched unless the user opens it.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { errorText, type RequestState, useCall, useRequest } from '../api.js';
import {
  type Check,
  checkAddress,
  checkAmount,
  checkAssetName,
  checkDenomination,
  checkSymbol,
  checkWholeNumber,
  decodePayload,
  encodePayload,
  type PayloadKind,
} from '../checks.js';
import { AddressInput } from '../components/AddressInput.js';
import { AmountInput } from '../components/AmountInput.js';
import { AssetLabel } from '../components/AssetLabel.js';
import { CopyButton } from '../components/CopyButton.js';
import { FormError, TextField } from '../components/Field.js';
import { Segmented } from '../components/Segmented.js';
import { TxStatus } from '../components/TxStatus.js';
import { AVAX_DECIMALS, formatValue, shortenId, totalOf } from '../format.js';
import type { Amount, AssetBalanceView, BalancesView, MintRightView, NftView, OwnerSet, RequestResult, WalletStatus } from '../../shared/messages.js';

type View = 'held' | 'create' | 'mint' | 'nft';

export interface AssetsProps {
  status: WalletStatus;
  hrp: string;
  balances: BalancesView | null;
  onChanged: () => void;
}

/** The wallet's mint rights and NFTs, loaded once for the screen and reloaded after each change; the X-Chain's fees. */
interface Holdings {
  rights: RequestState<RequestResult<'assets.mintRights'>>;
  nfts: RequestState<RequestResult<'assets.listNfts'>>;
  fees: RequestState<RequestResult<'assets.fees'>>;
}

type FeeKind = keyof RequestResult<'assets.fees'>;

/**
 * The fee the transaction will burn, shown before it is signed; the same figure goes to the
 * background as the most the user accepts paying. X-Chain fees are fixed per kind of tx.
 */
function FeeLine({ fees, kind }: { fees: Holdings['fees']; kind: FeeKind }) {
  const fee = fees.data?.[kind];
  return (
    <p class="fee-line" data-testid="asset-fee">
      <strong>Network fee: </strong>
      {fee !== undefined ? formatValue(fee, AVAX_DECIMALS, 'AVAX') : fees.error ? `unknown. ${fees.error}` : 'loading…'}
    </p>
  );
}

function xAssets(view: BalancesView | null): AssetBalanceView[] {
  return view?.balances.filter((b) => b.chain === 'X') ?? [];
}

/** What a finished issue looks like on every form of this screen. */
function Issued({ txID, fee, extra, onAgain }: { txID: string; fee?: Amount; extra?: ComponentChildren; onAgain: () => void }) {
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

// ---- held assets and details ----

function Details({ asset, canMint, onMint }: { asset: AssetBalanceView; canMint: boolean; onMint: () => void }) {
  return (
    <div class="asset-details">
      <AssetLabel asset={asset} />
      <dl class="facts">
        <dt>Asset ID</dt>
        <dd class="id-line">
          <span class="mono break">{asset.assetID}</span>
          <CopyButton text={asset.assetID} what="asset ID" />
        </dd>
        <dt>Name</dt>
        <dd>{asset.name}</dd>
        <dt>Symbol</dt>
        <dd>{asset.symbol}</dd>
        <dt>Denomination</dt>
        <dd>
          {asset.denomination} decimal place{asset.denomination === 1 ? '' : 's'}
        </dd>
        <dt>You hold</dt>
        <dd class="amount">{formatValue(totalOf(asset), asset.denomination, asset.symbol)}</dd>
        <dt>Spendable</dt>
        <dd class="amount">{formatValue(asset.spendable, asset.denomination, asset.symbol)}</dd>
        <dt>Supply</dt>
        <dd class="muted">Not known: the wallet cannot ask the node for it yet.</dd>
      </dl>
      {canMint && (
        <button type="button" onClick={onMint}>
          Mint more
        </button>
      )}
    </div>
  );
}

function Held({ balances, rights, onMint }: { balances: BalancesView | null; rights: MintRightView[]; onMint: (assetID: string) => void }) {
  const [open, setOpen] = useState<string | null>(null);
  const rows = xAssets(balances);
  const current = rows.find((b) => b.assetID === open);
  if (current) {
    return (
      <div>
        <button type="button" class="link" onClick={() => setOpen(null)}>
          ← All assets
        </button>
        <Details asset={current} canMint={rights.some((r) => r.kind === 'variable' && r.assetID === current.assetID)} onMint={() => onMint(current.assetID)} />
      </div>
    );
  }
  if (!balances) return <p class="muted">Loading balances…</p>;
  if (rows.length === 0) return <p class="muted">No X-Chain assets yet.</p>;
  return (
    <ul class="plain-list">
      {rows.map((b) => (
        <li key={b.assetID}>
          <button type="button" class="asset-button" onClick={() => setOpen(b.assetID)} aria-label={`Details of ${b.symbol} ${b.verified ? '(verified AVAX)' : b.assetID}`}>
            <AssetLabel asset={b} />
            <span class="amount">{formatValue(b.spendable, b.denomination, b.symbol)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

// ---- owner sets ----

interface OwnerDraft {
  addresses: string;
  threshold: string;
}

function ownerSetOf(draft: OwnerDraft, hrp: string): Check<OwnerSet> {
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

function OwnerEditor({ label, draft, onChange, hrp }: { label: string; draft: OwnerDraft; onChange: (d: OwnerDraft) => void; hrp: string }) {
  const check = ownerSetOf(draft, hrp);
  return (
    <fieldset class="owner-set">
      <legend>{label}</legend>
      <TextField label="Addresses (one per line)" multiline rows={2} mono value={draft.addresses} onInput={(v) => onChange({ ...draft, addresses: v })} />
      <TextField label="Signatures needed" inputMode="numeric" value={draft.threshold} onInput={(v) => onChange({ ...draft, threshold: v })} error={check.ok ? undefined : check.error} />
    </fieldset>
  );
}

// ---- create ----

type CreateKind = 'fixed' | 'variable' | 'nft';

function Create({ status, hrp, onChanged, h }: AssetsProps & { h: Holdings }) {
  const call = useCall();
  const own = status.account?.xAddress ?? '';
  const [kind, setKind] = useState<CreateKind>('fixed');
  const [name, setName] = useState('');
  const [symbol, setSymbol] = useState('');
  const [denomination, setDenomination] = useState('9');
  const [holders, setHolders] = useState<{ address: string; amount: string }[]>([{ address: own, amount: '' }]);
  const [minters, setMinters] = useState<OwnerDraft[]>([{ addresses: own, threshold: '1' }]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [done, setDone] = useState<{ txID: string; assetID: string; fee: Amount } | null>(null);

  const nameCheck = checkAssetName(name);
  const symbolCheck = checkSymbol(symbol);
  const denomCheck = kind === 'nft' ? ({ ok: true, value: 0 } as const) : checkDenomination(denomination);
  const decimals = denomCheck.ok ? denomCheck.value : 0;
  const holderChecks = holders.map((h) => ({ to: checkAddress(h.address, 'X', hrp), amount: checkAmount(h.amount, { denomination: decimals, symbol }) }));
  const minterChecks = minters.map((m) => ownerSetOf(m, hrp));
  const holdersOk = kind !== 'fixed' || holderChecks.every((h) => h.to.ok && h.amount.ok);
  const mintersOk = kind === 'fixed' || minterChecks.every((m) => m.ok);
  const maxFee = h.fees.data?.createAsset;
  const ready = nameCheck.ok && symbolCheck.ok && denomCheck.ok && holdersOk && mintersOk && maxFee !== undefined;

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!ready) return;
    setBusy(true);
    setError(undefined);
    try {
      const base = { name, symbol, denomination: decimals, kind, maxFee };
      const params =
        kind === 'fixed'
          ? {
              ...base,
              holders: holders.map((h, i) => ({
                owners: { addresses: [h.address.trim()], threshold: 1 },
                amount: (holderChecks[i]!.amount as { value: bigint }).value.toString(),
              })),
            }
          : { ...base, minters: minterChecks.map((m) => (m as { value: OwnerSet }).value) };
      setDone(await call('assets.create', params));
      onChanged();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <Issued
        txID={done.txID}
        fee={done.fee}
        onAgain={() => setDone(null)}
        extra={
          <dl class="facts">
            <dt>New asset ID</dt>
            <dd class="id-line">
              <span class="mono break">{done.assetID}</span>
              <CopyButton text={done.assetID} what="asset ID" />
            </dd>
          </dl>
        }
      />
    );
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Segmented
        legend="Kind of asset"
        value={kind}
        options={[
          { value: 'fixed', label: 'Fixed cap' },
          { value: 'variable', label: 'Variable cap' },
          { value: 'nft', label: 'NFT family' },
        ]}
        onChange={setKind}
      />
      <TextField label="Name" value={name} onInput={setName} error={name !== '' && !nameCheck.ok ? nameCheck.error : undefined} />
      <TextField label="Symbol" value={symbol} onInput={(v) => setSymbol(v.toUpperCase())} error={symbol !== '' && !symbolCheck.ok ? symbolCheck.error : undefined} />
      {kind !== 'nft' && <TextField label="Decimal places (denomination)" inputMode="numeric" value={denomination} onInput={setDenomination} error={denomCheck.ok ? undefined : denomCheck.error} />}
      {kind === 'fixed' && (
        <fieldset class="owner-set">
          <legend>Initial holders (the whole supply)</legend>
          {holders.map((h, i) => (
            <div key={i} class="holder">
              <AddressInput label={`Holder ${i + 1}`} kind="X" hrp={hrp} value={h.address} onInput={(v) => setHolders(holders.map((x, j) => (j === i ? { ...x, address: v } : x)))} />
              <TextField
                label={`Amount for holder ${i + 1}${symbol ? ` (${symbol})` : ''}`}
                inputMode="decimal"
                mono
                value={h.amount}
                onInput={(v) => setHolders(holders.map((x, j) => (j === i ? { ...x, amount: v } : x)))}
                error={h.amount !== '' && !holderChecks[i]!.amount.ok ? (holderChecks[i]!.amount as { error: string }).error : undefined}
              />
              {holders.length > 1 && (
                <button type="button" class="small" onClick={() => setHolders(holders.filter((_, j) => j !== i))}>
                  Remove holder {i + 1}
                </button>
              )}
            </div>
          ))}
          <button type="button" class="small" disabled={holders.length >= 64} onClick={() => setHolders([...holders, { address: '', amount: '' }])}>
            Add holder
          </button>
        </fieldset>
      )}
      {kind !== 'fixed' &&
        minters.map((m, i) => (
          <div key={i}>
            <OwnerEditor label={kind === 'nft' ? `Group ${i} minters` : `Minter set ${i + 1}`} draft={m} hrp={hrp} onChange={(d) => setMinters(minters.map((x, j) => (j === i ? d : x)))} />
            {minters.length > 1 && (
              <button type="button" class="small" onClick={() => setMinters(minters.filter((_, j) => j !== i))}>
                Remove {kind === 'nft' ? `group ${i}` : `minter set ${i + 1}`}
              </button>
            )}
          </div>
        ))}
      {kind !== 'fixed' && (
        <button type="button" class="small" disabled={minters.length >= 64} onClick={() => setMinters([...minters, { addresses: own, threshold: '1' }])}>
          {kind === 'nft' ? 'Add group' : 'Add minter set'}
        </button>
      )}
      <FeeLine fees={h.fees} kind="createAsset" />
      <FormError error={error} />
      <button class="primary wide" type="submit" disabled={!ready || busy}>
        {busy ? 'Creating…' : 'Create asset'}
      </button>
    </form>
  );
}

// ---- mint ----

function rightLabel(r: MintRightView): string {
  const who = r.threshold > 1 ? ` · ${r.threshold} of ${r.addresses.length} signatures` : '';
  return `${r.symbol} · ${r.name}${r.kind === 'nft' ? ` · group ${r.groupID ?? 0}` : ''} · ID ${shortenId(r.assetID)}${who}`;
}

function NoRights({ what, h }: { what: string; h: Holdings }) {
  if (h.rights.error) return <FormError error={h.rights.error} />;
  if (!h.rights.data) return <p class="muted">Loading your mint rights…</p>;
  return <p class="muted">This wallet holds no mint right {what}. Create one under Create.</p>;
}

function Mint({ status, hrp, balances, onChanged, initialAsset, h }: AssetsProps & { initialAsset: string; h: Holdings }) {
  const call = useCall();
  const rights = h.rights.data?.rights.filter((r) => r.kind === 'variable') ?? [];
  const [picked, setPicked] = useState(initialAsset);
  const [amount, setAmount] = useState('');
  const [to, setTo] = useState(status.account?.xAddress ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [done, setDone] = useState<{ txID: string; fee: Amount } | null>(null);
  const right = rights.find((r) => r.assetID === picked) ?? rights[0];
  const held = xAssets(balances).find((b) => b.assetID === right?.assetID);
  const amountCheck = checkAmount(amount, { denomination: right?.denomination ?? 0, symbol: right?.symbol ?? '' });
  const toCheck = checkAddress(to, 'X', hrp);
  const maxFee = h.fees.data?.operation;
  const ready = right !== undefined && amountCheck.ok && toCheck.ok && maxFee !== undefined;
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!ready) return;
    setBusy(true);
    setError(undefined);
    try {
      setDone(await call('assets.mint', { assetID: right.assetID, amount: amountCheck.value.toString(), to: { addresses: [toCheck.value], threshold: 1 }, maxFee }));
      onChanged();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  if (done) return <Issued txID={done.txID} fee={done.fee} onAgain={() => setDone(null)} />;
  if (!right) return <NoRights what="of a variable-cap asset" h={h} />;
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <p class="muted">Mint more of a variable-cap asset this wallet holds a mint right for.</p>
      <div class="field">
        <label for="mint-asset">Asset</label>
        <select id="mint-asset" value={right.assetID} onChange={(e) => setPicked(e.currentTarget.value)}>
          {rights.map((r) => (
            <option key={r.assetID} value={r.assetID}>
              {rightLabel(r)}
            </option>
          ))}
        </select>
        <p class="field-hint">
          <AssetLabel asset={{ ...right, verified: false }} />
          {held && <span> · you hold {formatValue(totalOf(held), held.denomination, held.symbol)}</span>}
        </p>
      </div>
      <AmountInput value={amount} onInput={setAmount} denomination={right.denomination} symbol={right.symbol} />
      <AddressInput label="Mint to (X-Chain address)" kind="X" hrp={hrp} value={to} onInput={setTo} />
      <FeeLine fees={h.fees} kind="operation" />
      <FormError error={error} />
      <button class="primary wide" type="submit" disabled={!ready || busy}>
        {busy ? 'Minting…' : 'Mint'}
      </button>
    </form>
  );
}

// ---- NFTs ----

/** A payload preview: a link stays a link (opened only on click); text and JSON are shown as text. */
export function PayloadPreview({ kind, text }: { kind: PayloadKind | 'bytes'; text: string }) {
  if (kind === 'bytes') return <pre class="payload-preview mono break">{text === '' ? '(empty)' : `hex ${text}`}</pre>;
  const encoded = encodePayload(kind, text);
  if (!encoded.ok) return null;
  if (kind === 'url') {
    const href = new URL(text.trim()).href;
    return (
      <p class="payload-preview">
        Link (not loaded):{' '}
        <a href={href} target="_blank" rel="noreferrer noopener">
          {href}
        </a>
      </p>
    );
  }
  return <pre class="payload-preview">{kind === 'json' ? JSON.stringify(JSON.parse(text), null, 2) : text}</pre>;
}

const rightKey = (r: MintRightView) => `${r.assetID}:${r.groupID ?? 0}`;

function MintNft({ status, hrp, onChanged, h }: AssetsProps & { h: Holdings }) {
  const call = useCall();
  const rights = h.rights.data?.rights.filter((r) => r.kind === 'nft') ?? [];
  const [picked, setPicked] = useState('');
  const [kind, setKind] = useState<PayloadKind>('text');
  const [payload, setPayload] = useState('');
  const [to, setTo] = useState(status.account?.xAddress ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [done, setDone] = useState<{ txID: string; fee: Amount } | null>(null);
  const right = rights.find((r) => rightKey(r) === picked) ?? rights[0];
  const encoded = encodePayload(kind, payload);
  const toCheck = checkAddress(to, 'X', hrp);
  const maxFee = h.fees.data?.operation;
  const ready = right !== undefined && encoded.ok && toCheck.ok && maxFee !== undefined;
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!ready) return;
    setBusy(true);
    setError(undefined);
    try {
      setDone(await call('assets.mintNft', { assetID: right.assetID, groupID: right.groupID ?? 0, payloadHex: encoded.value, to: [{ addresses: [toCheck.value], threshold: 1 }], maxFee }));
      onChanged();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  if (done) return <Issued txID={done.txID} fee={done.fee} onAgain={() => setDone(null)} />;
  if (!right) return <NoRights what="of an NFT group" h={h} />;
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <h3>Mint an NFT</h3>
      <div class="field">
        <label for="nft-group">NFT family and group</label>
        <select id="nft-group" value={rightKey(right)} onChange={(e) => setPicked(e.currentTarget.value)}>
          {rights.map((r) => (
            <option key={rightKey(r)} value={rightKey(r)}>
              {rightLabel(r)}
            </option>
          ))}
        </select>
        <p class="field-hint">Minting uses up this group's mint right.</p>
      </div>
      <Segmented
        legend="Payload kind"
        value={kind}
        options={[
          { value: 'text', label: 'Text' },
          { value: 'json', label: 'JSON' },
          { value: 'url', label: 'Image URL' },
        ]}
        onChange={setKind}
      />
      <TextField
        label="Payload"
        multiline
        rows={3}
        mono={kind !== 'text'}
        value={payload}
        onInput={setPayload}
        error={payload !== '' && !encoded.ok ? encoded.error : undefined}
        hint={encoded.ok ? `${encoded.value.length / 2} / 1024 bytes` : undefined}
      />
      <PayloadPreview kind={kind} text={payload} />
      <AddressInput label="Owner (X-Chain address)" kind="X" hrp={hrp} value={to} onInput={setTo} />
      <FeeLine fees={h.fees} kind="operation" />
      <FormError error={error} />
      <button class="primary wide" type="submit" disabled={!ready || busy}>
        {busy ? 'Minting…' : 'Mint NFT'}
      </button>
    </form>
  );
}

function SendNft({ nft, hrp, fees, onSent, onCancel }: { nft: NftView; hrp: string; fees: Holdings['fees']; onSent: () => void; onCancel: () => void }) {
  const call = useCall();
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [done, setDone] = useState<{ txID: string; fee: Amount } | null>(null);
  const toCheck = checkAddress(to, 'X', hrp);
  const maxFee = fees.data?.operation;
  const ready = toCheck.ok && maxFee !== undefined;
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!ready) return;
    setBusy(true);
    setError(undefined);
    try {
      setDone(await call('assets.transferNft', { utxoID: nft.utxoID, to: { addresses: [toCheck.value], threshold: 1 }, maxFee }));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  if (done) return <Issued txID={done.txID} fee={done.fee} onAgain={onSent} />;
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <AddressInput kind="X" hrp={hrp} value={to} onInput={setTo} />
      <FeeLine fees={fees} kind="operation" />
      <FormError error={error} />
      <div class="row">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button class="primary" type="submit" disabled={!ready || busy}>
          {busy ? 'Sending…' : 'Send NFT'}
        </button>
      </div>
    </form>
  );
}

function NftList({ hrp, onChanged, h }: AssetsProps & { h: Holdings }) {
  const [sending, setSending] = useState<string | null>(null);
  const nfts = h.nfts.data?.nfts;
  return (
    <section aria-labelledby="my-nfts">
      <h3 id="my-nfts">Your NFTs</h3>
      {h.nfts.error && <FormError error={h.nfts.error} />}
      {!nfts && !h.nfts.error && <p class="muted">Loading your NFTs…</p>}
      {nfts?.length === 0 && <p class="muted">No NFTs on the X-Chain yet.</p>}
      <ul class="plain-list">
        {nfts?.map((n) => {
          const shown = decodePayload(n.payloadHex);
          return (
            <li key={n.utxoID} class="nft" data-testid="nft">
              <AssetLabel asset={{ assetID: n.assetID, name: n.name, symbol: n.symbol, verified: false }} />
              <span class="muted"> · group {n.groupID}</span>
              <PayloadPreview kind={shown.kind} text={shown.text} />
              {sending === n.utxoID ? (
                <SendNft
                  nft={n}
                  hrp={hrp}
                  fees={h.fees}
                  onCancel={() => setSending(null)}
                  onSent={() => {
                    setSending(null);
                    onChanged();
                  }}
                />
              ) : (
                <button type="button" class="small" aria-label={`Send ${n.symbol} NFT ${n.utxoID}`} onClick={() => setSending(n.utxoID)}>
                  Send
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function Assets(p: AssetsProps) {
  const [view, setView] = useState<View>('held');
  const [mintAsset, setMintAsset] = useState('');
  const h: Holdings = { rights: useRequest('assets.mintRights', {}), nfts: useRequest('assets.listNfts', {}), fees: useRequest('assets.fees', {}) };
  // Whatever an issue changed: balances, and the rights and NFTs it used up or made.
  const changed = () => {
    p.onChanged();
    void h.rights.reload();
    void h.nfts.reload();
  };
  const q = { ...p, onChanged: changed, h };
  return (
    <div class="assets-screen">
      <h1>Assets</h1>
      <Segmented
        legend="Assets section"
        value={view}
        options={[
          { value: 'held', label: 'Held' },
          { value: 'create', label: 'Create' },
          { value: 'mint', label: 'Mint' },
          { value: 'nft', label: 'NFTs' },
        ]}
        onChange={setView}
      />
      {view === 'held' && (
        <Held
          balances={p.balances}
          rights={h.rights.data?.rights ?? []}
          onMint={(id) => {
            setMintAsset(id);
            setView('mint');
          }}
        />
      )}
      {view === 'create' && <Create {...q} />}
      {view === 'mint' && <Mint {...q} initialAsset={mintAsset} />}
      {view === 'nft' && (
        <>
          <NftList {...q} />
          <hr />
          <MintNft {...q} />
        </>
      )}
    </div>
  );
}
