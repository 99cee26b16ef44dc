// Section 1: build + sign + serialize, ours vs @avalabs/avalanchejs 5.2.0, from the same UTXOs and
// keys, plus the floor: the least work that yields the same signed bytes (serialize the unsigned
// tx, sha256 it, one signature per distinct key, append the credentials), timed on its own.
// The cases; their timing and the rows: tx-section.ts.
import { sha256 } from '@noble/hashes/sha2.js';
import {
  addTxSignatures,
  avm,
  evm,
  pvm,
  TransferableOutput as AjsTransferableOutput,
  type UnsignedTx as AjsUnsignedTx,
} from '@avalabs/avalanchejs';
import { type Bytes, equalBytes, toHex } from '../src/core/bytes.js';
import { appendCredentials, encodeUnsignedTx, sortTransferableOutputs, unsignedTxLength, type Credential, type UnsignedTx, type Utxo, type XBaseTx } from '../src/core/codec/index.js';
import { signDigest, type KeyPair } from '../src/core/keys.js';
import { built, type BuiltTx } from '../src/core/tx/built.js';
import { buildCExport } from '../src/core/tx/c.js';
import { MAX_XP_TX_SIZE, makeOwners } from '../src/core/tx/context.js';
import { fund } from '../src/core/tx/fund.js';
import { buildPImport } from '../src/core/tx/p.js';
import { type Keychain, keychainOf, type RequiredCredential, requiredCredentials, signTx, utxoLookupOf } from '../src/core/tx/sign.js';
import { ownedAddressSet, spendableUtxos, type SpendableUtxo } from '../src/core/tx/utxos.js';
import { buildXSend, type Payment } from '../src/core/tx/x.js';
import { ajsContext, ajsFeeState, ctx, KEYS, NOW, pFee, RECIPIENT, toAjsUtxo, utxoSet } from './fixtures.js';
import { type Budget, type Job } from './measure.js';

/** What signTx takes: a built tx, the credentials it needs and the keys to fill them. */
interface Prepared {
  tx: UnsignedTx;
  required: RequiredCredential[];
  keychain: Keychain;
}

/** Build + sign + serialize with our library: prepare, then signTx; returns the signed bytes. */
export function signedBy(prepare: () => Prepared): Job {
  return () => {
    const p = prepare();
    return signTx(p.tx, p.required, p.keychain).signedBytes;
  };
}

/** The tx, its credentials and the keychain, as every case hands them to signTx. */
function prepared(b: BuiltTx, keys: KeyPair[]): Prepared {
  return { tx: b.tx, required: requiredCredentials(b.tx, utxoLookupOf(b.spent)), keychain: keychainOf(keys) };
}

export interface TxCase {
  name: string;
  /** Distinct signing keys: the floor signs once per key. */
  distinctKeys: number;
  /** Everything ours does before signTx: the pool, the builder, who signs which slot, the keychain. Ours = signedBy(prepare). */
  prepare: () => Prepared;
  /** The same with avalanchejs (its signer is async); returns the signed bytes. */
  ref: Job;
  /** Serialize + sha256 + one signature per distinct key + credentials, nothing else. */
  floor: Job;
  /** Bytes of the unsigned tx: the signed bytes' credentials start here. */
  unsignedLength: number;
  /** Target for reference ÷ ours. */
  minSpeedup: number;
  budget: Budget;
  /** Size of the signed tx, bytes. */
  signedSize: number;
  note?: string;
}

/**
 * buildXSend without its 64 KiB guard, for the N = 1024 case that shows scaling past the size
 * limit: the same steps as src/core/tx/x.ts buildXSend (fund, sort outputs, built with the signed
 * size computed), only the limit handed to `built` is infinite. Checked against buildXSend at
 * N = 400 in `checkOfflineBuilder`.
 */
