// What Helicon (avalanchego v1.15) changed for the wallet, checked on the real node: the network
// runs Helicon, atomic C-Chain txs are found only once executed and an unexecuted one is judged by
// its inputs, exports carry the last executed nonce, and an EVM tx pays at least half its gas limit.
import { describe, expect, inject, it } from 'vitest';
import { TransferJournal } from '../../src/background/transfer-journal.js';
import { TransferRunner } from '../../src/background/transfer-runner.js';
import { memoryStores } from '../../src/background/storage.js';
import { decodeSignedTx } from '../../src/core/codec/index.js';
import type { CExportTx, CImportTx } from '../../src/core/codec/types.js';
import { WalletEngine } from '../../src/core/engine.js';
import { heliconActiveAt, LOCAL, stakingRulesFor } from '../../src/core/network.js';
import { NodeClient } from '../../src/core/node.js';
import { InsufficientFundsError } from '../../src/core/errors.js';
import { eip1559Fees, signEvmTx } from '../../src/core/tx/c.js';
import { AVAX, freshWallet, localNetwork, type TestWallet, WEI_PER_NAVAX } from './fixture.js';
import { TEST_NETWORK_ID } from './node-harness.js';

async function rpc(path: string, method: string, params: unknown): Promise<unknown> {
  const res = await fetch(inject('nodeUrl') + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await res.json()) as { result: unknown }).result;
}

/** The same keys with a wait of `timeoutMs`. */
async function impatientEngine(w: TestWallet, timeoutMs: number): Promise<WalletEngine> {
  const net = await localNetwork();
  return new WalletEngine(net.client, net.ctx, { xp: [...w.receive, ...w.change], evm: w.evm, change: w.change[0]!.shortId }, {
    evmChainId: BigInt(net.identity.evmChainID),
    wait: { timeoutMs, pollMs: 100 },
  });
}

/** Sends a plain EIP-1559 transfer without waiting for it; returns its hash. */
async function sendEvmNoWait(w: TestWallet, to: string, valueWei: bigint, gasLimit = 21_000n): Promise<string> {
  const eth = w.engine.node.eth;
  const [nonce, baseFee, tip] = await Promise.all([eth.getTransactionCount(w.engine.evmAddress, 'pending'), eth.baseFee(), eth.maxPriorityFeePerGas()]);
  const net = await localNetwork();
  const signed = signEvmTx({ chainId: BigInt(net.identity.evmChainID), nonce, to, value: valueWei, gasLimit, ...eip1559Fees(baseFee, tip) }, w.evm.secret);
  return eth.sendRawTransaction(signed.rawTx);
}

describe('the test node runs Helicon', () => {
  it('is avalanchego 1.15 on the custom test network, with Helicon active since genesis', async () => {
    expect(await rpc('/ext/info', 'info.getNodeVersion', {})).toMatchObject({ version: 'avalanchego/1.15.0' });
    expect(await rpc('/ext/info', 'info.getNetworkID', {})).toEqual({ networkID: String(TEST_NETWORK_ID) });
    const upgrades = (await rpc('/ext/info', 'info.upgrades', {})) as { heliconTime: string };
    expect(Date.parse(upgrades.heliconTime)).toBeLessThanOrEqual(Date.now());
    // The wallet's own read of it, which the staking rules of a custom network follow.
    const heliconTime = await (await localNetwork()).client.info.heliconTime();
    expect(heliconTime).toBe(BigInt(Date.parse(upgrades.heliconTime) / 1000));
    expect(heliconActiveAt(stakingRulesFor(777, heliconTime), BigInt(Math.floor(Date.now() / 1000)))).toBe(true);
  });
});

