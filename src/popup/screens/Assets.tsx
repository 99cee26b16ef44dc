// X-Chain assets: what the wallet holds (with details), creating fixed-cap, variable-cap and NFT
// families, and minting from the mint rights the wallet holds (the background lists them: nothing
// to paste). The Create view is in AssetCreate.tsx, the NFTs view in AssetNfts.tsx; what the views
// share in AssetsShared.tsx.
import { useState } from 'preact/hooks';
import { selectionOf, useCall, useRequest } from '../api.js';
import { checkAddress, checkAmount } from '../checks.js';
import { AddressInput } from '../components/AddressInput.js';
import { AmountText } from '../components/AmountText.js';
import { AmountInput } from '../components/AmountInput.js';
import { AssetLabel } from '../components/AssetLabel.js';
import { CopyButton } from '../components/CopyButton.js';
import { Muted, ScreenReaderText } from '../components/Field.js';
import { Review, useReviewStep } from '../components/Review.js';
import { Segmented } from '../components/Segmented.js';
import { useSentBefore } from '../components/SentBefore.js';
import { Term } from '../components/Term.js';
import { AVAX_DECIMALS, formatValue, noBalancesText, ownSpendable, ownTotal, sharedLockedOf, sharedOf } from '../format.js';
import { type Amount, type AssetBalanceView, type BalancesView, type MintRightView, type NftView, UNKNOWN_ASSET_SYMBOL } from '../../shared/messages.js';
import { type AssetsProps, type Holdings, FeeLine, xAssets, Issued, pinned, rightLabel, NoRights, useMintRight } from './AssetsShared.js';
import { Create } from './AssetCreate.js';
import { MintNft, NftList } from './AssetNfts.js';
import { unprovenLine } from './Home.js';

type View = 'held' | 'create' | 'mint' | 'nft';

/** An asset no creating tx proves: its decimals are not known. */
const UNKNOWN_DECIMALS = 'Its decimal places are not known: amounts are in its smallest units';

// ---- held assets and details ----

/** An NFT family's holding: its NFTs counted, where its amount (fungible units, none) would read "0". */
const nftsText = (n: number) => `${n} NFT${n === 1 ? '' : 's'}`;

function Details({ asset, nfts, canMint, onMint }: { asset: AssetBalanceView; nfts: number; canMint: boolean; onMint: () => void }) {
  const unproven = unprovenLine(asset);
  const onlyNfts = nfts > 0 && ownTotal(asset) === 0n;
  return (
    <div class="asset-details">
      <AssetLabel asset={asset} />
      <dl class="facts">
        <Term term="Asset ID" class="id-line">
          <span class="mono break">{asset.assetID}</span>
          <CopyButton text={asset.assetID} what="asset ID" />
        </Term>
        <Term term="Name">{asset.name}</Term>
        <Term term="Symbol">{asset.symbol}</Term>
        <Term term="Denomination">
          {asset.symbol === UNKNOWN_ASSET_SYMBOL ? UNKNOWN_DECIMALS : `${asset.denomination} decimal place${asset.denomination === 1 ? '' : 's'}`}
        </Term>
        <Term term="You hold" class="amount">
          {onlyNfts ? `${nftsText(nfts)} (listed under NFTs)` : <AmountText value={ownTotal(asset)} denomination={asset.denomination} symbol={asset.symbol} />}
        </Term>
        <Term term="Spendable" class="amount">
          <AmountText value={ownSpendable(asset)} denomination={asset.denomination} symbol={asset.symbol} />
        </Term>
        {sharedOf(asset) > 0n && (
          <Term term="Shared" class="amount">
            <AmountText value={sharedOf(asset)} denomination={asset.denomination} symbol={asset.symbol} /> another key can also spend, at any time
          </Term>
        )}
        {sharedLockedOf(asset) > 0n && (
          <Term term="Shared, locked" class="amount">
            <AmountText value={sharedLockedOf(asset)} denomination={asset.denomination} symbol={asset.symbol} /> another key can take once it unlocks
          </Term>
        )}
        <Term term="Supply" class="muted">Not known: the wallet cannot ask the node for it yet.</Term>
      </dl>
      {unproven && <p class="unproven-line">{unproven}</p>}
      {canMint && (
        <button type="button" onClick={onMint}>
          Mint more
        </button>
      )}
    </div>
  );
}

function Held({ balances, rights, nfts, onMint }: { balances: BalancesView | null; rights: MintRightView[]; nfts: readonly NftView[]; onMint: (assetID: string) => void }) {
  const [open, setOpen] = useState<string | null>(null);
  const rows = xAssets(balances);
  const nftCounts = new Map<string, number>();
  for (const n of nfts) nftCounts.set(n.assetID, (nftCounts.get(n.assetID) ?? 0) + 1);
  const nftsOf = (assetID: string) => nftCounts.get(assetID) ?? 0;
  const current = rows.find((b) => b.assetID === open);
  if (current) {
    return (
      <div>
        <button type="button" class="link" onClick={() => setOpen(null)}>
          ← All assets
        </button>
        <Details asset={current} nfts={nftsOf(current.assetID)} canMint={rights.some((r) => r.kind === 'variable' && r.assetID === current.assetID)} onMint={() => onMint(current.assetID)} />
      </div>
    );
  }
  // An empty snapshot (updatedAt 0) was never loaded: it says nothing about what the wallet holds.
  if (!balances?.updatedAt) return <Muted>{noBalancesText(balances)}</Muted>;
  if (rows.length === 0) return <Muted>No X-Chain assets yet.</Muted>;
  return (
    <ul class="plain-list">
      {rows.map((b) => (
        <li key={b.assetID}>
          {/* Named by what it shows (so speech and sight agree), with the full asset ID for a unique name. */}
          <button type="button" class="asset-button" onClick={() => setOpen(b.assetID)}>
            <ScreenReaderText>Details of </ScreenReaderText>
            <AssetLabel asset={b} />
            <span class="amount">
              {/* Rounded like Home's; no toggle inside this button (the exact amount is in its name). */}
              {ownTotal(b) === 0n && nftsOf(b.assetID) > 0 ? nftsText(nftsOf(b.assetID)) : <AmountText value={ownSpendable(b)} denomination={b.denomination} symbol={b.symbol} toggle={false} />}
            </span>
            {!b.verified && <ScreenReaderText> (asset ID {b.assetID})</ScreenReaderText>}
          </button>
        </li>
      ))}
    </ul>
  );
}

