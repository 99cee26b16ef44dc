// Structural helpers over outputs and txs that several judgements share (src/core/codec/rules.ts).
import { describe, expect, it } from 'vitest';
import { utxoId } from '../../src/core/codec/ids.js';
import { lockEnd, ownInputs } from '../../src/core/codec/rules.js';
import type { Output, OutputOwners } from '../../src/core/codec/index.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { decodeChainTx } from '../../src/core/tx-fate.js';
import { ewoq, utxo } from './pvm-test-kit.js';
import { pImportTx, pTx } from './outbox-test-kit.js';

const owners = (locktime: bigint): OutputOwners => makeOwners([ewoq.shortId], 1, locktime);
const transfer = (locktime: bigint): Output => ({ kind: 'TransferOutput', amount: 5n, owners: owners(locktime) });
const vesting = (vestingEnd: bigint, ownersEnd: bigint): Output => ({ kind: 'StakeableLockOut', locktime: vestingEnd, output: { kind: 'TransferOutput', amount: 5n, owners: owners(ownersEnd) } });

describe('lockEnd', () => {
  it('is 0 for an output without locks, and the owners’ lock for a plain one', () => {
    expect(lockEnd(transfer(0n))).toBe(0n);
    expect(lockEnd(transfer(1_000n))).toBe(1_000n);
  });

  it('is the later of a vesting lock and its owners’ own lock, whichever that is', () => {
    expect(lockEnd(vesting(3_000n, 0n))).toBe(3_000n);
    expect(lockEnd(vesting(3_000n, 1_000n))).toBe(3_000n);
    // The case a classification at time 0 gets wrong: it names the vesting lock first.
    expect(lockEnd(vesting(1_000n, 3_000n))).toBe(3_000n);
  });
});

describe('ownInputs', () => {
  it('lists an X/P tx’s own inputs, not what an import brings from another chain', () => {
    const u = utxo(9_000_000n);
    expect(ownInputs(decodeChainTx('P', pTx([u]).bytes)).map(utxoId)).toEqual([utxoId(u)]);
    expect(ownInputs(decodeChainTx('P', pImportTx([utxo(9_000_000n)]).bytes))).toEqual([]);
  });
});
