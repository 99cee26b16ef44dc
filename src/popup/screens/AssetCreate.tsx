// Assets' Create view: a new fixed-cap, variable-cap or NFT family, its form and its review. Its
// own file beside Assets.tsx (which shows it) so each screen file stays readable.
import { useState } from 'preact/hooks';
import { selectionOf, useCall } from '../api.js';
import { UINT64_MAX } from '../../core/amount.js';
import { checkAddress, checkAmount, checkAssetName, checkDenomination, checkSymbol } from '../checks.js';
import { AddressInput, sameAddress } from '../components/AddressInput.js';
import { CopyButton } from '../components/CopyButton.js';
import { Muted, SmallButton, TextField } from '../components/Field.js';
import { type Fact, Review, useReviewStep } from '../components/Review.js';
import { useSentBefore } from '../components/SentBefore.js';
import { Segmented } from '../components/Segmented.js';
import { Term } from '../components/Term.js';
import { AVAX_DECIMALS, formatValue } from '../format.js';
import type { Amount, OwnerSet } from '../../shared/messages.js';
import { type AssetsProps, type Holdings, FeeLine, Issued, type OwnerDraft, ownerSetOf, OwnerEditor } from './AssetsShared.js';

type CreateKind = 'fixed' | 'variable' | 'nft';

export function Create({ status, hrp, onChanged, h }: AssetsProps & { h: Holdings }) {
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
  // An output's amount is 64 bits: at 18 decimals, the EVM habit, that is under 19 whole tokens.
  const perOutput = `One output holds at most ${formatValue(UINT64_MAX, decimals, symbol || 'tokens')}`;
  const holderChecks = holders.map((h) => ({ to: checkAddress(h.address, 'X', hrp), amount: checkAmount(h.amount, { denomination: decimals, symbol }) }));
  const minterChecks = minters.map((m) => ownerSetOf(m, hrp));
  const holdersOk = kind !== 'fixed' || holderChecks.every((h) => h.to.ok && h.amount.ok);
  const mintersOk = kind === 'fixed' || minterChecks.every((m) => m.ok);
  const maxFee = h.fees.data?.createAsset;
  const ready = nameCheck.ok && symbolCheck.ok && denomCheck.ok && holdersOk && mintersOk && maxFee !== undefined;
  // A popup closed while an asset was created opens on an empty form: creating again pays twice.
  const createdBefore = useSentBefore(step.reviewing && ready ? { kind: 'create-asset', chain: 'X', created: { name, symbol }, sending: step.props.busy } : undefined);

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
            <Term term="New asset ID" class="id-line">
              <span class="mono break">{done.assetID}</span>
              <CopyButton text={done.assetID} what="asset ID" />
            </Term>
          </dl>
        }
      />
    );
  }

  if (step.reviewing && ready) {
    // Who gets the supply or the right to mint, for good: this account's address named as such, and
    // a supply or a minter set it has no part in said (a pasted address swapped gives them away).
    const named = (a: string) => (sameAddress(a, own) ? `${a} (this account)` : a);
    const noneToUs = kind === 'fixed' && !holders.some((x) => sameAddress(x.address.trim(), own));
    const kindName = kind === 'fixed' ? 'Fixed cap: the whole supply now, no more ever' : kind === 'variable' ? 'Variable cap: minted later by its minters' : 'NFT family: each group minted once, later, by its minter set';
    const facts: Fact[] = [
      { term: 'Kind', value: kindName },
      { term: 'Name', value: name },
      { term: 'Symbol', value: symbol },
      ...createdBefore,
      ...(kind !== 'nft' ? [{ term: 'Decimal places', value: `${decimals}. ${perOutput}.` }] : []),
      ...(kind === 'fixed'
        ? holders.map((x, i) => ({ term: `Holder ${i + 1} receives`, value: `${formatValue((holderChecks[i]!.amount as { value: bigint }).value, decimals, symbol)} at ${named(x.address.trim())}`, mono: true }))
        : minterChecks.map((m, i) => {
            const set = (m as { value: OwnerSet }).value;
            const alone = set.threshold === 1 && set.addresses.some((a) => sameAddress(a, own));
            return {
              term: kind === 'nft' ? `Group ${i} minters` : `Minter set ${i + 1}`,
              value: (
                <>
                  <span class="mono">{`${set.threshold} of ${set.addresses.map(named).join(', ')}`}</span>
                  {!alone && <span class="badge warn">This account cannot mint with it alone.</span>}
                </>
              ),
            };
          })),
      ...(noneToUs ? [{ term: 'This account gets', value: <span class="badge warn">None of the supply: it all goes to the addresses above.</span> }] : []),
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
      {kind !== 'nft' && <TextField label="Decimal places (denomination)" inputMode="numeric" value={denomination} onInput={setDenomination} hint={denomCheck.ok ? `${perOutput}.` : undefined} error={denomCheck.ok ? undefined : denomCheck.error} />}
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
                <SmallButton onClick={() => setHolders(holders.filter((_, j) => j !== i))}>
                  Remove holder {i + 1}
                </SmallButton>
              )}
            </div>
          ))}
          <SmallButton disabled={holders.length >= 64} onClick={() => setHolders([...holders, { address: '', amount: '' }])}>
            Add holder
          </SmallButton>
        </fieldset>
      )}
      {kind === 'nft' && <Muted>Each group is minted once (one NFT from this wallet); its mint right is then used up.</Muted>}
      {kind !== 'fixed' &&
        minters.map((m, i) => (
          <div key={i}>
            <OwnerEditor label={kind === 'nft' ? `Group ${i} minters` : `Minter set ${i + 1}`} draft={m} hrp={hrp} onChange={(d) => setMinters(minters.map((x, j) => (j === i ? d : x)))} />
            {minters.length > 1 && (
              <SmallButton onClick={() => setMinters(minters.filter((_, j) => j !== i))}>
                Remove {kind === 'nft' ? `group ${i}` : `minter set ${i + 1}`}
              </SmallButton>
            )}
          </div>
        ))}
      {kind !== 'fixed' && (
        <SmallButton disabled={minters.length >= 64} onClick={() => setMinters([...minters, { addresses: own, threshold: '1' }])}>
          {kind === 'nft' ? 'Add group' : 'Add minter set'}
        </SmallButton>
      )}
      <FeeLine fees={h.fees} kind="createAsset" />
      <button class="primary wide" type="submit" disabled={!ready}>
        Create asset
      </button>
    </form>
  );
}