// ---- mint ----

function Mint({ status, hrp, balances, onChanged, initialAsset, h }: AssetsProps & { initialAsset: string; h: Holdings }) {
  const call = useCall();
  const rights = h.rights.data?.rights.filter((r) => r.kind === 'variable') ?? [];
  const [picked, setPicked] = useState(initialAsset);
  const [amount, setAmount] = useState('');
  const [to, setTo] = useState(status.account?.xAddress ?? '');
  const step = useReviewStep();
  const [done, setDone] = useState<{ txID: string; fee: Amount } | null>(null);
  // Picked (or reviewed: pinned when the review opens), the asset stays: a review never turns to
  // another asset's right when the rights are read again; gone, none is picked for the user.
  const right = picked === '' ? rights[0] : rights.find((r) => r.assetID === picked);
  const held = xAssets(balances).find((b) => b.assetID === right?.assetID);
  const amountCheck = checkAmount(amount, { denomination: right?.denomination ?? 0, symbol: right?.symbol ?? '' });
  const toCheck = checkAddress(to, 'X', hrp);
  const maxFee = h.fees.data?.operation;
  const ready = right !== undefined && amountCheck.ok && toCheck.ok && maxFee !== undefined;
  const used = useMintRight(h);
  // A popup closed while a mint ran opens on an empty form: minting again would mint twice.
  const mintedBefore = useSentBefore(step.reviewing && ready ? { kind: 'mint', chain: 'X', assetID: right.assetID, amount: amountCheck.value, to: toCheck.value, sending: step.props.busy } : undefined);
  const mint = () =>
    step.confirm(async () => {
      if (!ready) return;
      setPicked(right.assetID);
      const r = await used.run(call('assets.mint', { assetID: right.assetID, utxoID: right.utxoID, amount: amountCheck.value.toString(), to: { addresses: [toCheck.value], threshold: 1 }, maxFee }, selectionOf(status)));
      if (!r) return;
      setDone(r);
      onChanged();
    });
  if (done) return <Issued txID={done.txID} fee={done.fee} onAgain={() => setDone(null)} />;
  if (rights.length === 0) return <NoRights what="of a variable-cap asset" h={h} />;
  if (step.reviewing && ready) {
    return (
      <Review
        title="Review the mint"
        facts={[
          { term: 'Asset', value: <AssetLabel asset={{ ...right, verified: false }} /> },
          { term: 'New supply minted', value: `${formatValue(amountCheck.value, right.denomination, right.symbol)}${right.symbol === UNKNOWN_ASSET_SYMBOL ? `. ${UNKNOWN_DECIMALS}` : ''}`, testid: 'review-amount' },
          { term: 'To', value: toCheck.value, mono: true, testid: 'review-to' },
          ...mintedBefore,
          { term: 'Mint right stays with', value: `${right.threshold} of ${right.addresses.join(', ')}`, mono: true, testid: 'review-minters' },
          { term: 'Paid from', value: 'Your X-Chain account' },
          { term: 'Network fee', value: formatValue(maxFee, AVAX_DECIMALS, 'AVAX'), testid: 'review-fee' },
        ]}
        {...step.props}
        busyText="Minting; waiting for the X-Chain to accept it…"
        confirmLabel="Confirm and mint"
        onConfirm={() => void mint()}
      />
    );
  }
  return (
    <form onSubmit={pinned(right && right.assetID, setPicked, step.submit(ready))} noValidate>
      <Muted>Mint more of a variable-cap asset this wallet holds a mint right for.</Muted>
      <div class="field">
        <label for="mint-asset">Asset</label>
        <select id="mint-asset" value={right?.assetID ?? ''} onChange={(e) => setPicked(e.currentTarget.value)}>
          {!right && (
            <option value="" disabled>
              Choose an asset
            </option>
          )}
          {rights.map((r) => (
            <option key={r.assetID} value={r.assetID}>
              {rightLabel(r)}
            </option>
          ))}
        </select>
        <p class="field-hint">
          {right && <AssetLabel asset={{ ...right, verified: false }} />}
          {held && (
            <span>
              {' '}
              · you hold <AmountText value={ownTotal(held)} denomination={held.denomination} symbol={held.symbol} />
            </span>
          )}
        </p>
      </div>
      <AmountInput value={amount} onInput={setAmount} denomination={right?.denomination ?? 0} symbol={right?.symbol ?? ''} />
      {right?.symbol === UNKNOWN_ASSET_SYMBOL && <Muted>{UNKNOWN_DECIMALS}.</Muted>}
      <AddressInput label="Mint to (X-Chain address)" kind="X" hrp={hrp} value={to} onInput={setTo} />
      <FeeLine fees={h.fees} kind="operation" />
      {used.note}
      <button class="primary wide" type="submit" disabled={!ready}>
        Mint
      </button>
    </form>
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
          nfts={h.nfts.data?.nfts ?? []}
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
