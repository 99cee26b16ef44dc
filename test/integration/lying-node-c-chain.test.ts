// The wallet service behind a node that lies about a C-Chain send (an error for a tx it passed on, a
// swallowed or held tx, a nonce or receipt made up): paid once, nothing signed on a lie, the user told.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, inject, it } from 'vitest';
import { fromHex, toHex } from '../../src/core/bytes.js';
import { PLAIN_TRANSFER_GAS } from '../../src/core/tx/c.js';
import { AVAX, freshWallet, WEI_PER_NAVAX } from './fixture.js';
import { lyingNode, moveUntilDone, refreshUntilDecided, rpcError, rpcResult } from './lying-node.js';
import { errorAfterForward } from './lying-node-sends.js';
import { fundedWallet } from './wallet-fixture.js';

/** The hash an eth_sendRawTransaction call's tx has (what an honest node would answer). */
const keccakOfRaw = (call: { params: unknown }): string => `0x${toHex(keccak_256(fromHex((call.params as string[])[0]!.slice(2))))}`;

describe('a node that lies about a C-Chain send', () => {
  async function cWallet(options: Parameters<typeof fundedWallet>[1]) {
    const f = await fundedWallet({}, options);
    await f.genesis.sendC(f.account.cAddress, 5n * AVAX * WEI_PER_NAVAX);
    const bob = await freshWallet();
    const est = await f.wallet.sends.sendEstimate({ chain: 'C', to: bob.engine.evmAddress, amountWei: (AVAX * WEI_PER_NAVAX).toString() });
    const send = () => f.wallet.sends.sendC({ to: bob.engine.evmAddress, amountWei: (AVAX * WEI_PER_NAVAX).toString(), maxFeeWei: est.fee });
    return { ...f, bob, send };
  }

  it('eth_sendRawTransaction answers an error but the tx went through: not reported failed, the recipient paid once', async () => {
    const node = lyingNode();
    const { wallet, bob, send } = await cWallet({ fetch: node.fetch, wait: { timeoutMs: 5_000, pollMs: 100 } });
    node.lies.set('eth_sendRawTransaction', errorAfterForward);
    const sent = await send();
    expect((await wallet.balances.activityList()).items.find((i) => i.txID === sent.txHash)).toMatchObject({ kind: 'send', chain: 'C', status: 'accepted' });
    // The fee listed is what the receipt charged, not the most it could have cost.
    expect(BigInt(sent.fee)).toBeLessThan(PLAIN_TRANSFER_GAS * 2n * (await bob.engine.node.eth.baseFee()) + 1n);
    expect(await bob.engine.cBalanceWei()).toBe(AVAX * WEI_PER_NAVAX);
  });

  it('a swallowed C-Chain send stays pending, then a refresh sends the same tx again: paid exactly once', async () => {
    const node = lyingNode();
    const { wallet, bob, send } = await cWallet({ fetch: node.fetch, wait: { timeoutMs: 2_000, pollMs: 100 } });
    node.lies.set('eth_sendRawTransaction', (call) => Promise.resolve(rpcResult(keccakOfRaw(call))));
    const sent = await send();
    const item = async () => (await wallet.balances.activityList()).items.find((i) => i.txID === sent.txHash);
    expect(await item()).toMatchObject({ status: 'pending' });
    node.lies.clear();
    expect(await refreshUntilDecided(wallet, sent.txHash)).toBe('accepted');
    expect(await bob.engine.cBalanceWei()).toBe(AVAX * WEI_PER_NAVAX);
    // Accepted on a refresh: listed with what its receipt charged, no longer the most it could cost.
    const receipt = (await bob.engine.node.eth.getTransactionReceipt(sent.txHash))!;
    const paid = receipt.gasUsed * receipt.effectiveGasPrice!;
    expect(paid).toBeLessThan(BigInt(sent.fee));
    expect((await item())?.fee).toBe(paid.toString());
  });

  it('a swallowed C-Chain send another entry for the same node then followed to its end: back on the first, it is listed accepted, not pending for ever', async () => {
    const node = lyingNode();
    const { wallet, bob, send } = await cWallet({ fetch: node.fetch, wait: { timeoutMs: 2_000, pollMs: 100 } });
    node.lies.set('eth_sendRawTransaction', (call) => Promise.resolve(rpcResult(keccakOfRaw(call))));
    const sent = await send();
    node.lies.clear();
    const first = (await wallet.networks.networksList()).selectedId;
    const second = await wallet.networks.networksAddCustom({ name: 'Test node again', url: inject('nodeUrl') });
    await wallet.networks.networksSelect({ id: second.id });
    // The second entry's refreshes list it, send the same bytes again and see them accepted: out of the outbox.
    await wallet.balances.balancesRefresh();
    expect(await refreshUntilDecided(wallet, sent.txHash)).toBe('accepted');
    await wallet.networks.networksSelect({ id: first });
    expect(await refreshUntilDecided(wallet, sent.txHash)).toBe('accepted');
    expect(await bob.engine.cBalanceWei()).toBe(AVAX * WEI_PER_NAVAX);
  });

  /** A node that keeps the raw tx and answers an error (as if refused), then can let it go later. */
  function holdingNode(node: ReturnType<typeof lyingNode>) {
    let held: string | undefined;
    node.lies.set('eth_sendRawTransaction', (call) => {
      held ??= (call.params as string[])[0];
      return Promise.resolve(rpcError('txpool is full'));
    });
    return {
      release: async () => {
        const r = await fetch(`${inject('nodeUrl')}/ext/bc/C/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [held] }) });
        return (await r.json()) as { result?: string; error?: { message: string } };
      },
    };
  }

  /** A C-Chain send the node "refused" but holds (holdingNode); the node is honest afterwards. */
  async function refusedButHeld() {
    const node = lyingNode();
    const funded = await cWallet({ fetch: node.fetch, wait: { timeoutMs: 10_000, pollMs: 100 } });
    const holder = holdingNode(node);
    const refused = await funded.send().catch((e: unknown) => e);
    node.lies.clear();
    return { ...funded, holder, refused };
  }

  it('a send the node "refused" but held: the retry takes its nonce, so when the node lets it go only one of the two runs', async () => {
    const { bob, send, holder, refused } = await refusedButHeld();
    expect(refused).toMatchObject({ code: 'tx-refused', message: expect.stringMatching(/your next C-Chain send takes its place/) });
    await send();
    expect(await bob.engine.cBalanceWei()).toBe(AVAX * WEI_PER_NAVAX);
    // The held tx, let go now, carries a nonce the retry already used.
    expect((await holder.release()).error?.message).toMatch(/nonce too low/i);
    expect(await bob.engine.cBalanceWei()).toBe(AVAX * WEI_PER_NAVAX);
  });

  it('a "refused" send the node lets go before the retry: the retry is stopped with that news, and it is listed as accepted', async () => {
    const { wallet, bob, send, holder, refused } = await refusedButHeld();
    expect(refused).toMatchObject({ code: 'tx-refused' });
    const hash = (await holder.release()).result!;
    for (let i = 0; i < 100 && (await bob.engine.cBalanceWei()) === 0n; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await bob.engine.cBalanceWei()).toBe(AVAX * WEI_PER_NAVAX);
    await expect(send()).rejects.toMatchObject({ code: 'earlier-send-went-through' });
    expect(await bob.engine.cBalanceWei()).toBe(AVAX * WEI_PER_NAVAX);
    expect((await wallet.balances.activityList()).items.find((i) => i.txID === hash)).toMatchObject({ status: 'accepted', kind: 'send' });
    // Said once: the next send goes out. Under Helicon's async execution the balance may trail the
    // send's acceptance by a moment: waited for, then it must be exactly two payments, not three.
    await send();
    for (let i = 0; i < 100 && (await bob.engine.cBalanceWei()) < 2n * AVAX * WEI_PER_NAVAX; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await bob.engine.cBalanceWei()).toBe(2n * AVAX * WEI_PER_NAVAX);
  });

  it('a move from the C-Chain next takes its nonce: the held send then cannot run, is never listed as "may have gone through", and the next send goes out', async () => {
    const { wallet, bob, send, holder, refused } = await refusedButHeld();
    expect(refused).toMatchObject({ code: 'tx-refused' });
    expect(await moveUntilDone(wallet, 'C', 'X', AVAX)).toBe('completed');
    expect((await holder.release()).error?.message).toMatch(/nonce too low/i);
    await wallet.balances.balancesRefresh();
    expect((await wallet.balances.activityList()).items.filter((i) => i.kind === 'send')).toEqual([]);
    await send();
    expect(await bob.engine.cBalanceWei()).toBe(AVAX * WEI_PER_NAVAX);
  });

  it('a pending nonce below the ones the account has used: nothing is signed, nothing paid, the user is told', async () => {
    const node = lyingNode();
    const { bob, send } = await cWallet({ fetch: node.fetch, wait: { timeoutMs: 10_000, pollMs: 100 } });
    await send();
    expect(await bob.engine.cBalanceWei()).toBe(AVAX * WEI_PER_NAVAX);
    node.lies.set('eth_getTransactionCount', async (call, forward) => {
      const body = await forward();
      return (call.params as string[])[1] === 'pending' ? rpcResult(`0x${(BigInt(body.result as string) - 1n).toString(16)}`) : body;
    });
    const sentBefore = node.calls.filter((m) => m === 'eth_sendRawTransaction').length;
    const error = await send().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'node-response', message: expect.stringMatching(/offers nonce \d+ for an account that has already used \d+ nonces/) });
    expect(node.calls.filter((m) => m === 'eth_sendRawTransaction')).toHaveLength(sentBefore);
    expect(await bob.engine.cBalanceWei()).toBe(AVAX * WEI_PER_NAVAX);
  });
  it('a pending nonce past the ones used (a gap only a held tx could fill): nothing is signed, the user is told', async () => {
    const node = lyingNode();
    const { bob, send } = await cWallet({ fetch: node.fetch, wait: { timeoutMs: 10_000, pollMs: 100 } });
    node.lies.set('eth_getTransactionCount', async (call, forward) => {
      const body = await forward();
      return (call.params as string[])[1] === 'pending' ? rpcResult(`0x${(BigInt(body.result as string) + 1n).toString(16)}`) : body;
    });
    const error = await send().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'evm-nonce-gap', message: expect.stringMatching(/waiting that this wallet did not send/) });
    expect(node.calls).not.toContain('eth_sendRawTransaction');
    expect(await bob.engine.cBalanceWei()).toBe(0n);
  });

  it('a node that overstated the nonces used made the wallet sign past a gap: with the node honest, the next send fills the gap, so both run and neither waits for ever', async () => {
    const node = lyingNode();
    const { wallet, bob, send } = await cWallet({ fetch: node.fetch, wait: { timeoutMs: 2_000, pollMs: 100 } });
    const overstated = async (_call: unknown, forward: () => Promise<{ result?: unknown }>) => rpcResult(`0x${(BigInt((await forward()).result as string) + 1n).toString(16)}`);
    node.lies.set('eth_getTransactionCount', overstated);
    const past = await send();
    expect((await wallet.balances.activityList()).items.find((i) => i.txID === past.txHash)).toMatchObject({ status: 'pending' });
    node.lies.clear();
    await send();
    expect(await refreshUntilDecided(wallet, past.txHash)).toBe('accepted');
    expect(await bob.engine.cBalanceWei()).toBe(2n * AVAX * WEI_PER_NAVAX);
  });

  it('the gap such a node left is filled by a move from the C-Chain too (its export takes the next nonce), not held back for ever behind the send waiting past it', async () => {
    const node = lyingNode();
    const { wallet, bob, send } = await cWallet({ fetch: node.fetch, wait: { timeoutMs: 2_000, pollMs: 100 } });
    node.lies.set('eth_getTransactionCount', async (_call, forward) => rpcResult(`0x${(BigInt((await forward()).result as string) + 1n).toString(16)}`));
    const past = await send();
    node.lies.clear();
    expect(await moveUntilDone(wallet, 'C', 'X', AVAX)).toBe('completed');
    expect(await refreshUntilDecided(wallet, past.txHash)).toBe('accepted');
    expect(await bob.engine.cBalanceWei()).toBe(AVAX * WEI_PER_NAVAX);
  });

  it('a receipt faked as reverted does not make the send "failed" (a retry could pay twice): it stays unclear, and is accepted once the node is honest', async () => {
    const node = lyingNode();
    const { wallet, bob, send } = await cWallet({ fetch: node.fetch, wait: { timeoutMs: 10_000, pollMs: 100 } });
    node.lies.set('eth_getTransactionReceipt', async (_call, forward) => {
      const body = await forward();
      return body.result ? { ...body, result: { ...(body.result as object), status: '0x0' } } : body;
    });
    const sent = await send();
    const item = async () => (await wallet.balances.activityList()).items.find((i) => i.txID === sent.txHash);
    expect(await item()).toMatchObject({ status: 'pending' });
    expect(await bob.engine.cBalanceWei()).toBe(AVAX * WEI_PER_NAVAX);
    node.lies.clear();
    await wallet.balances.balancesRefresh();
    expect(await item()).toMatchObject({ status: 'accepted' });
  });
});