function buildXSendOffline(p: { pool: readonly SpendableUtxo[]; payments: Payment[]; changeOwners: ReturnType<typeof makeOwners> }): BuiltTx<XBaseTx> {
  const needs = new Map<string, bigint>();
  for (const pay of p.payments) needs.set(toHex(pay.assetID), (needs.get(toHex(pay.assetID)) ?? 0n) + pay.amount);
  const funding = fund({ pool: p.pool, needs, avaxAssetID: ctx.avaxAssetID, changeOwners: p.changeOwners, fee: () => ctx.xTxFee });
  const tx: XBaseTx = {
    vm: 'avm',
    kind: 'BaseTx',
    networkID: ctx.networkID,
    blockchainID: ctx.xChainID,
    memo: new Uint8Array(),
    outputs: sortTransferableOutputs(
      [
        ...p.payments.map((pay) => ({ assetID: pay.assetID, output: { kind: 'TransferOutput' as const, amount: pay.amount, owners: pay.owners } })),
        ...funding.change,
      ],
      'avm',
    ),
    inputs: funding.inputs,
  };
  return built(tx, funding.spent, funding.fee, Number.POSITIVE_INFINITY);
}

/** A case's floor job, and where the credentials start in its signed bytes (for signerFloorJob). */
function floorOf(tx: UnsignedTx, spent: Utxo[], keys: KeyPair[]): { floor: Job; unsignedLength: number } {
  return { floor: floorJob(tx, spent, keys), unsignedLength: unsignedTxLength(tx) };
}

/**
 * The floor job for a tx: everything our signer cannot avoid. Which key fills which credential
 * slot is worked out once, outside the timed job.
 */
function floorJob(tx: UnsignedTx, spent: Utxo[], keys: KeyPair[]): Job {
  const required = requiredCredentials(tx, utxoLookupOf(spent));
  const keyIndex = new Map<string, number>();
  const signers: KeyPair[] = [];
  const slots = required.map((cred) =>
    cred.signers.map((signer) => {
      const key = keys.find((k) => equalBytes(cred.evm ? k.evmAddress : k.shortId, signer))!;
      const hex = toHex(key.shortId);
      if (!keyIndex.has(hex)) {
        keyIndex.set(hex, signers.length);
        signers.push(key);
      }
      return keyIndex.get(hex)!;
    }),
  );
  const fx = required.map((c) => c.fx);
  return () => {
    const unsigned = encodeUnsignedTx(tx);
    const digest = sha256(unsigned);
    const sigs = signers.map((k) => signDigest(k.secret, digest));
    const credentials: Credential[] = slots.map((slot, c) => ({ fx: fx[c]!, signatures: slot.map((i) => sigs[i]!) }));
    return appendCredentials(unsigned, tx.vm, credentials);
  };
}

async function ajsSign(unsigned: AjsUnsignedTx, keys: KeyPair[]): Promise<Bytes> {
  await addTxSignatures({ unsignedTx: unsigned, privateKeys: keys.map((k) => k.secret) });
  return unsigned.getSignedTx().toBytes();
}

/** Budget by size: big cases take long per run, so fewer samples within a bounded time. */
function budgetFor(n: number): Budget {
  if (n >= 1024) return { warmup: 2, minSamples: 7, maxSamples: 40, budgetMs: 6_000 };
  if (n >= 256) return { warmup: 3, minSamples: 9, maxSamples: 80, budgetMs: 5_000 };
  if (n >= 16) return { warmup: 5, minSamples: 20, maxSamples: 300, budgetMs: 3_000 };
  return { warmup: 20, minSamples: 40, maxSamples: 600, budgetMs: 2_500 };
}

