// X-Chain assets: what the wallet holds (with details), creating fixed-cap, variable-cap and NFT
// families, and minting from the mint rights the wallet holds (the background lists them: nothing
// to paste). The NFTs view is in AssetNfts.tsx; what the views share in AssetsShared.tsx.
import { useState } from 'preact/hooks';
import { selectionOf, useCall, useRequest } from '../api.js';
import { checkAddress, checkAmount, checkAssetName, checkDenomination, checkSymbol } from '../checks.js';
import { AddressInput } from '../components/AddressInput.js';
import { AmountText } from '../components/AmountText.js';
import { AmountInput } from '../components/AmountInput.js';
import { AssetLabel } from '../components/AssetLabel.js';
import { CopyButton } from '../components/CopyButton.js';
import { TextField } from '../components/Field.js';
import { type Fact, Review, useReviewStep } from '../components/Review.js';
import { Segmented } from '../components/Segmented.js';
import { AVAX_DECIMALS, formatValue, ownSpendable, ownTotal, sharedLockedOf, sharedOf } from '../format.js';
import { type Amount, type AssetBalanceView, type BalancesView, type MintRightView, type OwnerSet, UNKNOWN_ASSET_SYMBOL } from '../../shared/messages.js';
import { type AssetsProps, type Holdings, FeeLine, xAssets, Issued, type OwnerDraft, ownerSetOf, OwnerEditor, rightLabel, NoRights, useMintRight } from './AssetsShared.js';
import { MintNft, NftList } from './AssetNfts.js';
import { unprovenLine } from './Home.js';

type View = 'held' | 'create' | 'mint' | 'nft';

// ---- held assets and details ----

