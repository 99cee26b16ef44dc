// A site hands the wallet a P-Chain tx with an authorization (subnet owner, validator authority,
// deactivation owner): the wallet decodes and checks it, finds the authorizing owner from the tx
// that set it, describes it for the approval, and signs every input and authorization slot its
// keys own — each signature checked by recovery — leaving the others for the site to collect.
import { describe, expect, it } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { type Bytes, equalBytes, utf8 } from '../../src/core/bytes.js';
import {
  authorizationOf,
  decodeSignedTx,
  encodeSignedTx,
  encodeUnsignedTx,
  txIdBytes,
  type PAddAutoRenewedValidatorTx,
  type PCreateSubnetTx,
  type OutputOwners,
  type PTx,
  type Utxo,
} from '../../src/core/codec/index.js';
import { amountOf } from '../../src/core/codec/rules.js';
import { describeTx } from '../../src/core/describe.js';
import { cb58Encode, formatAddress } from '../../src/core/encoding.js';
import { NetworkMismatchError, RpcError, ValidationError } from '../../src/core/errors.js';
import { checkTxBelongs, decodeExternalTx, type ExternalTx, keychainSignsAny, resolveSpent, signedSlots, signExternalTx, spentFingerprint } from '../../src/core/external-tx.js';
import { recoverSigner } from '../../src/core/keys.js';
import type { NodeClient } from '../../src/core/node.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { accountKeychain, EMPTY_SIGNATURE, keychainOf } from '../../src/core/tx/sign.js';
import { keyPairFromSecret } from '../../src/core/keys.js';
import { ctx, ewoq, mine, outsider, second, utxo } from './pvm-test-kit.js';

const keychain = keychainOf([ewoq, second]);
const outsiderEvm = keyPairFromSecret(sha256(utf8.encode('xpc-wallet: an account\'s EVM key')));
const base = (spent: Utxo[]) => ({
  vm: 'pvm' as const,
  networkID: ctx.networkID,
  blockchainID: ctx.pChainID,
  outputs: [],
  inputs: spent.map((u) => ({ txID: u.txID, outputIndex: u.outputIndex, assetID: u.assetID, input: { kind: 'TransferInput' as const, amount: amountOf(u.output), sigIndices: [0] } })),
  memo: new Uint8Array(),
});

/**
 * The txs the node would return by ID (unchecked: the real client checks the hash), and the
 * chain's state: a subnet's current owner (its CreateSubnetTx's, unless `subnetOwners` says it was
 * transferred) and L1 validators' deactivation owners.
 */
function fakeNode(txs: PTx[], state: { subnetOwners?: Map<string, OutputOwners>; deactivationOwners?: Map<string, OutputOwners> } = {}): { node: NodeClient; ids: Bytes[] } {
  const byId = new Map<string, Bytes>();
  const ids = txs.map((tx) => {
    const signed = encodeSignedTx({ unsigned: tx, credentials: [] });
    const id = txIdBytes(signed);
    byId.set(cb58Encode(id), signed);
    return id;
  });
  const getTx = async (id: string) => {
    const bytes = byId.get(id);
    if (!bytes) throw new Error(`no tx ${id}`);
    return bytes;
  };
  const getSubnetOwner = async (id: string) => {
    const created = txs.find((_, i) => cb58Encode(ids[i]!) === id);
    const owner = state.subnetOwners?.get(id) ?? (created?.kind === 'CreateSubnetTx' ? created.owner : undefined);
    if (!owner) throw new Error(`no subnet ${id}`);
    return owner;
  };
  const getL1ValidatorDeactivationOwner = async (id: string) => {
    const owner = state.deactivationOwners?.get(id);
    if (!owner) throw new RpcError('platform.getL1Validator', -32000, 'not found');
    return owner;
  };
  return { node: { platform: { getTx, getSubnetOwner, getL1ValidatorDeactivationOwner } } as unknown as NodeClient, ids };
}

/**
 * The tx as a site hands it over, resolved on `node`. The account's `known` UTXOs are made by a tx
 * the node also shows (a BaseTx paying each at index 0: the fake node does not hash-check IDs).
 */