describe('atomic C-Chain txs under async execution', () => {
  it('an import the node never saw waits while its UTXOs wait; once another import spends them it is told apart as never to be accepted', async () => {
    const w = await freshWallet({ x: 3n * AVAX });
    await w.engine.issueAndWait(await w.engine.buildExport('X', 'C', 2n * AVAX));
    const [unsent] = await w.engine.buildImports('C', 'X');
    const first = w.engine.sign(unsent!);
    // Not found by the node, and its inputs are still in atomic memory: it may yet go through.
    expect(await w.engine.txState('C', first.txID)).toBe('unknown');
    expect(await w.engine.txFate('C', first.txID, first.signedBytes)).toBe('not-seen');

    // Another import of the same UTXOs (1 nAVAX more burned, so another ID) goes through.
    const tx = unsent!.tx as CImportTx;
    const rebuilt = { ...unsent!, tx: { ...tx, outs: [{ ...tx.outs[0]!, amount: tx.outs[0]!.amount - 1n }] }, fee: unsent!.fee + 1n };
    const second = await w.engine.issueAndWait(rebuilt);
    expect(second.txID).not.toBe(first.txID);
    expect(await w.engine.txState('C', second.txID)).toBe('accepted');
    // The first can never be accepted now, and that is said, not waited for forever.
    expect(await w.engine.txFate('C', first.txID, first.signedBytes)).toBe('inputs-spent');
  });

  it('an export signed on a nonce that another tx then took is told apart as never to be accepted', async () => {
    const w = await freshWallet({ cWei: 3n * AVAX * WEI_PER_NAVAX });
    const exported = w.engine.sign(await w.engine.buildExport('C', 'X', 1n * AVAX));
    expect(await w.engine.txFate('C', exported.txID, exported.signedBytes)).toBe('not-seen');
    await w.engine.sendC(w.engine.evmAddress, 1n); // takes the export's nonce
    expect(await w.engine.txFate('C', exported.txID, exported.signedBytes)).toBe('inputs-spent');
  });

  it('an export right after an EVM send carries the last executed nonce: it waits for the send to execute, then goes through', async () => {
    const w = await freshWallet({ cWei: 3n * AVAX * WEI_PER_NAVAX });
    const eth = w.engine.node.eth;
    const before = await eth.getTransactionCount(w.engine.evmAddress, 'latest');
    await sendEvmNoWait(w, '0x0000000000000000000000000000000000000001', 1n);
    const exported = await w.engine.issueAndWait(await w.engine.buildExport('C', 'X', 1n * AVAX));
    const nonce = (decodeSignedTx(exported.signedBytes, 'evm').unsigned as CExportTx).ins[0]!.nonce;
    expect(nonce).toBe(before + 1n);
    expect(await eth.getTransactionCount(w.engine.evmAddress, 'latest')).toBe(before + 2n);
  });

  it('an export waiting for an EVM tx of the same key made elsewhere is built from the balance that tx left: not enough funds, nothing signed', async () => {
    const w = await freshWallet({ cWei: 10n * AVAX * WEI_PER_NAVAX });
    const net = await localNetwork();
    // The same keys through a node whose first nonce question is answered only once another wallet
    // of the same key has spent 6 of the 10 AVAX (sent, then executed).
    let spendFirst: (() => Promise<void>) | undefined = async () => {
      await sendEvmNoWait(w, '0x000000000000000000000000000000000000dEaD', 6n * AVAX * WEI_PER_NAVAX);
      for (let i = 0; i < 300 && (await w.engine.cBalanceWei()) > 4n * AVAX * WEI_PER_NAVAX; i++) await new Promise((r) => setTimeout(r, 50));
    };
    const client = new NodeClient({
      url: inject('nodeUrl'),
      atomicApi: LOCAL.atomicApi,
      fetch: async (input, init) => {
        const run = spendFirst;
        if (run && typeof init.body === 'string' && init.body.includes('"eth_getTransactionCount"')) {
          spendFirst = undefined;
          await run();
        }
        return fetch(input, init);
      },
    });
    const engine = new WalletEngine(client, net.ctx, { xp: [...w.receive, ...w.change], evm: w.evm, change: w.change[0]!.shortId }, { evmChainId: BigInt(net.identity.evmChainID) });
    await expect(engine.buildExport('C', 'X', 5n * AVAX)).rejects.toBeInstanceOf(InsufficientFundsError);
  });

  it('a move whose import is not executed when the wait ends stays journaled and completes exactly once on resume', async () => {
    const w = await freshWallet({ x: 5n * AVAX });
    const stores = memoryStores();
    const journal = new TransferJournal(stores.local, 'transfers:helicon');
    const impatient = new TransferRunner(await impatientEngine(w, 1), journal);
    const record = await impatient.begin('X', 'C', 2n * AVAX);
    // The export is X-Chain; the import is the atomic C-Chain tx that the 1 ms wait cannot see executed.
    const first = await impatient.run(record).catch((e: unknown) => e);
    expect(first).toMatchObject({ code: expect.stringMatching(/^(tx-processing|timeout)$/) });
    const journaled = (await journal.list())[0]!;
    expect(['export-signed', 'export-accepted', 'import-signed']).toContain(journaled.state);

    const cBefore = await w.engine.cBalanceWei();
    const [done] = await new TransferRunner(w.engine, journal).resumeAll();
    expect(done!.state).toBe('completed');
    expect(done!.imports.filter((i) => i.accepted)).toHaveLength(1);
    const importFee = BigInt(done!.imports[0]!.fee);
    expect(await w.engine.cBalanceWei()).toBe(cBefore + (2n * AVAX - importFee) * WEI_PER_NAVAX);
    expect(await w.engine.atomicSpendable('C', 'X')).toHaveLength(0);
  });
});

describe('EVM fees under the Helicon gas floor', () => {
  it('a plain transfer with a gas limit of 100,000 is charged 50,000 gas (half the limit), and the fee charged is gasUsed × effectiveGasPrice', async () => {
    const w = await freshWallet({ cWei: 2n * AVAX * WEI_PER_NAVAX });
    const eth = w.engine.node.eth;
    const before = await eth.getBalance(w.engine.evmAddress);
    const hash = await sendEvmNoWait(w, '0x0000000000000000000000000000000000000002', 5n, 100_000n);
    const outcome = await w.engine.waitAccepted('C', hash);
    const receipt = outcome.receipt!;
    expect(receipt.gasUsed).toBe(50_000n);
    expect(before - (await eth.getBalance(w.engine.evmAddress))).toBe(5n + receipt.gasUsed * receipt.effectiveGasPrice!);
  });
});
