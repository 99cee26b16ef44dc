// The staking builders (src/core/tx/staking.ts) against avalanchejs 5.2.0's builders for the same
// txs from the same UTXOs: the same unsigned bytes, so the same inputs, stake, change, owners and
// exact ACP-103 fee; each signs with the wallet's keys and checks out, and the rules the node checks
// first hold. Plus what avalanchejs cannot tell: every fee is the tx's own at the price, change
// comes back to the wallet, and what cannot be paid or signed is refused unsigned.
import { describe, expect, it } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { bls, pvm, utils, Utxo as AjsUtxo } from '@avalabs/avalanchejs';
import { fromHex, toHex, utf8 } from '../../src/core/bytes.js';
import { decodeSignedTx, encodeUnsignedTx, encodeUtxo, type PTx, stakeOf, type Utxo } from '../../src/core/codec/index.js';
import { type BuiltTx, expectedSignedSize } from '../../src/core/tx/built.js';
import { cb58Encode, formatNodeId } from '../../src/core/encoding.js';
import { InsufficientFundsError, SigningError, ValidationError } from '../../src/core/errors.js';
import { avaxBurned, type PFeeContext, pTxFee } from '../../src/core/fees.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { signBuilt, verifySignedTx } from '../../src/core/tx/sign.js';
import { buildPAutoRenewedValidation, buildPDelegation, buildPSetAutoRenewConfig, buildPValidation } from '../../src/core/tx/staking.js';
import { ownedAddressSet, spendableUtxos } from '../../src/core/tx/utxos.js';
import { avalanchejsContextOf } from './avalanchejs-context.js';
import { ctx, ewoq, mine, second, utxo } from './pvm-test-kit.js';

const ajsContext = avalanchejsContextOf(ctx);
const fee: PFeeContext = { weights: [1n, 1000n, 1000n, 4n], gasPriceNavax: 7n };
const feeState = { capacity: 1_000_000n, excess: 0n, price: fee.gasPriceNavax, timestamp: new Date(0).toISOString() };
const NOW = 1_800_000_000n;
const AVAX = 1_000_000_000n;
const owned = ownedAddressSet([ewoq.shortId]);
const nodeID = sha256(utf8.encode('a staking node')).slice(0, 20);
const nodeId = formatNodeId(nodeID);
const PRIMARY = cb58Encode(new Uint8Array(32));
const publicKey = fromHex('97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb');
const proofOfPossession = bls.signProofOfPossession(publicKey, bls.secretKeyFromBytes(Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 1 : 0))));
const rewards = makeOwners([second.shortId]);

const ajsUtxo = (u: Utxo): AjsUtxo => utils.getManagerForVM('PVM').unpack(encodeUtxo(u, 'pvm'), AjsUtxo);
/** avalanchejs' common props: our UTXOs, our key, change (and so stake) back to it. */
const common = (utxos: Utxo[]) => ({ feeState, fromAddressesBytes: [ewoq.shortId], changeAddressesBytes: [ewoq.shortId], utxos: utxos.map(ajsUtxo), minIssuanceTime: NOW });
const params = (utxos: Utxo[]) => ({ ctx, fee, pool: spendableUtxos(utxos, owned, NOW), changeOwners: mine });

const pools: [string, () => Utxo[]][] = [
  ['one UTXO', () => [utxo(3_000n * AVAX)]],
  ['two UTXOs, both needed', () => [utxo(1_500n * AVAX), utxo(1_000n * AVAX, mine, 2)]],
];

/** Signed by the wallet's key, every signature checked against the spent UTXOs' owners (and the authority's). */
function expectSigns(built: BuiltTx<PTx>): void {
  const signed = signBuilt(built, [ewoq]);
  expect(signed.complete).toBe(true);
  verifySignedTx(signed.signedBytes, 'pvm', built.spent);
  expect(decodeSignedTx(signed.signedBytes, 'pvm').credentials.length).toBe(built.tx.inputs.length + (built.tx.kind === 'SetAutoRenewedValidatorConfigTx' ? 1 : 0));
  // The size guard's estimate is the signed size, the authority's credential included.
  expect(expectedSignedSize(built.tx)).toBe(signed.signedBytes.length);
}

