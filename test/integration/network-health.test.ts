// Settings' health check of a node is also a check of who it is: a healthy node whose address now
// serves another network than the one pinned is "not usable", not "healthy" beside a banner that
// says the wallet refuses it. Against the real node, the change of network played by a proxy.
import { describe, expect, inject, it } from 'vitest';
import { memoryStores } from '../../src/background/storage.js';
import { generateMnemonic } from '../../src/core/keys.js';
import { lyingNode, rpcResult } from './lying-node.js';
import { PASSWORD, startBackground } from './wallet-fixture.js';

describe('a health check', () => {
  it('of a node that now tells another network: not usable, by code, healthy or not; the same node honest again: as healthy as it says', async () => {
    const node = lyingNode();
    // Unhealthy on demand: the report of a node one of whose chains is not bootstrapped (HTTP 503).
    let unhealthy = false;
    const fetch: typeof globalThis.fetch = async (input, init) =>
      unhealthy && String(input).endsWith('/ext/health')
        ? new Response(JSON.stringify({ healthy: false, checks: { bootstrapped: { message: ['2WKG'], error: 'subnets not bootstrapped' } } }), { status: 503 })
        : node.fetch(input, init);
    const { wallet } = await startBackground(memoryStores(), { fetch });
    await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    const network = await wallet.networks.networksAddCustom({ name: 'Test node', url: inject('nodeUrl') });
    // As healthy as the node says it is itself (a chain another test made may not be bootstrapped).
    const own = (await (await globalThis.fetch(`${inject('nodeUrl')}/ext/health`)).json()) as { healthy: boolean };
    const honest = await wallet.networks.networksHealth({ id: network.id });
    expect(honest.healthy).toBe(own.healthy);
    if (own.healthy) expect(honest.checks).toEqual([]);
    expect(honest.error).toBeUndefined();

    // The address now serves Fuji's EVM chain ID: not the network pinned when it was added.
    node.lies.set('eth_chainId', () => Promise.resolve(rpcResult('0xa869')));
    const other = await wallet.networks.networksHealth({ id: network.id });
    expect(other).toMatchObject({ healthy: false, errorCode: 'network-mismatch', error: expect.stringMatching(/is not Test node|Fuji/) });
    // Unhealthy too (a chain not bootstrapped): still said to be another network's, not just unhealthy.
    unhealthy = true;
    expect(await wallet.networks.networksHealth({ id: network.id })).toMatchObject({ healthy: false, errorCode: 'network-mismatch' });
    // Unhealthy and honest: its failing check named, nothing said of its identity.
    node.lies.delete('eth_chainId');
    expect(await wallet.networks.networksHealth({ id: network.id })).toEqual({ healthy: false, checks: ['bootstrapped'], passed: 0 });
    unhealthy = false;

    node.lies.delete('eth_chainId');
    expect((await wallet.networks.networksHealth({ id: network.id })).error).toBeUndefined();
  });
});
