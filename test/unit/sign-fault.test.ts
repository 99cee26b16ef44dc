// signTx under a faulty signer: signDigest is wrapped so that it can flip one bit of the signature
// it returns, as a glitch during signing would. Nothing faulty may come out of signTx; a healthy
// signer's tx must still verify from its bytes, with the tx ID of those bytes.
import { describe, expect, it, vi } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { cb58Encode } from '../../src/core/encoding.js';
import { SigningError } from '../../src/core/errors.js';
import { keyPairFromSecret } from '../../src/core/keys.js';
import { buildCExport } from '../../src/core/tx/c.js';
import { type ChainContext, makeOwners } from '../../src/core/tx/context.js';
import { keychainOf, requiredCredentials, signTx, utxoLookupOf, verifySignedTx } from '../../src/core/tx/sign.js';
import { ownedAddressSet, spendableUtxos } from '../../src/core/tx/utxos.js';
import { buildXSend } from '../../src/core/tx/x.js';
import type { BuiltTx } from '../../src/core/tx/built.js';
import type { Utxo } from '../../src/core/codec/types.js';

const fault = vi.hoisted(() => ({ bit: -1, calls: 0 }));

vi.mock('../../src/core/keys.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/core/keys.js')>();
  return {
    ...real,
    signDigest: (secret: Uint8Array, digest: Uint8Array): Uint8Array => {
      fault.calls++;
      const sig = real.signDigest(secret, digest);
      if (fault.bit >= 0) sig[fault.bit >> 3]! ^= 1 << (fault.bit & 7);
      return sig;
    },
  };
});

const id = (n: number): Uint8Array => Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? n : i + 1));
const ctx: ChainContext = {
  networkID: 1337,
  hrp: 'custom',
  xChainID: id(1),
  pChainID: new Uint8Array(32),
  cChainID: id(3),
  avaxAssetID: id(9),
  xTxFee: 1_000_000n,
  xCreateAssetTxFee: 1_000_000n,
};
const alice = keyPairFromSecret(sha256(Uint8Array.of(1)));
const bob = keyPairFromSecret(sha256(Uint8Array.of(2)));
const keys = [alice, bob];

/** An X send spending three UTXOs: two of Alice's, one of Bob's (two distinct signers). */
function xSend(): BuiltTx {
  const utxos: Utxo[] = [alice, bob, alice].map((k, i) => ({
    txID: id(100 + i),
    outputIndex: 0,
    assetID: ctx.avaxAssetID,
    output: { kind: 'TransferOutput', amount: 40_000_000n, owners: makeOwners([k.shortId]) },
  }));
  const pool = spendableUtxos(utxos, ownedAddressSet(keys.map((k) => k.shortId)), 0n);
  return buildXSend({ ctx, pool, changeOwners: makeOwners([alice.shortId]), payments: [{ assetID: ctx.avaxAssetID, amount: 110_000_000n, owners: makeOwners([id(7).subarray(0, 20)]) }] });
}

function sign(b: BuiltTx, existing?: Parameters<typeof signTx>[3]) {
  return signTx(b.tx, requiredCredentials(b.tx, utxoLookupOf(b.spent)), keychainOf(keys), existing);
}

describe('signTx with a faulty signer', () => {
  it('a healthy signer: one signature per key, verifiable bytes, the tx ID of those bytes', () => {
    fault.bit = -1;
    fault.calls = 0;
    const b = xSend();
    const signed = sign(b);
    expect(fault.calls).toBe(2);
    expect(signed.credentials).toHaveLength(3);
    verifySignedTx(signed.signedBytes, 'avm', b.spent);
    expect(signed.txID).toBe(cb58Encode(sha256(signed.signedBytes)));
  });

  it('refuses to return a tx when any bit of a signature it made is flipped', () => {
    const b = xSend();
    // Every bit of r, s and v; each run signs both keys, and the first is the faulty one.
    for (let bit = 0; bit < 65 * 8; bit += 3) {
      fault.bit = bit;
      expect(() => sign(b), `bit ${bit}`).toThrow(SigningError);
    }
    fault.bit = -1;
  });

  it('refuses a faulty signature on a C-Chain export (an EVM address signs)', () => {
    const b = buildCExport({
      ctx,
      from: alice.evmAddress,
      nonce: 0n,
      balanceWei: 10n ** 18n,
      destination: 'X',
      amount: 1_000_000n,
      to: makeOwners([alice.shortId]),
      baseFeeWei: 25_000_000_000n,
    });
    fault.bit = -1;
    const signed = sign(b);
    verifySignedTx(signed.signedBytes, 'evm', []);
    fault.bit = 100;
    expect(() => sign(b)).toThrow(SigningError);
    fault.bit = -1;
  });

  it('still recovers signatures the tx came with, and refuses a wrong one', () => {
    fault.bit = -1;
    const b = xSend();
    const good = sign(b);
    const kept = sign(b, { existing: good.credentials });
    expect(kept.signedBytes).toEqual(good.signedBytes);
    // Bob's signature where Alice's must be: a real signature, by the wrong key.
    const bobSig = good.credentials.find((c, i) => i > 0 && c.signatures[0] !== good.credentials[0]!.signatures[0])!.signatures[0]!;
    const swapped = good.credentials.map((c, i) => (i === 0 ? { ...c, signatures: [bobSig] } : c));
    expect(() => sign(b, { existing: swapped })).toThrow(/not from the required signer/);
  });
});
