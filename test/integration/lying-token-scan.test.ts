// The token log scan over a node that lies about its latest block, on the real Helicon node: for one
// refresh it says the chain is 1,000,000 blocks longer and has no logs. The wallet must not take
// blocks that do not exist for read: an approval and a transfer made once the node is honest again
// are listed, and no list claims to be complete while it is not (docs/tokens.md).
import { createPublicClient, createWalletClient, defineChain, getAddress, http, type Abi, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import contracts from '../fixtures/contracts.json' with { type: 'json' };
import { memoryStores } from '../../src/background/storage.js';
import { toHex } from '../../src/core/bytes.js';
import { formatEvmAddress } from '../../src/core/evm-address.js';
import { AVAX, GENESIS_KEY, genesisEngine, WEI_PER_NAVAX } from './fixture.js';
import { lyingNode, rpcError, rpcResult } from './lying-node.js';
import { providerBackground } from './wallet-fixture.js';

const chain = defineChain({ id: 43112, name: 'Test C-Chain', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [] } } });

/** A fresh account on the real node, behind a lying proxy, with 1 AVAX on C and a listed token it holds 1,000,000 of. */
async function tokenHolder() {
  const node = lyingNode();
  const bg = await providerBackground(memoryStores(), { openApprovalWindow: () => undefined, fetch: node.fetch });
  const key = new Uint8Array(randomBytes(32));
  await bg.wallet.accounts.walletCreateFromKey({ password: 'scan lie password', privateKey: `0x${toHex(key)}`, name: 'Lied to' });
  const network = await bg.wallet.networks.networksAddCustom({ name: 'Test node', url: inject('nodeUrl') });
  const account = (await bg.wallet.networks.networksSelect({ id: network.id })).account!;

  const rpc = `${inject('nodeUrl')}/ext/bc/C/rpc`;
  const reader = createPublicClient({ chain, transport: http(rpc) });
  const owner = createWalletClient({ chain, transport: http(rpc), account: privateKeyToAccount(`0x${toHex(key)}`) });
  /** Waits for the tx and for the node's latest executed block to hold it (Helicon executes a moment later). */
  const executed = async (hash: Hex) => {
    const receipt = await reader.waitForTransactionReceipt({ hash });
    for (let i = 0; i < 100 && (await reader.getBlockNumber({ cacheTime: 0 })) < receipt.blockNumber; i++) await new Promise((r) => setTimeout(r, 50));
    expect(receipt.status).toBe('success');
    return receipt;
  };
  await (await genesisEngine()).sendC(account.cAddress, AVAX * WEI_PER_NAVAX);
  for (let i = 0; i < 100 && (await reader.getBalance({ address: account.cAddress as Hex })) === 0n; i++) await new Promise((r) => setTimeout(r, 50));
  const abi = contracts.contracts.TestToken.abi as Abi;
  const token = getAddress((await executed(await owner.deployContract({ abi, bytecode: contracts.contracts.TestToken.bytecode as Hex, args: ['Test Dollar', 'TUSD', 1_000_000n], gas: 3_000_000n }))).contractAddress!);
  await bg.wallet.tokens.tokensAdd({ address: token });
  return { node, bg, owner, token, abi, executed, genesis: formatEvmAddress(GENESIS_KEY.evmAddress) };
}

describe('a node that says its chain is 1,000,000 blocks longer, once', () => {
  it('blocks past the real chain are not taken for read: an approval and a transfer made afterwards are listed; nothing says complete meanwhile', async () => {
    const { node, bg, owner, token, abi, executed, genesis } = await tokenHolder();
    expect((await bg.wallet.tokens.tokensAllowances({ refresh: true })).scan).toMatchObject({ complete: true });

    // One refresh: the node's latest block 1,000,000 ahead, and no logs anywhere.
    node.lies.set('eth_blockNumber', async (_call, forward) => rpcResult(`0x${(BigInt((await forward()).result as string) + 1_000_000n).toString(16)}`));
    node.lies.set('eth_getLogs', async () => rpcResult([]));
    expect((await bg.wallet.tokens.tokensAllowances({ refresh: true })).scan.complete).toBe(false);
    expect((await bg.wallet.tokens.tokensActivity({ refresh: true })).scan.complete).toBe(false);
    node.lies.clear();

    // Honest again: an unlimited approval and a transfer.
    await executed(await owner.writeContract({ address: token, abi, functionName: 'approve', args: [genesis, (1n << 256n) - 1n], gas: 100_000n }));
    const sent = await executed(await owner.writeContract({ address: token, abi, functionName: 'transfer', args: [genesis, 5n], gas: 100_000n }));
    const { allowances, scan } = await bg.wallet.tokens.tokensAllowances({ refresh: true });
    expect(allowances.find((a) => a.token === token && a.spender === genesis)).toMatchObject({ kind: 'allowance', unlimited: true });
    expect(scan).toMatchObject({ complete: true });
    expect((await bg.wallet.tokens.tokensActivity({ refresh: true })).items.find((i) => i.txHash === sent.transactionHash)).toMatchObject({ direction: 'out', amount: '5' });
  }, 120_000);
});

describe('a node that cannot give its latest block, once', () => {
  it('token activity still opens: the transfers found before are listed, with why no newer block was read; the next refresh reads on', async () => {
    const { node, bg, owner, token, abi, executed, genesis } = await tokenHolder();
    const first = await executed(await owner.writeContract({ address: token, abi, functionName: 'transfer', args: [genesis, 5n], gas: 100_000n }));
    const hashes = (list: { items: { txHash: string }[] }) => list.items.map((i) => i.txHash);
    // The token's creation (its supply minted to the account), then the first transfer.
    const before = hashes(await bg.wallet.tokens.tokensActivity({ refresh: true }));
    expect(before).toHaveLength(2);
    expect(before[0]).toBe(first.transactionHash);
    const second = await executed(await owner.writeContract({ address: token, abi, functionName: 'transfer', args: [genesis, 7n], gas: 100_000n }));

    node.lies.set('eth_getBlockByNumber', async () => rpcError('too many requests'));
    const failing = await bg.wallet.tokens.tokensActivity({ refresh: true });
    expect(hashes(failing)).toEqual(before);
    expect(failing.scan).toMatchObject({ errorCode: 'rpc', error: expect.stringContaining('too many requests') });
    node.lies.clear();

    const honest = await bg.wallet.tokens.tokensActivity({ refresh: true });
    expect(hashes(honest)).toEqual([second.transactionHash, ...before]);
    expect(honest.scan).not.toHaveProperty('error');
  }, 120_000);
});
