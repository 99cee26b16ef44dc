// Which inputs of a site's X/P tx a send of the wallet could select too (selectableInputs), and
// what that decides: a refused site tx is kept (keptInTheWay) only with one of them, and is in the
// way of a new send (conflictsOf) only through one whose locks have ended, of an asset that send
// spends. Otherwise a site could stop every later send: no send could take its place.
import { describe, expect, it } from 'vitest';
import { keptInTheWay, type OutboxEntry, outboxEntry } from '../../src/background/outbox.js';
import { conflictsOf, spendsOf, whatTakesItsPlace } from '../../src/background/refused.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8 } from '../../src/core/bytes.js';
import { utxoId } from '../../src/core/codec/ids.js';
import type { OutputOwners, Utxo } from '../../src/core/codec/index.js';
import { type ExternalTx, type SelectableInput, selectableInputs } from '../../src/core/external-tx.js';
import { keyPairFromSecret } from '../../src/core/keys.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { ownedAddressSet } from '../../src/core/tx/utxos.js';
import { decodeChainTx } from '../../src/core/tx-fate.js';
import { item, pImportTx, pTx } from './outbox-test-kit.js';
import { ctx, ewoq, mine, second, utxo } from './pvm-test-kit.js';

const stranger = keyPairFromSecret(new Uint8Array(32).fill(31));
/** The account: `ewoq` is its X/P key (its reads list it), `second` its EVM key (never listed on X/P). */
const owned = ownedAddressSet([ewoq.shortId, second.shortId]);
const listed = ownedAddressSet([ewoq.shortId]);
const token = sha256(utf8.encode('a token a site made'));

/** A site's P-Chain tx spending `spent`, resolved as WalletEngine.resolveExternal gives it. */
function siteTx(spent: Utxo[]): ExternalTx {
  const { bytes } = pTx(spent);
  return { chain: 'P', tx: decodeChainTx('P', bytes), unsignedBytes: bytes, spent };
}

const withLock = (owners: OutputOwners, locktime: bigint): OutputOwners => ({ ...owners, locktime });
const vesting = (amount: bigint, locktime: bigint): Utxo => ({ ...utxo(amount), output: { kind: 'StakeableLockOut', locktime, output: { kind: 'TransferOutput', amount, owners: mine } } });

describe('the inputs of a site tx a send could select too', () => {
  it('counts a UTXO the account alone can spend, or shares 1 of 2 with a stranger; not a 2-of-2 with one', () => {
    const own = utxo(5n);
    const oneOfTwo = utxo(6n, makeOwners([ewoq.shortId, stranger.shortId], 1));
    const twoOfTwo = utxo(7n, makeOwners([ewoq.shortId, stranger.shortId], 2));
    expect(selectableInputs(siteTx([own, oneOfTwo, twoOfTwo]), owned, listed)).toEqual([{ id: utxoId(own) }, { id: utxoId(oneOfTwo) }]);
  });

  it('counts a locked one with the time its lock ends (a vesting lock, or its owners’), judged when a send is made, not at signing', () => {
    const locked = utxo(8n, withLock(mine, 3_000n));
    const vested = vesting(9n, 2_000n);
    expect(selectableInputs(siteTx([locked, vested]), owned, listed)).toEqual([
      { id: utxoId(locked), from: 3_000 },
      { id: utxoId(vested), from: 2_000 },
    ]);
  });

  it("counts one the account's X/P and EVM keys hold together (its reads list it, its keys meet the threshold), not one its EVM key holds alone (never listed)", () => {
    const withEvmKey = utxo(5n, makeOwners([ewoq.shortId, second.shortId], 2));
    const evmKeyOnly = utxo(6n, makeOwners([second.shortId]));
    expect(selectableInputs(siteTx([withEvmKey, evmKeyOnly]), owned, listed)).toEqual([{ id: utxoId(withEvmKey) }]);
  });

  it("counts nothing of a stranger's, nor an input whose UTXO the resolution did not give", () => {
    const theirs = utxo(5n, makeOwners([stranger.shortId]));
    const own = utxo(6n);
    expect(selectableInputs({ ...siteTx([theirs, own]), spent: [theirs] }, owned, listed)).toEqual([]);
  });

  it('counts nothing of an import, the account’s own though what it imports is: that is not among its own inputs', () => {
    const imported = utxo(5n);
    const { bytes } = pImportTx([imported]);
    expect(selectableInputs({ chain: 'P', tx: decodeChainTx('P', bytes), unsignedBytes: bytes, spent: [imported] }, owned, listed)).toEqual([]);
  });
});

/** A refused P-Chain tx spending `spent`, kept as the outbox keeps it (`selectable`: a site's, recorded at signing). */
function refused(spent: Utxo[], selectable?: SelectableInput[]): OutboxEntry {
  const tx = pTx(spent);
  return { ...outboxEntry('P', tx.txID, tx.bytes, item(tx.txID), selectable), voided: true };
}
const spends = (spent: Utxo[]) => spendsOf(decodeChainTx('P', pTx(spent).bytes));

