// Cross-checks against @avalabs/avalanchejs, an independent implementation of the same formats:
// (a) what we encode, avalanchejs parses to the same structure and re-serializes to the same bytes;
// (b) our UTXO hex parses there with the same amounts, owners and IDs.
// (c), builders and signatures both ways, is in avalanchejs-builders.test.ts.
// avalanchejs has no propertyfx, so property outputs, operations and credentials are left out.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  avaxSerial,
  TransferableInput as AjsTransferableInput,
  TransferableOutput as AjsTransferableOutput,
  utils,
  Utxo as AjsUtxo,
} from '@avalabs/avalanchejs';
import { type Bytes, concatBytes, fromHex, toHex } from '../../src/core/bytes.js';
import {
  encodeSignedTx,
  encodeUnsignedTx,
  encodeUtxo,
  inputId,
  ownersOf,
  type Credential,
  type Input,
  type Output,
  type SignedTx,
  type TransferableInput,
  type TransferableOutput,
  type UnsignedTx,
  type Vm,
} from '../../src/core/codec/index.js';
import { cb58Encode, toApiHex } from '../../src/core/encoding.js';
import { arbXBaseTx, arbXCreateAssetTx, arbXExportTx, arbXImportTx, arbXOperationTx } from './codec-gen-x.js';
import { arbPBaseTx, arbPExportTx, arbPImportTx } from './codec-gen-p.js';
import { arbCExportTx, arbCImportTx } from './codec-gen-c.js';
import { arbCredentialsFor, arbUtxo } from './codec-generators.js';
import { AJS_VM, type AjsAvaxOrEvmTx, type AjsTx, credentialFrom, type Node, node, nodes, num, outputFrom, txFrom } from './avalanchejs-objects.js';

// ---- key fields, read with avalanchejs' own accessors ----

interface KeyFields {
  networkID: number;
  blockchainID: string;
  outputs: string[];
  inputs: string[];
  inputAmounts: [string, bigint][];
  outputAmounts: [string, bigint][];
}

const sortedEntries = (m: Map<string, bigint>): [string, bigint][] => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
const describeOut = (asset: string, amount: bigint, owners: Bytes[]): string => `${asset}|${amount}|${owners.map(toHex).join(',')}`;

function ajsKeyFields(tx: AjsTx): KeyFields {
  const t = tx as unknown as AjsAvaxOrEvmTx;
  // avalanchejs' CreateAssetTx and OperationTx do not extend its AVMTx: they have no vm,
  // getBlockchainId or getInputs, so their base fields are read directly.
  const hasTxApi = typeof (tx as { getBlockchainId?: unknown }).getBlockchainId === 'function';
  const base = hasTxApi ? undefined : node(tx, 'baseTx');
  const outs = (base ? nodes(base, 'outputs') : utils.getTransferableOutputsByTx(t)) as AjsTransferableOutput[];
  const ins = (base ? nodes(base, 'inputs') : utils.getTransferableInputsByTx(t)) as AjsTransferableInput[];
  const sum = (items: { getAssetId(): string; amount(): bigint }[]): Map<string, bigint> => {
    const m = new Map<string, bigint>();
    for (const x of items) m.set(x.getAssetId(), (m.get(x.getAssetId()) ?? 0n) + x.amount());
    return m;
  };
  const isEvm = tx.vm === 'EVM';
  return {
    networkID: num(isEvm ? node(tx, 'networkId') : node(node(tx, 'baseTx'), 'NetworkId')),
    blockchainID: base ? node(base, 'BlockchainId').toString() : tx.getBlockchainId(),
    outputs: outs.map((o) => describeOut(o.getAssetId(), o.amount(), (o.output as unknown as { getOwners(): Bytes[] }).getOwners())),
    inputs: ins.map((i) => `${i.utxoID.ID()}|${i.getAssetId()}|${i.amount()}`),
    inputAmounts: sortedEntries(base ? sum(ins) : utils.getInputAmounts(t)),
    outputAmounts: sortedEntries(base ? sum(outs) : utils.getOutputAmounts(t)),
  };
}

