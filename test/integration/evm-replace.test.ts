// Speed up and cancel on the real Helicon node: a C-Chain tx stuck in the node's pool (its fee
// below what blocks take) is replaced at its nonce, priced against the highest fees already sent
// there, and every tx at a nonce that ran settles as replaced, also across network entries and
// against a move's export waiting on the same nonce line.
import { Transaction } from 'micro-eth-signer';
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { Outbox, outboxEntry } from '../../src/background/outbox.js';
import { memoryStores } from '../../src/background/storage.js';
import { fromHex, toHex } from '../../src/core/bytes.js';
import { formatEvmAddress } from '../../src/core/evm-address.js';
import type { AccountView } from '../../src/shared/messages.js';
import { AVAX, GENESIS_KEY, genesisEngine, localNetwork, testNodeOutboxKey, WEI_PER_NAVAX } from './fixture.js';
import { lyingNode, rpcError } from './lying-node.js';
import { startBackground } from './wallet-fixture.js';

let bg: Awaited<ReturnType<typeof startBackground>> & { stores: ReturnType<typeof memoryStores> };
let account: AccountView;
let accountKey: Uint8Array;
/** Honest until a test sets a lie (a refused speed-up). */
const node = lyingNode();

describe('speed up and cancel on the node', () => {
  const genesisAddress = formatEvmAddress(GENESIS_KEY.evmAddress);

  beforeAll(async () => {
    const stores = memoryStores();
    bg = { ...(await startBackground(stores, { fetch: node.fetch })), stores };
    // An imported key, so the test can also sign as this account (the stuck txs below).
    accountKey = new Uint8Array(randomBytes(32));
    await bg.wallet.accounts.walletCreateFromKey({ password: 'replace test password', privateKey: `0x${toHex(accountKey)}`, name: 'Replace' });
    const network = await bg.wallet.networks.networksAddCustom({ name: 'Test node', url: inject('nodeUrl') });
    account = (await bg.wallet.networks.networksSelect({ id: network.id })).account!;
    await (await genesisEngine()).sendC(account.cAddress, 50n * AVAX * WEI_PER_NAVAX);
  }, 120_000);

  /**
   * A tx this account sent at a fee the chain does not take (a fee cap of 0: the node's pool holds
   * it, no block includes it), placed in the wallet's outbox as if the wallet had sent it, since the
   * wallet itself never signs below the node's fee.
   */
  async function stuckTx(value = 1n): Promise<string> {
    const { client } = await localNetwork();
    const nonce = await client.eth.getTransactionCount(account.cAddress, 'pending');
    const tx = Transaction.prepare({ type: 'eip1559', chainId: 43112n, nonce, to: genesisAddress, value, gasLimit: 21000n, maxFeePerGas: 0n, maxPriorityFeePerGas: 0n }, false).signBy(accountKey);
    const outbox = new Outbox(bg.stores.local, await testNodeOutboxKey(account.id));
    await outbox.put(outboxEntry('C', tx.hash, fromHex(tx.toHex()), { txID: tx.hash, chain: 'C', kind: 'send', status: 'pending', amount: value.toString(), to: genesisAddress, createdAt: Date.now() }));
    await client.eth.sendRawTransaction(tx.toHex());
    return tx.hash;
  }

  async function receiptOf(hash: string) {
    for (let i = 0; i < 200; i++) {
      const r = await (await localNetwork()).client.eth.getTransactionReceipt(hash);
      if (r) return r;
      await new Promise((res) => setTimeout(res, 100));
    }
    throw new Error(`no receipt for ${hash}`);
  }

  it('speeds up a stuck tx (same nonce, fees +10% at least) and cancels another; the one replaced settles as replaced', async () => {
    const stuck = await stuckTx();
    const { txs } = await bg.wallet.evm.evmPending();
    expect(txs.find((t) => t.txHash === stuck)).toMatchObject({ maxFeePerGas: '0', to: genesisAddress, valueWei: '1' });
    // Nothing else can go while it waits: the next send would take the nonce after it.
    const quote = await bg.wallet.evm.evmEstimateReplace({ txHash: stuck, action: 'speed-up' });
    expect(BigInt(quote.maxPriorityFeePerGas)).toBeGreaterThan(0n);
    await expect(bg.wallet.evm.evmReplace({ txHash: stuck, action: 'speed-up', maxFeeWei: '0' })).rejects.toMatchObject({ code: 'fee-above-approved' });
    const faster = await bg.wallet.evm.evmReplace({ txHash: stuck, action: 'speed-up', maxFeeWei: quote.maxFee });
    const r = await receiptOf(faster.txHash);
    expect(r.status).toBe(1n);
    expect(r.to?.toLowerCase()).toBe(genesisAddress.toLowerCase());
    await bg.wallet.balances.balancesRefresh();
    await bg.wallet.balances.balancesRefresh();
    let items = (await bg.wallet.balances.activityList()).items;
    expect(items.find((i) => i.txID === faster.txHash)).toMatchObject({ status: 'accepted', replaces: stuck });
    expect(items.find((i) => i.txID === stuck)).toMatchObject({ status: 'failed', replaced: true });

    const stuck2 = await stuckTx();
    const cancelQuote = await bg.wallet.evm.evmEstimateReplace({ txHash: stuck2, action: 'cancel' });
    const cancel = await bg.wallet.evm.evmReplace({ txHash: stuck2, action: 'cancel', maxFeeWei: cancelQuote.maxFee });
    const cr = await receiptOf(cancel.txHash);
    expect(cr.to?.toLowerCase()).toBe(account.cAddress.toLowerCase());
    await bg.wallet.balances.balancesRefresh();
    await bg.wallet.balances.balancesRefresh();
    items = (await bg.wallet.balances.activityList()).items;
    expect(items.find((i) => i.txID === stuck2)).toMatchObject({ status: 'failed', replaced: true });
    expect((await bg.wallet.evm.evmPending()).txs.filter((t) => t.txHash === stuck || t.txHash === stuck2)).toEqual([]);
    // The nonce line goes on after them: a plain send takes the next nonce.
    const { client } = await localNetwork();
    expect(await client.eth.getTransactionCount(account.cAddress, 'pending')).toBe(await client.eth.getTransactionCount(account.cAddress, 'latest'));

    // A send of the whole balance cannot be sped up (its higher fee no longer fits): said before a
    // review, and cancelling it still works.
    const everything = await stuckTx(await client.eth.getBalance(account.cAddress));
    await expect(bg.wallet.evm.evmEstimateReplace({ txHash: everything, action: 'speed-up' })).rejects.toMatchObject({ code: 'replacement-unaffordable' });
    const cancelAll = await bg.wallet.evm.evmEstimateReplace({ txHash: everything, action: 'cancel' });
    expect((await receiptOf((await bg.wallet.evm.evmReplace({ txHash: everything, action: 'cancel', maxFeeWei: cancelAll.maxFee })).txHash)).status).toBe(1n);
  }, 180_000);

  it('a cancel pressed on a tx already sped up is priced against the speed-up the node holds (else refused as underpriced); once it ran, the original and the speed-up both read replaced', async () => {
    const stuck = await stuckTx();
    const { client } = await localNetwork();
    // A tx queued behind the stuck one (next nonce, 50 gwei), sped up once: both are listed as waiting.
    const nonce = await client.eth.getTransactionCount(account.cAddress, 'pending');
    const tx = Transaction.prepare({ type: 'eip1559', chainId: 43112n, nonce, to: genesisAddress, value: 1n, gasLimit: 21000n, maxFeePerGas: 50_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n }, false).signBy(accountKey);
    await new Outbox(bg.stores.local, await testNodeOutboxKey(account.id)).put(outboxEntry('C', tx.hash, fromHex(tx.toHex()), { txID: tx.hash, chain: 'C', kind: 'send', status: 'pending', amount: '1', to: genesisAddress, createdAt: Date.now() }));
    await client.eth.sendRawTransaction(tx.toHex());
    const up = await bg.wallet.evm.evmEstimateReplace({ txHash: tx.hash, action: 'speed-up' });
    const sped = await bg.wallet.evm.evmReplace({ txHash: tx.hash, action: 'speed-up', maxFeeWei: up.maxFee });
    expect((await bg.wallet.evm.evmPending()).txs.map((t) => t.txHash)).toContain(tx.hash);
    const q = await bg.wallet.evm.evmEstimateReplace({ txHash: tx.hash, action: 'cancel' });
    expect(BigInt(q.maxFeePerGas)).toBeGreaterThanOrEqual((BigInt(up.maxFeePerGas) * 110n) / 100n);
    const cancel = await bg.wallet.evm.evmReplace({ txHash: tx.hash, action: 'cancel', maxFeeWei: q.maxFee });
    // The stuck one goes first (sped up), then the cancel takes the queued nonce.
    const s = await bg.wallet.evm.evmEstimateReplace({ txHash: stuck, action: 'speed-up' });
    await receiptOf((await bg.wallet.evm.evmReplace({ txHash: stuck, action: 'speed-up', maxFeeWei: s.maxFee })).txHash);
    expect((await receiptOf(cancel.txHash)).to?.toLowerCase()).toBe(account.cAddress.toLowerCase());
    // The cancel ran: the original and its speed-up (the cancel's rival only by nonce) are both replaced, neither left pending.
    await bg.wallet.balances.balancesRefresh();
    const items = (await bg.wallet.balances.activityList()).items;
    for (const h of [tx.hash, sped.txHash]) expect(items.find((i) => i.txID === h)).toMatchObject({ status: 'failed', replaced: true });
  }, 180_000);

  it('a speed-up another network entry for the same node followed to its end: back on the first, the pair reads accepted and replaced, not pending for ever', async () => {
    const stuck = await stuckTx();
    // Listed here as waiting; then sped up here, and nothing more is read here.
    await bg.wallet.balances.balancesRefresh();
    expect((await bg.wallet.balances.activityList()).items.find((i) => i.txID === stuck)).toMatchObject({ status: 'pending' });
    const quote = await bg.wallet.evm.evmEstimateReplace({ txHash: stuck, action: 'speed-up' });
    const faster = await bg.wallet.evm.evmReplace({ txHash: stuck, action: 'speed-up', maxFeeWei: quote.maxFee });
    await receiptOf(faster.txHash);
    const first = (await bg.wallet.networks.networksList()).selectedId;
    const second = await bg.wallet.networks.networksAddCustom({ name: 'Test node again', url: inject('nodeUrl') });
    await bg.wallet.networks.networksSelect({ id: second.id });
    const key = await testNodeOutboxKey(account.id);
    const waiting = async () => ((await bg.stores.local.get([key]))[key] as { txID: string }[] | undefined)?.map((e) => e.txID) ?? [];
    for (let i = 0; i < 5 && (await waiting()).some((id) => id === stuck || id === faster.txHash); i++) await bg.wallet.balances.balancesRefresh();
    expect(await waiting()).not.toContain(stuck);
    expect(await waiting()).not.toContain(faster.txHash);
    await bg.wallet.networks.networksSelect({ id: first });
    await bg.wallet.balances.balancesRefresh();
    const items = (await bg.wallet.balances.activityList()).items;
    expect(items.find((i) => i.txID === faster.txHash)).toMatchObject({ status: 'accepted' });
    expect(items.find((i) => i.txID === stuck)).toMatchObject({ status: 'failed', replaced: true });
    await bg.wallet.networks.networksRemove({ id: second.id });
  }, 180_000);

  it('a speed-up the node refused: told so, the original still waits; once a cancel of it ran, the next send goes and the refused one is never "may have gone through"', async () => {
    const stuck = await stuckTx();
    const up = await bg.wallet.evm.evmEstimateReplace({ txHash: stuck, action: 'speed-up' });
    node.lies.set('eth_sendRawTransaction', async () => rpcError('insufficient funds for gas * price + value'));
    const refused = await bg.wallet.evm.evmReplace({ txHash: stuck, action: 'speed-up', maxFeeWei: up.maxFee }).catch((e: unknown) => e);
    node.lies.delete('eth_sendRawTransaction');
    expect(refused).toMatchObject({ code: 'tx-refused', message: expect.stringMatching(/insufficient funds.*nothing was paid, and the transaction it was to replace still waits$/) });
    expect((await bg.wallet.evm.evmPending()).txs.map((t) => t.txHash)).toContain(stuck);
    const key = await testNodeOutboxKey(account.id);
    const kept = ((await bg.stores.local.get([key]))[key] as { txID: string; voided?: boolean }[]).filter((e) => e.voided).map((e) => e.txID);
    expect(kept).toHaveLength(1);
    const q = await bg.wallet.evm.evmEstimateReplace({ txHash: stuck, action: 'cancel' });
    await receiptOf((await bg.wallet.evm.evmReplace({ txHash: stuck, action: 'cancel', maxFeeWei: q.maxFee })).txHash);
    // Before any refresh: the refused speed-up (its nonce used by the cancel) does not stop the next send.
    const est = await bg.wallet.sends.sendEstimate({ chain: 'C', to: genesisAddress, amountWei: '1' });
    await receiptOf((await bg.wallet.sends.sendC({ to: genesisAddress, amountWei: '1', maxFeeWei: est.fee })).txHash);
    await bg.wallet.balances.balancesRefresh();
    const left = ((await bg.stores.local.get([key]))[key] as { txID: string }[]).map((e) => e.txID);
    expect(left).not.toContain(kept[0]);
    const items = (await bg.wallet.balances.activityList()).items;
    expect(items.find((i) => i.txID === kept[0])).toBeUndefined();
    expect(items.find((i) => i.txID === stuck)).toMatchObject({ status: 'failed', replaced: true });
  }, 180_000);

  it('one nonce line: a C-Chain export waits while an EVM tx of the account waits, and goes once it is cancelled', async () => {
    const estimate = await bg.wallet.transfers.transfersEstimate({ from: 'C', to: 'X', amount: (1n * AVAX).toString() });
    const stuck = await stuckTx();
    const maxFee = (BigInt(estimate.exportFee) * 2n + BigInt(estimate.importFee) * 2n).toString();
    const move = await bg.wallet.transfers.transfersStart({ from: 'C', to: 'X', amount: (1n * AVAX).toString(), maxFee });
    let view = (await bg.wallet.transfers.transfersList()).transfers.find((t) => t.id === move.id)!;
    for (let i = 0; i < 50 && view.paused === undefined; i++) {
      await new Promise((r) => setTimeout(r, 100));
      view = (await bg.wallet.transfers.transfersList()).transfers.find((t) => t.id === move.id)!;
    }
    // Nothing signed: the export did not take the stuck tx's nonce.
    expect(view).toMatchObject({ state: 'pending', paused: { code: 'evm-tx-in-flight' } });
    expect(view.exportTxID).toBeUndefined();
    const q = await bg.wallet.evm.evmEstimateReplace({ txHash: stuck, action: 'cancel' });
    await receiptOf((await bg.wallet.evm.evmReplace({ txHash: stuck, action: 'cancel', maxFeeWei: q.maxFee })).txHash);
    const { client } = await localNetwork();
    for (let i = 0; i < 100 && (await client.eth.getTransactionCount(account.cAddress, 'latest')) < (await client.eth.getTransactionCount(account.cAddress, 'pending')); i++) await new Promise((r) => setTimeout(r, 50));
    await bg.wallet.transfers.resumeTransfers();
    view = (await bg.wallet.transfers.transfersList()).transfers.find((t) => t.id === move.id)!;
    expect(view.state).toBe('completed');
  }, 180_000);

  it('a C-Chain send damaged in storage holds no nonce: it is offered for no speed-up, and stops no C-Chain send', async () => {
    const outbox = new Outbox(bg.stores.local, await testNodeOutboxKey(account.id));
    const hash = `0x${'ab'.repeat(32)}`;
    await outbox.put({ ...outboxEntry('C', hash, new Uint8Array(), { txID: hash, chain: 'C', kind: 'send', status: 'pending', createdAt: Date.now() }), signedHex: 'zz' });
    expect((await bg.wallet.evm.evmPending()).txs.map((t) => t.txHash)).not.toContain(hash);
    const est = await bg.wallet.sends.sendEstimate({ chain: 'C', to: genesisAddress, amountWei: '1' });
    await receiptOf((await bg.wallet.sends.sendC({ to: genesisAddress, amountWei: '1', maxFeeWei: est.fee })).txHash);
  });
});
