// What a UTXO read leaves out around the txs the wallet keeps (WalletEngine.utxos): the outputs of
// every kept tx whose input the same read lists (none of them ran), and an input of a tx another
// chain proves ran (EngineOptions.ranElsewhere).
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { keptInTheWay } from '../../src/background/outbox.js';
import { inputsOf, racedBy } from '../../src/background/refused.js';
import { toHex } from '../../src/core/bytes.js';
import { utxoId } from '../../src/core/codec/ids.js';
import { decodeSignedTx, encodeSignedTx, encodeUnsignedTx, encodeUtxo, txIdBytes, type Utxo } from '../../src/core/codec/index.js';
import { judgedInputIds } from '../../src/core/tx-fate.js';
import { ownedAddressSet } from '../../src/core/tx/utxos.js';
import { cb58Decode, cb58Encode } from '../../src/core/encoding.js';
import { hashForSigning, keyPairFromSecret, signDigest } from '../../src/core/keys.js';
import { type EngineOptions, WalletEngine } from '../../src/core/engine.js';
import { RpcError } from '../../src/core/errors.js';
import type { NodeClient } from '../../src/core/node.js';
import { pTx } from './outbox-test-kit.js';
import { ctx, ewoq, second, utxo } from './pvm-test-kit.js';

function engineReading(read: Utxo[], options: Omit<EngineOptions, 'evmChainId'>, importStatus = 'Unknown'): WalletEngine {
  const node = {
    platform: { getTx: () => Promise.reject(new RpcError('platform.getTx', -32000, 'not found')), getTxStatus: async () => ({ status: importStatus }) },
    avm: { getTx: () => Promise.reject(new RpcError('avm.getTx', -32000, 'not found')), getTxStatus: async () => importStatus },
    provesAccepted: async () => true,
    getAllUtxos: async () => {
      const encoded = read.map((u) => encodeUtxo(u, 'pvm'));
      return { utxos: read, encoded, digests: encoded.map((b) => sha256(b)), dropped: [] };
    },
  };
  return new WalletEngine(node as unknown as NodeClient, ctx, { xp: [ewoq], evm: second, change: ewoq.shortId }, { evmChainId: 1n, ...options });
}

/** A stranger's key: not the engine's. */
const stranger = keyPairFromSecret(new Uint8Array(32).fill(9));

/**
 * A signed X-Chain OperationTx moving the NFT `nft`, signed for by `owner`'s key, its fee paid
 * from `fee` by `payer` (none: a network without fees).
 */
function nftTransfer(nft: Utxo, fee: Utxo[] = [], owner = ewoq, payer = ewoq) {
  const op = { kind: 'NftTransferOperation' as const, input: [0], output: { groupID: 0, payload: new Uint8Array(), owners: { locktime: 0n, threshold: 1, addresses: [ewoq.shortId] } } };
  const unsigned = { vm: 'avm' as const, kind: 'OperationTx' as const, networkID: ctx.networkID, blockchainID: ctx.xChainID, outputs: [], inputs: fee.map((u) => ({ txID: u.txID, outputIndex: u.outputIndex, assetID: u.assetID, input: { kind: 'TransferInput' as const, amount: 1_000_000n, sigIndices: [0] } })), memo: new Uint8Array(), operations: [{ assetID: nft.assetID, utxoIDs: [{ txID: nft.txID, outputIndex: nft.outputIndex }], op }] };
  const digest = hashForSigning(encodeUnsignedTx(unsigned as never));
  const bytes = encodeSignedTx({ unsigned, credentials: [...fee.map(() => ({ fx: 'secp', signatures: [signDigest(payer.secret, digest)] })), { fx: 'nft', signatures: [signDigest(owner.secret, digest)] }] } as never);
  return { bytes, txID: cb58Encode(txIdBytes(bytes)) };
}

