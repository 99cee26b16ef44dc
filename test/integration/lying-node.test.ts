// The wallet service behind a node that lies (test/integration/lying-node.ts), checked against the
// real node afterwards: nothing paid twice, nothing signed on a lie, the user told in words.
// X sends it holds back: lying-node-held-x.test.ts, lying-node-held-move.test.ts; C-Chain sends:
// lying-node-c-chain.test.ts.
import { describe, expect, inject, it } from 'vitest';
import { memoryStores } from '../../src/background/storage.js';
import { generateMnemonic } from '../../src/core/keys.js';
import { AVAX, avaxOf, freshWallet } from './fixture.js';
import { hang, type Lie, lyingNode, refreshUntilDecided, rpcError, rpcResult } from './lying-node.js';
import { errorAfterForward, swallow } from './lying-node-sends.js';
import { fundedWallet, PASSWORD, startBackground } from './wallet-fixture.js';

async function payOnce(chain: 'X' | 'P', issueMethod: string, lie: Lie) {
  const node = lyingNode();
  const { wallet, ctx, avax } = await fundedWallet({ x: 10n * AVAX, p: 10n * AVAX }, { fetch: node.fetch, wait: { timeoutMs: 3_000, pollMs: 100 } });
  const bob = await freshWallet();
  const to = { addresses: [bob.engine.addresses(chain)[0]!], threshold: 1 };
  node.lies.set(issueMethod, lie);
  const fee = chain === 'X' ? ctx.xTxFee.toString() : (await wallet.sends.sendEstimate({ chain: 'P', amount: AVAX.toString(), to })).fee;
  const sent = chain === 'X' ? await wallet.sends.sendX({ assetID: avax, amount: AVAX.toString(), to, maxFee: fee }) : await wallet.sends.sendP({ amount: AVAX.toString(), to, maxFee: fee });
  return { node, wallet, bob, sent };
}

describe('a node that lies about issuing', () => {
  for (const [chain, method] of [['X', 'avm.issueTx'], ['P', 'platform.issueTx']] as const) {
    it(`${chain}: issueTx answers an error but the tx went through — the send is not reported failed, and the recipient is paid once`, async () => {
      const { wallet, bob, sent } = await payOnce(chain, method, errorAfterForward);
      const item = (await wallet.balances.activityList()).items.find((i) => i.txID === sent.txID);
      expect(item).toMatchObject({ kind: 'send', status: 'accepted' });
      expect(await avaxOf(bob.engine, chain)).toBe(AVAX);
    });
  }

  it('X: a swallowed send stays pending, then the refresh sends the same bytes again — paid exactly once', async () => {
    const { node, wallet, bob, sent } = await payOnce('X', 'avm.issueTx', swallow);
    expect((await wallet.balances.activityList()).items.find((i) => i.txID === sent.txID)).toMatchObject({ status: 'pending' });
    expect(await avaxOf(bob.engine, 'X')).toBe(0n);
    // The node is honest again: a refresh finds the tx unknown with its inputs unspent, and re-sends it.
    node.lies.clear();
    expect(await refreshUntilDecided(wallet, sent.txID)).toBe('accepted');
    expect(node.calls.filter((m) => m === 'avm.issueTx')).toHaveLength(2);
    expect(await avaxOf(bob.engine, 'X')).toBe(AVAX);
    // Nothing more is sent once it is decided.
    await wallet.balances.balancesRefresh();
    expect(node.calls.filter((m) => m === 'avm.issueTx')).toHaveLength(2);
  });

  it('X: a refusal while the node knows nothing of the tx and what it spends is unspent is a refusal — told in words, nothing paid, nothing listed', async () => {
    const node = lyingNode();
    const { wallet, ctx, avax } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch });
    const bob = await freshWallet();
    node.lies.set('avm.issueTx', () => Promise.resolve(rpcError('mempool full')));
    const error = await wallet
      .sends.sendX({ assetID: avax, amount: AVAX.toString(), to: { addresses: [bob.engine.addresses('X')[0]!], threshold: 1 }, maxFee: ctx.xTxFee.toString() })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'tx-refused', message: expect.stringMatching(/refused the transaction \[node: .*mempool full.*\]; nothing was paid, and your next X-Chain send takes its place/) });
    expect((await wallet.balances.activityList()).items.filter((i) => i.kind === 'send')).toEqual([]);
    expect(await avaxOf(bob.engine, 'X')).toBe(0n);
  });
});