describe('a refused site tx kept in the way', () => {
  const shared = utxo(7n, makeOwners([ewoq.shortId, stranger.shortId], 2));
  const own = utxo(5n);

  it('is not kept when none of its inputs is one a send could select: no send could take its place', () => {
    expect(keptInTheWay(refused([shared], []))).toBe(false);
  });

  it('is kept when one is; a tx of the wallet’s own (nothing recorded), or one whose record is damaged, by its inputs alone', () => {
    expect(keptInTheWay(refused([shared, own], [{ id: utxoId(own) }]))).toBe(true);
    expect(keptInTheWay(refused([shared]))).toBe(true);
    expect(keptInTheWay({ ...refused([shared]), selectable: 'x' as unknown as SelectableInput[] })).toBe(true);
    expect(keptInTheWay({ ...refused([shared]), selectable: [7] as unknown as SelectableInput[] })).toBe(true);
  });

  it('spending only a token of the user’s: in the way of a send of that token (which must take its place), not of an AVAX one', () => {
    const tokenUtxo = utxo(5n, mine, 0, token);
    const kept = refused([tokenUtxo], [{ id: utxoId(tokenUtxo) }]);
    expect(conflictsOf([kept], 'P', spends([utxo(9n)]))).toEqual([]);
    expect(() => conflictsOf([kept], 'P', spends([utxo(9n), utxo(3n, mine, 0, token)]))).toThrow(/does not take its place/);
    expect(conflictsOf([kept], 'P', spends([utxo(9n), tokenUtxo]))).toEqual([kept.txID]);
  });

  it('spending a UTXO still locked: in the way of nothing until its lock ends by this computer’s clock, then of every AVAX send', () => {
    const locked = utxo(5n, withLock(mine, 2_000n));
    const kept = refused([locked], [{ id: utxoId(locked), from: 2_000 }]);
    expect(conflictsOf([kept], 'P', spends([utxo(9n)]), 1_999_999)).toEqual([]);
    expect(() => conflictsOf([kept], 'P', spends([utxo(9n)]), 2_000_000)).toThrow(/does not take its place/);
    // A send that spends it all the same (the chain's time said it had ended) takes its place.
    expect(conflictsOf([kept], 'P', spends([utxo(9n), locked]), 1_000_000)).toEqual([kept.txID]);
  });

  it('of the wallet’s own: in the way of every send spending an asset it spends, as before', () => {
    const kept = refused([own]);
    expect(() => conflictsOf([kept], 'P', spends([utxo(9n)]))).toThrow(/does not take its place/);
    expect(conflictsOf([kept], 'P', spends([own]))).toEqual([kept.txID]);
    // Only a token (a network without fees): not of a send that spends none of it.
    expect(conflictsOf([refused([utxo(5n, mine, 0, token)])], 'P', spends([utxo(9n)]))).toEqual([]);
  });

  it('is told as what takes its place: the next send only when that is true (an AVAX input a send can select now); else what would, and a warning', () => {
    const tokenUtxo = utxo(5n, mine, 0, token);
    const locked = utxo(6n, withLock(mine, 2_000n));
    expect(whatTakesItsPlace(refused([own]), ctx.avaxAssetID)).toBe('your next P-Chain send takes its place, so the two can never both go through');
    expect(whatTakesItsPlace(refused([shared, own], [{ id: utxoId(own) }]), ctx.avaxAssetID)).toMatch(/^your next P-Chain send takes its place/);
    expect(whatTakesItsPlace(refused([tokenUtxo], [{ id: utxoId(tokenUtxo) }]), ctx.avaxAssetID)).toBe(
      'your next P-Chain send of the same token takes its place; until then the node could still let it go through, so do not pay the same again another way',
    );
    const lockedOne = refused([locked], [{ id: utxoId(locked), from: 2_000 }]);
    expect(whatTakesItsPlace(lockedOne, ctx.avaxAssetID, 1_999_999)).toMatch(/^once the funds it spends unlock, your next P-Chain send takes its place; until then .* do not pay the same again another way$/);
    expect(whatTakesItsPlace(lockedOne, ctx.avaxAssetID, 2_000_000)).toMatch(/^your next P-Chain send takes its place, so the two/);
    // A locked token: only a send of that token takes its place, once it unlocks.
    const lockedToken = utxo(7n, withLock(mine, 2_000n), 0, token);
    const keptToken = refused([lockedToken], [{ id: utxoId(lockedToken), from: 2_000 }]);
    expect(whatTakesItsPlace(keptToken, ctx.avaxAssetID, 1_999_999)).toMatch(/^once the funds it spends unlock, your next P-Chain send of the same token takes its place; until then/);
    expect(whatTakesItsPlace(keptToken, ctx.avaxAssetID, 2_000_000)).toMatch(/^your next P-Chain send of the same token takes its place; until then/);
  });

  it('whose record names an input it does not have (damaged storage): judged by all its inputs, the careful side', () => {
    const kept = refused([own], [{ id: 'not an input of it:0' }]);
    expect(keptInTheWay(kept)).toBe(true);
    expect(() => conflictsOf([kept], 'P', spends([utxo(9n)]))).toThrow(/does not take its place/);
    expect(whatTakesItsPlace(kept, ctx.avaxAssetID)).toMatch(/^your next P-Chain send takes its place, so the two/);
  });
});
