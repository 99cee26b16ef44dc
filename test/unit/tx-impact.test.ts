// What a tx does to the wallet, as the approval summarises it: ownership of every owner set, per
// asset what leaves, comes back, goes elsewhere and is burned, and each warning a person needs.
import { describe, expect, it } from 'vitest';
import type { LegView, TxView } from '../../src/core/describe.js';
import { formatAddress } from '../../src/core/encoding.js';
import { addressKey, type ImpactContext, type OwnAddress, recipientImpact, txImpact } from '../../src/core/tx-impact.js';

const AVAX = 'avax-id';
const TOKEN = 'token-id';
// Bech32-shaped addresses (the checks compare the part after the prefix).
const MINE = 'X-local1mineqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq7h4x';
const MINE_TOO = 'X-local1secondqqqqqqqqqqqqqqqqqqqqqqqqqqqq2k9z';
const BOB = 'X-local1bobbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb3m8w';
const CAROL = 'X-local1carolcccccccccccccccccccccccccccccc5n7v';

function context(extra: Partial<ImpactContext> = {}): ImpactContext {
  const own = new Map<string, OwnAddress>([
    [addressKey(MINE), { account: 'Account 1', role: 'X/P address', address: MINE }],
    [addressKey(MINE_TOO), { account: 'Account 1', role: 'another X/P address of this account', address: MINE_TOO }],
  ]);
  return { own, paidBefore: new Set(), avaxAssetID: AVAX, nowSeconds: 1_800_000_000n, ...extra };
}

function leg(amount: bigint, addresses: string[], threshold = 1, extra: Partial<LegView> = {}, assetID = AVAX): LegView {
  return { chain: 'X', assetID, amount: amount.toString(), kind: 'TransferOutput', owners: { addresses, threshold, locktime: '0' }, ...extra };
}

function view(inputs: LegView[], outputs: LegView[], burned: bigint, extra: Partial<TxView> = {}): TxView {
  return { chain: 'X', kind: 'BaseTx', networkID: 1, inputs, outputs, burned: burned.toString(), operations: [], ...extra };
}