describe('a node that corrupts UTXOs', () => {
  it('a UTXO with a bad checksum is not counted, and the user is told so in words (not a silent zero)', async () => {
    const node = lyingNode();
    const { wallet, avax } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch });
    const xAvax = (view: { balances: { chain: string; assetID: string; spendable: string }[] }) => view.balances.find((b) => b.chain === 'X' && b.assetID === avax)?.spendable ?? '0';
    expect(xAvax(await wallet.balances.balancesRefresh())).toBe((10n * AVAX).toString());
    // Every X UTXO the node sends has its last checksum byte flipped.
    node.lies.set('avm.getUTXOs', async (_call, forward) => {
      const body = await forward();
      const result = body.result as { utxos: string[] };
      return { ...body, result: { ...result, utxos: result.utxos.map((u) => u.slice(0, -2) + (u.endsWith('00') ? '01' : '00')) } };
    });
    const view = await wallet.balances.balancesRefresh();
    expect(xAvax(view)).toBe('0');
    expect(view.warnings).toEqual([expect.stringMatching(/^The node sent 1 entry for the X-Chain that the wallet could not check \(its checksum or encoding is wrong\): not counted in these balances\.$/)]);
    node.lies.clear();
    const honest = await wallet.balances.balancesRefresh();
    expect(xAvax(honest)).toBe((10n * AVAX).toString());
    expect(honest.warnings).toBeUndefined();
  });
});

describe('a node that lies about atomic memory', () => {
  it('an empty atomic-memory read leaves a move waiting, not done; once the node is honest it imports once', async () => {
    const node = lyingNode();
    const { wallet, avax } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch });
    // Every read of atomic memory (getUTXOs with a source chain) answers "nothing there".
    node.lies.set('platform.getUTXOs', async (call, forward) =>
      (call.params as { sourceChain?: string }).sourceChain ? rpcResult({ numFetched: '0', utxos: [], endIndex: { address: '', utxo: '' }, encoding: 'hex' }) : forward(),
    );
    const est = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: (2n * AVAX).toString() });
    const move = await wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: (2n * AVAX).toString(), maxFee: (BigInt(est.exportFee) + BigInt(est.importFee)).toString() });
    let view = move;
    for (let i = 0; i < 100 && !view.error; i++) {
      await new Promise((r) => setTimeout(r, 100));
      view = (await wallet.transfers.transfersList()).transfers.find((t) => t.id === move.id)!;
    }
    expect(view).toMatchObject({ state: 'export-accepted', error: expect.stringMatching(/do not show in the P-Chain's atomic memory yet/) });

    node.lies.clear();
    await wallet.transfers.resumeTransfers();
    view = (await wallet.transfers.transfersList()).transfers.find((t) => t.id === move.id)!;
    expect(view.state).toBe('completed');
    const p = (await wallet.balances.balancesRefresh()).balances.find((b) => b.chain === 'P' && b.assetID === avax);
    expect(BigInt(p!.spendable)).toBe(2n * AVAX - BigInt(est.importFee));
  });
});