function xSendCase(n: number, keyCount: number): TxCase {
  const keys = KEYS.slice(0, keyCount);
  const utxos = utxoSet(`x send ${n}/${keyCount}`, n, keyCount);
  const ajsUtxos = utxos.map((u) => toAjsUtxo(u, 'avm'));
  const total = utxos.reduce((s, u) => s + (u.output.kind === 'TransferOutput' ? u.output.amount : 0n), 0n);
  // Everything but the fee goes to the recipient, so both libraries must spend all N UTXOs and
  // make no change: the same tx, byte for byte (checked before timing).
  const amount = total - ctx.xTxFee;
  const offline = n * 161 + 1024 > MAX_XP_TX_SIZE;

  const prepare = (): Prepared => {
    const owned = ownedAddressSet(keys.map((k) => k.shortId));
    const pool = spendableUtxos(utxos, owned, NOW);
    const payments: Payment[] = [{ assetID: ctx.avaxAssetID, amount, owners: makeOwners([RECIPIENT]) }];
    const changeOwners = makeOwners([keys[0]!.shortId]);
    const b = offline ? buildXSendOffline({ pool, payments, changeOwners }) : buildXSend({ ctx, pool, changeOwners, payments });
    return prepared(b, keys);
  };
  const ref: Job = () => {
    const unsigned = avm.newBaseTx(
      ajsContext,
      keys.map((k) => k.shortId),
      ajsUtxos,
      [AjsTransferableOutput.fromNative(ajsContext.avaxAssetID, amount, [RECIPIENT])],
      { changeAddresses: [keys[0]!.shortId], minIssuanceTime: NOW },
    );
    return ajsSign(unsigned, keys);
  };
  const sample = buildXSendOffline({
    pool: spendableUtxos(utxos, ownedAddressSet(keys.map((k) => k.shortId)), NOW),
    payments: [{ assetID: ctx.avaxAssetID, amount, owners: makeOwners([RECIPIENT]) }],
    changeOwners: makeOwners([keys[0]!.shortId]),
  });
  return {
    name: `X send, N=${n}, ${keyCount === 1 ? '1 key' : `${keyCount} keys`}`,
    distinctKeys: Math.min(n, keyCount),
    prepare,
    ref,
    ...floorOf(sample.tx, sample.spent, keys),
    minSpeedup: n >= 1024 ? 10 : 0.9,
    budget: budgetFor(n),
    signedSize: 0,
    ...(noteFor(n, keyCount, offline) ? { note: noteFor(n, keyCount, offline) } : {}),
  };
}

const TIMED_NOTE =
  'Timed, ours: spendableUtxos + the builder (buildXSend, buildPImport, buildCExport) + requiredCredentials + signTx, ' +
  'to the signed bytes; avalanchejs: its builder (avm.newBaseTx, pvm.newImportTx, evm.newExportTxFromBaseFee) + ' +
  'addTxSignatures + getSignedTx().toBytes(). Same UTXOs (theirs parsed from our encoding, untimed), same keys, and ' +
  'byte-identical signed txs, checked before timing. Payment = all inputs minus the fee, so every UTXO is spent.';
const KEYS_NOTE =
  "avalanchejs' addTxSignatures derives the public key of each of the 20 private keys on every call; ours takes " +
  'key pairs derived once (at unlock in the wallet).';
const OFFLINE_NOTE =
  'Offline, past the 64 KiB limit: ours through buildXSend minus its size guard (bench/tx-cases.ts buildXSendOffline, checked equal to buildXSend at N = 400).';

function noteFor(n: number, keyCount: number, offline: boolean): string | undefined {
  const parts = [
    ...(n === 1 && keyCount === 1 ? [TIMED_NOTE] : []),
    ...(keyCount > 1 && n === 1 ? [KEYS_NOTE] : []),
    ...(offline ? [OFFLINE_NOTE] : []),
  ];
  return parts.length > 0 ? parts.join(' ') : undefined;
}

