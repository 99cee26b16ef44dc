// Which inputs of a site's X/P tx a send of the wallet could select too (selectableInputs), and
// what that decides: a refused site tx is kept in the way of later sends (keptInTheWay) only if
// one of them is. Kept with none, it would stop every later send, as no send could take its place.
import { describe, expect, it } from 'vitest';
import { keptInTheWay, outboxEntry } from '../../src/background/outbox.js';
import { utxoId } from '../../src/core/codec/ids.js';
import type { OutputOwners, Utxo } from '../../src/core/codec/index.js';
import { type ExternalTx, selectableInputs } from '../../src/core/external-tx.js';
import { keyPairFromSecret } from '../../src/core/keys.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { ownedAddressSet } from '../../src/core/tx/utxos.js';
import { decodeChainTx } from '../../src/core/tx-fate.js';
import { item, pImportTx, pTx } from './outbox-test-kit.js';
import { ewoq, mine, second, utxo } from './pvm-test-kit.js';

const stranger = keyPairFromSecret(new Uint8Array(32).fill(31));
/** The account: `ewoq` is its X/P key (its reads list it), `second` its EVM key (never listed on X/P). */
const owned = ownedAddressSet([ewoq.shortId, second.shortId]);
const listed = ownedAddressSet([ewoq.shortId]);
const NOW = 1_000n;

/** A site's P-Chain tx spending `spent`, resolved as WalletEngine.resolveExternal gives it. */
function siteTx(spent: Utxo[]): ExternalTx {
  const { bytes } = pTx(spent);
  return { chain: 'P', tx: decodeChainTx('P', bytes), unsignedBytes: bytes, spent };
}

const withLock = (owners: OutputOwners, locktime: bigint): OutputOwners => ({ ...owners, locktime });

describe('the inputs of a site tx a send could select too', () => {
  it('counts a UTXO the account alone can spend, or shares 1 of 2 with a stranger; not a 2-of-2 with one, nor a locked one', () => {
    const own = utxo(5n);
    const oneOfTwo = utxo(6n, makeOwners([ewoq.shortId, stranger.shortId], 1));
    const twoOfTwo = utxo(7n, makeOwners([ewoq.shortId, stranger.shortId], 2));
    const locked = utxo(8n, withLock(mine, NOW + 1n));
    const unlockedNow = utxo(9n, withLock(mine, NOW));
    const ext = siteTx([own, oneOfTwo, twoOfTwo, locked, unlockedNow]);
    expect(selectableInputs(ext, owned, listed, NOW)).toEqual([utxoId(own), utxoId(oneOfTwo), utxoId(unlockedNow)]);
  });

  it("counts one the account's X/P and EVM keys hold together (its reads list it, its keys meet the threshold), not one its EVM key holds alone (never listed)", () => {
    const withEvmKey = utxo(5n, makeOwners([ewoq.shortId, second.shortId], 2));
    const evmKeyOnly = utxo(6n, makeOwners([second.shortId]));
    expect(selectableInputs(siteTx([withEvmKey, evmKeyOnly]), owned, listed, NOW)).toEqual([utxoId(withEvmKey)]);
  });

  it("counts nothing of a stranger's, nor an input whose UTXO the resolution did not give", () => {
    const theirs = utxo(5n, makeOwners([stranger.shortId]));
    const own = utxo(6n);
    const ext = siteTx([theirs, own]);
    expect(selectableInputs({ ...ext, spent: [theirs] }, owned, listed, NOW)).toEqual([]);
  });

  it('counts nothing of an import: what it imports is not among its own inputs', () => {
    const { bytes } = pImportTx([utxo(5n)]);
      expect(selectableInputs({ chain: 'P', tx: decodeChainTx('P', bytes), unsignedBytes: bytes, spent: [] }, owned, listed, NOW)).toEqual([]);
  });
});

describe('a refused site tx kept in the way', () => {
  const shared = utxo(7n, makeOwners([ewoq.shortId, stranger.shortId], 2));
  const own = utxo(5n);

  it('is not, when none of its inputs is one a send could select: no send could take its place', () => {
    const tx = pTx([shared]);
    expect(keptInTheWay(outboxEntry('P', tx.txID, tx.bytes, item(tx.txID), []))).toBe(false);
  });

  it('is, when one is (the next send takes it first); and a tx of the wallet’s own (nothing recorded) is, by its inputs alone', () => {
    const tx = pTx([shared, own]);
    expect(keptInTheWay(outboxEntry('P', tx.txID, tx.bytes, item(tx.txID), [utxoId(own)]))).toBe(true);
    expect(keptInTheWay(outboxEntry('P', tx.txID, tx.bytes, item(tx.txID)))).toBe(true);
  });

  it('is, by its inputs alone, when what was recorded is damaged (not a list): the careful side', () => {
    const tx = pTx([shared]);
    const damaged = { ...outboxEntry('P', tx.txID, tx.bytes, item(tx.txID)), selectable: 'x' as unknown as string[] };
    expect(keptInTheWay(damaged)).toBe(true);
  });
});
