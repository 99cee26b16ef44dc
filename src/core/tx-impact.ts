// What a transaction does to the wallet asked to sign it, in the terms a person judges an approval
// by: per asset, what leaves the wallet, what comes back, what goes to whom and what is burned;
// which owners are the wallet's (which account, which address) and which are not; and what to be
// warned of (an asset burned beyond the fee, an output anyone or a stranger can take, a lock, a
// first payment, an address made to look like one of the wallet's own, rewards paid elsewhere).
// Computed from the TxView (src/core/describe.ts), so it speaks of exactly what the approval shows.
import type { LegView, OwnersView, TxView } from './describe.js';
import { burnAddress } from './encoding.js';

/** One of the wallet's addresses: whose it is and which of its addresses. */
export interface OwnAddress {
  account: string;
  role: string;
  /** The address as the wallet shows it. */
  address: string;
  /** The account's ID: one account's keys sign a tx, so an owner set is yours when one account alone meets it. */
  accountId?: string;
  /** The EVM key's atomic owner: the wallet reads what it owns on the C-Chain only (imports), never on X or P. */
  cOnly?: true;
}

export interface ImpactContext {
  /** The wallet's addresses, by {@link addressKey}. */
  own: ReadonlyMap<string, OwnAddress>;
  /** Addresses the wallet has paid before, by {@link addressKey}. */
  paidBefore: ReadonlySet<string>;
  avaxAssetID: string;
  /** The most AVAX (nAVAX) this tx should burn as the network's fee now, when the wallet can tell. */
  feeCeiling?: bigint;
  /** True when the wallet could not price the network's fee now: the fee is then said to be unchecked. */
  feeUnpriced?: boolean;
  /** Chain time (seconds): outputs locked past it are flagged. */
  nowSeconds: bigint;
}

/**
 * Who can spend an owner set: the wallet alone ('yours'); strangers without the wallet, which holds
 * a key of it too ('shared'); the wallet only with others' signatures ('needs-others'); only others,
 * or none the wallet reads there ('not-yours'); or anyone.
 */
export type Ownership = 'yours' | 'shared' | 'needs-others' | 'not-yours' | 'anyone';

export interface Recipient {
  /** The owner set's addresses, as shown (0x for an EVM account); empty for anyone, or an owner the tx does not name. */
  addresses: string[];
  threshold: number;
  /** Never 'yours' but for a fee balance whose rest comes back to the wallet. */
  ownership: Ownership;
  amount: string;
  staked?: true;
  /** Moved into an L1 validator's fee balance; `addresses` get what is left. */
  feeBalance?: true;
  /** A fee balance whose rest goes to an owner the tx does not name (then `addresses` is empty). */
  unnamed?: true;
}

/** Outputs without an amount, one per UTXO: rights to mint, or NFTs and properties owned. */
export type ItemKind = 'rights' | 'items';

export interface AssetImpact {
  assetID: string;
  /** NFTs, properties (`items`) or rights to mint (`rights`) of the asset, counted one per UTXO; its amounts, and the other kind, are other entries. */
  nonFungible?: ItemKind;
  /** Spent from inputs the wallet signs (base units, decimal). */
  leaves: string;
  /** Spent from inputs that are not the wallet's. */
  fromOthers: string;
  /** Paid to outputs the wallet alone spends. */
  returns: string;
  /** Of those, paid locked past now (the `locked` warning says until when): absent when none. */
  returnsLocked?: string;
  /** The wallet's stake: locked while staking, then back to it. */
  staked: string;
  /** Everything else paid out, by owner set. */
  toOthers: Recipient[];
  /** Consumed and not created again (for AVAX: the fee, as the view counts it). */
  burned: string;
}