function pImportCase(n: number): TxCase {
  const key = KEYS[0]!;
  const atomic = utxoSet(`p import ${n}`, n, 1);
  const ajsAtomic = atomic.map((u) => toAjsUtxo(u, 'pvm'));
  const prepare = (): Prepared => {
    const owned = ownedAddressSet([key.shortId]);
    const [b] = buildPImport({
      ctx,
      fee: pFee,
      pool: [],
      changeOwners: makeOwners([key.shortId]),
      source: 'X',
      atomicUtxos: spendableUtxos(atomic, owned, NOW),
      to: makeOwners([key.shortId]),
    });
    return prepared(b!, [key]);
  };
  const ref: Job = () => {
    const unsigned = pvm.newImportTx(
      {
        feeState: ajsFeeState,
        fromAddressesBytes: [key.shortId],
        utxos: ajsAtomic,
        minIssuanceTime: NOW,
        sourceChainId: ajsContext.xBlockchainID,
        toAddressesBytes: [key.shortId],
      },
      ajsContext,
    );
    return ajsSign(unsigned, [key]);
  };
  const [sample] = buildPImport({
    ctx,
    fee: pFee,
    pool: [],
    changeOwners: makeOwners([key.shortId]),
    source: 'X',
    atomicUtxos: spendableUtxos(atomic, ownedAddressSet([key.shortId]), NOW),
    to: makeOwners([key.shortId]),
  });
  return {
    name: `P import, N=${n}, 1 key`,
    distinctKeys: 1,
    prepare,
    ref,
    ...floorOf(sample!.tx, sample!.spent, [key]),
    minSpeedup: 0.9,
    budget: budgetFor(n),
    signedSize: 0,
  };
}

function cExportCase(): TxCase {
  const key = KEYS[0]!;
  const baseFeeNavax = 25n; // avalanchejs takes nAVAX per gas, we take wei
  const params = {
    ctx,
    from: key.evmAddress,
    nonce: 7n,
    balanceWei: 10n ** 18n,
    destination: 'X' as const,
    amount: 123_456_789n,
    to: makeOwners([key.shortId]),
    baseFeeWei: baseFeeNavax * 1_000_000_000n,
  };
  const prepare = (): Prepared => prepared(buildCExport(params), [key]);
  const ref: Job = () =>
    ajsSign(evm.newExportTxFromBaseFee(ajsContext, baseFeeNavax, params.amount, ajsContext.xBlockchainID, key.evmAddress, [key.shortId], params.nonce), [key]);
  const sample = buildCExport(params);
  return {
    name: 'C atomic export, 1 key',
    distinctKeys: 1,
    prepare,
    ref,
    ...floorOf(sample.tx, [], [key]),
    minSpeedup: 0.9,
    budget: budgetFor(1),
    signedSize: 0,
  };
}

export function txCases(): TxCase[] {
  const cases: TxCase[] = [];
  for (const n of [1, 16, 256, 400, 1024]) cases.push(xSendCase(n, 1));
  for (const n of [1, 16, 256, 400, 1024]) cases.push(xSendCase(n, 20));
  cases.push(pImportCase(16));
  cases.push(cExportCase());
  return cases;
}

/**
 * Runs each job once and checks all three produce the same signed bytes: the comparison is only
 * fair if both libraries did the same work. Returns a problem per case that differs.
 */
export async function checkSameBytes(c: TxCase): Promise<string | undefined> {
  const ours = signedBy(c.prepare)() as Bytes;
  const ref = (await c.ref()) as Bytes;
  const floor = c.floor() as Bytes;
  c.signedSize = ours.length;
  if (!equalBytes(ours, floor)) return `${c.name}: our signed bytes differ from the floor's`;
  if (!equalBytes(ours, ref)) return `${c.name}: avalanchejs built a different tx (${ref.length} vs ${ours.length} bytes)`;
  return undefined;
}

/** The offline builder must be buildXSend minus the guard: same tx where buildXSend works. */
export function checkOfflineBuilder(): string | undefined {
  const utxos = utxoSet('offline check', 400, 20);
  const keys = KEYS;
  const pool = spendableUtxos(utxos, ownedAddressSet(keys.map((k) => k.shortId)), NOW);
  const payments: Payment[] = [{ assetID: ctx.avaxAssetID, amount: 1_000_000_000n, owners: makeOwners([RECIPIENT]) }];
  const changeOwners = makeOwners([keys[0]!.shortId]);
  const a = encodeUnsignedTx(buildXSend({ ctx, pool, changeOwners, payments }).tx);
  const b = encodeUnsignedTx(buildXSendOffline({ pool, payments, changeOwners }).tx);
  return equalBytes(a, b) ? undefined : 'buildXSendOffline no longer matches buildXSend: update bench/tx-cases.ts';
}