/** avalanchejs' serialization of a parsed tx, signed or not, through its codec manager. */
function ajsBytes(vm: Vm, unsignedTx: AjsTx, credentials?: unknown[]): Bytes {
  const manager = utils.getManagerForVM(AJS_VM[vm]);
  const codec = manager.getDefaultCodec();
  const unsigned = manager.packCodec(unsignedTx);
  if (!credentials) return unsigned;
  return concatBytes(unsigned, codec.PackPrefixList(credentials as Parameters<typeof codec.PackPrefixList>[0]));
}

function ourKeyFields(tx: UnsignedTx): KeyFields {
  const outs: TransferableOutput[] = tx.vm === 'evm' ? (tx.kind === 'ExportTx' ? tx.exportedOutputs : []) : [...tx.outputs, ...(tx.kind === 'ExportTx' ? tx.exportedOutputs : [])];
  const ins: TransferableInput[] = tx.vm === 'evm' ? (tx.kind === 'ImportTx' ? tx.importedInputs : []) : [...tx.inputs, ...(tx.kind === 'ImportTx' ? tx.importedInputs : [])];
  const amountOf = (x: { input: Input } | { output: Output }): bigint => {
    if ('input' in x) return x.input.kind === 'StakeableLockIn' ? x.input.input.amount : x.input.amount;
    return x.output.kind === 'StakeableLockOut' ? x.output.output.amount : x.output.kind === 'TransferOutput' ? x.output.amount : 0n;
  };
  const sum = (items: { assetID: Bytes; amount: bigint }[]): Map<string, bigint> => {
    const m = new Map<string, bigint>();
    for (const { assetID, amount } of items) m.set(cb58Encode(assetID), (m.get(cb58Encode(assetID)) ?? 0n) + amount);
    return m;
  };
  const inItems = tx.vm === 'evm' && tx.kind === 'ExportTx' ? tx.ins : ins.map((i) => ({ assetID: i.assetID, amount: amountOf(i) }));
  const outItems = tx.vm === 'evm' && tx.kind === 'ImportTx' ? tx.outs : outs.map((o) => ({ assetID: o.assetID, amount: amountOf(o) }));
  return {
    networkID: tx.networkID,
    blockchainID: cb58Encode(tx.blockchainID),
    outputs: outs.map((o) => describeOut(cb58Encode(o.assetID), amountOf(o), ownersOf(o.output).addresses)),
    inputs: ins.map((i) => `${cb58Encode(inputId(i))}|${cb58Encode(i.assetID)}|${amountOf(i)}`),
    inputAmounts: sortedEntries(sum(inItems)),
    outputAmounts: sortedEntries(sum(outItems)),
  };
}

const withCredentials = (arb: fc.Arbitrary<UnsignedTx>): fc.Arbitrary<SignedTx> =>
  arb.chain((unsigned) => arbCredentialsFor(unsigned).map((credentials) => ({ unsigned, credentials })));

// ---- (a) our encodings, parsed by avalanchejs ----

const NO_PROPERTY_FX = { propertyFx: false };
const GENERATED: [string, Vm, fc.Arbitrary<UnsignedTx>][] = [
  ['X BaseTx', 'avm', arbXBaseTx],
  ['X CreateAssetTx', 'avm', arbXCreateAssetTx(NO_PROPERTY_FX)],
  ['X OperationTx', 'avm', arbXOperationTx(NO_PROPERTY_FX)],
  ['X ImportTx', 'avm', arbXImportTx],
  ['X ExportTx', 'avm', arbXExportTx],
  ['P BaseTx', 'pvm', arbPBaseTx],
  ['P ImportTx', 'pvm', arbPImportTx],
  ['P ExportTx', 'pvm', arbPExportTx],
  ['C ImportTx', 'evm', arbCImportTx],
  ['C ExportTx', 'evm', arbCExportTx],
];

