// P-Chain staking, subnet and L1 validator txs against @avalabs/avalanchejs 5.2.0, an independent
// implementation: (a) every tx its builders make decodes here and re-encodes to the same bytes,
// the fee it burned is our fee of the same tx (and avalanchejs' own fee formula agrees), and both
// signers make the same signed bytes; (b) every tx our generators make, avalanchejs parses and
// re-serializes byte for byte.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sha256 } from '@noble/hashes/sha2.js';
import {
  addTxSignatures,
  avaxSerial,
  bls,
  L1Validator as AjsL1Validator,
  PChainOwner as AjsPChainOwner,
  pvm,
  pvmSerial,
  secp256k1,
  TransferableOutput as AjsTransferableOutput,
  UnsignedTx as AjsUnsignedTx,
  utils,
  Utxo as AjsUtxo,
} from '@avalabs/avalanchejs';
import { type Bytes, fromHex, toHex, utf8 } from '../../src/core/bytes.js';
import {
  decodeChainTx,
  decodeSignedTx,
  decodeUnsignedTx,
  encodeSignedTx,
  encodeUnsignedTx,
  encodeUtxo,
  verifyPTx,
  type PTx,
  type Utxo,
} from '../../src/core/codec/index.js';
import { cb58Encode, formatNodeId } from '../../src/core/encoding.js';
import { avaxBurned, type PFeeContext, pTxComplexity, pTxFee } from '../../src/core/fees.js';
import { authorityRecord, keychainOf, requiredCredentials, signTx, utxoLookupOf } from '../../src/core/tx/sign.js';
import { avalanchejsContextOf } from './avalanchejs-context.js';
import { arbPBlockTx, arbPTxs } from './codec-gen-p.js';
import { arbCredentialsFor } from './codec-generators.js';
import { addressedCall, ctx, ewoq, l1ValidatorWeightMessage, mine, registerL1ValidatorMessage, second, utxo, warpMessage } from './pvm-test-kit.js';

const ajsContext = avalanchejsContextOf(ctx);
const pFee: PFeeContext = { weights: [1n, 1000n, 1000n, 4n], gasPriceNavax: 3n };
const feeState = { capacity: 1_000_000n, excess: 0n, price: pFee.gasPriceNavax, timestamp: new Date(0).toISOString() };
const NOW = 1_700_000_000n;
const keys = [ewoq, second];
const fromAddressesBytes = keys.map((k) => k.shortId);
const keychain = keychainOf(keys);
const nodeID = sha256(utf8.encode('a node')).slice(0, 20);
const nodeId = formatNodeId(nodeID);
const subnetID = sha256(utf8.encode('a subnet'));
// avalanchejs checks the BLS key and its proof of possession: the key of secret 1 is the G1
// generator (compressed), and avalanchejs' own BLS signs its proof.
const publicKey = fromHex('97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb');
const popSignature = bls.signProofOfPossession(publicKey, bls.secretKeyFromBytes(Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 1 : 0))));
/** The subnet's (and validator authority's) owner: both keys, sorted as the chain keeps them. */
const authorityOwners = { locktime: 0n, threshold: 2, addresses: [...fromAddressesBytes].sort((a, b) => (toHex(a) < toHex(b) ? -1 : 1)) };

const ajsUtxo = (u: Utxo): AjsUtxo => utils.getManagerForVM('PVM').unpack(encodeUtxo(u, 'pvm'), AjsUtxo);
const common = (utxos: Utxo[]) => ({ feeState, fromAddressesBytes, changeAddressesBytes: [ewoq.shortId], utxos: utxos.map(ajsUtxo), minIssuanceTime: NOW });

interface Built {
  name: string;
  unsigned: AjsUnsignedTx;
  utxos: Utxo[];
}