async function external(tx: PTx, known: Utxo[], node: NodeClient): Promise<ExternalTx> {
  const bytes = encodeUnsignedTx(tx);
  const decoded = decodeExternalTx('P', bytes);
  checkTxBelongs(decoded.tx, 'P', ctx);
  const creators = new Map(known.map((u) => [cb58Encode(u.txID), encodeSignedTx({ unsigned: { ...base([]), kind: 'BaseTx', outputs: [{ assetID: u.assetID, output: u.output }] } as PTx, credentials: [] })]));
  const withFunds = { ...node, platform: { ...node.platform, getTx: async (id: string) => creators.get(id) ?? node.platform.getTx(id) } } as NodeClient;
  const spent = await resolveSpent(decoded.tx, 'P', ctx, withFunds, known);
  return { chain: 'P', ...decoded, spent };
}

/** Each non-empty signature recovers to the address that must sign that slot. */
function signerOf(ext: ExternalTx, signed: Bytes, c: number, s: number): Bytes | undefined {
  const cred = decodeSignedTx(signed, 'pvm').credentials[c]!;
  const sig = cred.signatures[s]!;
  return equalBytes(sig, EMPTY_SIGNATURE) ? undefined : recoverSigner(sha256(ext.unsignedBytes), sig).shortId;
}