function Details({ asset, canMint, onMint }: { asset: AssetBalanceView; canMint: boolean; onMint: () => void }) {
  const unproven = unprovenLine(asset);
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
          {asset.symbol === UNKNOWN_ASSET_SYMBOL ? 'Not known: amounts are in its smallest units' : `${asset.denomination} decimal place${asset.denomination === 1 ? '' : 's'}`}
        </dd>
        <dt>You hold</dt>
        <dd class="amount">
          <AmountText value={ownTotal(asset)} denomination={asset.denomination} symbol={asset.symbol} />
        </dd>
        <dt>Spendable</dt>
        <dd class="amount">
          <AmountText value={ownSpendable(asset)} denomination={asset.denomination} symbol={asset.symbol} />
        </dd>
        {sharedOf(asset) > 0n && (
          <>
            <dt>Shared</dt>
            <dd class="amount">
              <AmountText value={sharedOf(asset)} denomination={asset.denomination} symbol={asset.symbol} /> another key can also spend, at any time
            </dd>
          </>
        )}
        {sharedLockedOf(asset) > 0n && (
          <>
            <dt>Shared, locked</dt>
            <dd class="amount">
              <AmountText value={sharedLockedOf(asset)} denomination={asset.denomination} symbol={asset.symbol} /> another key can take once it unlocks
            </dd>
          </>
        )}
        <dt>Supply</dt>
        <dd class="muted">Not known: the wallet cannot ask the node for it yet.</dd>
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
  // An empty snapshot (updatedAt 0) was never loaded: it says nothing about what the wallet holds.
  if (!balances?.updatedAt) return <p class="muted">{balances?.error ? 'No balances yet: the node did not answer.' : 'Loading balances…'}</p>;
  if (rows.length === 0) return <p class="muted">No X-Chain assets yet.</p>;
  return (
    <ul class="plain-list">
      {rows.map((b) => (
        <li key={b.assetID}>
          {/* Named by what it shows (so speech and sight agree), with the full asset ID for a unique name. */}
          <button type="button" class="asset-button" onClick={() => setOpen(b.assetID)}>
            <span class="sr-only">Details of </span>
            <AssetLabel asset={b} />
            <span class="amount">
              {/* Rounded like Home's; no toggle inside this button (the exact amount is in its name). */}
              <AmountText value={ownSpendable(b)} denomination={b.denomination} symbol={b.symbol} toggle={false} />
            </span>
            {!b.verified && <span class="sr-only"> (asset ID {b.assetID})</span>}
          </button>
        </li>
      ))}
    </ul>
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
  const step = useReviewStep();
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

  const create = () =>
    step.confirm(async () => {
      if (!ready) return;
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
      setDone(await call('assets.create', params, selectionOf(status)));
      onChanged();
    });

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

  if (step.reviewing && ready) {
    const kindName = kind === 'fixed' ? 'Fixed cap: the whole supply now, no more ever' : kind === 'variable' ? 'Variable cap: minted later by its minters' : 'NFT family: each group minted once, later, by its minter set';
    const facts: Fact[] = [
      { term: 'Kind', value: kindName },
      { term: 'Name', value: name },
      { term: 'Symbol', value: symbol },
      ...(kind !== 'nft' ? [{ term: 'Decimal places', value: String(decimals) }] : []),
      ...(kind === 'fixed'
        ? holders.map((x, i) => ({ term: `Holder ${i + 1} receives`, value: `${formatValue((holderChecks[i]!.amount as { value: bigint }).value, decimals, symbol)} at ${x.address.trim()}`, mono: true }))
        : minterChecks.map((m, i) => {
            const set = (m as { value: OwnerSet }).value;
            return { term: kind === 'nft' ? `Group ${i} minters` : `Minter set ${i + 1}`, value: `${set.threshold} of ${set.addresses.join(', ')}`, mono: true };
          })),
      { term: 'Paid from', value: 'Your X-Chain account' },
      { term: 'Network fee', value: formatValue(maxFee, AVAX_DECIMALS, 'AVAX'), testid: 'review-fee' },
    ];
    return (
      <Review
        title="Review the new asset"
        facts={facts}
        note="Name, symbol, decimals and the rules above are fixed forever once the asset is created."
        {...step.props}
        busyText="Creating the asset; waiting for the X-Chain to accept it…"
        confirmLabel="Confirm and create"
        onConfirm={() => void create()}
      />
    );
  }

  return (
    <form onSubmit={step.submit(ready)} noValidate>
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
      {kind === 'nft' && <p class="muted">Each group is minted once (one NFT from this wallet); its mint right is then used up.</p>}
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
      <button class="primary wide" type="submit" disabled={!ready}>
        Create asset
      </button>
    </form>
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
  const right = rights.find((r) => r.assetID === picked) ?? rights[0];
  const held = xAssets(balances).find((b) => b.assetID === right?.assetID);
  const amountCheck = checkAmount(amount, { denomination: right?.denomination ?? 0, symbol: right?.symbol ?? '' });
  const toCheck = checkAddress(to, 'X', hrp);
  const maxFee = h.fees.data?.operation;
  const ready = right !== undefined && amountCheck.ok && toCheck.ok && maxFee !== undefined;
  const used = useMintRight(h);
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
  if (!right) return <NoRights what="of a variable-cap asset" h={h} />;
  if (step.reviewing && ready) {
    return (
      <Review
        title="Review the mint"
        facts={[
          { term: 'Asset', value: <AssetLabel asset={{ ...right, verified: false }} /> },
          { term: 'New supply minted', value: formatValue(amountCheck.value, right.denomination, right.symbol), testid: 'review-amount' },
          { term: 'To', value: toCheck.value, mono: true, testid: 'review-to' },
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
    <form onSubmit={step.submit(ready)} noValidate>
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
          {held && (
            <span>
              {' '}
              · you hold <AmountText value={ownTotal(held)} denomination={held.denomination} symbol={held.symbol} />
            </span>
          )}
        </p>
      </div>
      <AmountInput value={amount} onInput={setAmount} denomination={right.denomination} symbol={right.symbol} />
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
