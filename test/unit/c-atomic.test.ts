import { describe, expect, it } from 'vitest';
import { exportNonce } from '../../src/core/c-atomic.js';
import type { NodeClient } from '../../src/core/node.js';
import { chargedGas, gasLimitFor, roomCap, signEvmTx, sizeGasFloor } from '../../src/core/tx/c.js';
import { fromHex } from '../../src/core/bytes.js';
import type { WalletError } from '../../src/core/errors.js';
import { plainError } from '../../src/popup/errors.js';

/** A node whose account has `executed` txs executed and `pending()` known to its mempool. */
function nodeWith(executed: () => bigint, pending: () => bigint): NodeClient {
  const eth = { getTransactionCount: (_: string, tag: string) => Promise.resolve(tag === 'latest' ? executed() : pending()) };
  return { eth } as unknown as NodeClient;
}

describe('chargedGas (Helicon gas floor)', () => {
  it('is the larger of the gas used and half the limit (rounded up), never above the limit', () => {
    expect(chargedGas(21_000n, 21_000n)).toBe(21_000n);
    expect(chargedGas(21_000n, 100_000n)).toBe(50_000n);
    expect(chargedGas(21_000n, 1_000_001n)).toBe(500_001n);
    expect(chargedGas(80_000n, 100_000n)).toBe(80_000n);
    expect(chargedGas(0n, 7n)).toBe(4n);
    expect(chargedGas(200_000n, 100_000n)).toBe(100_000n);
  });
});

describe('gasLimitFor (room over the node\'s estimate)', () => {
  it('signs 1.5× an estimate, which Helicon charges no more for than the estimate itself', () => {
    expect(gasLimitFor(50_000n, 30_000_000n)).toBe(75_000n);
    expect(chargedGas(50_000n, gasLimitFor(50_000n, 30_000_000n))).toBe(50_000n);
    // Rounded down: the room never takes a limit past 1.5×.
    expect(gasLimitFor(21_001n, 30_000_000n)).toBe(31_501n);
  });

  it('keeps a plain transfer at 21000: no code runs, so nothing can change what it uses', () => {
    expect(gasLimitFor(21_000n, 30_000_000n)).toBe(21_000n);
  });

  it('never passes the ceiling for the room, and never cuts an estimate below what it needs', () => {
    expect(gasLimitFor(25_000_000n, 30_000_000n)).toBe(30_000_000n);
    expect(gasLimitFor(30_000_000n, 30_000_000n)).toBe(30_000_000n);
    expect(gasLimitFor(40_000_000n, 30_000_000n)).toBe(40_000_000n);
  });
});

describe('sizeGasFloor (Helicon\'s gas-per-byte admission)', () => {
  const secret = fromHex('56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
  const call = (bytes: number, gasLimit: bigint) => ({ chainId: 43114n, nonce: 7n, to: '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC', value: 0n, data: `0x${'ab'.repeat(bytes)}`, gasLimit, maxFeePerGas: 50_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n });
  const signedSize = (req: ReturnType<typeof call>) => BigInt((signEvmTx(req, secret).rawTx.length - 2) / 2);
  const BLOCK = 80_000_000n;

  it('is what a mempool admits the signed tx with: size × block limit ≤ limit × 1.5 MiB', () => {
    for (const bytes of [0, 68, 1_000, 4_868, 100_000]) {
      const floor = sizeGasFloor(call(bytes, 21_000n), BLOCK);
      // Signed at the floor, or where it is under the calldata's own intrinsic gas, at 100,000.
      const limit = floor > 100_000n ? floor : 100_000n;
      expect(signedSize(call(bytes, limit)) * BLOCK).toBeLessThanOrEqual(floor * 1_572_864n);
      // Within a few bytes' worth of the exact least (the widest gas limit and signature are assumed).
      expect(floor - (signedSize(call(bytes, limit)) * BLOCK) / 1_572_864n).toBeLessThan(12n * 51n);
    }
  });

  it('stays under a plain transfer\'s gas for the wallet\'s own small calls, and over a tight limit for a heavy one', () => {
    expect(sizeGasFloor(call(68, 21_000n), BLOCK)).toBeLessThan(21_000n);
    // 4,868 bytes of calldata with light execution: its estimate padded 1.5× is far under the floor.
    expect(sizeGasFloor(call(4_868, 111_198n), BLOCK)).toBeGreaterThanOrEqual(253_296n);
    expect(sizeGasFloor(call(4_868, 111_198n), BLOCK * 2n)).toBeGreaterThan(2n * 253_000n);
  });
});

describe('roomCap (what the room may reach)', () => {
  it('is the gas the budget pays at the max fee per gas, when below the cap', () => {
    expect(roomCap(30_000_000n, 120_001n, 2n)).toBe(60_000n);
    expect(roomCap(50_000n, 120_001n, 2n)).toBe(50_000n);
    // A budget already spent (a value above the balance): no room, so gasLimitFor signs the bare estimate.
    expect(gasLimitFor(52_000n, roomCap(30_000_000n, -5n, 2n))).toBe(52_000n);
    // A node quoting a zero fee: the cap alone (no division by zero).
    expect(roomCap(30_000_000n, 0n, 0n)).toBe(30_000_000n);
  });
});

describe('exportNonce', () => {
  it('is the executed nonce when nothing of the account is in flight', async () => {
    expect(await exportNonce(nodeWith(() => 4n, () => 4n), '0xa')).toBe(4n);
  });

  it('waits for an EVM tx in flight to execute, then takes the executed nonce', async () => {
    let executed = 4n;
    let polls = 0;
    const node = nodeWith(() => (++polls >= 3 ? (executed = 5n) : executed), () => 5n);
    expect(await exportNonce(node, '0xa', { pollMs: 1 })).toBe(5n);
  });

  it('gives up with evm-tx-in-flight, having signed nothing, when the tx does not execute in time', async () => {
    await expect(exportNonce(nodeWith(() => 4n, () => 6n), '0xa', { waitMs: 20, pollMs: 5 })).rejects.toMatchObject({ code: 'evm-tx-in-flight' });
  });

  it('says so in words a person can read once the address is kept out of them (the Move estimate shows that sentence)', async () => {
    const address = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
    const e = (await exportNonce(nodeWith(() => 4n, () => 6n), address, { waitMs: 0, pollMs: 1 }).catch((x: unknown) => x)) as WalletError;
    const { text } = plainError(e.code, e.message);
    expect(text).toBe('Another C-Chain transaction of this account is still waiting to be executed (nonce 4 executed, 6 pending), so an export cannot be made yet; nothing was signed, try again once it has gone through');
  });
});
