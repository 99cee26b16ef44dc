// What a site's transaction does to this wallet, before its inputs and outputs: the warnings in
// words, then per asset what leaves the wallet, what comes back, what goes to whom and what is
// burned (src/core/tx-impact.ts). Owners are labelled as the wallet's (which account, which
// address) or not, here and in the tables below.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { AssetImpact, ImpactWarning, ItemKind, OwnAddress, TxImpact } from '../core/tx-impact.js';
import type { ApprovalAssetInfo } from '../shared/messages.js';
import { Facts } from './components/Field.js';
import { formatDateTime, formatUnits } from './format.js';

type Assets = Record<string, ApprovalAssetInfo>;

/** The wallet's own addresses in the approval on screen: whoever shows an owner labels it. */
export const YoursContext = createContext<Record<string, OwnAddress> | undefined>(undefined);

/** Amounts the way the summary says them; NFTs (and properties) and rights to mint are counted one by one. */
function amountText(amount: string, assetID: string, assets: Assets, items?: ItemKind): string {
  const info = assets[assetID];
  // Only the network's own AVAX goes by its symbol alone: any asset may call itself anything.
  const name = info ? `${info.symbol}${info.verified ? '' : ' (unverified asset)'}` : `asset ${assetID}`;
  const one = amount === '1';
  if (items) return `${formatUnits(amount, 0)} ${items === 'rights' ? `right${one ? '' : 's'} to mint` : one ? 'NFT or property' : 'NFTs or properties'} of ${name}`;
  return info ? `${formatUnits(amount, info.denomination)} ${name}` : `${formatUnits(amount, 0)} base units of asset ${assetID}`;
}

function listText(addresses: readonly string[]): string {
  // An owner with no addresses needs no signature (threshold 0): anyone can act as it.
  return addresses.length === 0 ? 'anyone (no signature needed)' : addresses.join(', ');
}

/** Why an owner holding the wallet's atomic owner is still not the wallet's, on the P-Chain. */
const UNREAD = ", which never shows or spends what your C-Chain address's atomic owner holds on the P-Chain";

function warningText(w: ImpactWarning, assets: Assets, avaxAssetID: string | undefined): string {
  // What an output-borne warning is about, in its own terms (an NFT or a right to mint counted as one).
  const subject = 'amount' in w && 'assetID' in w ? amountText(w.amount, w.assetID, assets, w.items) : '';
  switch (w.kind) {
    case 'burn':
      // A right to mint is used up by minting NFTs (nftfx gives it no successor): said, not alarmed.
      return w.items === 'rights' ? `Uses up ${subject}: it does not come back` : `Destroys ${subject}: burned for good, paid to no one and not a fee`;
    case 'fee-above-network':
      return `Burns ${amountText(w.amount, avaxAssetID ?? '', assets)} in fees; the network charges at most ${amountText(w.ceiling, avaxAssetID ?? '', assets)} now`;
    case 'anyone':
      return `${subject} goes to an output with no owner: anyone can take it`;
    case 'shared':
      return `${subject} goes to an output shared with ${listText(w.strangers)}, who can spend it without you`;
    case 'needs-others':
      return `${subject} goes to an output you can spend only with the signature of ${listText(w.strangers)}`;
    case 'atomic-owner':
      return `${subject} goes on the ${w.chain}-Chain to your C-Chain address's atomic owner: this wallet never shows or spends funds there`;
    case 'locked':
      return `${subject} ${w.yours ? 'comes back to you' : 'is paid'} locked until ${timeText(w.until)}`;
    case 'burn-address':
      return `${w.address} is a burn address: anything sent to it is lost for good`;
    case 'first-payment':
      return `This wallet has never sent anything to ${w.address} before`;
    case 'look-alike':
      return w.paid ? `${w.address} looks like ${w.resembles}, an address this wallet has paid before, but is not it` : `${w.address} looks like your address ${w.resembles} but is not yours`;
    case 'not-your-owner':
      return `The ${w.what} go${w.what.endsWith('s') ? '' : 'es'} to ${listText(w.addresses)}${w.threshold > 1 ? ` (${w.threshold} signatures)` : ''}: not this wallet${w.unread ? UNREAD : ''}`;
    case 'unknown-input':
      return 'An input spends funds the wallet cannot see';
    case 'ends-subnet-ownership':
      return "Ends the subnet owner's control for good: from then on its validators are managed by the contract this transaction names, whoever controls that contract";
    case 'fee-unchecked':
      return "The wallet could not ask the node what the network's fee is now: the fee burned below is not checked";
    case 'imitation':
      return `Asset ${w.assetID} calls itself ${w.symbol}, but it is not the network's ${w.symbol}`;
    case 'owner-locked':
      return `The ${w.what} stay${w.what.endsWith('s') ? '' : 's'} locked until ${timeText(w.until)}`;
    case 'fee-balance':
      return `${amountText(w.amount, avaxAssetID ?? '', assets)} goes into an L1 validator's fee balance; what is left of it goes to ${w.refundTo ? `${listText(w.refundTo)}, not this wallet${w.unread ? UNREAD : ''}` : 'an owner this transaction does not name'}`;
  }
}

