// Balances: a total and one section per chain, each asset with its denomination and symbol. The
// network's AVAX is marked verified; every other asset shows its ID. Refresh state always shown.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { AssetLabel } from '../components/AssetLabel.js';
import {
  chainLabel,
  formatAgo,
  formatClock,
  AVAX_DECIMALS,
  formatDateTime,
  formatSince,
  formatUnits,
  formatValue,
  shortenId,
  ownSpendable,
  ownTotal,
  sharedLockedOf,
  sharedOf,
  totalOf,
  units,
  WEI_DECIMALS,
} from '../format.js';
import { WEI_PER_NAVAX } from '../../core/amount.js';
import type { AccountView, AssetBalanceView, BalancesView, ChainName, Selection } from '../../shared/messages.js';
import { AmountText } from '../components/AmountText.js';
import { CopyButton } from '../components/CopyButton.js';
import { Muted, MutedText, ScreenReaderText, SmallButton } from '../components/Field.js';
import { useTick } from '../components/NodeBanner.js';
import { lazyComponent } from '../components/Lazy.js';

const CHAINS: ChainName[] = ['X', 'P', 'C'];

export interface HomeProps {
  /** Whose balances: the header names the account and offers its address to copy. */
  account?: AccountView | null;
  /** The actions on the balances (Send, Receive, Move), under the header. */
  actions?: ComponentChildren;
  /** The account and network shown: what an import of waiting funds is bound to. */
  selection?: Selection | undefined;
  view: BalancesView | null;
  /** The balances request itself failed (not the node: the background). */
  loadError?: string | undefined;
  hidden: ReadonlySet<string>;
  onToggleHidden: (assetID: string) => void;
  onRefresh: () => void;
  /** Fixed clock for tests; otherwise the time, ticking. */
  now?: number;
}

export function RefreshState({ view, loadError, now, onRefresh }: { view: BalancesView | null; loadError?: string | undefined; now: number; onRefresh: () => void }) {
  let text: string;
  let ago = '';
  let tone = '';
  if (loadError) {
    // The numbers below are still shown: say how old they are, as the node banner does.
    text = view?.updatedAt ? `${loadError} Balances shown are from ${formatSince(view.updatedAt, now)}.` : loadError;
    tone = 'error';
  } else if (!view || (view.updatedAt === 0 && view.refreshing)) {
    text = 'Loading balances…';
  } else if (view.refreshing) {
    text = `Refreshing… (last updated ${formatSince(view.updatedAt, now)})`;
  } else if (view.error) {
    // The banner above every screen says why, in words; here, what it means for these numbers.
    text = view.updatedAt ? `Not up to date: these balances are from ${formatSince(view.updatedAt, now)}` : 'No balances yet: the node did not answer';
    tone = 'error';
  } else if (view.updatedAt === 0) {
    text = 'Not updated yet';
  } else {
    text = `Updated ${formatClock(view.updatedAt)}`;
    ago = ` · ${formatAgo(view.updatedAt, now)}`;
  }
  const busy = view?.refreshing === true;
  return (
    <div class={`refresh-state ${tone}`}>
      <span data-testid="refresh-state">
        {busy && <span class="spinner" aria-hidden="true" />}
        {/* Announced when the state changes, not each time the age ticks on. */}
        <span role="status">{text}</span>
        {ago && <span aria-hidden="true">{ago}</span>}
      </span>
      <SmallButton onClick={onRefresh} disabled={busy} aria-label="Refresh balances">
        Refresh
      </SmallButton>
    </div>
  );
}

/** One line on the locked part: what it is and that it cannot be sent yet. */
export function lockedLine(b: AssetBalanceView): string | null {
  const locked = units(b.locked);
  const stakeable = units(b.lockedStakeable);
  if (locked === 0n && stakeable === 0n) return null;
  const show = (v: bigint) => formatValue(v, b.denomination, b.symbol);
  const shared = sharedLockedOf(b);
  // Like a shared spendable output: the stranger's key can take it the moment it unlocks.
  const sharedNote = shared === 0n ? '' : `. ${show(shared)} of it is shared: another key can take it once it unlocks, so your total leaves it out`;
  if (stakeable === 0n) return `+ ${show(locked)} time-locked: spendable once its lock time passes${sharedNote}`;
  // Vesting funds: the chain would let them be staked, but this wallet stakes only unlocked funds.
  if (locked === 0n) return `+ ${show(stakeable)} vesting (stakeable-locked): spendable once it unlocks; this wallet does not stake it${sharedNote}`;
  return `+ ${show(locked + stakeable)} locked (${formatUnits(locked, b.denomination)} time-locked, ${formatUnits(stakeable, b.denomination)} vesting): not spendable yet${sharedNote}`;
}

