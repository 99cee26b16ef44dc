// What the builder tests spend: the account's address and owners, another's, and UTXOs made up one
// by one (each with a new txID), with what a built tx burns of an asset.
import { toHex } from '../../src/core/bytes.js';
import type { OutputOwners, Utxo } from '../../src/core/codec/index.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { ownedAddressSet } from '../../src/core/tx/utxos.js';
import { addr, ctx, id } from './x-test-kit.js';

export const me = addr(0x11);
export const other = addr(0x22);
export const owned = ownedAddressSet([me]);
export const mine: OutputOwners = makeOwners([me]);
export const theirs: OutputOwners = makeOwners([other]);

let nextTx = 100;
export function utxo(amount: bigint, opts: { asset?: Uint8Array; owners?: OutputOwners; stakeableUntil?: bigint } = {}): Utxo {
  const transfer = { kind: 'TransferOutput' as const, amount, owners: opts.owners ?? mine };
  return {
    txID: id(nextTx++),
    outputIndex: 0,
    assetID: opts.asset ?? ctx.avaxAssetID,
    output: opts.stakeableUntil ? { kind: 'StakeableLockOut', locktime: opts.stakeableUntil, output: transfer } : transfer,
  };
}

export function burned(tx: { inputs: { assetID: Uint8Array; input: { kind: string } }[]; outputs: { assetID: Uint8Array; output: { kind: string } }[] }, asset: Uint8Array, extraIn = 0n, extraOut = 0n): bigint {
  const sum = (xs: { assetID: Uint8Array; input?: unknown; output?: unknown }[]) =>
    xs.filter((x) => toHex(x.assetID) === toHex(asset)).reduce((s, x) => s + ((x as { input?: { amount: bigint } }).input?.amount ?? (x as { output?: { amount: bigint } }).output?.amount ?? 0n), 0n);
  return sum(tx.inputs) + extraIn - sum(tx.outputs) - extraOut;
}
