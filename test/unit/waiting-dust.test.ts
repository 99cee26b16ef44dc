// Import now's builds against dust (src/core/waiting-funds.ts buildWaitingImports): funds someone sent in
// many tiny UTXOs land in the last imports, and an import that cannot pay its own fee from what it
// brings in is left waiting instead of holding up the real funds (or being paid from the wallet's
// balance). Atomic memory is a stand-in here: the dust needed to fill a second tx (hundreds of
// UTXOs) is built, not exported on the node; the flow on the real node is in
// test/integration/import-waiting.test.ts.
import { describe, expect, it } from 'vitest';
import { WalletEngine } from '../../src/core/engine.js';
import { buildWaitingImports } from '../../src/core/waiting-funds.js';
import { keyPairFromSecret } from '../../src/core/keys.js';
import { NodeClient } from '../../src/core/node.js';
import type { ChainContext } from '../../src/core/tx/context.js';
import { makeOwners } from '../../src/core/tx/context.js';
import type { SpendableUtxo } from '../../src/core/tx/utxos.js';

const key = keyPairFromSecret(new Uint8Array(32).fill(7));
const ctx: ChainContext = {
  networkID: 12345, hrp: 'local', xChainID: new Uint8Array(32).fill(1), pChainID: new Uint8Array(32), cChainID: new Uint8Array(32).fill(3),
  avaxAssetID: new Uint8Array(32).fill(9), xTxFee: 1_000_000n, xCreateAssetTxFee: 1_000_000n,
};
const OTHER_ASSET = new Uint8Array(32).fill(5);

function atomic(i: number, amount: bigint, assetID = ctx.avaxAssetID): SpendableUtxo {
  const txID = new Uint8Array(32);
  new DataView(txID.buffer).setUint32(0, i + 1);
  return { utxo: { txID, outputIndex: 0, assetID, output: { kind: 'TransferOutput', amount, owners: makeOwners([key.shortId]) } }, amount, sigIndices: [0] };
}

/** An engine whose atomic memory on X (from P) holds `waiting`, and whose own X balance is empty. */
function engineWith(waiting: SpendableUtxo[]): WalletEngine {
  const engine = new WalletEngine(new NodeClient({ url: 'http://127.0.0.1:9', atomicApi: { namespace: 'avax', path: '/ext/bc/C/avax' } }), ctx, { xp: [key], evm: key, change: key.shortId }, { evmChainId: 43112n });
  Object.assign(engine, {
    atomicSpendable: async (to: string, from: string) => (to === 'X' && from === 'P' ? waiting : []),
    spendable: async () => [],
  });
  return engine;
}

describe('Import now against dust', () => {
  it('1 AVAX and 600 UTXOs of 1 nAVAX: the AVAX comes in with as much dust as pays for itself; the rest is named and left', async () => {
    const dust = Array.from({ length: 600 }, (_, i) => atomic(i + 1, 1n));
    const { imports, tooSmall } = await buildWaitingImports(engineWith([...dust, atomic(0, 1_000_000_000n)]));
    expect(imports).toHaveLength(1);
    expect(imports[0]!.avax).toBeGreaterThan(1_000_000_000n);
    expect(imports[0]!.built.fee).toBe(ctx.xTxFee);
    const left = 601 - imports[0]!.built.spent.length;
    expect(left).toBeGreaterThan(0);
    expect(tooSmall).toEqual([{ to: 'X', from: 'P', utxoCount: left, amount: BigInt(left) }]);
  });

  it('only what cannot pay is left: two full txs of small UTXOs come in, a lone last one waits', async () => {
    // How many inputs fill one import tx.
    const probe = await buildWaitingImports(engineWith(Array.from({ length: 1_000 }, (_, i) => atomic(i, 10_000_000n))));
    const perTx = probe.imports[0]!.built.spent.length;
    expect(perTx).toBeLessThan(1_000);
    const small = Array.from({ length: 2 * perTx + 1 }, (_, i) => atomic(i, 600_000n));
    const { imports, tooSmall } = await buildWaitingImports(engineWith(small));
    expect(imports.map((i) => i.built.spent.length)).toEqual([perTx, perTx]);
    expect(tooSmall).toEqual([{ to: 'X', from: 'P', utxoCount: 1, amount: 600_000n }]);
    // A last tx of three that together cannot pay: the two full ones still come in.
    const three = await buildWaitingImports(engineWith(Array.from({ length: 2 * perTx + 3 }, (_, i) => atomic(i, 300_000n))));
    expect(three.imports.map((i) => i.built.spent.length)).toEqual([perTx, perTx]);
    expect(three.tooSmall).toEqual([{ to: 'X', from: 'P', utxoCount: 3, amount: 900_000n }]);
  });

  it('dust alone, with an empty balance: nothing is built, the dust is named', async () => {
    expect(await buildWaitingImports(engineWith([atomic(1, 5n), atomic(2, 7n)]))).toEqual({ imports: [], tooSmall: [{ to: 'X', from: 'P', utxoCount: 2, amount: 12n }] });
  });

  it('another asset waiting on X is imported with AVAX that pays its fee', async () => {
    const { imports } = await buildWaitingImports(engineWith([atomic(1, 2_000_000n), atomic(2, 10n, OTHER_ASSET)]));
    expect(imports.map((i) => i.built.spent.length)).toEqual([2]);
  });
});
