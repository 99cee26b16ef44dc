import { describe, expect, it } from 'vitest';
import { WalletEngine } from '../../src/core/engine.js';
import { FeeLimitError, MAX_C_GAS_LIMIT, MAX_P_GAS_PRICE, MAX_P_WEIGHTS } from '../../src/core/fee-limits.js';
import { keyPairFromSecret } from '../../src/core/keys.js';
import { NodeClient } from '../../src/core/node.js';
import type { ChainContext } from '../../src/core/tx/context.js';

/** A node that answers P fee look-ups with the given price and weights (nothing else is asked here). */
function nodeWithPPrice(price: bigint, weights: readonly bigint[] = [1n, 1000n, 1000n, 4n]): NodeClient {
  const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const { id, method } = JSON.parse(String(init?.body)) as { id: number; method: string };
    const result =
      method === 'platform.getFeeConfig'
        ? { weights: weights.map(Number), maxCapacity: 1_000_000, maxPerSecond: 100_000, targetPerSecond: 50_000, minPrice: 1, excessConversionConstant: 2_164_043 }
        : { capacity: 0, excess: 0, price: Number(price), timestamp: '2026-01-01T00:00:00Z' };
    return new Response(JSON.stringify({ jsonrpc: '2.0', id, result }), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return new NodeClient({ url: 'http://127.0.0.1:9', atomicApi: { namespace: 'avax', path: '/ext/bc/C/avax' }, fetch });
}

const key = keyPairFromSecret(new Uint8Array(32).fill(7));
const ctx: ChainContext = {
  networkID: 12345, hrp: 'local', xChainID: new Uint8Array(32).fill(1), pChainID: new Uint8Array(32), cChainID: new Uint8Array(32).fill(3),
  avaxAssetID: new Uint8Array(32).fill(9), xTxFee: 1_000_000n, xCreateAssetTxFee: 1_000_000n,
};
const engine = (node: NodeClient) => new WalletEngine(node, ctx, { xp: [key], evm: key, change: key.shortId }, { evmChainId: 43112n });

/** A node estimating 52,000 gas for any call, at 25 gwei, for an account holding `balance` wei; `code` at every address. */
const nodeOf = (code: string, balance = 10n ** 24n) =>
  ({ eth: { baseFee: async () => 25_000_000_000n, maxPriorityFeePerGas: async () => 0n, estimateGas: async () => 52_000n, getCode: async () => code, getBalance: async () => balance, getTransactionCount: async () => 0n } }) as unknown as NodeClient;

describe('fee inputs from the node are capped', () => {
  it('a P-Chain price at the cap is used; above it, the fee context (and so every P build) is refused', async () => {
    expect((await engine(nodeWithPPrice(MAX_P_GAS_PRICE)).pFeeContext()).gasPriceNavax).toBe(MAX_P_GAS_PRICE);
    await expect(engine(nodeWithPPrice(MAX_P_GAS_PRICE + 1n)).pFeeContext()).rejects.toBeInstanceOf(FeeLimitError);
  });

  it('P-Chain weights at their ceilings are used; one above, in any dimension, is refused, so a node cannot price a tx through them', async () => {
    expect((await engine(nodeWithPPrice(1n, MAX_P_WEIGHTS)).pFeeContext()).weights).toEqual(MAX_P_WEIGHTS);
    for (let i = 0; i < 4; i++) {
      const weights = MAX_P_WEIGHTS.map((w, j) => (j === i ? w + 1n : w));
      await expect(engine(nodeWithPPrice(1n, weights)).pFeeContext()).rejects.toThrow(FeeLimitError);
    }
    // The audit's case: a bandwidth weight of 10^12 at price 1 priced an empty BaseTx at 58,000 AVAX.
    await expect(engine(nodeWithPPrice(1n, [10n ** 12n, 1000n, 1000n, 4n])).pFeeContext()).rejects.toThrow(/bandwidth fee weight of 1000000000000/);
  });

  it("a C-Chain gas estimate at the ceiling is signed with; above it (half of a limit is charged under Helicon) the quote is refused", async () => {
    const nodeEstimating = (gas: bigint) =>
      ({ eth: { baseFee: async () => 25_000_000_000n, maxPriorityFeePerGas: async () => 0n, estimateGas: async () => gas, getCode: async () => '0x60', getBalance: async () => 10n ** 24n } }) as unknown as NodeClient;
    const call = ['0x' + '11'.repeat(20), 0n, '0xa9059cbb' + '00'.repeat(64)] as const;
    expect((await engine(nodeEstimating(MAX_C_GAS_LIMIT)).quoteC(...call)).gasLimit).toBe(MAX_C_GAS_LIMIT);
    await expect(engine(nodeEstimating(MAX_C_GAS_LIMIT + 1n)).quoteC(...call)).rejects.toThrow(FeeLimitError);
    // AVAX to a contract is priced from the estimate too.
    await expect(engine(nodeEstimating(10n ** 10n)).quoteC(call[0], 1n)).rejects.toThrow(/gas estimate of 10000000000/);
  });

  it('a call is signed with room over the estimate (1.5×), quoted at the gas it uses; a plain transfer with 21000', async () => {
    const to = '0x' + '11'.repeat(20);
    expect(await engine(nodeOf('0x60')).quoteC(to, 0n, '0xa9059cbb')).toMatchObject({ gasLimit: 78_000n, gasUse: 52_000n });
    // AVAX to a contract runs its code: the same room.
    expect(await engine(nodeOf('0x60')).quoteC(to, 1n)).toMatchObject({ gasLimit: 78_000n, gasUse: 52_000n });
    expect(await engine(nodeOf('0x')).quoteC(to, 1n)).toMatchObject({ gasLimit: 21_000n, gasUse: 21_000n });
  });

  it('the room is only what the balance left beside the value pays (the node takes a tx only then), and at signing what the approved fee pays', async () => {
    const to = '0x' + '11'.repeat(20);
    // maxFeePerGas = 2 × 25 gwei: 60,000 gas × 50 gwei is 3 mAVAX.
    const afford = (gas: bigint) => gas * 50_000_000_000n;
    expect(await engine(nodeOf('0x60', afford(60_000n) + 5n)).quoteC(to, 5n)).toMatchObject({ gasLimit: 60_000n, gasUse: 52_000n });
    // Not even the estimate fits: the bare estimate, as before (the send is then refused as unaffordable).
    expect(await engine(nodeOf('0x60', afford(40_000n))).quoteC(to, 0n, '0xa9059cbb')).toMatchObject({ gasLimit: 52_000n });
    // Signing within an approved fee of 70,000 gas: the room stops there rather than the send being refused.
    expect(await engine(nodeOf('0x60')).quoteC(to, 0n, '0xa9059cbb', afford(70_000n))).toMatchObject({ gasLimit: 70_000n });
    await expect(engine(nodeOf('0x60')).signC(to, 0n, '0xa9059cbb', { maxFeeWei: afford(70_000n) })).resolves.toMatchObject({ maxFeeWei: afford(70_000n) });
    await expect(engine(nodeOf('0x60')).signC(to, 0n, '0xa9059cbb', { maxFeeWei: afford(51_999n) })).rejects.toThrow(/above the approved maximum/);
  });
});