/** A signed X-Chain BaseTx spending each UTXO, each signed for by the key (or keys, a multisig) beside it. */
function xSend(spends: [Utxo, typeof ewoq | (typeof ewoq)[]][]) {
  const unsigned = { vm: 'avm' as const, kind: 'BaseTx' as const, networkID: ctx.networkID, blockchainID: ctx.xChainID, outputs: [], inputs: spends.map(([u, keys]) => ({ txID: u.txID, outputIndex: u.outputIndex, assetID: u.assetID, input: { kind: 'TransferInput' as const, amount: 1n, sigIndices: [keys].flat().map((_, i) => i) } })), memo: new Uint8Array() };
  const digest = hashForSigning(encodeUnsignedTx(unsigned as never));
  const bytes = encodeSignedTx({ unsigned, credentials: spends.map(([, keys]) => ({ fx: 'secp', signatures: [keys].flat().map((k) => signDigest(k.secret, digest)) })) } as never);
  return { bytes, txID: cb58Encode(txIdBytes(bytes)) };
}

/** A UTXO that tx `txID` created (its change, say). */
const createdBy = (txID: string, amount: bigint): Utxo => ({ ...utxo(amount), txID: cb58Decode(txID) });

describe('a UTXO read beside the txs the wallet keeps', () => {
  it('leaves out the outputs of every kept tx spending an input it lists, not only the last one kept', async () => {
    const input = utxo(5n);
    const first = pTx([input]).txID;
    const retry = pTx([input, utxo(6n)]).txID;
    const read = [input, createdBy(first, 1n), createdBy(retry, 2n), utxo(7n)];
    const engine = engineReading(read, { spendFirst: new Map([[utxoId(input), [first, retry]]]) });
    const kept = await engine.utxos('P');
    expect(kept.map((u) => utxoId(u))).toEqual([utxoId(read[0]!), utxoId(read[3]!)]);
    expect(engine.droppedUtxos.map((d) => d.reason)).toEqual(Array(2).fill('created by a transaction whose inputs the node lists as unspent'));
  });

  it("leaves out an input listed again of a tx another chain proves ran (the node calls its import accepted now), keeps that tx's change, and takes nothing back", async () => {
    const input = utxo(5n);
    const exported = pTx([input]).txID;
    const noted = new Map([[utxoId(input), exported]]);
    const spent = { spenderOf: (id: string) => noted.get(id), note: () => undefined, forget: () => undefined };
    const change = createdBy(exported, 3n);
    const ranElsewhere = new Map([[exported, { imports: [{ chain: 'P' as const, txID: pTx([utxo(9n)]).txID }], spends: [] }]]);
    const proven = engineReading([input, change], { spent, ranElsewhere }, 'Committed');
    expect((await proven.utxos('P')).map((u) => utxoId(u))).toEqual([utxoId(change)]);
    expect(proven.contradicted.size).toBe(0);
    expect(proven.droppedUtxos).toEqual([expect.objectContaining({ id: utxoId(input), reason: 'spent by a move whose funds arrived on the other chain' })]);
    // The journal's word alone (an earlier node's) proves nothing: the node now does not know the
    // import, so the tx is taken back as any other: its input counts, its change does not.
    for (const engine of [engineReading([input, change], { spent, ranElsewhere }, 'Unknown'), engineReading([input, change], { spent })]) {
      expect((await engine.utxos('P')).map((u) => utxoId(u))).toEqual([utxoId(input)]);
      expect([...engine.contradicted]).toEqual([exported]);
    }
  });

  it("leaves out an input listed again that only the move's record says its export spent (another network entry's empty spent book), once the node calls the import accepted", async () => {
    const input = utxo(5n);
    const exported = pTx([input]).txID;
    const change = createdBy(exported, 3n);
    const ranElsewhere = new Map([[exported, { imports: [{ chain: 'P' as const, txID: pTx([utxo(9n)]).txID }], spends: [utxoId(input)] }]]);
    const empty = { spenderOf: () => undefined, note: () => undefined, forget: () => undefined };
    const proven = engineReading([input, change], { spent: empty, ranElsewhere }, 'Committed');
    expect((await proven.utxos('P')).map((u) => utxoId(u))).toEqual([utxoId(change)]);
    expect(proven.contradicted.size).toBe(0);
    expect(proven.droppedUtxos).toEqual([expect.objectContaining({ id: utxoId(input), reason: 'spent by a move whose funds arrived on the other chain' })]);
    // Unproven (the node does not know the import), nothing is left out on the record's word.
    const unproven = engineReading([input, change], { spent: empty, ranElsewhere }, 'Unknown');
    expect((await unproven.utxos('P')).map((u) => utxoId(u))).toEqual([utxoId(input), utxoId(change)]);
    expect(unproven.droppedUtxos).toEqual([]);
    // The spent book naming another tx for it (a node's lie once) does not hide the record's word.
    const other = { spenderOf: () => pTx([utxo(8n)]).txID, note: () => undefined, forget: () => undefined };
    const both = engineReading([input, change], { spent: other, ranElsewhere }, 'Committed');
    expect((await both.utxos('P')).map((u) => utxoId(u))).toEqual([utxoId(change)]);
  });

  it('maps each kept input to every kept tx spending it (inputsOf)', () => {
    const shared = utxo(5n);
    const a = pTx([shared]);
    const b = pTx([shared, utxo(6n)]);
    const entry = (t: { txID: string; bytes: Uint8Array }) => ({ chain: 'P' as const, txID: t.txID, signedHex: toHex(t.bytes) });
    const ids = inputsOf([entry(a), entry(b)], () => undefined);
    expect(ids.get(utxoId(shared))).toEqual([a.txID, b.txID]);
    expect(ids.size).toBe(2);
  });
});