describe('P-Chain authorizations in site txs', () => {
  const subnet: PCreateSubnetTx = { ...base([]), kind: 'CreateSubnetTx', owner: makeOwners([second.shortId, outsider], 1) };

  it('AddSubnetValidatorTx: the subnet (checked by its CreateSubnetTx) and its current owner; the input and the authorization are signed', async () => {
    const { node, ids } = fakeNode([subnet]);
    const funds = utxo(5_000_000n);
    const secondAt = subnet.owner.addresses.findIndex((a) => equalBytes(a, second.shortId));
    const tx: PTx = {
      ...base([funds]),
      kind: 'AddSubnetValidatorTx',
      validator: { nodeID: sha256(utf8.encode('n')).slice(0, 20), start: 0n, end: 100n, weight: 10n },
      subnetID: ids[0]!,
      subnetAuth: [secondAt],
    };
    const ext = await external(tx, [funds], node);
    expect(ext.spent).toHaveLength(2);
    const signed = signExternalTx(ext, keychain);
    expect(signed.complete).toBe(true);
    expect(signerOf(ext, signed.signedBytes, 0, 0)).toStrictEqual(ewoq.shortId);
    expect(signerOf(ext, signed.signedBytes, 1, 0)).toStrictEqual(second.shortId);

    // What the approval is held to covers which of the wallet's keys sign: another key set is another fingerprint.
    expect(spentFingerprint(ext.spent, signedSlots(ext, keychain))).not.toBe(spentFingerprint(ext.spent, signedSlots(ext, keychainOf([ewoq]))));
    expect(spentFingerprint(ext.spent, signedSlots(ext, keychain))).toBe(spentFingerprint((await external(tx, [funds], node)).spent, signedSlots(ext, keychain)));

    const view = describeTx(ext.tx, ctx, ext.spent);
    expect(view.action).toContain(`subnet ${cb58Encode(ids[0]!)}`);
    expect(view.authorization).toMatchObject({ by: 'subnet owner', of: cb58Encode(ids[0]!), sigIndices: [secondAt], signers: [formatAddress('P', ctx.hrp, second.shortId)] });
    expect(view.authorization!.note).toContain("from the chain's state");
  });

  it('after an ownership transfer the current owner is the one shown and signed for: the old owner\'s key leaves the slot empty', async () => {
    const subnetId = cb58Encode(txIdBytes(encodeSignedTx({ unsigned: subnet, credentials: [] })));
    const { node, ids } = fakeNode([subnet], { subnetOwners: new Map([[subnetId, makeOwners([outsider])]]) });
    const funds = utxo(5_000_000n);
    const tx: PTx = { ...base([funds]), kind: 'TransferSubnetOwnershipTx', subnetID: ids[0]!, subnetAuth: [0], owner: mine };
    const ext = await external(tx, [funds], node);
    const signed = signExternalTx(ext, keychain);
    expect(signed.complete).toBe(false);
    expect(signerOf(ext, signed.signedBytes, 1, 0)).toBeUndefined();
    expect(describeTx(ext.tx, ctx, ext.spent).authorization).toMatchObject({ owners: { addresses: [formatAddress('P', ctx.hrp, outsider)], threshold: 1 } });
  });

  it('an authorization whose only signer is an address the wallet has no key for: partly signed, the slot left empty', async () => {
    const { node, ids } = fakeNode([subnet]);
    const funds = utxo(5_000_000n);
    const outsiderAt = subnet.owner.addresses.findIndex((a) => equalBytes(a, outsider));
    const tx: PTx = { ...base([funds]), kind: 'RemoveSubnetValidatorTx', nodeID: sha256(utf8.encode('n')).slice(0, 20), subnetID: ids[0]!, subnetAuth: [outsiderAt] };
    const ext = await external(tx, [funds], node);
    const signed = signExternalTx(ext, keychain);
    expect(signed.complete).toBe(false);
    expect(signerOf(ext, signed.signedBytes, 0, 0)).toStrictEqual(ewoq.shortId);
    expect(signerOf(ext, signed.signedBytes, 1, 0)).toBeUndefined();
  });

  it('SetAutoRenewedValidatorConfigTx: the validator authority comes from its AddAutoRenewedValidatorTx; a wallet holding only that key signs', async () => {
    const validator: PAddAutoRenewedValidatorTx = {
      ...base([]), kind: 'AddAutoRenewedValidatorTx', nodeID: sha256(utf8.encode('v')).slice(0, 20),
      signer: { kind: 'ProofOfPossession', publicKey: new Uint8Array(48), signature: new Uint8Array(96) }, stake: [],
      validationRewardsOwner: mine, delegationRewardsOwner: mine, validatorAuthority: makeOwners([second.shortId]),
      delegationShares: 20_000, autoCompoundRewardShares: 1_000_000, period: 86_400n,
    };
    const { node, ids } = fakeNode([validator]);
    const theirs = utxo(9_000_000n, makeOwners([outsider]));
    const tx: PTx = { ...base([theirs]), kind: 'SetAutoRenewedValidatorConfigTx', txID: ids[0]!, auth: [0], autoCompoundRewardShares: 0, period: 0n };
    const ext = await external(tx, [theirs], node);
    const secondOnly = keychainOf([second]);
    expect(keychainSignsAny(ext, secondOnly)).toBe(true);
    const signed = signExternalTx(ext, secondOnly);
    expect(signed.complete).toBe(false);
    expect(signerOf(ext, signed.signedBytes, 0, 0)).toBeUndefined();
    expect(signerOf(ext, signed.signedBytes, 1, 0)).toStrictEqual(second.shortId);
    const view = describeTx(ext.tx, ctx, ext.spent);
    expect(view.action).toBe(`Stop the auto-renewed validator added by ${cb58Encode(ids[0]!)} at the end of its current cycle`);
    expect(view.authorization).toMatchObject({ by: 'validator authority', signers: [formatAddress('P', ctx.hrp, second.shortId)] });
  });

  it('DisableL1ValidatorTx: the deactivation owner from the chain\'s state; the wallet signs the slot its key owns', async () => {
    const validationID = sha256(utf8.encode('validation'));
    const { node } = fakeNode([], { deactivationOwners: new Map([[cb58Encode(validationID), makeOwners([second.shortId])]]) });
    const funds = utxo(5_000_000n);
    const tx: PTx = { ...base([funds]), kind: 'DisableL1ValidatorTx', validationID, disableAuth: [0] };
    const ext = await external(tx, [funds], node);
    const signed = signExternalTx(ext, keychain);
    expect(signed.complete).toBe(true);
    expect(signerOf(ext, signed.signedBytes, 1, 0)).toStrictEqual(second.shortId);
  });

  it("DisableL1ValidatorTx whose deactivation owner the node cannot find — inputs signed, the authorization kept as the site sent it", async () => {
    const { node } = fakeNode([]);
    const funds = utxo(5_000_000n);
    const tx: PTx = { ...base([funds]), kind: 'DisableL1ValidatorTx', validationID: sha256(utf8.encode('validation')), disableAuth: [0, 2] };
    const ext = await external(tx, [funds], node);
    expect(ext.spent).toHaveLength(1);
    const signed = signExternalTx(ext, keychain);
    expect(signed.complete).toBe(false);
    const creds = decodeSignedTx(signed.signedBytes, 'pvm').credentials;
    expect(creds[1]!.signatures).toStrictEqual([EMPTY_SIGNATURE, EMPTY_SIGNATURE]);
    // A site that already collected the deactivation owner's signatures gets them back untouched.
    const theirSig = new Uint8Array(65).fill(5);
    const withTheirs = signExternalTx({ ...ext, existing: [{ fx: 'secp', signatures: [EMPTY_SIGNATURE] }, { fx: 'secp', signatures: [theirSig, theirSig] }] }, keychain);
    expect(withTheirs.complete).toBe(true);
    expect(decodeSignedTx(withTheirs.signedBytes, 'pvm').credentials[1]!.signatures).toStrictEqual([theirSig, theirSig]);
    expect(describeTx(ext.tx, ctx, ext.spent).authorization).toMatchObject({ by: 'L1 validator deactivation owner', sigIndices: [0, 2] });
    expect(authorizationOf(tx)?.kind).toBe('deactivation-owner');
  });

  it("what a tx spends comes from the tx that made it: a UTXO no tx proves is refused with one message, whoever owns it", async () => {
    // The creating tx is a BaseTx with one output; index 3 is not in it (as a staking reward's is not).
    const creator: PTx = { ...base([]), kind: 'BaseTx', outputs: [{ assetID: ctx.avaxAssetID, output: { kind: 'TransferOutput', amount: 7_000_000n, owners: mine } }] };
    const { node, ids } = fakeNode([creator]);
    const proven = { txID: ids[0]!, outputIndex: 0, assetID: ctx.avaxAssetID, output: { kind: 'TransferOutput' as const, amount: 7_000_000n, owners: mine } };
    // Read from its tx: the owners are the tx's, not anyone's word.
    const ext = await external({ ...base([proven]), kind: 'BaseTx' }, [], node);
    expect(ext.spent).toEqual([proven]);
    const messageFor = async (owners: OutputOwners) => {
      const reward = { txID: ids[0]!, outputIndex: 3, assetID: ctx.avaxAssetID, output: { kind: 'TransferOutput' as const, amount: 1_000n, owners } };
      return (await external({ ...base([reward]), kind: 'BaseTx' }, [], node).catch((e: Error) => e)) as Error;
    };
    const ours = await messageFor(mine);
    const theirs = await messageFor(makeOwners([outsider]));
    expect(ours).toBeInstanceOf(ValidationError);
    expect(ours.message).toMatch(/no transaction the node shows created/);
    expect(theirs.message).toBe(ours.message);
  });

  it("the node calls made for a site's tx do not depend on which UTXOs are the account's (no timing oracle)", async () => {
    const created = (owners: OutputOwners, n: number): PTx => ({ ...base([]), kind: 'BaseTx', outputs: [{ assetID: ctx.avaxAssetID, output: { kind: 'TransferOutput', amount: BigInt(1_000 + n), owners } }] });
    const ours = Array.from({ length: 5 }, (_, i) => created(mine, i));
    const theirs = Array.from({ length: 5 }, (_, i) => created(makeOwners([outsider]), i));
    const { node, ids } = fakeNode([...ours, ...theirs]);
    let calls = 0;
    const counting = { platform: { ...node.platform, getTx: (id: string) => (calls++, node.platform.getTx(id)) } } as unknown as NodeClient;
    const spend = (from: number) => Array.from({ length: 5 }, (_, i): Utxo => ({ txID: ids[from + i]!, outputIndex: 0, assetID: ctx.avaxAssetID, output: { kind: 'TransferOutput', amount: BigInt(1_000 + i), owners: from === 0 ? mine : makeOwners([outsider]) } }));
    const callsFor = async (utxos: Utxo[], proven: Utxo[]) => {
      calls = 0;
      const sorted = [...utxos].sort((a, b) => Buffer.compare(Buffer.from(a.txID), Buffer.from(b.txID)));
      const decoded = decodeExternalTx('P', encodeUnsignedTx({ ...base(sorted), kind: 'BaseTx' }));
      await resolveSpent(decoded.tx, 'P', ctx, counting, proven);
      return calls;
    };
    const mineSpent = spend(0);
    expect(await callsFor(mineSpent, mineSpent)).toBe(await callsFor(spend(5), mineSpent));
  });

  it('refused before anything is signed: a rule broken, a subnet ID that names no subnet, stake in another asset', async () => {
    const funds = utxo(5_000_000n);
    const unsorted: PTx = { ...base([funds]), kind: 'CreateSubnetTx', owner: { locktime: 0n, threshold: 1, addresses: [new Uint8Array(20).fill(2), new Uint8Array(20).fill(1)] } };
    expect(() => decodeExternalTx('P', encodeUnsignedTx(unsorted))).toThrow(ValidationError);
    const { node, ids } = fakeNode([{ ...base([]), kind: 'BaseTx' }]);
    const tx: PTx = { ...base([funds]), kind: 'RemoveSubnetValidatorTx', nodeID: new Uint8Array(20).fill(1), subnetID: ids[0]!, subnetAuth: [0] };
    await expect(external(tx, [funds], node)).rejects.toThrow(ValidationError);

    const otherAsset = sha256(utf8.encode('not avax'));
    const delegation: PTx = {
      ...base([funds]), kind: 'AddPermissionlessDelegatorTx', validator: { nodeID: new Uint8Array(20).fill(1), start: 0n, end: 1n, weight: 5n }, subnetID: ctx.pChainID,
      stake: [{ assetID: otherAsset, output: { kind: 'TransferOutput', amount: 5n, owners: mine } }], rewardsOwner: mine,
    };
    expect(() => checkTxBelongs(delegation, 'P', ctx)).toThrow(NetworkMismatchError);
  });
});