describe('staking builders, byte for byte with avalanchejs 5.2.0', () => {
  for (const [label, pool] of pools) {
    it(`AddPermissionlessDelegatorTx (26), ${label}`, () => {
      const utxos = pool();
      const ours = buildPDelegation({ ...params(utxos), nodeID, amount: 2_000n * AVAX, stakeOwners: mine, start: NOW, end: NOW + 1_209_600n, rewardOwners: rewards });
      const theirs = pvm.newAddPermissionlessDelegatorTx({ ...common(utxos), nodeId, start: NOW, end: NOW + 1_209_600n, weight: 2_000n * AVAX, subnetId: PRIMARY, rewardAddresses: [second.shortId] }, ajsContext);
      expect(toHex(encodeUnsignedTx(ours.tx))).toBe(toHex(theirs.toBytes()));
      expect(ours.fee).toBe(pTxFee(ours.tx, fee));
      expect(avaxBurned(ours.tx, ctx.avaxAssetID)).toBe(ours.fee);
      expect(stakeOf(ours.tx).map((o) => o.output)).toEqual([{ kind: 'TransferOutput', amount: 2_000n * AVAX, owners: mine }]);
      expectSigns(ours);
    });

    it(`AddPermissionlessValidatorTx (25) with a BLS key, ${label}`, () => {
      const utxos = pool();
      const ours = buildPValidation({
        ...params(utxos), nodeID, amount: 2_000n * AVAX, stakeOwners: mine, start: NOW, end: NOW + 172_800n,
        signer: { publicKey, proofOfPossession }, rewardOwners: rewards, delegationRewardOwners: mine, delegationShares: 62_500,
      });
      const theirs = pvm.newAddPermissionlessValidatorTx(
        { ...common(utxos), nodeId, start: NOW, end: NOW + 172_800n, weight: 2_000n * AVAX, subnetId: PRIMARY, shares: 62_500, rewardAddresses: [second.shortId], delegatorRewardsOwner: [ewoq.shortId], publicKey, signature: proofOfPossession },
        ajsContext,
      );
      expect(toHex(encodeUnsignedTx(ours.tx))).toBe(toHex(theirs.toBytes()));
      expect(ours.fee).toBe(pTxFee(ours.tx, fee));
      expectSigns(ours);
    });

    it(`AddAutoRenewedValidatorTx (40), ${label}`, () => {
      const utxos = pool();
      const ours = buildPAutoRenewedValidation({
        ...params(utxos), nodeID, amount: 2_000n * AVAX, stakeOwners: mine, signer: { publicKey, proofOfPossession },
        rewardOwners: rewards, delegationRewardOwners: mine, authority: mine, delegationShares: 20_000, restakeShares: 500_000, period: 172_800n,
      });
      const theirs = pvm.newAddAutoRenewedValidatorTx(
        { ...common(utxos), nodeId, weight: 2_000n * AVAX, shares: 20_000, rewardAddresses: [second.shortId], delegatorRewardsOwner: [ewoq.shortId], ownerAddresses: [ewoq.shortId], publicKey, signature: proofOfPossession, autoCompoundRewardShares: 500_000, period: 172_800n },
        ajsContext,
      );
      expect(toHex(encodeUnsignedTx(ours.tx))).toBe(toHex(theirs.toBytes()));
      expect(ours.fee).toBe(pTxFee(ours.tx, fee));
      expectSigns(ours);
    });
  }

  it('SetAutoRenewedValidatorConfigTx (41): the authority signs in one more credential after the inputs', () => {
    const utxos = [utxo(5n * AVAX)];
    const validatorTxID = sha256(utf8.encode('an auto-renewed validator'));
    const ours = buildPSetAutoRenewConfig({ ...params(utxos), validatorTxID, authority: mine, owned, restakeShares: 250_000, period: 0n });
    const theirs = pvm.newSetAutoRenewedValidatorConfigTx({ ...common(utxos), validatorTxId: cb58Encode(validatorTxID), auth: [0], autoCompoundRewardShares: 250_000, period: 0n }, ajsContext);
    expect(toHex(encodeUnsignedTx(ours.tx))).toBe(toHex(theirs.toBytes()));
    expect(ours.fee).toBe(pTxFee(ours.tx, fee));
    expect(ours.tx.auth).toEqual([0]);
    expectSigns(ours);
  });
});