describe('(a) generated txs encoded by us, parsed and re-serialized by avalanchejs', () => {
  it.each(GENERATED)('%s', (_name, vm, arb) => {
    const manager = utils.getManagerForVM(AJS_VM[vm]);
    fc.assert(
      fc.property(withCredentials(arb), (signed) => {
        const unsignedBytes = encodeUnsignedTx(signed.unsigned);
        const parsed = utils.unpackWithManager(AJS_VM[vm], unsignedBytes);
        expect(txFrom(parsed)).toStrictEqual(signed.unsigned);
        expect(toHex(ajsBytes(vm, parsed))).toBe(toHex(unsignedBytes));
        // utils.packTx needs tx.vm, which avalanchejs' CreateAssetTx and OperationTx lack.
        if ('vm' in parsed) expect(toHex(utils.packTx(parsed))).toBe(toHex(unsignedBytes));
        expect(ajsKeyFields(parsed)).toStrictEqual(ourKeyFields(signed.unsigned));

        const signedBytes = encodeSignedTx(signed);
        const parsedSigned = manager.unpack(signedBytes, avaxSerial.SignedTx);
        expect(txFrom(parsedSigned.unsignedTx)).toStrictEqual(signed.unsigned);
        // avalanchejs reads an nftfx credential (type 14) back as a secp256k1fx one (its nft Credential
        // inherits a fromBytes that builds the parent class), so it writes it back as type 9: for
        // those, only the signatures can be compared.
        const hasNftCredential = signed.credentials.some((c) => c.fx === 'nft');
        const asSecp = (cs: Credential[]): Credential[] => cs.map((c) => ({ ...c, fx: c.fx === 'nft' ? 'secp' : c.fx }));
        const theirCredentials = parsedSigned.getCredentials().map(credentialFrom);
        expect(hasNftCredential ? asSecp(theirCredentials) : theirCredentials).toStrictEqual(hasNftCredential ? asSecp(signed.credentials) : signed.credentials);
        if (!hasNftCredential) {
          expect(toHex(ajsBytes(vm, parsedSigned.unsignedTx, parsedSigned.credentials))).toBe(toHex(signedBytes));
          if ('vm' in parsedSigned.unsignedTx) expect(toHex(parsedSigned.toBytes())).toBe(toHex(signedBytes));
        }
      }),
      { numRuns: 60 },
    );
  });
});

// ---- (b) UTXOs ----

describe('(b) UTXO hex from our encoder, parsed by avalanchejs', () => {
  it.each(['avm', 'pvm', 'evm'] as const)('%s', (vm) => {
    const manager = utils.getManagerForVM(AJS_VM[vm]);
    fc.assert(
      fc.property(arbUtxo(vm, NO_PROPERTY_FX), (utxo) => {
        const bytes = encodeUtxo(utxo, vm);
        // What getUTXOs returns: "hex" with a 4-byte checksum (avalanchejs ignores what follows).
        const hex = toApiHex(bytes);
        const parsed = manager.unpack(utils.hexToBuffer(hex), AjsUtxo);
        expect(outputFrom(parsed.output as unknown as Node)).toStrictEqual(utxo.output);
        expect(parsed.getAssetId()).toBe(cb58Encode(utxo.assetID));
        expect(toHex(parsed.utxoId.txID.toBytes())).toBe(toHex(utxo.txID));
        expect(parsed.utxoId.outputIdx.value()).toBe(utxo.outputIndex);
        expect(parsed.ID()).toBe(cb58Encode(inputId(utxo)));
        const owners = parsed.getOutputOwners();
        expect(owners.addrs.map((a) => toHex(a.toBytes()))).toStrictEqual(ownersOf(utxo.output).addresses.map(toHex));
        expect(owners.threshold.value()).toBe(ownersOf(utxo.output).threshold);
        expect(owners.locktime.value()).toBe(ownersOf(utxo.output).locktime);
        if (utxo.output.kind === 'TransferOutput' || utxo.output.kind === 'StakeableLockOut') {
          const amount = utxo.output.kind === 'TransferOutput' ? utxo.output.amount : utxo.output.output.amount;
          expect((parsed.output as unknown as { amount(): bigint }).amount()).toBe(amount);
        }
        expect(toHex(concatBytes(fromHex('0000'), parsed.toBytes(manager.getDefaultCodec())))).toBe(toHex(bytes));
      }),
      { numRuns: 300 },
    );
  });
});