describe("an account's keychain for site txs", () => {
  it('signs a C-Chain export input only from the EVM key\'s address: another key\'s EVM address holds nothing the wallet shows', () => {
    const evmKey = outsiderEvm;
    const keys = accountKeychain([ewoq, second], evmKey);
    const exportFrom = (address: Bytes): ExternalTx => {
      const tx = {
        vm: 'evm' as const, kind: 'ExportTx' as const, networkID: ctx.networkID, blockchainID: ctx.cChainID, destinationChain: ctx.xChainID,
        ins: [{ address, amount: 1_000_000_000n, assetID: ctx.avaxAssetID, nonce: 0n }],
        exportedOutputs: [{ assetID: ctx.avaxAssetID, output: { kind: 'TransferOutput' as const, amount: 999_000_000n, owners: makeOwners([outsider]) } }],
      };
      return { chain: 'C', tx, unsignedBytes: encodeUnsignedTx(tx), spent: [] };
    };
    expect(signExternalTx(exportFrom(second.evmAddress), keys).complete).toBe(false);
    expect(keychainSignsAny(exportFrom(second.evmAddress), keys)).toBe(false);
    expect(signExternalTx(exportFrom(evmKey.evmAddress), keys).complete).toBe(true);
    // X/P slots: every key by its short ID, the EVM key's (the C-Chain's atomic owner) included.
    expect(keys.byShortId(second.shortId)).toBe(second);
    expect(keys.byShortId(evmKey.shortId)).toBe(evmKey);
  });
});

describe('a new asset a site asks to create', () => {
  it('with more decimal places than the network allows is refused before any approval (the node would refuse it)', () => {
    const create = (denomination: number) => ({
      vm: 'avm' as const, kind: 'CreateAssetTx' as const, networkID: ctx.networkID, blockchainID: ctx.xChainID, outputs: [], inputs: [], memo: new Uint8Array(),
      name: 'Many Places', symbol: 'MANY', denomination, initialStates: [],
    });
    expect(() => checkTxBelongs(create(32), 'X', ctx)).not.toThrow();
    expect(() => checkTxBelongs(create(33), 'X', ctx)).toThrow(/33 decimal places; the network allows at most 32/);
  });
});