function timeText(seconds: string): string {
  const n = Number(seconds);
  return Number.isSafeInteger(n) && n * 1000 <= 8.64e15 ? formatDateTime(n * 1000) : `${seconds} (Unix time)`;
}

/** "Yours · Account 1, X/P address" or "Not yours", next to an address. */
export function OwnerLabel({ address }: { address: string }) {
  const yours = useContext(YoursContext);
  if (!yours) return null;
  const mine = yours[address];
  return mine ? (
    <span class="badge verified" data-testid="owner-yours">
      Yours · {mine.account}, {mine.role}
    </span>
  ) : (
    <span class="badge" data-testid="owner-not-yours">
      Not yours
    </span>
  );
}

function AssetRows({ a, assets }: { a: AssetImpact; assets: Assets }) {
  const rows: [string, string][] = [];
  const text = (amount: string) => amountText(amount, a.assetID, assets, a.nonFungible);
  if (a.leaves !== '0') rows.push(['Leaves your wallet', text(a.leaves)]);
  if (a.fromOthers !== '0') rows.push(["Spent from others' funds", text(a.fromOthers)]);
  if (a.returns !== '0') rows.push(['Comes back to you', text(a.returns)]);
  if (a.returnsLocked) rows.push(['Of which locked for now (see Warnings)', text(a.returnsLocked)]);
  if (a.staked !== '0') rows.push(['Staked, back to you when it ends', text(a.staked)]);
  for (const r of a.toOthers) {
    const owners = `${listText(r.addresses)}${r.threshold > 1 ? ` (${r.threshold} signatures)` : ''}`;
    const label = r.feeBalance
      ? `Into an L1 validator's fee balance, the rest to ${r.unnamed ? 'an owner not named here' : owners}`
      : r.staked
        ? `Staked, back to ${r.addresses.length === 0 ? 'anyone' : owners}`
        : `Goes to ${r.addresses.length === 0 ? 'anyone' : owners}`;
    rows.push([label, text(r.amount)]);
  }
  if (a.burned !== '0') rows.push([a.nonFungible === 'rights' ? 'Used up' : 'Burned', text(a.burned)]);
  return (
    <>
      {rows.map(([label, value]) => (
        <div class="impact-row" key={label}>
          <dt class="break">{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </>
  );
}

/** An asset's name in the summary: only the network's own AVAX goes by its symbol alone. */
function assetHeading(assetID: string, assets: Assets): string {
  const info = assets[assetID];
  if (!info) return `Unknown asset ${assetID}`;
  return info.verified ? info.symbol : `${info.symbol} (not the network's AVAX; asset ${assetID})`;
}

/** The warnings about a tx, in words (nothing when there are none). */
export function ImpactWarnings({ warnings, assets = {}, avaxAssetID }: { warnings: ImpactWarning[]; assets?: Assets; avaxAssetID?: string | undefined }) {
  if (warnings.length === 0) return null;
  const item = (w: ImpactWarning, i: number) => (
    <li key={i} class="badge warn" data-kind={w.kind}>
      {warningText(w, assets, avaxAssetID)}
    </li>
  );
  // The weightiest come first (tx-impact.ts orders them); a long tail folds under them.
  const rest = warnings.slice(SHOWN_WARNINGS);
  return (
    <div data-testid="impact-warnings">
      <ul class="warnings" aria-label="Warnings">
        {warnings.slice(0, SHOWN_WARNINGS).map(item)}
      </ul>
      {rest.length > 0 && (
        <details class="section">
          <summary>
            {rest.length} more {rest.length === 1 ? 'warning' : 'warnings'}
          </summary>
          <ul class="warnings" aria-label="More warnings">
            {rest.map((w, i) => item(w, i + SHOWN_WARNINGS))}
          </ul>
        </details>
      )}
    </div>
  );
}

/** Warnings shown before the rest fold away. */
const SHOWN_WARNINGS = 6;

export function ImpactSummary({ impact, assets, signsNothing, avaxAssetID }: { impact: TxImpact; assets: Assets; signsNothing: boolean; avaxAssetID: string | undefined }) {
  return (
    <section class="section-body" data-testid="tx-impact" aria-labelledby="impact-heading">
      <h2 id="impact-heading">What this does to your wallet</h2>
      {signsNothing && (
        <p class="badge warn" role="note" data-testid="signs-nothing">
          None of this account's keys signs anything in this transaction: approving signs nothing.
        </p>
      )}
      <ImpactWarnings warnings={impact.warnings} assets={assets} avaxAssetID={avaxAssetID} />
      {impact.assets.map((a) => (
        <div key={a.assetID + (a.nonFungible ?? '')} data-testid="impact-asset">
          <p class="impact-asset-name break">{assetHeading(a.assetID, assets)}</p>
          <Facts>
            <AssetRows a={a} assets={assets} />
          </Facts>
        </div>
      ))}
    </section>
  );
}
