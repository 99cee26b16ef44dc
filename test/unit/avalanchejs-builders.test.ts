// Cross-checks against @avalabs/avalanchejs, part (c): txs built and signed by our builders carry the
// same signatures avalanchejs produces, and txs built by avalanchejs' builders decode here to the
// amounts, owners and fee intended. (Parts (a) and (b) are in avalanchejs-crosscheck.test.ts.)
import { describe, expect, it } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import {
  addTxSignatures,
  avm,
  type Context,
  evm,
  EVMUnsignedTx,
  pvm,
  secp256k1,
  TransferableOutput as AjsTransferableOutput,
  UnsignedTx as AjsUnsignedTx,
  utils,
  Utxo as AjsUtxo,
  Address as AjsAddress,
} from '@avalabs/avalanchejs';
import { type Bytes, toHex, utf8 } from '../../src/core/bytes.js';
import {
  decodeSignedTx,
  decodeUnsignedTx,
  encodeUnsignedTx,
  encodeUtxo,
  ownersOf,
  type CExportTx,
  type CImportTx,
  type OutputOwners,
  type PTx,
  type TransferableInput,
  type TransferableOutput,
  type UnsignedTx,
  type Utxo,
  type Vm,
} from '../../src/core/codec/index.js';
import { atomicTxFee, atomicTxGas, pTxFee, type PFeeContext } from '../../src/core/fees.js';
import { keyPairFromSecret, parseSecretKey, type KeyPair } from '../../src/core/keys.js';
import { buildCExport, buildCImport } from '../../src/core/tx/c.js';
import { verifyXTx } from '../../src/core/codec/avm-rules.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { buildPExport, buildPImport, buildPSend } from '../../src/core/tx/p.js';
import { keychainOf, requiredCredentials, type SignedResult, signTx, utxoLookupOf } from '../../src/core/tx/sign.js';
import { ownedAddressSet, spendableUtxos } from '../../src/core/tx/utxos.js';
import { buildXExport, buildXImport, buildXSend } from '../../src/core/tx/x.js';
import { avalanchejsContextOf } from './avalanchejs-context.js';
import { ctx } from './pvm-test-kit.js';
import { AJS_VM, type AjsAvaxOrEvmTx } from './avalanchejs-objects.js';

// ---- (c) builders and signatures, both ways ----

const ewoq = keyPairFromSecret(parseSecretKey('PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN'));
const second = keyPairFromSecret(sha256(utf8.encode('xpc-wallet avalanchejs cross-check, second key')));
const keys: KeyPair[] = [ewoq, second];
const keychain = keychainOf(keys);
const owned = ownedAddressSet(keys.map((k) => k.shortId));
const recipient = sha256(utf8.encode('recipient')).slice(0, 20);

const otherAsset = sha256(utf8.encode('another asset'));
const pFee: PFeeContext = { weights: [1n, 1000n, 1000n, 4n], gasPriceNavax: 3n };

const ajsContext: Context.Context = avalanchejsContextOf(ctx);
const feeState = { capacity: 1_000_000n, excess: 0n, price: pFee.gasPriceNavax, timestamp: new Date(0).toISOString() };
const NOW = 1_700_000_000n;

let nextTx = 1;
function utxo(amount: bigint, owners: OutputOwners, assetID = ctx.avaxAssetID, outputIndex = 0): Utxo {
  return { txID: sha256(Uint8Array.of(nextTx++)), outputIndex, assetID, output: { kind: 'TransferOutput', amount, owners } };
}

/** The same UTXO as avalanchejs sees it, parsed from our encoding. */
function ajsUtxo(u: Utxo, vm: Vm): AjsUtxo {
  return utils.getManagerForVM(AJS_VM[vm]).unpack(encodeUtxo(u, vm), AjsUtxo);
}

/**
 * Every credential slot holds exactly the signature avalanchejs' own secp256k1.sign makes over the
 * same unsigned bytes with the key that slot needs.
 */