describe('what a tx does to the wallet', () => {
  it('a plain send: what leaves, the change that comes back, the payment, the fee; owners labelled; a first payment flagged', () => {
    const impact = txImpact(view([leg(10n, [MINE])], [leg(6n, [BOB]), leg(3n, [MINE_TOO])], 1n), context());
    expect(impact.assets).toEqual([
      { assetID: AVAX, leaves: '10', fromOthers: '0', returns: '3', staked: '0', toOthers: [{ addresses: [BOB], threshold: 1, ownership: 'not-yours', amount: '6' }], burned: '1' },
    ]);
    expect(impact.yours[MINE]).toMatchObject({ account: 'Account 1' });
    expect(impact.yours[MINE_TOO]).toMatchObject({ role: 'another X/P address of this account' });
    expect(impact.yours[BOB]).toBeUndefined();
    expect(impact.warnings).toEqual([{ kind: 'first-payment', address: BOB }]);
    // Paid before (on any chain: the body of the address is what counts): no warning.
    expect(txImpact(view([leg(10n, [MINE])], [leg(9n, [BOB])], 1n), context({ paidBefore: new Set([addressKey(BOB.replace('X-', 'P-'))]) })).warnings).toEqual([]);
  });

  it('an input co-owned with a stranger still leaves this wallet: its signature spends it', () => {
    const impact = txImpact(view([leg(1_000n, [MINE, BOB], 1), leg(5n, [CAROL])], [leg(1_004n, [BOB])], 1n), context({ paidBefore: new Set([addressKey(BOB)]) }));
    expect(impact.assets[0]).toMatchObject({ leaves: '1000', fromOthers: '5' });
  });

  it('change to an output a stranger shares, or needs a stranger to spend, or anyone can take: not counted as coming back, and warned of', () => {
    const outputs = [leg(4n, [MINE, BOB], 1), leg(3n, [MINE, CAROL], 2), { ...leg(2n, []), owners: { addresses: [], threshold: 0, locktime: '0' } }];
    const impact = txImpact(view([leg(10n, [MINE])], outputs, 1n), context({ paidBefore: new Set([addressKey(BOB), addressKey(CAROL)]) }));
    expect(impact.assets[0]!.returns).toBe('0');
    expect(impact.assets[0]!.toOthers.map((r) => r.ownership)).toEqual(['shared', 'needs-others', 'anyone']);
    expect(impact.warnings).toEqual([
      { kind: 'shared', assetID: AVAX, amount: '4', strangers: [BOB] },
      { kind: 'needs-others', assetID: AVAX, amount: '3', strangers: [CAROL] },
      { kind: 'anyone', assetID: AVAX, amount: '2' },
    ]);
    // 2 of 3 where two are strangers: they spend it together without the wallet.
    expect(txImpact(view([leg(10n, [MINE])], [leg(9n, [MINE, BOB, CAROL], 2)], 1n), context({ paidBefore: new Set([addressKey(BOB), addressKey(CAROL)]) })).warnings).toEqual([{ kind: 'shared', assetID: AVAX, amount: '9', strangers: [BOB, CAROL] }]);
    // 2 of 3 where two are the wallet's: the wallet alone spends it, the stranger cannot.
    expect(txImpact(view([leg(10n, [MINE])], [leg(9n, [MINE, MINE_TOO, BOB], 2)], 1n), context({ paidBefore: new Set([addressKey(BOB)]) })).assets[0]!.returns).toBe('9');
  });

  it('another asset consumed and not paid out is burned, in its own units; AVAX beyond the network fee is flagged', () => {
    const inputs = [leg(10n, [MINE]), leg(1_000_000n, [MINE], 1, {}, TOKEN)];
    const outputs = [leg(5n, [MINE]), leg(10n, [MINE], 1, {}, TOKEN)];
    const impact = txImpact(view(inputs, outputs, 5n), context({ feeCeiling: 1n }));
    expect(impact.assets.find((a) => a.assetID === TOKEN)).toMatchObject({ leaves: '1000000', returns: '10', burned: '999990' });
    expect(impact.warnings).toContainEqual({ kind: 'burn', assetID: TOKEN, amount: '999990' });
    expect(impact.warnings).toContainEqual({ kind: 'fee-above-network', amount: '5', ceiling: '1' });
    // Within the ceiling: no fee warning.
    expect(txImpact(view(inputs.slice(0, 1), outputs.slice(0, 1), 5n), context({ feeCeiling: 5n })).warnings).toEqual([]);
  });

  it('a lock past now is warned of, saying whether it comes back to the wallet', () => {
    const locked = { ...leg(9n, [MINE]), owners: { addresses: [MINE], threshold: 1, locktime: '1900000000' } };
    expect(txImpact(view([leg(10n, [MINE])], [locked], 1n), context()).warnings).toEqual([{ kind: 'locked', assetID: AVAX, amount: '9', until: '1900000000', yours: true }]);
    const past = { ...locked, owners: { ...locked.owners, locktime: '1700000000' } };
    expect(txImpact(view([leg(10n, [MINE])], [past], 1n), context()).warnings).toEqual([]);
  });

  it('change that comes back locked is counted apart in the summary, where no pile of warnings folds it away', () => {
    const locked = { ...leg(9n, [MINE]), owners: { addresses: [MINE], threshold: 1, locktime: '30000000000' } };
    const [avax] = txImpact(view([leg(20n, [MINE])], [locked, leg(10n, [MINE_TOO])], 1n), context()).assets;
    expect(avax).toMatchObject({ returns: '19', returnsLocked: '9' });
    expect(txImpact(view([leg(10n, [MINE])], [leg(9n, [MINE])], 1n), context()).assets[0]).not.toHaveProperty('returnsLocked');
  });

  it("an owner set split across two of the wallet's accounts is nobody's alone (one account signs a tx): it needs the other's signature, named", () => {
    const OTHER_ACCOUNT = 'X-local1otherqqqqqqqqqqqqqqqqqqqqqqqqqqqqq8d2c';
    const own = new Map(context().own);
    own.set(addressKey(MINE), { ...own.get(addressKey(MINE))!, accountId: 'a1' });
    own.set(addressKey(OTHER_ACCOUNT), { account: 'Account 2', role: 'X/P address', address: OTHER_ACCOUNT, accountId: 'a2' });
    const impact = txImpact(view([leg(100n, [MINE])], [leg(98n, [MINE, OTHER_ACCOUNT], 2), leg(1n, [OTHER_ACCOUNT])], 1n), context({ own }));
    expect(impact.assets[0]).toMatchObject({ returns: '1', toOthers: [{ ownership: 'needs-others', amount: '98' }] });
    expect(impact.warnings).toEqual([{ kind: 'needs-others', assetID: AVAX, amount: '98', strangers: [OTHER_ACCOUNT] }]);
    // Either account alone meeting the threshold is yours.
    expect(txImpact(view([leg(100n, [MINE])], [leg(99n, [MINE, OTHER_ACCOUNT], 1)], 1n), context({ own })).assets[0]).toMatchObject({ returns: '99' });
    // Shared with a stranger: only the stranger can spend it without you, not your other account.
    const shared = txImpact(view([leg(100n, [MINE])], [leg(99n, [MINE, OTHER_ACCOUNT, BOB], 1)], 1n), context({ own }));
    expect(shared.warnings).toContainEqual({ kind: 'shared', assetID: AVAX, amount: '99', strangers: [BOB] });
  });

  it("the EVM key's atomic owner holds what goes into the C-Chain only: an X or P output to it is not counted as coming back (the wallet never reads it there)", () => {
    const ATOMIC = 'X-local1atomicqqqqqqqqqqqqqqqqqqqqqqqqqqqq4f6g';
    const own = new Map(context().own);
    own.set(addressKey(ATOMIC), { account: 'Account 1', role: "C-Chain address's atomic owner", address: ATOMIC, cOnly: true });
    const onX = txImpact(view([leg(100n, [MINE])], [leg(99n, [ATOMIC])], 1n), context({ own }));
    expect(onX.assets[0]).toMatchObject({ returns: '0', toOthers: [{ ownership: 'not-yours', amount: '99' }] });
    // Labelled as the wallet's key, so said in words why it does not come back.
    expect(onX.warnings).toContainEqual({ kind: 'atomic-owner', assetID: AVAX, amount: '99', chain: 'X' });
    // Beside your own X address it is no stranger: 1 of 2, your X key alone spends it (it comes back);
    // 2 of 2, the wallet never spends it there, and no "shared" or "needs others" names it.
    const mixed = (threshold: number) => txImpact(view([leg(100n, [MINE])], [leg(99n, [MINE, ATOMIC], threshold)], 1n), context({ own }));
    expect(mixed(1)).toMatchObject({ assets: [{ returns: '99', toOthers: [] }], warnings: [] });
    expect(mixed(2)).toMatchObject({ assets: [{ returns: '0', toOthers: [{ ownership: 'not-yours' }] }], warnings: [{ kind: 'atomic-owner' }] });
    expect(mixed(2).warnings).toHaveLength(1);
    const withStranger = txImpact(view([leg(100n, [MINE])], [leg(99n, [MINE, ATOMIC, BOB], 1)], 1n), context({ own }));
    expect(withStranger.warnings).toContainEqual({ kind: 'shared', assetID: AVAX, amount: '99', strangers: [BOB] });
    // A stranger beside it is named as one who takes it alone (1 of 2); at 2 of 2 no signature of the
    // stranger's lets the wallet spend it (it never reads it there): only the atomic owner is said.
    const beside = (threshold: number) => txImpact(view([leg(100n, [MINE])], [leg(99n, [ATOMIC, BOB], threshold)], 1n), context({ own, paidBefore: new Set([addressKey(BOB)]) })).warnings;
    // The atomic owner is said after them: the wallet does not read what it holds there.
    const unread = { kind: 'atomic-owner', assetID: AVAX, amount: '99', chain: 'X' };
    expect(beside(1)).toEqual([{ kind: 'shared', assetID: AVAX, amount: '99', strangers: [BOB] }, unread]);
    expect(beside(2)).toEqual([unread]);
    // A flood of dust to it, of one asset or of many, is summed and said after the stranger's share, which stays in sight; a right to mint is counted as one.
    const dust = Array.from({ length: 8 }, (_, i) => leg(1n, [ATOMIC], 1, {}, i % 2 === 0 ? AVAX : `junk-${i}`));
    const flooded = txImpact(view([leg(100n, [MINE])], [...dust, leg(90n, [MINE, BOB], 1)], 2n), context({ own }));
    expect(flooded.warnings[0]).toEqual({ kind: 'shared', assetID: AVAX, amount: '90', strangers: [BOB] });
    expect(flooded.warnings).toContainEqual({ kind: 'atomic-owner', assetID: AVAX, amount: '4', chain: 'X' });
    const right = txImpact(view([leg(10n, [MINE])], [leg(9n, [MINE])], 1n, { operations: [{ assetID: TOKEN, kind: 'SecpMintOperation', outputs: [{ chain: 'X', assetID: TOKEN, kind: 'MintOutput', owners: { addresses: [ATOMIC], threshold: 1, locktime: '0' } }] }] }), context({ own }));
    expect(right.warnings).toContainEqual({ kind: 'atomic-owner', assetID: TOKEN, amount: '1', chain: 'X', items: 'rights' });
    const exported = txImpact(view([leg(100n, [MINE])], [leg(99n, [ATOMIC], 1, { chain: 'C' })], 1n, { kind: 'ExportTx' }), context({ own }));
    expect(exported.assets[0]).toMatchObject({ returns: '99' });
    expect(exported.warnings.map((w) => w.kind)).not.toContain('atomic-owner');
  });

  it('an owner set is counted as it is warned of: strangers who meet the threshold share it, one account meeting it alone owns it, an unread atomic owner is neither', () => {
    const ATOMIC = 'X-local1atomicqqqqqqqqqqqqqqqqqqqqqqqqqqqq4f6g';
    const OTHER_ACCOUNT = 'X-local1otherqqqqqqqqqqqqqqqqqqqqqqqqqqqqq8d2c';
    const own = new Map(context().own);
    own.set(addressKey(MINE), { ...own.get(addressKey(MINE))!, accountId: 'a1' });
    own.set(addressKey(MINE_TOO), { ...own.get(addressKey(MINE_TOO))!, accountId: 'a1' });
    own.set(addressKey(ATOMIC), { account: 'Account 1', role: "C-Chain address's atomic owner", address: ATOMIC, accountId: 'a1', cOnly: true });
    own.set(addressKey(OTHER_ACCOUNT), { account: 'Account 2', role: 'X/P address', address: OTHER_ACCOUNT, accountId: 'a2' });
    const paidBefore = new Set([addressKey(BOB), addressKey(CAROL)]);
    const judged = (addresses: string[], threshold: number) => {
      const impact = txImpact(view([leg(100n, [MINE])], [leg(99n, addresses, threshold)], 1n), context({ own, paidBefore }));
      return { ownership: impact.assets[0]!.toOthers[0]?.ownership ?? (impact.assets[0]!.returns === '99' ? 'yours' : 'lost'), warnings: impact.warnings };
    };
    // Two strangers of three at 2: they spend it without you, counted and warned of as shared.
    expect(judged([MINE, BOB, CAROL], 2)).toEqual({ ownership: 'shared', warnings: [{ kind: 'shared', assetID: AVAX, amount: '99', strangers: [BOB, CAROL] }] });
    // Two of your X/P addresses meet 2 of 4 alone: the atomic owner beside them is no "other" to share it with.
    expect(judged([MINE, MINE_TOO, ATOMIC, BOB], 2)).toEqual({ ownership: 'yours', warnings: [] });
    // Every set of up to four of these owners, at every threshold, keeps the two in step, and a set
    // strangers alone can spend is never counted as the wallet's.
    const pool = [MINE, MINE_TOO, ATOMIC, OTHER_ACCOUNT, BOB, CAROL];
    let checked = 0;
    for (let mask = 1; mask < 1 << pool.length; mask++) {
      const addresses = pool.filter((_, i) => mask & (1 << i));
      if (addresses.length > 4) continue;
      const strangers = addresses.filter((a) => a === BOB || a === CAROL);
      for (let threshold = 1; threshold <= addresses.length; threshold++) {
        const { ownership, warnings } = judged(addresses, threshold);
        const kinds = warnings.map((w) => w.kind);
        expect(ownership).not.toBe('lost');
        expect(kinds.includes('shared'), `${addresses} at ${threshold}`).toBe(ownership === 'shared');
        expect(kinds.includes('needs-others'), `${addresses} at ${threshold}`).toBe(ownership === 'needs-others');
        expect(kinds.includes('atomic-owner'), `${addresses} at ${threshold}`).toBe(addresses.includes(ATOMIC) && ownership !== 'yours');
        if (strangers.length >= threshold) expect(ownership, `${addresses} at ${threshold}`).toBe(strangers.length < addresses.length ? 'shared' : 'not-yours');
        // Told apart from the rule itself: yours when one account's X/P keys alone meet it; needs
        // others only when the set holds one of them (the atomic owner alone is never read on X).
        const account1 = addresses.filter((a) => a === MINE || a === MINE_TOO).length;
        const alone = strangers.length < threshold && (account1 >= threshold || (addresses.includes(OTHER_ACCOUNT) && threshold === 1));
        expect(ownership === 'yours', `${addresses} at ${threshold}`).toBe(alone);
        if (ownership === 'needs-others') expect(account1 > 0 || addresses.includes(OTHER_ACCOUNT), `${addresses} at ${threshold}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
    // A reward owner your X/P address meets alone is yours, whichever of your keys stands beside it.
    const stake = (addresses: string[]) => view([leg(100n, [MINE])], [leg(99n, [MINE])], 1n, { chain: 'P', rewardOwners: [{ what: 'validator rewards', owners: { addresses, threshold: 1, locktime: '0' } }] });
    expect(txImpact(stake([MINE, ATOMIC]), context({ own })).warnings).toEqual([]);
    // One your atomic owner alone meets is not this wallet's on the P-Chain, and the warning says why.
    expect(txImpact(stake([ATOMIC]), context({ own })).warnings).toEqual([{ kind: 'not-your-owner', what: 'validator rewards', addresses: [ATOMIC], threshold: 1, unread: true }]);
    expect(txImpact(stake([BOB]), context({ own, paidBefore })).warnings).toEqual([{ kind: 'not-your-owner', what: 'validator rewards', addresses: [BOB], threshold: 1 }]);
    const feeBalance = (addresses: string[]) => txImpact(view([leg(100n, [MINE])], [leg(9n, [MINE])], 1n, { chain: 'P', feeBalances: [{ amount: '90', refundTo: { addresses, threshold: 1, locktime: '0' } }] }), context({ own })).warnings;
    expect(feeBalance([ATOMIC])).toEqual([{ kind: 'fee-balance', amount: '90', refundTo: [ATOMIC], unread: true }]);
    expect(feeBalance([MINE, ATOMIC])).toEqual([]);
  });

  it("what the EVM key's atomic owner holds, spent by a tx the wallet signs, leaves the wallet on any chain: a C import of it, or an X tx spending it", () => {
    const ATOMIC = 'X-local1atomicqqqqqqqqqqqqqqqqqqqqqqqqqqqq4f6g';
    const EVM = '0x1111111111111111111111111111111111111111';
    const own = new Map(context().own);
    own.set(addressKey(ATOMIC), { account: 'Account 1', role: "C-Chain address's atomic owner", address: ATOMIC, cOnly: true });
    own.set(addressKey(EVM), { account: 'Account 1', role: 'C-Chain address', address: EVM });
    // An import's inputs name the chain they come from (X), its output the EVM account on C.
    const cImport = view([leg(100n, [ATOMIC])], [{ chain: 'C', assetID: AVAX, amount: '99', kind: 'EvmAccount', evmAddress: EVM }], 1n, { chain: 'C', kind: 'ImportTx' });
    expect(txImpact(cImport, context({ own })).assets[0]).toMatchObject({ leaves: '100', fromOthers: '0', returns: '99', burned: '1' });
    const xSpend = txImpact(view([leg(100n, [ATOMIC])], [leg(99n, [BOB])], 1n), context({ own }));
    expect(xSpend.assets[0]).toMatchObject({ leaves: '100', fromOthers: '0', toOthers: [{ addresses: [BOB], amount: '99' }] });
  });

  it('an address made to look like one of the wallet’s (same first and last four characters) is named', () => {
    const body = MINE.slice('X-local1'.length);
    const fake = `X-local1${body.slice(0, 4)}${'z'.repeat(body.length - 8)}${body.slice(-4)}`;
    const impact = txImpact(view([leg(10n, [MINE])], [leg(9n, [fake])], 1n), context());
    expect(impact.warnings).toContainEqual({ kind: 'look-alike', address: fake, resembles: MINE });
    expect(impact.warnings).toContainEqual({ kind: 'first-payment', address: fake });
  });

  it('stake: the wallet’s is staked and comes back; rewards owned elsewhere are warned of', () => {
    const stake = leg(25n, [MINE], 1, { chain: 'P', staked: true });
    const rewardsElsewhere = view([leg(26n, [MINE])], [stake], 1n, {
      chain: 'P',
      kind: 'AddPermissionlessDelegatorTx',
      rewardOwners: [{ what: 'rewards', owners: { addresses: [BOB], threshold: 1, locktime: '0' } }],
    });
    const impact = txImpact(rewardsElsewhere, context());
    expect(impact.assets[0]).toMatchObject({ leaves: '26', staked: '25', returns: '0', burned: '1' });
    expect(impact.warnings).toEqual([{ kind: 'not-your-owner', what: 'rewards', addresses: [BOB], threshold: 1 }]);
    const rewardsMine = { ...rewardsElsewhere, rewardOwners: [{ what: 'rewards', owners: { addresses: [MINE], threshold: 1, locktime: '0' } }] };
    expect(txImpact(rewardsMine, context()).warnings).toEqual([]);
  });

  it('the owner whose authorization the tx carries is labelled as the wallet\'s when it is, though no leg names it', () => {
    const authorized = view([leg(2n, [MINE])], [leg(1n, [MINE])], 1n, {
      chain: 'P',
      kind: 'RemoveSubnetValidatorTx',
      authorization: { by: 'subnet owner', of: 'subnet-id', sigIndices: [0], owners: { addresses: [MINE_TOO, BOB], threshold: 1 }, signers: [MINE_TOO] },
    });
    const impact = txImpact(authorized, context());
    expect(impact.yours[MINE_TOO]).toMatchObject({ role: 'another X/P address of this account' });
    expect(impact.yours[BOB]).toBeUndefined();
  });

  it('converting a subnet into an L1 warns that its owner gives up control for good, whoever gets the balances', () => {
    const convert = view([leg(2n, [MINE])], [leg(1n, [MINE])], 1n, { chain: 'P', kind: 'ConvertSubnetToL1Tx', rewardOwners: [{ what: "an L1 validator's remaining balance", owners: { addresses: [MINE], threshold: 1, locktime: '0' } }] });
    expect(txImpact(convert, context()).warnings).toEqual([{ kind: 'ends-subnet-ownership' }]);
  });

  it('an EVM account is labelled by its 0x address, whatever its case', () => {
    const evm = '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01';
    const own = new Map([[addressKey(evm), { account: 'Account 1', role: 'C-Chain address', address: evm }]]);
    const imported = view([leg(10n, [MINE])], [{ chain: 'C', assetID: AVAX, amount: '9', kind: 'EvmAccount', evmAddress: evm.toLowerCase() }], 1n, { kind: 'ImportTx' });
    const impact = txImpact(imported, context({ own: new Map([...context().own, ...own]) }));
    expect(impact.assets[0]).toMatchObject({ returns: '9' });
    expect(impact.warnings).toEqual([]);
  });

  it("one recipient (an EVM call's to): the wallet's own by any case, else a first payment, and a look-alike named", () => {
    const mine = '0xAbCd000000000000000000000000000000001234';
    const own = new Map([[addressKey(mine), { account: 'Account 2', role: 'C-Chain address', address: mine }]]);
    expect(recipientImpact(mine.toLowerCase(), { own, paidBefore: new Set() })).toEqual({ yours: own.get(addressKey(mine)), warnings: [] });
    const fake = '0xabcd999999999999999999999999999999991234';
    expect(recipientImpact(fake, { own, paidBefore: new Set() }).warnings).toEqual([
      { kind: 'look-alike', address: fake, resembles: mine },
      { kind: 'first-payment', address: fake },
    ]);
    expect(recipientImpact(fake, { own, paidBefore: new Set([fake]) }).warnings).toEqual([{ kind: 'look-alike', address: fake, resembles: mine }]);
  });

  it('a burn address (twenty zero bytes on X, the zero address or 0x…dEaD on an EVM chain) is said to lose what it is sent, not a first payment', () => {
    const zero = formatAddress('X', 'local', new Uint8Array(20));
    const impact = txImpact(view([leg(10n, [MINE])], [leg(9n, [zero])], 1n), context());
    expect(impact.warnings).toEqual([{ kind: 'burn-address', address: zero }]);
    for (const to of ['0x0000000000000000000000000000000000000000', '0x000000000000000000000000000000000000dEaD']) {
      expect(recipientImpact(to, { own: new Map(), paidBefore: new Set() })).toEqual({ warnings: [{ kind: 'burn-address', address: to }] });
    }
    // A built-in contract is not called a burn address: a site's tx may be on a chain where it takes funds (Arbitrum's 0x…64).
    for (const to of ['0x0000000000000000000000000000000000000064', '0x0200000000000000000000000000000000000005', '0x0000000000000000000000000000000000010000']) {
      expect(recipientImpact(to, { own: new Map(), paidBefore: new Set() }).warnings.map((w) => w.kind)).toEqual(['first-payment']);
    }
  });

  it('a stake that comes back locked past now, and rewards locked away, are warned of', () => {
    const lockedStake = leg(25n, [MINE], 1, { chain: 'P', staked: true, owners: { addresses: [MINE], threshold: 1, locktime: (1n << 62n).toString() } });
    const lockedRewards = { what: 'rewards', owners: { addresses: [MINE], threshold: 1, locktime: '4000000000' } };
    const impact = txImpact(view([leg(26n, [MINE])], [lockedStake], 1n, { chain: 'P', rewardOwners: [lockedRewards] }), context());
    expect(impact.warnings).toContainEqual({ kind: 'locked', assetID: AVAX, amount: '25', until: (1n << 62n).toString(), yours: true });
    expect(impact.warnings).toContainEqual({ kind: 'owner-locked', what: 'rewards', until: '4000000000' });
  });

  it('an NFT or a right to mint an operation takes leaves the wallet as an item, and is not burned', () => {
    const nft: LegView = { chain: 'X', assetID: TOKEN, kind: 'NftTransferOutput', owners: { addresses: [MINE], threshold: 1, locktime: '0' }, operation: true };
    const toThief: LegView = { chain: 'X', assetID: TOKEN, kind: 'NftTransferOutput', owners: { addresses: [BOB], threshold: 1, locktime: '0' } };
    const impact = txImpact(view([leg(10n, [MINE]), nft], [leg(9n, [MINE])], 1n, { kind: 'OperationTx', operations: [{ assetID: TOKEN, kind: 'NftTransferOperation', outputs: [toThief] }] }), context());
    expect(impact.assets.find((a) => a.assetID === TOKEN)).toMatchObject({ nonFungible: 'items', leaves: '1', burned: '0', toOthers: [{ addresses: [BOB], amount: '1' }] });
    expect(impact.warnings.map((w) => w.kind)).not.toContain('burn');
  });

  it('rights to mint and NFTs are counted apart: a mint uses up its right (said), an NFT or property no output carries on is destroyed, and two mints cannot net one out', () => {
    const owners = (a: string) => ({ addresses: [a], threshold: 1, locktime: '0' });
    const right: LegView = { chain: 'X', assetID: TOKEN, kind: 'NftMintOutput', owners: owners(MINE), operation: true };
    const minted: LegView = { chain: 'X', assetID: TOKEN, kind: 'NftTransferOutput', owners: owners(MINE) };
    const mintOp = (outputs: LegView[]) => ({ assetID: TOKEN, kind: 'NftMintOperation', outputs });
    // A mint of two NFTs beside a mint of none, for another group: two rights used up, two NFTs made.
    const paired = txImpact(view([leg(10n, [MINE]), right, right], [leg(9n, [MINE])], 1n, { kind: 'OperationTx', operations: [mintOp([minted, { ...minted, owners: owners(BOB) }]), mintOp([])] }), context());
    expect(paired.assets.filter((a) => a.assetID === TOKEN)).toEqual([
      expect.objectContaining({ nonFungible: 'rights', leaves: '2', returns: '0', burned: '2' }),
      expect.objectContaining({ nonFungible: 'items', leaves: '0', returns: '1', toOthers: [expect.objectContaining({ addresses: [BOB], amount: '1' })], burned: '0' }),
    ]);
    expect(paired.warnings).toContainEqual({ kind: 'burn', assetID: TOKEN, amount: '2', items: 'rights' });
    // A property burned: the property is destroyed.
    const property: LegView = { chain: 'X', assetID: TOKEN, kind: 'PropertyOwnedOutput', owners: owners(MINE), operation: true };
    const burnt = txImpact(view([leg(10n, [MINE]), property], [leg(9n, [MINE])], 1n, { kind: 'OperationTx', operations: [{ assetID: TOKEN, kind: 'PropertyBurnOperation', outputs: [] }] }), context());
    expect(burnt.warnings).toContainEqual({ kind: 'burn', assetID: TOKEN, amount: '1', items: 'items' });
  });

  it("AVAX moved into an L1 validator's fee balance is said, with who gets what is left; one the tx does not name is warned of", () => {
    const named = view([leg(1_001n, [MINE])], [], 1n, { chain: 'P', kind: 'ConvertSubnetToL1Tx', feeBalances: [{ amount: '1000', refundTo: { addresses: [BOB], threshold: 1, locktime: '0' } }] });
    const impact = txImpact(named, context());
    expect(impact.assets[0]!.toOthers).toEqual([{ addresses: [BOB], threshold: 1, ownership: 'not-yours', amount: '1000', feeBalance: true }]);
    expect(impact.warnings).toContainEqual({ kind: 'fee-balance', amount: '1000', refundTo: [BOB] });
    const unnamed = txImpact({ ...named, kind: 'IncreaseL1ValidatorBalanceTx', feeBalances: [{ amount: '1000' }] }, context());
    expect(unnamed.warnings).toContainEqual({ kind: 'fee-balance', amount: '1000' });
    expect(unnamed.assets[0]!.toOthers[0]).toMatchObject({ addresses: [], unnamed: true });
    // Named, but with no addresses: anyone may take the rest, which is not "not named".
    const anyone = txImpact({ ...named, feeBalances: [{ amount: '1000', refundTo: { addresses: [], threshold: 0, locktime: '0' } }] }, context());
    expect(anyone.assets[0]!.toOthers[0]).not.toHaveProperty('unnamed');
    const mineBack = txImpact({ ...named, feeBalances: [{ amount: '1000', refundTo: { addresses: [MINE], threshold: 1, locktime: '0' } }] }, context());
    expect(mineBack.warnings.map((w) => w.kind)).not.toContain('fee-balance');
  });

  it('warnings come most important first, and a flood of dust outputs anyone can take is one warning', () => {
    const dust = Array.from({ length: 100 }, () => ({ ...leg(1n, []), owners: { addresses: [], threshold: 0, locktime: '0' } }));
    const impact = txImpact(view([leg(1_000n, [MINE]), leg(50n, [MINE], 1, {}, TOKEN)], [...dust, leg(10n, [MINE], 1, {}, TOKEN)], 900n), context({ feeCeiling: 1n, paidBefore: new Set([addressKey(BOB)]) }));
    expect(impact.warnings.map((w) => w.kind)).toEqual(['burn', 'fee-above-network', 'anyone']);
    expect(impact.warnings[2]).toEqual({ kind: 'anyone', assetID: AVAX, amount: '100' });
  });

  it("a fee the wallet could not price is said to be unchecked; AVAX is listed first", () => {
    const impact = txImpact(view([leg(5n, [MINE], 1, {}, TOKEN), leg(10n, [MINE])], [leg(5n, [MINE], 1, {}, TOKEN), leg(9n, [MINE])], 1n), context({ feeUnpriced: true }));
    expect(impact.warnings).toEqual([{ kind: 'fee-unchecked' }]);
    expect(impact.assets.map((a) => a.assetID)).toEqual([AVAX, TOKEN]);
  });

  it('a look-alike is named by how much of the start and the end it shares (six characters in all), not only four and four', () => {
    const body = MINE.slice('X-local1'.length);
    const fiveThree = `X-local1${body.slice(0, 5)}${'z'.repeat(body.length - 8)}${body.slice(-3)}`;
    expect(txImpact(view([leg(10n, [MINE])], [leg(9n, [fiveThree])], 1n), context()).warnings).toContainEqual({ kind: 'look-alike', address: fiveThree, resembles: MINE });
    const threeTwo = `X-local1${body.slice(0, 3)}${'z'.repeat(body.length - 5)}${body.slice(-2)}`;
    expect(txImpact(view([leg(10n, [MINE])], [leg(9n, [threeTwo])], 1n), context()).warnings.map((w) => w.kind)).not.toContain('look-alike');
  });

  it("an asset's items (a mint right) and its amounts are counted apart: burning the amounts is still warned of", () => {
    const mintRight: LegView = { chain: 'X', assetID: TOKEN, kind: 'MintOutput', owners: { addresses: [MINE], threshold: 1, locktime: '0' }, operation: true };
    const mintRightBack: LegView = { ...mintRight, operation: undefined };
    const impact = txImpact(
      view([leg(10n, [MINE]), leg(1_000n, [MINE], 1, {}, TOKEN), mintRight], [leg(9n, [MINE])], 1n, { kind: 'OperationTx', operations: [{ assetID: TOKEN, kind: 'SecpMintOperation', outputs: [mintRightBack, leg(1n, [MINE], 1, {}, TOKEN)] }] }),
      context(),
    );
    const token = impact.assets.filter((a) => a.assetID === TOKEN);
    expect(token.find((a) => !a.nonFungible)).toMatchObject({ leaves: '1000', returns: '1', burned: '1000' });
    expect(token.find((a) => a.nonFungible)).toMatchObject({ leaves: '1', returns: '1', burned: '0' });
    expect(impact.warnings).toContainEqual({ kind: 'burn', assetID: TOKEN, amount: '1000' });
  });

  it('an address made to look like one the wallet has paid before (address poisoning) is named as such', () => {
    const body = BOB.slice('X-local1'.length);
    const poison = `X-local1${body.slice(0, 4)}${'q'.repeat(body.length - 8)}${body.slice(-4)}`;
    const impact = txImpact(view([leg(10n, [MINE])], [leg(9n, [poison])], 1n), context({ paidBefore: new Set([addressKey(BOB)]) }));
    expect(impact.warnings).toContainEqual({ kind: 'look-alike', address: poison, resembles: BOB, paid: true });
  });

  it('shared outputs are one warning per asset naming every stranger; locked ones one per asset, until the latest', () => {
    const outputs = [
      leg(1n, [MINE, BOB], 1),
      leg(2n, [MINE, CAROL], 1),
      { ...leg(3n, [CAROL]), owners: { addresses: [CAROL], threshold: 1, locktime: '1900000000' } },
      { ...leg(4n, [CAROL]), owners: { addresses: [CAROL], threshold: 1, locktime: '1900000001' } },
    ];
    const impact = txImpact(view([leg(11n, [MINE])], outputs, 1n), context({ paidBefore: new Set([addressKey(BOB), addressKey(CAROL)]) }));
    expect(impact.warnings).toEqual([
      { kind: 'shared', assetID: AVAX, amount: '3', strangers: [BOB, CAROL] },
      { kind: 'locked', assetID: AVAX, amount: '7', until: '1900000001', yours: false },
    ]);
    // An asset's amounts and its NFTs or rights to mint are warned of apart, each in its own terms.
    const mint = (kind: LegView['kind'], owners: string[], locktime = '0'): LegView => ({ chain: 'X', assetID: TOKEN, kind, owners: { addresses: owners, threshold: owners.length === 0 ? 0 : 1, locktime } });
    const mixed = txImpact(
      view([leg(10n, [MINE]), leg(99n, [MINE], 1, {}, TOKEN)], [leg(9n, [MINE]), leg(99n, [MINE, BOB], 1, {}, TOKEN)], 1n, {
        operations: [{ assetID: TOKEN, kind: 'SecpMintOperation', outputs: [mint('MintOutput', [MINE, BOB]), mint('NftTransferOutput', []), mint('NftTransferOutput', [MINE], '1900000000')] }],
      }),
      context({ paidBefore: new Set([addressKey(BOB)]) }),
    );
    expect(mixed.warnings).toEqual([
      { kind: 'shared', assetID: TOKEN, amount: '99', strangers: [BOB] },
      { kind: 'shared', assetID: TOKEN, amount: '1', items: 'rights', strangers: [BOB] },
      { kind: 'anyone', assetID: TOKEN, amount: '1', items: 'items' },
      { kind: 'locked', assetID: TOKEN, amount: '1', items: 'items', until: '1900000000', yours: true },
    ]);
  });
});