describe('a node that stops answering during a move', () => {
  it('the move shows paused with the reason and since when; back up, the next run finishes it and the pause is gone', async () => {
    const node = lyingNode();
    const { wallet, avax } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch });
    // Atomic memory unreachable: the export goes through, the import cannot be built.
    node.lies.set('platform.getUTXOs', async (call, forward) => {
      if ((call.params as { sourceChain?: string }).sourceChain) throw new TypeError('Failed to fetch');
      return forward();
    });
    const est = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: (2n * AVAX).toString() });
    const move = await wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: (2n * AVAX).toString(), maxFee: (BigInt(est.exportFee) + BigInt(est.importFee)).toString() });
    let view = move;
    for (let i = 0; i < 100 && !view.paused; i++) {
      await new Promise((r) => setTimeout(r, 100));
      view = (await wallet.transfers.transfersList()).transfers.find((t) => t.id === move.id)!;
    }
    expect(view).toMatchObject({ state: 'export-accepted', paused: { code: 'node-unreachable', since: expect.any(Number) } });
    const since = view.paused!.since;
    // Still down at the next run: paused since the first failure, not the latest.
    await wallet.transfers.resumeTransfers().catch(() => undefined);
    expect((await wallet.transfers.transfersList()).transfers.find((t) => t.id === move.id)!.paused?.since).toBe(since);

    node.lies.clear();
    await wallet.transfers.resumeTransfers();
    view = (await wallet.transfers.transfersList()).transfers.find((t) => t.id === move.id)!;
    expect(view.state).toBe('completed');
    expect(view.paused).toBeUndefined();
    const p = (await wallet.balances.balancesRefresh()).balances.find((b) => b.chain === 'P' && b.assetID === avax);
    expect(BigInt(p!.spendable)).toBe(2n * AVAX - BigInt(est.importFee));
  });

  it('a resume while a move is being run leaves that move to its run: one run per move, never two sending', async () => {
    const node = lyingNode();
    const { wallet } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch, wait: { timeoutMs: 3_000, pollMs: 100 } });
    // The export's issueTx hangs: the move's own run waits on it.
    node.lies.set('avm.issueTx', hang);
    const est = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    await wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: AVAX.toString(), maxFee: (BigInt(est.exportFee) + BigInt(est.importFee)).toString() });
    for (let i = 0; i < 100 && !node.calls.includes('avm.issueTx'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(node.calls.filter((m) => m === 'avm.issueTx')).toHaveLength(1);
    await wallet.transfers.resumeTransfers();
    expect(node.calls.filter((m) => m === 'avm.issueTx')).toHaveLength(1);
  });
});

describe('a node that lies about who it is', () => {
  it("a custom network whose node claims mainnet's EVM chain ID is refused before anything is signed", async () => {
    const node = lyingNode();
    node.lies.set('eth_chainId', () => Promise.resolve(rpcResult('0xa86a')));
    const { wallet } = await startBackground(memoryStores(), { fetch: node.fetch });
    await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    const error = await wallet.networks.networksAddCustom({ name: 'Not mainnet', url: inject('nodeUrl') }).catch((e: unknown) => e);
    expect(error).toMatchObject({ message: expect.stringMatching(/part of Mainnet's identity but is not Mainnet/) });
    expect(node.calls.some((m) => m.endsWith('issueTx') || m === 'eth_sendRawTransaction')).toBe(false);
  });

  it('a custom network is pinned when added: a node that later tells another identity is refused, and an honest one is taken again', async () => {
    const node = lyingNode();
    const stores = memoryStores();
    const first = await startBackground(stores, { fetch: node.fetch });
    await first.wallet.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    const network = await first.wallet.networks.networksAddCustom({ name: 'Test node', url: inject('nodeUrl') });
    await first.wallet.networks.networksSelect({ id: network.id });

    const lies: Array<[string, Lie]> = [
      ['info.getNetworkID', () => Promise.resolve(rpcResult({ networkID: '4242' }))],
      ['eth_chainId', () => Promise.resolve(rpcResult('0xa869'))],
      ['info.getBlockchainID', async (call, forward) => ((call.params as { alias: string }).alias === 'X' ? rpcResult({ blockchainID: 'yUpqseBhEBBP2UCiX1vqf8UQCc4HVwyuNtzL5PUWzmNj2cFXi' }) : forward())],
    ];
    for (const [method, lie] of lies) {
      node.lies.set(method, lie);
      // A restarted worker asks the node again and must match what was pinned.
      const restarted = await startBackground(stores, { fetch: node.fetch });
      await restarted.session.unlock(PASSWORD);
      const view = await restarted.wallet.balances.balancesRefresh();
      expect(view.error, method).toMatch(/is not Test node|is not Fuji/);
      node.lies.delete(method);
    }
    const honest = await startBackground(stores, { fetch: node.fetch });
    await honest.session.unlock(PASSWORD);
    const view = await honest.wallet.balances.balancesRefresh();
    expect(view.error).toBeUndefined();
    expect((await honest.wallet.accounts.walletStatus()).network.hrp).toBe('custom');
  });
});