async function expectSignaturesLikeAvalanchejs(tx: UnsignedTx, result: SignedResult, spent: Utxo[]): Promise<void> {
  const theirs = new Map<string, Bytes>();
  for (const k of keys) theirs.set(toHex(k.shortId), await secp256k1.sign(result.unsignedBytes, k.secret));
  const required = requiredCredentials(tx, utxoLookupOf(spent));
  expect(result.credentials).toHaveLength(required.length);
  required.forEach((cred, c) =>
    cred.signers.forEach((signer, s) => {
      const key = cred.evm ? keychain.byEvmAddress(signer) : keychain.byShortId(signer);
      expect(key).toBeDefined();
      const expected = theirs.get(toHex(key!.shortId))!;
      expect(expected).toHaveLength(65);
      expect(toHex(result.credentials[c]!.signatures[s]!)).toBe(toHex(expected));
    }),
  );
}

/** avalanchejs signs the tx (parsed from our unsigned bytes) with both keys; returns its signed bytes. */
async function signWithAvalanchejs(unsignedBytes: Bytes, vm: Vm, spent: Utxo[], evmSigner?: Bytes): Promise<{ signed: Bytes; complete: boolean }> {
  const tx = utils.unpackWithManager(AJS_VM[vm], unsignedBytes);
  const inputUtxos = spent.map((u) => ajsUtxo(u, vm));
  let unsigned: AjsUnsignedTx;
  if (evmSigner) {
    unsigned = new EVMUnsignedTx(tx, [], new utils.AddressMaps([new utils.AddressMap([[new AjsAddress(evmSigner), 0]])]));
  } else {
    const inputs = utils.getTransferableInputsByTx(tx as unknown as AjsAvaxOrEvmTx);
    const maps = utils.AddressMaps.fromTransferableInputs(inputs, inputUtxos, NOW, keys.map((k) => k.shortId));
    unsigned = vm === 'evm' ? new EVMUnsignedTx(tx, inputUtxos, maps) : new AjsUnsignedTx(tx, inputUtxos, maps);
  }
  await addTxSignatures({ unsignedTx: unsigned, privateKeys: keys.map((k) => k.secret) });
  return { signed: unsigned.getSignedTx().toBytes(), complete: unsigned.hasAllSignatures() };
}

function signWithUs(tx: UnsignedTx, spent: Utxo[]): SignedResult {
  return signTx(tx, requiredCredentials(tx, utxoLookupOf(spent)), keychain);
}