/** One line on the part no transaction proves, in words; null when all of it is proven. */
export function unprovenLine(b: AssetBalanceView): string | null {
  // Snapshots saved before proofs existed have no such field.
  const unproven = b.unproven === undefined ? 0n : units(b.unproven);
  if (unproven === 0n) return null;
  return `${formatValue(unproven, b.denomination, b.symbol)} of this is unproven: your node showed no transaction that created it. Funds from the network's start and staking rewards look like this; anything else may not be there.`;
}

/** One line on the part another key can also spend, apart from the figures above it; null when none. */
export function sharedLine(b: AssetBalanceView): string | null {
  const shared = sharedOf(b);
  if (shared === 0n) return null;
  return `+ ${formatValue(shared, b.denomination, b.symbol)} shared: another key can also spend it, at any time, so it is yours only until that key moves it. You can still send it.`;
}

/** What the account's stakes lock on the P-Chain, one line each, with when it comes back (local time). */
export function stakedLines(b: AssetBalanceView): string[] {
  return (b.staked ?? []).map(
    (s) => `+ ${formatValue(s.amount, b.denomination, b.symbol)} staked: ${s.unlocksAt === null ? 'back once the validation is stopped' : `back ${formatDateTime(s.unlocksAt * 1000)}`}`,
  );
}

function AssetRow({ b, hidden, onToggleHidden }: { b: AssetBalanceView; hidden: boolean; onToggleHidden: (id: string) => void }) {
  const line = lockedLine(b);
  const unproven = unprovenLine(b);
  const shared = sharedLine(b);
  const own = ownSpendable(b);
  return (
    <li class="asset-row" data-testid={`asset-${b.chain}-${b.assetID}`}>
      <div class="asset-main">
        <AssetLabel asset={b} />
        <span class="amount" aria-label={`${formatValue(own, b.denomination, b.symbol)} spendable`}>
          <AmountText value={own} denomination={b.denomination} symbol={b.symbol} />
        </span>
      </div>
      {line && <p class="locked-line">{line}</p>}
      {shared && (
        <p class="unproven-line" data-testid={`shared-${b.chain}-${b.assetID}`}>
          {shared}
        </p>
      )}
      {unproven && (
        <p class="unproven-line" data-testid={`unproven-${b.chain}-${b.assetID}`}>
          {unproven}
        </p>
      )}
      {!b.verified && (
        <div class="asset-meta">
          <button type="button" class="link" onClick={() => onToggleHidden(b.assetID)}>
            {hidden ? 'Unhide' : 'Hide'} {b.symbol}
            <ScreenReaderText> (asset ID {b.assetID})</ScreenReaderText>
          </button>
        </div>
      )}
    </li>
  );
}