function builds(): Built[] {
  const funds = () => [utxo(3_000_000_000_000n), utxo(40_000_000_000n, mine, 1)];
  const registration = registerL1ValidatorMessage({
    subnetID,
    nodeID,
    blsPublicKey: publicKey,
    expiry: NOW + 3600n,
    remainingBalanceOwner: { threshold: 1, addresses: [ewoq.shortId] },
    disableOwner: { threshold: 1, addresses: [second.shortId] },
    weight: 100n,
  });
  const validationID = sha256(utf8.encode('a validation'));
  const b = (name: string, make: (utxos: Utxo[]) => AjsUnsignedTx): Built => {
    const utxos = funds();
    return { name, unsigned: make(utxos), utxos };
  };
  return [
    b('AddPermissionlessValidatorTx', (u) =>
      pvm.newAddPermissionlessValidatorTx(
        { ...common(u), nodeId, start: NOW, end: NOW + 1_209_600n, weight: 2_000_000_000_000n, subnetId: cb58Encode(new Uint8Array(32)), shares: 20_000, rewardAddresses: [ewoq.shortId], delegatorRewardsOwner: [second.shortId], publicKey, signature: popSignature },
        ajsContext,
      ),
    ),
    b('AddPermissionlessDelegatorTx', (u) =>
      pvm.newAddPermissionlessDelegatorTx({ ...common(u), nodeId, start: NOW, end: NOW + 1_209_600n, weight: 25_000_000_000n, subnetId: cb58Encode(new Uint8Array(32)), rewardAddresses: [ewoq.shortId] }, ajsContext),
    ),
    b('AddAutoRenewedValidatorTx', (u) =>
      pvm.newAddAutoRenewedValidatorTx(
        { ...common(u), nodeId, weight: 2_000_000_000_000n, shares: 20_000, rewardAddresses: [ewoq.shortId], delegatorRewardsOwner: [ewoq.shortId], ownerAddresses: fromAddressesBytes, threshold: 1, publicKey, signature: popSignature, autoCompoundRewardShares: 500_000, period: 172_800n },
        ajsContext,
      ),
    ),
    b('SetAutoRenewedValidatorConfigTx', (u) =>
      pvm.newSetAutoRenewedValidatorConfigTx({ ...common(u), validatorTxId: cb58Encode(sha256(utf8.encode('validator tx'))), auth: [0, 1], autoCompoundRewardShares: 250_000, period: 0n }, ajsContext),
    ),
    b('CreateSubnetTx', (u) => pvm.newCreateSubnetTx({ ...common(u), subnetOwners: fromAddressesBytes, threshold: 2 }, ajsContext)),
    b('CreateChainTx', (u) =>
      pvm.newCreateChainTx(
        { ...common(u), subnetId: cb58Encode(subnetID), chainName: 'My Chain 1', vmId: cb58Encode(sha256(utf8.encode('vm'))), fxIds: [], genesisData: { config: { chainId: 99 } }, subnetAuth: [0, 1] },
        ajsContext,
      ),
    ),
    b('AddSubnetValidatorTx', (u) =>
      pvm.newAddSubnetValidatorTx({ ...common(u), nodeId, start: NOW, end: NOW + 86_400n, weight: 1_000n, subnetId: cb58Encode(subnetID), subnetAuth: [0, 1] }, ajsContext),
    ),
    b('RemoveSubnetValidatorTx', (u) => pvm.newRemoveSubnetValidatorTx({ ...common(u), nodeId, subnetId: cb58Encode(subnetID), subnetAuth: [1] }, ajsContext)),
    b('TransferSubnetOwnershipTx', (u) =>
      pvm.newTransferSubnetOwnershipTx({ ...common(u), subnetId: cb58Encode(subnetID), subnetAuth: [0, 1], subnetOwners: [second.shortId] }, ajsContext),
    ),
    b('ConvertSubnetToL1Tx', (u) =>
      pvm.newConvertSubnetToL1Tx(
        {
          ...common(u),
          subnetId: cb58Encode(subnetID),
          chainId: cb58Encode(sha256(utf8.encode('manager chain'))),
          address: new Uint8Array(20).fill(0xee),
          validators: [
            AjsL1Validator.fromNative(nodeId, 100n, 1_000_000_000n, new pvmSerial.ProofOfPossession(publicKey, popSignature), AjsPChainOwner.fromNative([ewoq.shortId], 1), AjsPChainOwner.fromNative([second.shortId], 1)),
          ],
          subnetAuth: [0, 1],
        },
        ajsContext,
      ),
    ),
    b('RegisterL1ValidatorTx', (u) =>
      pvm.newRegisterL1ValidatorTx({ ...common(u), balance: 5_000_000_000n, blsSignature: popSignature, message: warpMessage(addressedCall(registration), undefined, popSignature) }, ajsContext),
    ),
    b('SetL1ValidatorWeightTx', (u) => pvm.newSetL1ValidatorWeightTx({ ...common(u), message: warpMessage(addressedCall(l1ValidatorWeightMessage(validationID, 3n, 0n)), Uint8Array.of(1, 0, 7), popSignature) }, ajsContext)),
    b('IncreaseL1ValidatorBalanceTx', (u) => pvm.newIncreaseL1ValidatorBalanceTx({ ...common(u), balance: 7_000_000_000n, validationId: cb58Encode(validationID) }, ajsContext)),
    b('DisableL1ValidatorTx', (u) => pvm.newDisableL1ValidatorTx({ ...common(u), validationId: cb58Encode(validationID), disableAuth: [0] }, ajsContext)),
  ];
}