describe('(c) our builders and signer vs avalanchejs', () => {
  const mine = makeOwners([ewoq.shortId]);
  const both = makeOwners([ewoq.shortId, second.shortId], 2);
  const secondOnly = makeOwners([second.shortId]);

  it('an X send (two assets, a 2-of-2 UTXO, two keys): same signatures, same signed bytes', async () => {
    const utxos = [
      utxo(3_000_000n, mine),
      utxo(50_000_000n, both),
      utxo(7_000_000n, secondOnly, ctx.avaxAssetID, 4),
      utxo(900n, mine, otherAsset, 2),
      utxo(100n, both, otherAsset),
    ];
    const built = buildXSend({
      ctx,
      pool: spendableUtxos(utxos, owned, NOW),
      changeOwners: mine,
      memo: utf8.encode('cross-check'),
      payments: [
        { assetID: ctx.avaxAssetID, amount: 55_000_000n, owners: makeOwners([recipient]) },
        { assetID: otherAsset, amount: 950n, owners: makeOwners([recipient]) },
      ],
    });
    // The send needs the 2-of-2 and the second key's UTXO: both keys sign, one credential has 2 signatures.
    expect(built.tx.inputs.length).toBeGreaterThanOrEqual(4);
    const ours = signWithUs(built.tx, built.spent);
    expect(ours.credentials.some((c) => c.signatures.length === 2)).toBe(true);
    const theirs = await signWithAvalanchejs(ours.unsignedBytes, 'avm', built.spent);
    expect(theirs.complete).toBe(true);
    expect(toHex(theirs.signed)).toBe(toHex(ours.signedBytes));
    await expectSignaturesLikeAvalanchejs(built.tx, ours, built.spent);
    // And the avalanchejs-signed bytes decode here to the same tx and credentials.
    const decoded = decodeSignedTx(theirs.signed, 'avm');
    expect(decoded.unsigned).toStrictEqual(built.tx);
    expect(decoded.credentials).toStrictEqual(ours.credentials);
  });

  it('X export and import, P send/export/import: avalanchejs signs to the same bytes and agrees on the P fee', async () => {
    const xUtxos = [utxo(20_000_000n, mine), utxo(5_000_000n, both)];
    const xPool = spendableUtxos(xUtxos, owned, NOW);
    const atomic = [utxo(4_000_000n, mine, ctx.avaxAssetID, 1), utxo(6_000_000n, both, ctx.avaxAssetID, 3)];
    const atomicPool = spendableUtxos(atomic, owned, NOW);
    const pUtxos = [utxo(30_000_000n, mine), utxo(2_000_000n, both), utxo(1_000_000n, secondOnly)];
    const pPool = spendableUtxos(pUtxos, owned, NOW);

    const cases: { vm: Vm; built: { tx: UnsignedTx; spent: Utxo[]; fee: bigint } }[] = [
      { vm: 'avm', built: buildXExport({ ctx, pool: xPool, changeOwners: mine, destination: 'P', amount: 22_000_000n, to: mine }) },
      ...buildXImport({ ctx, pool: xPool, changeOwners: mine, source: 'C', atomicUtxos: atomicPool, to: secondOnly }).map((built) => ({ vm: 'avm' as Vm, built })),
      { vm: 'pvm', built: buildPSend({ ctx, fee: pFee, pool: pPool, changeOwners: mine, amount: 31_000_000n, to: makeOwners([recipient]) }) },
      { vm: 'pvm', built: buildPExport({ ctx, fee: pFee, pool: pPool, changeOwners: mine, destination: 'C', amount: 1_500_000n, to: both }) },
      ...buildPImport({ ctx, fee: pFee, pool: pPool, changeOwners: mine, source: 'X', atomicUtxos: atomicPool, to: mine }).map((built) => ({ vm: 'pvm' as Vm, built })),
    ];
    for (const { vm, built } of cases) {
      const ours = signWithUs(built.tx, built.spent);
      const theirs = await signWithAvalanchejs(ours.unsignedBytes, vm, built.spent);
      expect(theirs.complete, `${vm} ${built.tx.kind}`).toBe(true);
      expect(toHex(theirs.signed), `${vm} ${built.tx.kind}`).toBe(toHex(ours.signedBytes));
      await expectSignaturesLikeAvalanchejs(built.tx, ours, built.spent);
      const parsed = utils.unpackWithManager(AJS_VM[vm], ours.unsignedBytes);
      // The fee the tx burns, as avalanchejs computes it from the tx.
      const burned = utils.getBurnedAmountByTx(parsed as unknown as AjsAvaxOrEvmTx, ajsContext).get(ajsContext.avaxAssetID) ?? 0n;
      expect(burned, `${vm} ${built.tx.kind} burns its fee`).toBe(built.fee);
      if (vm === 'pvm') {
        const weights = ajsContext.platformFeeConfig.weights;
        expect(pvm.calculateFee(parsed, weights, pFee.gasPriceNavax), `P ${built.tx.kind} fee`).toBe(built.fee);
      } else {
        expect(built.fee).toBe(ctx.xTxFee);
      }
    }
  });

  it('a C export: both builders make the same bytes, and both signers the same signature', async () => {
    const baseFeeNavax = 25n; // avalanchejs takes the base fee in nAVAX per gas; we take wei
    const built = buildCExport({
      ctx,
      from: ewoq.evmAddress,
      nonce: 7n,
      balanceWei: 10n ** 18n,
      destination: 'X',
      amount: 123_456_789n,
      to: makeOwners([ewoq.shortId]),
      baseFeeWei: baseFeeNavax * 1_000_000_000n,
    });
    const fromAjs = evm.newExportTxFromBaseFee(ajsContext, baseFeeNavax, 123_456_789n, ajsContext.xBlockchainID, ewoq.evmAddress, [ewoq.shortId], 7n);
    expect(toHex(fromAjs.toBytes())).toBe(toHex(encodeUnsignedTx(built.tx)));

    const ours = signWithUs(built.tx, []);
    const theirs = await signWithAvalanchejs(ours.unsignedBytes, 'evm', [], ewoq.evmAddress);
    expect(theirs.complete).toBe(true);
    expect(toHex(theirs.signed)).toBe(toHex(ours.signedBytes));
    await expectSignaturesLikeAvalanchejs(built.tx, ours, []);
  });
});