export type ImpactWarning =
  | { kind: 'burn'; assetID: string; amount: string; items?: ItemKind }
  | { kind: 'fee-above-network'; amount: string; ceiling: string }
  | { kind: 'fee-unchecked' }
  | { kind: 'imitation'; assetID: string; symbol: string }
  /** `unread`: among the owners, the wallet's atomic owner, which it never reads on the P-Chain. */
  | { kind: 'not-your-owner'; what: string; addresses: string[]; threshold: number; unread?: true }
  | { kind: 'owner-locked'; what: string; until: string }
  | { kind: 'fee-balance'; amount: string; refundTo?: string[]; unread?: true }
  | { kind: 'anyone'; assetID: string; amount: string; items?: ItemKind }
  | { kind: 'shared' | 'needs-others'; assetID: string; amount: string; items?: ItemKind; strangers: string[] }
  /** Paid on X or P to atomic owners of the wallet's EVM keys (labelled in the tables), where the wallet never reads (nor spends) what they hold. */
  | { kind: 'atomic-owner'; assetID: string; amount: string; chain: string; items?: ItemKind }
  /** `paid`: it resembles an address the wallet has paid before (address poisoning), not one of its own. */
  | { kind: 'look-alike'; address: string; resembles: string; paid?: true }
  | { kind: 'locked'; assetID: string; amount: string; items?: ItemKind; until: string; yours: boolean }
  | { kind: 'first-payment'; address: string }
  /** A burn address (burnAddress): what is sent to it is lost. */
  | { kind: 'burn-address'; address: string }
  | { kind: 'unknown-input' }
  /** A ConvertSubnetToL1Tx: the subnet's owner gives up control for good, to the manager contract it names. */
  | { kind: 'ends-subnet-ownership' };

/** Warnings in the order a person should read them: what destroys or hands over value first. */
const WARNING_ORDER: ImpactWarning['kind'][] = [
  'burn', 'burn-address', 'fee-above-network', 'fee-unchecked', 'imitation', 'ends-subnet-ownership',
  'not-your-owner', 'look-alike', 'fee-balance', 'shared', 'needs-others', 'anyone',
  'atomic-owner', 'owner-locked', 'locked', 'unknown-input', 'first-payment',
];

export interface TxImpact {
  assets: AssetImpact[];
  warnings: ImpactWarning[];
  /** Every address the view shows that is the wallet's: what to label it ("Account 1 · X/P address"). */
  yours: Record<string, OwnAddress>;
}

/**
 * The key an address is known by: its bech32 body without the chain letter (one key is one
 * address on X, P and in atomic memory), or a lower-case 0x EVM address.
 */
export function addressKey(address: string): string {
  const a = address.trim();
  if (/^0x[0-9a-fA-F]{40}$/.test(a)) return a.toLowerCase();
  return a.replace(/^[XPC]-/, '').toLowerCase();
}

/**
 * The wallet's address `a`, where the wallet reads what it owns on `chain`: the EVM key's atomic
 * owner only on the C-Chain. Without `chain` (an input, which the wallet signs for whatever key
 * holds it), every address of the wallet's.
 */
const ownOn = (a: string, own: ImpactContext['own'], chain?: string): OwnAddress | undefined => {
  const mine = own.get(addressKey(a));
  return mine?.cOnly && chain !== undefined && chain !== 'C' ? undefined : mine;
};

/**
 * Of `addresses` (on `chain`, as {@link ownOn}), those of the one account holding most of them: a
 * tx is signed by one account's keys, so two accounts' addresses in one owner set are not one signer.
 */
function signersOf(addresses: readonly string[], own: ImpactContext['own'], chain?: string): string[] {
  const byAccount = new Map<string, string[]>();
  for (const a of addresses) {
    const mine = ownOn(a, own, chain);
    if (!mine) continue;
    const id = mine.accountId ?? mine.account;
    const list = byAccount.get(id);
    if (list) list.push(a);
    else byAccount.set(id, [a]);
  }
  return [...byAccount.values()].reduce((most, next) => (next.length > most.length ? next : most), []);
}

/**
 * An owner set as the wallet judges it on `chain` (as {@link ownOn}): its ownership; its strangers
 * (none of the wallet's); its atomic owners unread there (neither signers nor strangers); and the
 * signatures the signing account lacks (strangers', the wallet's other accounts').
 */
function judgeOwners(o: Pick<OwnersView, 'addresses' | 'threshold'>, own: ImpactContext['own'], chain?: string) {
  const { addresses, threshold } = o;
  const signers = signersOf(addresses, own, chain);
  const strangers = addresses.filter((a) => !own.has(addressKey(a)));
  const unread = addresses.filter((a) => own.has(addressKey(a)) && !ownOn(a, own, chain));
  const missing = addresses.filter((a) => !signers.includes(a) && !unread.includes(a));
  // Strangers who meet the threshold spend it without the wallet, whatever it holds besides.
  const ownership: Ownership =
    threshold === 0 || addresses.length === 0 ? 'anyone'
    : strangers.length >= threshold ? (strangers.length < addresses.length ? 'shared' : 'not-yours')
    : signers.length >= threshold ? 'yours'
    : signers.length > 0 && missing.length > 0 ? 'needs-others'
    : 'not-yours';
  return { ownership, strangers, unread, missing };
}

