// Settings' health check of a node is also a check of who it is: a healthy node whose address now
// serves another network than the one pinned is "not usable", not "healthy" beside a banner that
// says the wallet refuses it. Against the real node, the change of network played by a proxy.
import { describe, expect, inject, it } from 'vitest';
import { memoryStores } from '../../src/background/storage.js';
import { generateMnemonic } from '../../src/core/keys.js';
import { lyingNode, rpcResult } from './lying-node.js';
import { PASSWORD, startBackground } from './wallet-fixture.js';

describe('a health check', () => {
  it('of a healthy node that now tells another network: not usable, by code; the same node honest again: healthy', async () => {
    const node = lyingNode();
    const { wallet } = await startBackground(memoryStores(), { fetch: node.fetch });
    await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    const network = await wallet.networks.networksAddCustom({ name: 'Test node', url: inject('nodeUrl') });
    const honest = await wallet.networks.networksHealth({ id: network.id });
    expect(honest).toMatchObject({ healthy: true, checks: [] });
    expect(honest.error).toBeUndefined();

    // The address now serves Fuji's EVM chain ID: not the network pinned when it was added.
    node.lies.set('eth_chainId', () => Promise.resolve(rpcResult('0xa869')));
    const other = await wallet.networks.networksHealth({ id: network.id });
    expect(other).toMatchObject({ healthy: false, errorCode: 'network-mismatch', error: expect.stringMatching(/is not Test node|Fuji/) });

    node.lies.delete('eth_chainId');
    expect((await wallet.networks.networksHealth({ id: network.id })).error).toBeUndefined();
  });
});