describe('(c) txs built by avalanchejs, decoded here', () => {
  const mine = makeOwners([ewoq.shortId]);
  const both = makeOwners([ewoq.shortId, second.shortId], 2);
  const fromAddresses = keys.map((k) => k.shortId);
  const sum = (xs: bigint[]): bigint => xs.reduce((a, b) => a + b, 0n);
  const inAmount = (i: TransferableInput): bigint => (i.input.kind === 'StakeableLockIn' ? i.input.input.amount : i.input.amount);
  const outAmount = (o: TransferableOutput): bigint =>
    o.output.kind === 'StakeableLockOut' ? o.output.output.amount : o.output.kind === 'TransferOutput' ? o.output.amount : 0n;
  const burnedAvax = (ins: TransferableInput[], outs: TransferableOutput[]): bigint =>
    sum(ins.filter((i) => toHex(i.assetID) === toHex(ctx.avaxAssetID)).map(inAmount)) -
    sum(outs.filter((o) => toHex(o.assetID) === toHex(ctx.avaxAssetID)).map(outAmount));

  /** Checks every input spends one of `utxos` with its exact amount, and our signer matches theirs. */
  async function checkSpendAndSign(unsigned: AjsUnsignedTx, decoded: UnsignedTx, utxos: Utxo[], vm: Vm): Promise<void> {
    const lookup = utxoLookupOf(utxos);
    const ins = decoded.vm === 'evm' ? (decoded.kind === 'ImportTx' ? decoded.importedInputs : []) : [...decoded.inputs, ...(decoded.kind === 'ImportTx' ? decoded.importedInputs : [])];
    for (const i of ins) {
      const u = lookup(i);
      expect(u, 'input spends a known UTXO').toBeDefined();
      expect(inAmount(i)).toBe(u!.output.kind === 'TransferOutput' ? u!.output.amount : -1n);
    }
    const spent = ins.map((i) => lookup(i)!);
    const ours = signWithUs(decoded, spent);
    await addTxSignatures({ unsignedTx: unsigned, privateKeys: keys.map((k) => k.secret) });
    expect(unsigned.hasAllSignatures()).toBe(true);
    const theirs = unsigned.getSignedTx().toBytes();
    expect(toHex(ours.signedBytes)).toBe(toHex(theirs));
    expect(decodeSignedTx(theirs, vm).credentials).toStrictEqual(ours.credentials);
  }

  it('avm.newBaseTx: the payment, the change and the X fee', async () => {
    const utxos = [utxo(8_000_000n, mine), utxo(9_000_000n, both)];
    const unsigned = avm.newBaseTx(
      ajsContext,
      fromAddresses,
      utxos.map((u) => ajsUtxo(u, 'avm')),
      [AjsTransferableOutput.fromNative(ajsContext.avaxAssetID, 12_000_000n, [recipient])],
      { changeAddresses: [ewoq.shortId], minIssuanceTime: NOW },
    );
    const tx = decodeUnsignedTx(unsigned.toBytes(), 'avm');
    if (tx.vm !== 'avm' || tx.kind !== 'BaseTx') throw new Error(`decoded ${tx.vm} ${tx.kind}`);
    expect(tx.networkID).toBe(12345);
    expect(tx.blockchainID).toStrictEqual(ctx.xChainID);
    const payment = tx.outputs.find((o) => ownersOf(o.output).addresses.some((a) => toHex(a) === toHex(recipient)));
    expect(payment).toStrictEqual({ assetID: ctx.avaxAssetID, output: { kind: 'TransferOutput', amount: 12_000_000n, owners: makeOwners([recipient]) } });
    const change = tx.outputs.filter((o) => o !== payment);
    expect(change.every((o) => toHex(ownersOf(o.output).addresses[0]!) === toHex(ewoq.shortId))).toBe(true);
    expect(burnedAvax(tx.inputs, tx.outputs)).toBe(ctx.xTxFee);
    // What the X-Chain's form rules take (a site's tx is checked by them before the user is asked).
    expect(() => verifyXTx(tx)).not.toThrow();
    await checkSpendAndSign(unsigned, tx, utxos, 'avm');
  });

  it('avm.newImportTx and avm.newExportTx', async () => {
    const atomic = [utxo(5_000_000n, mine, ctx.avaxAssetID, 2), utxo(1_000n, both, otherAsset, 1)];
    const imp = avm.newImportTx(ajsContext, ajsContext.cBlockchainID, atomic.map((u) => ajsUtxo(u, 'avm')), [recipient], fromAddresses, { minIssuanceTime: NOW });
    const itx = decodeUnsignedTx(imp.toBytes(), 'avm');
    if (itx.vm !== 'avm' || itx.kind !== 'ImportTx') throw new Error(`decoded ${itx.vm} ${itx.kind}`);
    expect(itx.sourceChain).toStrictEqual(ctx.cChainID);
    expect(itx.importedInputs.map(inAmount).sort()).toStrictEqual([1_000n, 5_000_000n].sort());
    expect(burnedAvax(itx.importedInputs, itx.outputs)).toBe(ctx.xTxFee);
    const other = itx.outputs.find((o) => toHex(o.assetID) === toHex(otherAsset));
    expect(other?.output).toStrictEqual({ kind: 'TransferOutput', amount: 1_000n, owners: makeOwners([recipient]) });
    expect(() => verifyXTx(itx)).not.toThrow();
    await checkSpendAndSign(imp, itx, atomic, 'avm');

    const utxos = [utxo(4_000_000n, both)];
    const exp = avm.newExportTx(
      ajsContext,
      ajsContext.pBlockchainID,
      fromAddresses,
      utxos.map((u) => ajsUtxo(u, 'avm')),
      [AjsTransferableOutput.fromNative(ajsContext.avaxAssetID, 2_500_000n, [recipient, ewoq.shortId], 0n, 2)],
      { changeAddresses: [second.shortId], minIssuanceTime: NOW },
    );
    const et = decodeUnsignedTx(exp.toBytes(), 'avm');
    if (et.vm !== 'avm' || et.kind !== 'ExportTx') throw new Error(`decoded ${et.vm} ${et.kind}`);
    expect(et.destinationChain).toStrictEqual(ctx.pChainID);
    expect(et.exportedOutputs).toStrictEqual([
      { assetID: ctx.avaxAssetID, output: { kind: 'TransferOutput', amount: 2_500_000n, owners: makeOwners([recipient, ewoq.shortId], 2) } },
    ]);
    expect(burnedAvax(et.inputs, [...et.outputs, ...et.exportedOutputs])).toBe(ctx.xTxFee);
    expect(() => verifyXTx(et)).not.toThrow();
    await checkSpendAndSign(exp, et, utxos, 'avm');
  });

  it('pvm.newBaseTx / newExportTx / newImportTx: the fee they burn is our dynamic fee of the same tx', async () => {
    const utxos = [utxo(10_000_000n, mine), utxo(3_000_000n, both)];
    const ajsUtxos = utxos.map((u) => ajsUtxo(u, 'pvm'));
    const base = pvm.newBaseTx(
      { feeState, fromAddressesBytes: fromAddresses, changeAddressesBytes: [ewoq.shortId], utxos: ajsUtxos, minIssuanceTime: NOW, outputs: [AjsTransferableOutput.fromNative(ajsContext.avaxAssetID, 11_000_000n, [recipient])] },
      ajsContext,
    );
    const exp = pvm.newExportTx(
      { feeState, fromAddressesBytes: fromAddresses, changeAddressesBytes: [ewoq.shortId], utxos: ajsUtxos, minIssuanceTime: NOW, destinationChainId: ajsContext.cBlockchainID, outputs: [AjsTransferableOutput.fromNative(ajsContext.avaxAssetID, 4_000_000n, [ewoq.shortId])] },
      ajsContext,
    );
    const atomic = [utxo(6_000_000n, mine, ctx.avaxAssetID, 5), utxo(2_000_000n, both, ctx.avaxAssetID, 6)];
    const imp = pvm.newImportTx(
      { feeState, fromAddressesBytes: fromAddresses, utxos: atomic.map((u) => ajsUtxo(u, 'pvm')), minIssuanceTime: NOW, sourceChainId: ajsContext.xBlockchainID, toAddressesBytes: [second.shortId] },
      ajsContext,
    );
    // avalanchejs' pvm.newImportTx maps signers to credentials before it sorts the imported inputs,
    // so its own signing fails when sorting reorders them; map them again from the final order.
    const impIns = utils.getTransferableInputsByTx(imp.getTx() as unknown as AjsAvaxOrEvmTx);
    const impFixed = new AjsUnsignedTx(imp.getTx(), imp.utxos, utils.AddressMaps.fromTransferableInputs(impIns, imp.utxos, NOW, fromAddresses));
    for (const [unsigned, spendable] of [
      [base, utxos],
      [exp, utxos],
      [impFixed, atomic],
    ] as const) {
      const tx = decodeUnsignedTx(unsigned.toBytes(), 'pvm') as PTx;
      const outs = [...tx.outputs, ...(tx.kind === 'ExportTx' ? tx.exportedOutputs : [])];
      const ins = [...tx.inputs, ...(tx.kind === 'ImportTx' ? tx.importedInputs : [])];
      expect(burnedAvax(ins, outs), `P ${tx.kind}`).toBe(pTxFee(tx, pFee));
      expect(tx.blockchainID).toStrictEqual(ctx.pChainID);
      await checkSpendAndSign(unsigned, tx, [...spendable], 'pvm');
    }
  });

  it('evm.newExportTxFromBaseFee and evm.newImportTxFromBaseFee: amounts, owners and the atomic fee', async () => {
    const baseFeeNavax = 30n;
    const baseFeeWei = baseFeeNavax * 1_000_000_000n;
    const exp = evm.newExportTxFromBaseFee(ajsContext, baseFeeNavax, 5_000_000n, ajsContext.pBlockchainID, second.evmAddress, [ewoq.shortId, second.shortId], 3n, undefined, { threshold: 2 });
    const et = decodeUnsignedTx(exp.toBytes(), 'evm') as CExportTx;
    expect(et.kind).toBe('ExportTx');
    expect(et.destinationChain).toStrictEqual(ctx.pChainID);
    expect(et.exportedOutputs).toStrictEqual([{ assetID: ctx.avaxAssetID, output: { kind: 'TransferOutput', amount: 5_000_000n, owners: both } }]);
    expect(et.ins).toHaveLength(1);
    expect(et.ins[0]!.address).toStrictEqual(second.evmAddress);
    expect(et.ins[0]!.nonce).toBe(3n);
    expect(et.ins[0]!.amount - 5_000_000n).toBe(atomicTxFee(atomicTxGas(et), baseFeeWei));
    const ours = signWithUs(et, []);
    const theirs = await signWithAvalanchejs(exp.toBytes(), 'evm', [], second.evmAddress);
    expect(toHex(theirs.signed)).toBe(toHex(ours.signedBytes));

    const atomic = [utxo(40_000_000n, mine, ctx.avaxAssetID, 1), utxo(2_000_000n, both, ctx.avaxAssetID, 9)];
    const imp = evm.newImportTxFromBaseFee(ajsContext, second.evmAddress, fromAddresses, atomic.map((u) => ajsUtxo(u, 'evm')), ajsContext.xBlockchainID, baseFeeNavax);
    const itx = decodeUnsignedTx(imp.toBytes(), 'evm') as CImportTx;
    expect(itx.kind).toBe('ImportTx');
    expect(itx.sourceChain).toStrictEqual(ctx.xChainID);
    expect(itx.importedInputs.map(inAmount).sort()).toStrictEqual([2_000_000n, 40_000_000n].sort());
    expect(itx.outs).toHaveLength(1);
    expect(itx.outs[0]!.address).toStrictEqual(second.evmAddress);
    const fee = 42_000_000n - itx.outs[0]!.amount;
    expect(fee).toBe(atomicTxFee(atomicTxGas(itx), baseFeeWei));
    await checkSpendAndSign(imp, itx, atomic, 'evm');

    // Our import builder, given the same UTXOs and base fee, makes the same bytes.
    const [ourImport] = buildCImport({ ctx, source: 'X', atomicUtxos: spendableUtxos(atomic, owned, NOW), to: second.evmAddress, baseFeeWei });
    expect(toHex(encodeUnsignedTx(ourImport!.tx))).toBe(toHex(imp.toBytes()));
    expect(ourImport!.fee).toBe(fee);
  });
});