describe('what became of a signed tx (txFate)', () => {
  it("follows a tx that spends nothing (a network without fees) by the node's word: its inputs cannot tell", async () => {
    const { bytes, txID } = pTx([]);
    expect(await engineReading([], {}, 'Committed').txFate('P', txID, bytes)).toBe('accepted');
    expect(await engineReading([], {}, 'Processing').txFate('P', txID, bytes)).toBe('processing');
    expect(await engineReading([], {}, 'Dropped').txFate('P', txID, bytes)).toBe('failed');
    expect(await engineReading([], {}, 'Unknown').txFate('P', txID, bytes)).toBe('not-seen');
  });

  it('judges an X-Chain operation by what it consumes that the wallet signed for (an NFT, a mint right), which is not among its inputs', async () => {
    const nft = utxo(1n);
    const { bytes, txID } = nftTransfer(nft);
    const noted: string[][] = [];
    const spent = { spenderOf: () => undefined, note: (_: string, ids: readonly string[]) => void noted.push([...ids]), forget: () => undefined };
    // The NFT still listed: a claim of acceptance is no more than processing, a failure stands.
    expect(await engineReading([nft], {}, 'Accepted').txFate('X', txID, bytes)).toBe('processing');
    expect(await engineReading([nft], {}, 'Rejected').txFate('X', txID, bytes)).toBe('failed');
    // Gone: accepted on the node's word, with the NFT noted as spent by it; unclear without it.
    expect(await engineReading([], { spent }, 'Accepted').txFate('X', txID, bytes)).toBe('accepted');
    expect(noted).toEqual([[txID, utxoId(nft)]]);
    expect(await engineReading([], {}, 'Rejected').txFate('X', txID, bytes)).toBe('inputs-spent');
    // With a fee input still listed, the NFT gone (another transfer of it ran): it can never run.
    const fee = utxo(2n);
    const paid = nftTransfer(nft, [fee]);
    expect(await engineReading([fee], {}, 'Unknown').txFate('X', paid.txID, paid.bytes)).toBe('inputs-spent');
    expect(await engineReading([fee, nft], {}, 'Unknown').txFate('X', paid.txID, paid.bytes)).toBe('not-seen');
  });

  it("judges one moving a stranger's NFT (a site's swap) by the wallet's inputs alone: its reads never list that NFT, nor what its EVM key holds on X", async () => {
    const fee = utxo(2n);
    const { bytes, txID } = nftTransfer(utxo(1n), [fee], stranger);
    expect(await engineReading([fee], {}, 'Unknown').txFate('X', txID, bytes)).toBe('not-seen');
    expect(await engineReading([fee], {}, 'Rejected').txFate('X', txID, bytes)).toBe('failed');
    expect(await engineReading([fee], {}, 'Accepted').txFate('X', txID, bytes)).toBe('processing');
    expect(await engineReading([], {}, 'Accepted').txFate('X', txID, bytes)).toBe('accepted');
    const evmKeys = nftTransfer(utxo(1n), [fee], second);
    expect(await engineReading([fee], {}, 'Unknown').txFate('X', evmKeys.txID, evmKeys.bytes)).toBe('not-seen');
    // Without fee inputs (a network without fees) it spends nothing of the wallet's: the node's word.
    const free = nftTransfer(utxo(1n), [], stranger);
    expect(await engineReading([], {}, 'Unknown').txFate('X', free.txID, free.bytes)).toBe('not-seen');
    expect(await engineReading([], {}, 'Accepted').txFate('X', free.txID, free.bytes)).toBe('accepted');
  });

  it("judges a site's swap by the inputs the wallet signed: a stranger's input, which its reads never list, does not make it read spent", async () => {
    const mine = utxo(3n);
    const theirs = utxo(4n);
    const swap = xSend([[mine, ewoq], [theirs, stranger]]);
    // Refused or not seen while the user's input is unspent: before, it read "may have gone through" at once.
    expect(await engineReading([mine], {}, 'Unknown').txFate('X', swap.txID, swap.bytes)).toBe('not-seen');
    expect(await engineReading([mine], {}, 'Rejected').txFate('X', swap.txID, swap.bytes)).toBe('failed');
    expect(await engineReading([mine], {}, 'Accepted').txFate('X', swap.txID, swap.bytes)).toBe('processing');
    expect(await engineReading([], {}, 'Accepted').txFate('X', swap.txID, swap.bytes)).toBe('accepted');
    expect(await engineReading([], {}, 'Unknown').txFate('X', swap.txID, swap.bytes)).toBe('inputs-spent');
    // Signed by none of the engine's keys (a key the account no longer scans), or with signatures
    // that cannot be read: every input counts, as before.
    const unknownKey = xSend([[mine, stranger], [theirs, stranger]]);
    expect(await engineReading([mine], {}, 'Unknown').txFate('X', unknownKey.txID, unknownKey.bytes)).toBe('inputs-spent');
    expect(await engineReading([mine, theirs], {}, 'Unknown').txFate('X', unknownKey.txID, unknownKey.bytes)).toBe('not-seen');
    // The wallet's NFT, the fee paid by the other party: judged by the NFT alone.
    const nft = utxo(1n);
    const theyPay = nftTransfer(nft, [theirs], ewoq, stranger);
    expect(await engineReading([nft], {}, 'Unknown').txFate('X', theyPay.txID, theyPay.bytes)).toBe('not-seen');
    expect(await engineReading([], {}, 'Unknown').txFate('X', theyPay.txID, theyPay.bytes)).toBe('inputs-spent');
    // Our signature second of a 2-of-2's, after the other party's: the user signed for it.
    const shared = xSend([[theirs, stranger], [mine, [stranger, ewoq]]]);
    expect(await engineReading([mine], {}, 'Unknown').txFate('X', shared.txID, shared.bytes)).toBe('not-seen');
    const unreadable = pTx([mine, theirs]);
    expect(await engineReading([mine], {}, 'Unknown').txFate('P', unreadable.txID, unreadable.bytes)).toBe('inputs-spent');
  });

  it('judges the same bytes anew for another key set (each engine its own), and hands out a copy', () => {
    const mine = utxo(3n);
    const theirs = utxo(4n);
    const swap = xSend([[mine, ewoq], [theirs, stranger]]);
    const signed = decodeSignedTx(swap.bytes, 'avm');
    const ours = judgedInputIds(signed, swap.bytes, ownedAddressSet([ewoq.shortId]));
    expect(ours).toEqual([utxoId(mine)]);
    ours.push('changed by a caller');
    expect(judgedInputIds(signed, swap.bytes, ownedAddressSet([ewoq.shortId]))).toEqual([utxoId(mine)]);
    expect(judgedInputIds(signed, swap.bytes, ownedAddressSet([stranger.shortId]))).toEqual([utxoId(theirs)]);
  });

  it('ties two operations consuming the same NFT, but keeps a refused one without fee inputs out of the way of sends: none could take its place', () => {
    const nft = utxo(1n);
    const first = nftTransfer(nft);
    const entry = { chain: 'X' as const, txID: first.txID, signedHex: toHex(first.bytes) };
    expect(keptInTheWay(entry)).toBe(false);
    expect(keptInTheWay({ chain: 'X', signedHex: toHex(nftTransfer(nft, [utxo(2n)]).bytes) })).toBe(true);
    expect(inputsOf([entry], () => undefined)).toEqual(new Map([[utxoId(nft), [first.txID]]]));
    const undecided = [{ ...entry, item: {} as never, createdAt: 0, resends: 0 }];
    expect(racedBy(undecided, 'X', { inputs: [utxoId(nft)], assets: [] })).toEqual([first.txID]);
  });
});