/** Said of an owner the wallet does not spend from when its atomic owner is among it: why not. */
const unreadOf = (j: ReturnType<typeof judgeOwners>) => (j.unread.length > 0 ? { unread: true as const } : {});

/** A leg's owner set: its owners, or its EVM account (one key, threshold 1). */
function ownersOfLeg(leg: LegView): OwnersView | undefined {
  if (leg.owners) return leg.owners;
  if (leg.evmAddress !== undefined) return { addresses: [leg.evmAddress], threshold: 1, locktime: '0' };
  return undefined;
}

/** The part of an address a person compares by eye: after the chain letter and the bech32 prefix. */
function visibleBody(address: string): string {
  const key = addressKey(address);
  return key.startsWith('0x') ? key.slice(2) : key.slice(key.lastIndexOf('1') + 1);
}

/** Characters a person compares by eye (the start and the end) that an address shares with one of the wallet's, and is not it. */
const LOOK_ALIKE_MATCH = 6;

/** Shares LOOK_ALIKE_MATCH characters of its start and end with `other`, and is not it. */
function resembles(body: string, other: string): boolean {
  if (other === body || other.length !== body.length) return false;
  let start = 0;
  while (start < body.length && other[start] === body[start]) start++;
  let end = 0;
  while (end < body.length - start && other[other.length - 1 - end] === body[body.length - 1 - end]) end++;
  return start + end >= LOOK_ALIKE_MATCH;
}

/** One of the wallet's addresses, or one it has paid before, that `address` is made to look like. */
function lookAlikeOf(address: string, c: Pick<ImpactContext, 'own' | 'paidBefore'>): { resembles: string; paid?: true } | undefined {
  const body = visibleBody(address);
  if (body.length < 12) return undefined;
  for (const [key, mine] of c.own) if (resembles(body, visibleBody(key))) return { resembles: mine.address };
  const prefix = address.match(/^[XPC]-/)?.[0] ?? '';
  for (const key of c.paidBefore) if (!c.own.has(key) && resembles(body, visibleBody(key))) return { resembles: key.startsWith('0x') ? key : `${prefix}${key}`, paid: true };
  return undefined;
}

/** The outputs that are a right to mint (secp256k1fx, NFT groups, properties). */
const RIGHTS = new Set(['MintOutput', 'NftMintOutput', 'PropertyMintOutput']);

