import { describe, expect, it } from 'vitest';
import type { AccountContext, AccountEngines } from '../../src/background/account-engines.js';
import type { Delivery } from '../../src/background/delivery.js';
import { EvmTxService } from '../../src/background/services/evm-txs.js';
import { WalletEngine } from '../../src/core/engine.js';
import { FeeLimitError, MAX_C_BASE_FEE_WEI, MAX_C_TIP_WEI } from '../../src/core/fee-limits.js';
import { keyPairFromSecret } from '../../src/core/keys.js';
import type { NodeClient } from '../../src/core/node.js';
import { signEvmTx } from '../../src/core/tx/c.js';
import type { ChainContext } from '../../src/core/tx/context.js';

const key = keyPairFromSecret(new Uint8Array(32).fill(7));
const ctx: ChainContext = { networkID: 12345, hrp: 'local', xChainID: new Uint8Array(32).fill(1), pChainID: new Uint8Array(32), cChainID: new Uint8Array(32).fill(3), avaxAssetID: new Uint8Array(32).fill(9), xTxFee: 1_000_000n, xCreateAssetTxFee: 1_000_000n };

/** A pending send of this account's at nonce 0, and a node quoting the given C fee inputs for its replacement. */
function service(baseFee: bigint, tip: bigint, call?: { gasLimit: bigint; estimate: () => Promise<bigint> }, balance = 10n ** 20n): EvmTxService {
  const node = { eth: { baseFee: async () => baseFee, maxPriorityFeePerGas: async () => tip, getTransactionCount: async () => 0n, getBalance: async () => balance, estimateGas: call?.estimate } };
  const engine = new WalletEngine(node as unknown as NodeClient, ctx, { xp: [key], evm: key, change: key.shortId }, { evmChainId: 43112n });
  const signed = signEvmTx({ chainId: 43112n, nonce: 0n, to: '0x' + '11'.repeat(20), value: 1n, gasLimit: call?.gasLimit ?? 21_000n, maxFeePerGas: 50_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n, ...(call ? { data: '0xa9059cbb' } : {}) }, key.secret);
  const entry = { chain: 'C', txID: signed.hash, signedHex: signed.rawTx.slice(2), item: { txID: signed.hash, chain: 'C', kind: 'send', status: 'pending', amount: '1', createdAt: 0 }, createdAt: 0, resends: 0 };
  const account = { engine, preset: { id: 'local' }, account: { id: 'a' } } as unknown as AccountContext;
  const engines = { open: async () => account, outbox: () => ({ list: async () => [entry] }) } as unknown as AccountEngines;
  return new EvmTxService(engines, {} as Delivery);
}

describe('speed-up and cancel take the node\'s C fee inputs within their ceilings', () => {
  it('at the ceilings a replacement is quoted; a tip or base fee above one is refused before anything is signed', async () => {
    const txHash = async (s: EvmTxService) => (await s.evmPending()).txs[0]!.txHash;
    const ok = service(MAX_C_BASE_FEE_WEI, MAX_C_TIP_WEI);
    expect(BigInt((await ok.evmEstimateReplace({ txHash: await txHash(ok), action: 'cancel' })).maxPriorityFeePerGas)).toBe(MAX_C_TIP_WEI);
    for (const [base, tip] of [[25_000_000_000n, 10n ** 15n], [MAX_C_BASE_FEE_WEI + 1n, 0n]] as const) {
      const s = service(base, tip);
      for (const action of ['speed-up', 'cancel'] as const) await expect(s.evmEstimateReplace({ txHash: await txHash(s), action })).rejects.toThrow(FeeLimitError);
    }
  });
});

describe("a speed-up's likely fee", () => {
  const txHash = async (s: EvmTxService) => (await s.evmPending()).txs[0]!.txHash;
  const quote = async (call: { gasLimit: bigint; estimate: () => Promise<bigint> }, balance?: bigint) => {
    const s = service(1n, 0n, call, balance);
    return s.evmEstimateReplace({ txHash: await txHash(s), action: 'speed-up' });
  };

  it('is at the gas the call uses (the node\'s estimate), not at its limit with room', async () => {
    const q = await quote({ gasLimit: 78_000n, estimate: async () => 52_000n });
    expect(q.gasLimit).toBe('78000');
    // The bumped fees are 55 gwei cap, 1.1 gwei tip; a base fee of 1 wei: likely price 1.1 gwei + 1 wei.
    expect(BigInt(q.likelyFee)).toBe(52_000n * (1_100_000_000n + 1n));
  });

  it('is at the limit when the node cannot estimate the call, and never above it (a node estimating more)', async () => {
    const limitFee = 78_000n * (1_100_000_000n + 1n);
    expect(BigInt((await quote({ gasLimit: 78_000n, estimate: () => Promise.reject(new Error('down')) })).likelyFee)).toBe(limitFee);
    expect(BigInt((await quote({ gasLimit: 78_000n, estimate: async () => 10n ** 9n })).likelyFee)).toBe(limitFee);
  });

  it('gives back the room over what the call uses before a low balance refuses it: the speed-up runs on less gas, never below the estimate', async () => {
    // The bumped max fee is 55 gwei; the value is 1 wei. 62,400 gas of it is what this balance pays.
    const call = { gasLimit: 78_000n, estimate: async () => 52_000n };
    expect((await quote(call, 62_400n * 55_000_000_000n + 1n)).gasLimit).toBe('62400');
    // Not even the gas the call uses fits: refused, as before.
    await expect(quote(call, 51_999n * 55_000_000_000n + 1n)).rejects.toThrow(/more than the account holds/);
  });
});