function ChainSection({ chain, rows, hidden, showHidden, onToggleHidden }: { chain: ChainName; rows: AssetBalanceView[] | null; hidden: ReadonlySet<string>; showHidden: boolean; onToggleHidden: (id: string) => void }) {
  const avax = rows?.find((b) => b.verified);
  // The chain's AVAX is its header's figure; it gets a row of its own only to explain a part of it.
  const explained = (b: AssetBalanceView) => lockedLine(b) !== null || unprovenLine(b) !== null || sharedLine(b) !== null;
  // An asset of which nothing is held in amounts (an NFT family's NFTs, a mint right alone) is not a
  // balance: Assets lists it; here it read "0".
  const visible = rows?.filter((b) => (b.verified ? explained(b) : totalOf(b) > 0n && (showHidden || !hidden.has(b.assetID)))) ?? [];
  const heading = chain === 'P' ? 'Spendable now' : 'AVAX';
  return (
    <section class="chain" aria-labelledby={`chain-${chain}`}>
      <header class="chain-head">
        <h2 id={`chain-${chain}`}>{chainLabel(chain)}</h2>
        <span class="chain-total" data-testid={`total-${chain}`}>
          <MutedText>{heading} </MutedText>
          {avax ? <AmountText value={chain === 'P' ? ownSpendable(avax) : ownTotal(avax)} denomination={avax.denomination} symbol={avax.symbol} label={`${chainLabel(chain)} ${chain === 'P' ? 'spendable now' : 'total'}`} /> : rows ? '0 AVAX' : '—'}
        </span>
      </header>
      {avax && stakedLines(avax).length > 0 && (
        <ul class="plain staked-line" aria-label="Staked" data-testid={`staked-${chain}`}>
          {stakedLines(avax).map((line, i) => (
            <li key={i}>{line}</li>
          ))}
        </ul>
      )}
      {rows === null ? (
        <ul class="assets">
          <li class="asset-row placeholder" aria-hidden="true">
            <div class="asset-main">
              <span>AVAX</span>
              <span class="amount">—</span>
            </div>
          </li>
        </ul>
      ) : visible.length === 0 ? (
        avax && totalOf(avax) > 0n ? null : rows.some((b) => !b.verified && totalOf(b) === 0n) && !rows.some((b) => !b.verified && totalOf(b) > 0n) ? (
          <p class="muted empty">No amounts on the {chainLabel(chain)}: its NFTs and mint rights are under Assets.</p>
        ) : (
          <p class="muted empty">Nothing on the {chainLabel(chain)} yet.</p>
        )
      ) : (
        <ul class="assets">
          {visible.map((b) => (
            <AssetRow key={b.assetID} b={b} hidden={hidden.has(b.assetID)} onToggleHidden={onToggleHidden} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** AVAX the account's own stakes lock, in wei (the P-Chain's `staked` lines). */
export function stakedAvaxWei(view: BalancesView): bigint {
  let sum = 0n;
  for (const b of view.balances) if (b.verified) for (const s of b.staked ?? []) sum += BigInt(s.amount) * WEI_PER_NAVAX;
  return sum;
}

/** AVAX on all chains in wei (X/P nAVAX scaled up), so nothing is rounded; what is staked or moving between chains included (it is the account's), what is shared apart. */
export function totalAvaxWei(view: BalancesView): bigint {
  let sum = stakedAvaxWei(view) + BigInt(view.moving ?? 0) * WEI_PER_NAVAX;
  for (const b of view.balances) {
    if (!b.verified) continue;
    sum += b.denomination === WEI_DECIMALS ? ownTotal(b) : ownTotal(b) * WEI_PER_NAVAX;
  }
  return sum;
}

/** Shown only when funds wait in atomic memory: not in the popup's first load. */
const WaitingFunds = lazyComponent(() => import('../components/WaitingFunds.js').then((m) => m.WaitingFunds));

export function Home(p: HomeProps) {
  // Ticks every few seconds so "2 min ago" stays true.
  const now = useTick(5000, p.now);
  const [showHidden, setShowHidden] = useState(false);
  const view = p.view;
  const staked = view ? stakedAvaxWei(view) : 0n;
  // Once shown, it stays (with what the import did) after the funds are imported.
  const [waitingShown, setWaitingShown] = useState(false);
  const anyWaiting = (view?.waiting.length ?? 0) > 0;
  useEffect(() => {
    if (anyWaiting) setWaitingShown(true);
  }, [anyWaiting]);
  const byChain = (c: ChainName) => (view && view.updatedAt > 0 ? view.balances.filter((b) => b.chain === c) : null);
  // Counted as listed: an asset of which no amount is held has no row to show.
  const hiddenHere = view ? view.balances.filter((b) => !b.verified && p.hidden.has(b.assetID) && totalOf(b) > 0n).length : 0;
  return (
    <div class="home">
      <header class="account-head">
        <h1>{p.account?.name ?? 'Balances'}</h1>
        {p.account && (
          <p class="id-line">
            <span class="mono" title={p.account.xAddress} data-testid="home-address">
              {shortenId(p.account.xAddress, 14, 6)}
            </span>
            <CopyButton text={p.account.xAddress} what="X-Chain address" />
          </p>
        )}
      </header>
      {p.actions}
      <RefreshState view={view} loadError={p.loadError} now={now} onRefresh={p.onRefresh} />
      <div class="grand-total">
        <MutedText>Total AVAX, all chains</MutedText>
        <span class="amount big" data-testid="total-all">
          {view && view.updatedAt > 0 ? <AmountText value={totalAvaxWei(view)} denomination={WEI_DECIMALS} symbol="AVAX" label="Total, all chains" /> : '—'}
        </span>
        {staked > 0n && (
          <MutedText data-testid="total-all-staked">
            of which staked: <AmountText value={staked} denomination={WEI_DECIMALS} symbol="AVAX" label="Staked, in the total" />
          </MutedText>
        )}
        {view?.moving && (
          <MutedText data-testid="total-all-moving">
            of which moving between chains: <AmountText value={view.moving} denomination={AVAX_DECIMALS} symbol="AVAX" label="Moving between chains, in the total" />
          </MutedText>
        )}
      </div>
      {view?.warnings && view.warnings.length > 0 && (
        <ul class="warnings" aria-label="What the node sent that was not counted" data-testid="balance-warnings">
          {view.warnings.map((w) => (
            <li key={w} class="badge warn" role="note">
              {w}
            </li>
          ))}
        </ul>
      )}
      {view && (anyWaiting || waitingShown) && <WaitingFunds view={view} selection={p.selection} onRefresh={p.onRefresh} />}
      {CHAINS.map((c) => (
        <ChainSection key={c} chain={c} rows={byChain(c)} hidden={p.hidden} showHidden={showHidden} onToggleHidden={p.onToggleHidden} />
      ))}
      {hiddenHere > 0 && (
        <Muted>
          {hiddenHere} hidden asset{hiddenHere === 1 ? '' : 's'} ·{' '}
          <button type="button" class="link" onClick={() => setShowHidden((s) => !s)}>
            {showHidden ? 'Hide them again' : 'Show'}
          </button>
        </Muted>
      )}
    </div>
  );
}