describe('(a) txs built by avalanchejs 5.2.0, decoded, re-encoded, fee-computed and signed here', () => {
  it.each(builds().map((x) => [x.name, x] as const))('%s', async (name, { unsigned, utxos }) => {
    const bytes = unsigned.toBytes();
    const tx = decodeUnsignedTx(bytes, 'pvm') as PTx;
    expect(tx.kind).toBe(name);
    expect(toHex(encodeUnsignedTx(tx))).toBe(toHex(bytes));
    expect(() => verifyPTx(tx)).not.toThrow();

    // The fee avalanchejs burned is our fee of the same tx, and its own formula agrees.
    const fee = pTxFee(tx, pFee);
    expect(avaxBurned(tx, ctx.avaxAssetID), 'burned').toBe(fee);
    expect(pvm.calculateFee(unsigned.getTx(), ajsContext.platformFeeConfig.weights, pFee.gasPriceNavax), 'avalanchejs fee').toBe(fee);

    // Both signers: same signed bytes. The authorization's owner is both keys, sorted.
    const spent = [...utxos];
    if (name === 'DisableL1ValidatorTx') spent.push(authorityRecord((tx as { validationID: Bytes }).validationID, authorityOwners));
    if ('subnetAuth' in tx) spent.push(authorityRecord(tx.subnetID, authorityOwners));
    if (tx.kind === 'SetAutoRenewedValidatorConfigTx') spent.push(authorityRecord(tx.txID, authorityOwners));
    const ours = signTx(tx, requiredCredentials(tx, utxoLookupOf(spent)), keychain);
    await addTxSignatures({ unsignedTx: unsigned, privateKeys: keys.map((k) => k.secret) });
    // avalanchejs' builders leave an authorization's credential empty (they do not know its
    // owner): there, every signature we made must be the one avalanchejs' signer makes with
    // that slot's key.
    const theirs = unsigned.hasAllSignatures() ? unsigned.getSignedTx().toBytes() : ours.signedBytes;
    if (!unsigned.hasAllSignatures()) {
      const required = requiredCredentials(tx, utxoLookupOf(spent));
      expect(required.at(-1)!.signers.length, 'the authorization is signed by both keys').toBeGreaterThan(0);
      for (const [c, cred] of required.entries()) {
        for (const [s, signer] of cred.signers.entries()) {
          const key = keychain.byShortId(signer)!;
          expect(toHex(ours.credentials[c]!.signatures[s]!)).toBe(toHex(await secp256k1.sign(ours.unsignedBytes, key.secret)));
        }
      }
    }
    expect(toHex(ours.signedBytes)).toBe(toHex(theirs));
    const decoded = decodeSignedTx(theirs, 'pvm');
    expect(decoded.credentials).toStrictEqual(ours.credentials);
    expect(toHex(encodeSignedTx(decoded))).toBe(toHex(theirs));
    // The bandwidth dimension is the signed size.
    expect(pTxComplexity(tx)[0]).toBe(BigInt(theirs.length));
  });
});

describe('(b) generated txs encoded by us, parsed and re-serialized by avalanchejs', () => {
  const manager = utils.getManagerForVM('PVM');
  it.each(Object.entries(arbPTxs({ validBls: true })))('%s', { timeout: 30_000 }, (name, arb) => {
    fc.assert(
      fc.property(arb.chain((unsigned) => arbCredentialsFor(unsigned).map((credentials) => ({ unsigned, credentials }))), (signed) => {
        const unsignedBytes = encodeUnsignedTx(signed.unsigned);
        const parsed = utils.unpackWithManager('PVM', unsignedBytes);
        expect(toHex(manager.packCodec(parsed))).toBe(toHex(unsignedBytes));
        const signedBytes = encodeSignedTx(signed);
        const parsedSigned = manager.unpack(signedBytes, avaxSerial.SignedTx);
        expect(toHex(parsedSigned.toBytes())).toBe(toHex(signedBytes));
      }),
      // avalanchejs checks each L1 validator's proof of possession (a BLS pairing) as it parses.
      { numRuns: name === 'ConvertSubnetToL1Tx' ? 8 : 40 },
    );
  });

  it('block-builder txs', () => {
    fc.assert(
      fc.property(arbPBlockTx, (tx) => {
        const bytes = encodeSignedTx({ unsigned: tx, credentials: [] });
        const parsed = manager.unpack(bytes, avaxSerial.SignedTx);
        expect(toHex(parsed.toBytes())).toBe(toHex(bytes));
        expect(decodeChainTx(bytes, 'pvm').unsigned).toStrictEqual(tx);
      }),
      { numRuns: 60 },
    );
  });

  it('a stake output avalanchejs builds is a TransferableOutput we read back', () => {
    const out = AjsTransferableOutput.fromNative(ajsContext.avaxAssetID, 5n, [ewoq.shortId]);
    expect(out.amount()).toBe(5n);
  });
});