describe('staking builders, what only they promise', () => {
  it('take the authorization indices the wallet can sign in a multi-address authority, and refuse one it cannot', () => {
    const authority = makeOwners([ewoq.shortId, second.shortId], 1);
    const index = authority.addresses.findIndex((a) => toHex(a) === toHex(ewoq.shortId));
    const built = buildPSetAutoRenewConfig({ ...params([utxo(AVAX)]), validatorTxID: sha256(utf8.encode('v')), authority, owned, restakeShares: 0, period: 60n });
    expect(built.tx.auth).toEqual([index]);
    expectSigns(built);
    expect(() => buildPSetAutoRenewConfig({ ...params([utxo(AVAX)]), validatorTxID: sha256(utf8.encode('v')), authority: rewards, owned, restakeShares: 0, period: 60n })).toThrow(SigningError);
  });

  it('return change to the wallet and burn exactly the fee: inputs = stake + change + fee', () => {
    const utxos = [utxo(2_100n * AVAX)];
    const built = buildPDelegation({ ...params(utxos), nodeID, amount: 25n * AVAX, stakeOwners: mine, start: NOW, end: NOW + 86_400n, rewardOwners: mine });
    const change = built.tx.outputs.reduce((s, o) => s + (o.output.kind === 'TransferOutput' ? o.output.amount : 0n), 0n);
    expect(built.tx.outputs.every((o) => o.output.kind === 'TransferOutput' && toHex(o.output.owners.addresses[0]!) === toHex(ewoq.shortId))).toBe(true);
    expect(25n * AVAX + change + built.fee).toBe(2_100n * AVAX);
    // The stake goes to its own owners, the change to the wallet's: never the one for the other.
    const apart = buildPDelegation({ ...params(utxos), nodeID, amount: 25n * AVAX, stakeOwners: rewards, start: NOW, end: NOW + 86_400n, rewardOwners: mine });
    expect(apart.tx.stake).toEqual([{ assetID: ctx.avaxAssetID, output: { kind: 'TransferOutput', amount: 25n * AVAX, owners: rewards } }]);
    expect(apart.tx.outputs.map((o) => o.output.kind === 'TransferOutput' && o.output.owners)).toEqual([mine]);
  });

  it('refuse what the funds cannot cover (stake and fee), a zero stake, a bad NodeID, shares above 100% and a short BLS key', () => {
    const base = { ...params([utxo(25n * AVAX)]), nodeID, stakeOwners: mine, start: NOW, end: NOW + 86_400n, rewardOwners: mine };
    expect(() => buildPDelegation({ ...base, amount: 25n * AVAX })).toThrow(InsufficientFundsError);
    expect(() => buildPDelegation({ ...base, amount: 0n })).toThrow(ValidationError);
    expect(() => buildPDelegation({ ...base, amount: AVAX, nodeID: new Uint8Array(20) })).toThrow(ValidationError);
    const validator = { ...base, amount: AVAX, signer: { publicKey, proofOfPossession }, delegationRewardOwners: mine, delegationShares: 20_000 };
    expect(() => buildPValidation({ ...validator, delegationShares: 1_000_001 })).toThrow(ValidationError);
    expect(() => buildPValidation({ ...validator, signer: { publicKey: publicKey.slice(1), proofOfPossession } })).toThrow(ValidationError);
    expect(() => buildPAutoRenewedValidation({ ...validator, authority: mine, restakeShares: 0, period: 0n })).toThrow(ValidationError);
  });
});