export function txImpact(view: TxView, c: ImpactContext): TxImpact {
  type Tally = { assetID: string; items: ItemKind | ''; leaves: bigint; fromOthers: bigint; consumed: bigint; returns: bigint; returnsLocked: bigint; staked: bigint; out: bigint; toOthers: Recipient[] };
  const tallies = new Map<string, Tally>();
  // NFTs and rights to mint have no amount: they are counted apart, each kind on its own (a right
  // used up in a mint never reads as coming back as the NFT it mints), never in base units.
  const tally = (leg: LegView): Tally => {
    const items = leg.amount !== undefined ? '' : RIGHTS.has(leg.kind) ? 'rights' : 'items';
    const key = `${leg.assetID}#${items}`;
    let t = tallies.get(key);
    if (!t) tallies.set(key, (t = { assetID: leg.assetID, items, leaves: 0n, fromOthers: 0n, consumed: 0n, returns: 0n, returnsLocked: 0n, staked: 0n, out: 0n, toOthers: [] }));
    return t;
  };
  const amountOfLeg = (leg: LegView) => (leg.amount === undefined ? 1n : BigInt(leg.amount));
  const warnings: ImpactWarning[] = [];
  const yours: Record<string, OwnAddress> = {};
  const strangers = new Set<string>();
  const note = (owners: { readonly addresses: readonly string[] }) => {
    for (const a of owners.addresses) {
      const mine = c.own.get(addressKey(a));
      if (mine) yours[a] = mine;
      else strangers.add(a);
    }
  };

  for (const leg of view.inputs) {
    if (leg.unknownUtxo) warnings.push({ kind: 'unknown-input' });
    const owners = ownersOfLeg(leg);
    if (owners) note(owners);
    const amount = amountOfLeg(leg);
    const t = tally(leg);
    t.consumed += amount;
    const ownership = owners ? judgeOwners(owners, c.own).ownership : 'not-yours';
    if (ownership === 'yours' || ownership === 'shared' || ownership === 'needs-others') t.leaves += amount;
    else t.fromOthers += amount;
  }

  const pay = (leg: LegView, created: boolean) => {
    const owners = ownersOfLeg(leg);
    if (!owners) return;
    note(owners);
    const amount = amountOfLeg(leg);
    const t = tally(leg);
    // A mint's new units are not paid out of what it consumed; a right to mint passed on stands for
    // the one consumed, an NFT moved for itself: a right or NFT no output carries on is burned.
    if (!created || t.items) t.out += amount;
    const judged = judgeOwners(owners, c.own, leg.chain);
    const { ownership } = judged;
    // A stake comes back as its owners say: locked on, if they carry a later lock.
    const until = BigInt(owners.locktime) > BigInt(leg.stakeableUntil ?? '0') ? owners.locktime : (leg.stakeableUntil ?? '0');
    const locked = BigInt(until) > c.nowSeconds;
    const base = { assetID: leg.assetID, amount: amount.toString(), ...(t.items ? { items: t.items } : {}) };
    if (ownership === 'yours') {
      if (leg.staked) t.staked += amount;
      else t.returns += amount;
      // Said on its own line, where no pile of warnings can fold it away.
      if (locked && !leg.staked) t.returnsLocked += amount;
    } else {
      t.toOthers.push({ addresses: owners.addresses, threshold: owners.threshold, ownership, amount: amount.toString(), ...(leg.staked ? { staked: true as const } : {}) });
      if (ownership === 'anyone') warnings.push({ kind: 'anyone', ...base });
      // Strangers are named, or whose signatures are missing (another account's too). An atomic owner
      // off the C-Chain is the wallet's key, unread: said apart, after the warnings about strangers.
      if (ownership === 'shared' || ownership === 'needs-others') warnings.push({ kind: ownership, ...base, strangers: ownership === 'shared' ? judged.strangers : judged.missing });
      if (judged.unread.length > 0) warnings.push({ kind: 'atomic-owner', ...base, chain: leg.chain });
    }
    if (locked) warnings.push({ kind: 'locked', ...base, until, yours: ownership === 'yours' });
  };
  for (const leg of view.outputs) pay(leg, false);
  for (const op of view.operations) for (const leg of op.outputs) pay(leg, true);

  for (const b of view.feeBalances ?? []) {
    if (b.refundTo) note(b.refundTo);
    const judged = b.refundTo && judgeOwners(b.refundTo, c.own, 'P');
    const ownership: Ownership = judged ? judged.ownership : 'not-yours';
    const rest = { addresses: b.refundTo?.addresses ?? [], threshold: b.refundTo?.threshold ?? 0, ownership, amount: b.amount };
    tally({ chain: 'P', assetID: c.avaxAssetID, amount: b.amount, kind: 'TransferOutput' }).toOthers.push({ ...rest, feeBalance: true, ...(b.refundTo ? {} : { unnamed: true as const }) });
    if (ownership !== 'yours') warnings.push({ kind: 'fee-balance', amount: b.amount, ...(b.refundTo ? { refundTo: b.refundTo.addresses } : {}), ...(judged && unreadOf(judged)) });
  }

  const assets: AssetImpact[] = [];
  for (const t of tallies.values()) {
    // AVAX's burn is the tx's own (its fee with the rest); every other asset's, and items, counted here.
    const counted = t.items !== '' || t.assetID !== c.avaxAssetID;
    const burned = counted ? t.consumed - t.out : BigInt(view.burned);
    if (counted && burned > 0n) warnings.push({ kind: 'burn', assetID: t.assetID, amount: burned.toString(), ...(t.items ? { items: t.items } : {}) });
    assets.push({
      assetID: t.assetID,
      ...(t.items ? { nonFungible: t.items } : {}),
      leaves: t.leaves.toString(),
      fromOthers: t.fromOthers.toString(),
      returns: t.returns.toString(),
      ...(t.returnsLocked > 0n ? { returnsLocked: t.returnsLocked.toString() } : {}),
      staked: t.staked.toString(),
      toOthers: t.toOthers,
      burned: (burned > 0n ? burned : 0n).toString(),
    });
  }
  // AVAX first: a look-alike asset listed before it cannot pass for it by position.
  assets.sort((x, y) => Number(y.assetID === c.avaxAssetID && !y.nonFungible) - Number(x.assetID === c.avaxAssetID && !x.nonFungible));
  const avaxBurned = BigInt(view.burned);
  if (c.feeCeiling !== undefined && avaxBurned > c.feeCeiling) warnings.push({ kind: 'fee-above-network', amount: avaxBurned.toString(), ceiling: c.feeCeiling.toString() });
  if (c.feeCeiling === undefined && c.feeUnpriced && avaxBurned > 0n) warnings.push({ kind: 'fee-unchecked' });

  for (const r of view.rewardOwners ?? []) {
    note(r.owners);
    const judged = judgeOwners(r.owners, c.own, 'P');
    if (judged.ownership !== 'yours') warnings.push({ kind: 'not-your-owner', what: r.what, addresses: r.owners.addresses, threshold: r.owners.threshold, ...unreadOf(judged) });
    if (BigInt(r.owners.locktime) > c.nowSeconds) warnings.push({ kind: 'owner-locked', what: r.what, until: r.owners.locktime });
  }
  if (view.kind === 'ConvertSubnetToL1Tx') warnings.push({ kind: 'ends-subnet-ownership' });
  // The owner whose authorization the tx carries is labelled too: the wallet signs for it when it may.
  if (view.authorization?.owners) note(view.authorization.owners);
  for (const address of strangers) {
    const alike = lookAlikeOf(address, c);
    if (alike !== undefined) warnings.push({ kind: 'look-alike', address, ...alike });
  }
  const paidTo = new Set([...view.outputs, ...view.operations.flatMap((o) => o.outputs)].flatMap((l) => ownersOfLeg(l)?.addresses ?? []));
  for (const address of paidTo) {
    const key = addressKey(address);
    if (burnAddress(address)) warnings.push({ kind: 'burn-address', address });
    else if (!c.own.has(key) && !c.paidBefore.has(key)) warnings.push({ kind: 'first-payment', address });
  }
  return { assets, warnings: orderedWarnings(warnings), yours };
}

/**
 * Most important first; many of a kind about one asset (its amounts, or one kind of its items)
 * summed into one (dust anyone can take; outputs shared, every stranger named; locked alike, until
 * the latest time; to atomic owners off the C-Chain), so a flood of small ones cannot push the
 * others out of sight.
 */
export function orderedWarnings(warnings: readonly ImpactWarning[]): ImpactWarning[] {
  const merged: ImpactWarning[] = [];
  const byKey = new Map<string, ImpactWarning>();
  const keyOf = (w: ImpactWarning): string | undefined => {
    switch (w.kind) {
      case 'anyone':
      case 'shared':
      case 'needs-others':
        return `${w.kind}:${w.assetID}:${w.items}`;
      case 'locked':
        return `locked:${w.assetID}:${w.yours}:${w.items}`;
      case 'atomic-owner':
        return `${w.kind}:${w.assetID}:${w.chain}:${w.items}`;
      case 'unknown-input':
      case 'fee-unchecked':
        return w.kind;
      default:
        return undefined;
    }
  };
  for (const w of warnings) {
    const key = keyOf(w);
    const seen = key === undefined ? undefined : byKey.get(key);
    if (!seen) {
      const copy = { ...w } as ImpactWarning;
      if (key !== undefined) byKey.set(key, copy);
      merged.push(copy);
      continue;
    }
    if ('amount' in seen && 'amount' in w) seen.amount = (BigInt(seen.amount) + BigInt(w.amount)).toString();
    if ((seen.kind === 'shared' || seen.kind === 'needs-others') && (w.kind === 'shared' || w.kind === 'needs-others')) seen.strangers = [...new Set([...seen.strangers, ...w.strangers])];
    if (seen.kind === 'locked' && w.kind === 'locked' && BigInt(w.until) > BigInt(seen.until)) seen.until = w.until;
  }
  return merged.sort((a, b) => WARNING_ORDER.indexOf(a.kind) - WARNING_ORDER.indexOf(b.kind));
}

/**
 * What to say of one recipient (an EVM call's `to`): whose it is if the wallet's, and the warnings
 * about it (a first payment, a look-alike of one of the wallet's addresses).
 */
export function recipientImpact(address: string, c: Pick<ImpactContext, 'own' | 'paidBefore'>): { yours?: OwnAddress; warnings: ImpactWarning[] } {
  const key = addressKey(address);
  const yours = c.own.get(key);
  if (yours) return { yours, warnings: [] };
  // A burn address only: a site's tx may be on a chain where a built-in contract takes funds.
  if (burnAddress(address)) return { warnings: [{ kind: 'burn-address', address }] };
  const warnings: ImpactWarning[] = [];
  const alike = lookAlikeOf(address, c);
  if (alike !== undefined) warnings.push({ kind: 'look-alike', address, ...alike });
  if (!c.paidBefore.has(key)) warnings.push({ kind: 'first-payment', address });
  return { warnings };
}
