// Network presets and discovery against a fake node on loopback that claims various identities.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { toHex } from '../../src/core/bytes.js';
import { NetworkMismatchError, NodeResponseError, NodeUnreachableError } from '../../src/core/errors.js';
import {
  FUJI,
  LOCAL,
  MAINNET,
  P_CHAIN_ID,
  chainContextOf,
  customPreset,
  discoverNetwork,
  explorerTxUrl,
  hrpForNetworkId,
  type NetworkPreset,
} from '../../src/core/network.js';
import { NodeClient } from '../../src/core/node.js';
import { FeeLimitError } from '../../src/core/fee-limits.js';

interface Identity {
  networkID: string;
  x: string;
  c: string;
  p: string;
  avax: string;
  staking: string;
  denomination: string;
  chainId: string;
  txFee: string;
  createAssetTxFee: string;
}

// The local Helicon test network (`npm run node`): network ID 1337, IDs as its node reports them.
const LOCAL_NODE: Identity = {
  networkID: '1337',
  x: '2huFztbeB4LijVCoLrxP8NwFbRCdtLfUyvx4VXwD5VnVxzxkMX',
  c: 'yUpqseBhEBBP2UCiX1vqf8UQCc4HVwyuNtzL5PUWzmNj2cFXi',
  p: P_CHAIN_ID,
  avax: '28N55gFiYRrHWTopC4mybgvTw92x4EmWiZBLCRBgjXFyBgx9UN',
  staking: '28N55gFiYRrHWTopC4mybgvTw92x4EmWiZBLCRBgjXFyBgx9UN',
  denomination: '9',
  chainId: '0xa868',
  txFee: '1000000',
  createAssetTxFee: '1000000',
};

const MAINNET_NODE: Identity = {
  networkID: '1',
  x: MAINNET.known!.xChainID,
  c: MAINNET.known!.cChainID,
  p: P_CHAIN_ID,
  avax: MAINNET.known!.avaxAssetID,
  staking: MAINNET.known!.avaxAssetID,
  denomination: '9',
  chainId: '0xa86a',
  txFee: '1000000',
  createAssetTxFee: '10000000',
};

/** The test network's AVAX CreateAssetTx as its node returns it (recorded): it hashes to LOCAL_NODE.avax. */
const LOCAL_AVAX_TX = '0x000000000001000005390000000000000000000000000000000000000000000000000000000000000000000000000000000000000028b3d82b1367d362de99ab59a658165aff520cbd4db3d82b1367d362de99ab59a658165aff520cbd4d00094176616c616e6368650004415641580900000001000000000000000200000007002386f26fc1000000000000000000000000000100000001e0cfe8cae22827d032805ded484e393ce51cbedb000000070429d069189e0000000000000000000000000001000000013cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c00000000868343ce';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function nodeClaiming(id: Identity): Promise<{ client: NodeClient; methods: string[] }> {
  const methods: string[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(raw) as { id: number; method: string; params: Record<string, unknown> };
      methods.push(`${req.url} ${body.method}`);
      const results: Record<string, unknown> = {
        'info.getNetworkID': { networkID: id.networkID },
        'info.getBlockchainID': { blockchainID: ({ X: id.x, P: id.p, C: id.c } as Record<string, string>)[String(body.params['alias'])] },
        'avm.getAssetDescription': { assetID: id.avax, name: 'Avalanche', symbol: 'AVAX', denomination: id.denomination },
        'platform.getStakingAssetID': { assetID: id.staking },
        'avm.getTxFee': { txFee: id.txFee, createAssetTxFee: id.createAssetTxFee },
        ...(body.params['txID'] === LOCAL_NODE.avax ? { 'avm.getTx': { tx: LOCAL_AVAX_TX, encoding: 'hex' } } : {}),
        eth_chainId: id.chainId,
      };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        body.method in results
          ? JSON.stringify({ jsonrpc: '2.0', id: body.id, result: results[body.method] })
          : JSON.stringify({ jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'no such method' } }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { client: new NodeClient({ url, atomicApi: LOCAL.atomicApi }), methods };
}

/** The preset, pointed at the fake node's URL. */
function at(preset: NetworkPreset, client: NodeClient): NetworkPreset {
  return { ...preset, url: client.url };
}

describe('presets', () => {
  it('have the documented identities', () => {
    expect(MAINNET).toMatchObject({ url: 'https://api.avax.network', networkID: 1, hrp: 'avax', evmChainID: 43114 });
    expect(FUJI).toMatchObject({ url: 'https://api.avax-test.network', networkID: 5, hrp: 'fuji', evmChainID: 43113 });
    expect(LOCAL).toMatchObject({ url: 'http://127.0.0.1:9650', networkID: 1337, hrp: 'custom', evmChainID: 43112 });
    for (const p of [MAINNET, FUJI, LOCAL, customPreset('http://example.test:9650')]) {
      expect(p.atomicApi).toEqual({ namespace: 'avax', path: '/ext/bc/C/avax' });
    }
    expect(LOCAL.known).toBeUndefined();
    expect(FUJI.known?.avaxAssetID).toBe('U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK');
    expect(LOCAL.explorerUrl).toBeUndefined();
  });

  it('hrpForNetworkId follows the table', () => {
    expect([1, 2, 3, 4, 5, 10, 12345, 6, 99999, 0].map(hrpForNetworkId)).toEqual([
      'avax',
      'cascade',
      'denali',
      'everest',
      'fuji',
      'testing',
      'local',
      'custom',
      'custom',
      'custom',
    ]);
  });

  it('builds explorer links only where an explorer exists', () => {
    expect(explorerTxUrl(MAINNET, 'X', 'abc')).toBe('https://subnets.avax.network/x-chain/tx/abc');
    expect(explorerTxUrl(FUJI, 'C', '0x12')).toBe('https://subnets-test.avax.network/c-chain/tx/0x12');
    expect(explorerTxUrl(LOCAL, 'P', 'abc')).toBeUndefined();
  });
});

describe('discoverNetwork', () => {
  it('returns the identity of a local node', async () => {
    const { client, methods } = await nodeClaiming(LOCAL_NODE);
    const id = await discoverNetwork(client, at(LOCAL, client));
    expect(id).toEqual({
      kind: 'local',
      url: client.url,
      networkID: 1337,
      hrp: 'custom',
      xChainID: LOCAL_NODE.x,
      pChainID: P_CHAIN_ID,
      cChainID: LOCAL_NODE.c,
      avaxAssetID: LOCAL_NODE.avax,
      avaxSymbol: 'AVAX',
      avaxName: 'Avalanche',
      avaxDenomination: 9,
      stakingAssetID: LOCAL_NODE.avax,
      xTxFee: 1_000_000n,
      xCreateAssetTxFee: 1_000_000n,
      evmChainID: 43112,
    });
    expect(methods).toContain('/ext/bc/C/rpc eth_chainId');
    expect(methods).toContain('/ext/bc/P platform.getStakingAssetID');
    const ctx = chainContextOf(id);
    expect(ctx.networkID).toBe(1337);
    expect(toHex(ctx.pChainID)).toBe('00'.repeat(32));
    expect(ctx.avaxAssetID).toHaveLength(32);
  });

  it('accepts a mainnet node that matches every known ID', async () => {
    const { client } = await nodeClaiming(MAINNET_NODE);
    const id = await discoverNetwork(client, at(MAINNET, client));
    expect(id).toMatchObject({ networkID: 1, hrp: 'avax', evmChainID: 43114, xCreateAssetTxFee: 10_000_000n });
    // The user's own mainnet node, added as a custom network, is mainnet through and through.
    await expect(discoverNetwork(client, customPreset(client.url))).resolves.toMatchObject({ kind: 'custom', networkID: 1, evmChainID: 43114 });
  });

  const lies: Array<[string, NetworkPreset, Identity, RegExp]> = [
    ['a wrong network ID', LOCAL, { ...LOCAL_NODE, networkID: '5' }, /network ID is 5, expected 1337/],
    ['a wrong EVM chain ID', LOCAL, { ...LOCAL_NODE, chainId: '0xa869' }, /EVM chain ID is 43113, expected 43112/],
    ['a local node posing as fuji', FUJI, LOCAL_NODE, /network ID is 1337, expected 5/],
    ['a pre-Helicon local node (12345) as the Local preset', LOCAL, { ...LOCAL_NODE, networkID: '12345' }, /network ID is 12345, expected 1337/],
    // A C-Chain signature with a public network's chain ID is valid there, whoever asked for it.
    ['a custom network claiming mainnet\'s EVM chain ID', customPreset('http://x'), { ...LOCAL_NODE, chainId: '0xa86a' }, /part of Mainnet's identity but is not Mainnet/],
    ['a custom network claiming Fuji\'s EVM chain ID', customPreset('http://x'), { ...LOCAL_NODE, chainId: '0xa869' }, /part of Fuji testnet's identity but is not Fuji/],
    ['a node with mainnet\'s network ID and AVAX but another EVM chain ID, as a custom network', customPreset('http://x'), { ...MAINNET_NODE, chainId: '0xa868' }, /part of Mainnet's identity but is not Mainnet/],
    ['a node with Fuji\'s X-Chain ID, as a custom network', customPreset('http://x'), { ...LOCAL_NODE, x: FUJI.known!.xChainID }, /part of Fuji testnet's identity/],
    ['a custom network claiming Ethereum\'s chain ID 1', customPreset('http://x'), { ...LOCAL_NODE, chainId: '0x1' }, /EVM chain ID 1, which is Ethereum's/],
    ['a custom network claiming Base\'s chain ID', customPreset('http://x'), { ...LOCAL_NODE, chainId: '0x2105' }, /which is Base's/],
    ['a node with mainnet\'s network ID and chain ID but a foreign X-Chain, as a custom network', customPreset('http://x'), { ...MAINNET_NODE, x: LOCAL_NODE.x }, /part of Mainnet's identity but is not Mainnet/],
    ['a mainnet node with a foreign X-Chain', MAINNET, { ...MAINNET_NODE, x: FUJI.known!.xChainID }, /X-Chain ID/],
    ['a mainnet node with a foreign C-Chain', MAINNET, { ...MAINNET_NODE, c: FUJI.known!.cChainID }, /C-Chain ID/],
    ['a mainnet node with another AVAX', MAINNET, { ...MAINNET_NODE, avax: FUJI.known!.avaxAssetID, staking: FUJI.known!.avaxAssetID }, /AVAX asset ID/],
    ['a staking asset that is not AVAX', LOCAL, { ...LOCAL_NODE, staking: MAINNET.known!.avaxAssetID }, /staking asset/],
    ['a non-zero P-Chain ID', LOCAL, { ...LOCAL_NODE, p: LOCAL_NODE.x }, /P-Chain ID/],
    ['AVAX with 18 decimals', LOCAL, { ...LOCAL_NODE, denomination: '18' }, /describes its AVAX asset otherwise than the transaction that created it/],
    ['a custom network whose AVAX description is not its CreateAssetTx', customPreset('http://127.0.0.1:1'), { ...LOCAL_NODE, denomination: '6' }, /otherwise than the transaction/],
    ['a custom network whose AVAX has no transaction the node can show', customPreset('http://127.0.0.1:1'), { ...LOCAL_NODE, avax: LOCAL_NODE.x, staking: LOCAL_NODE.x }, /cannot show the transaction that created its AVAX/],
    ['the same ID for X and C', LOCAL, { ...LOCAL_NODE, c: LOCAL_NODE.x }, /same ID/],
  ];
  for (const [what, preset, claimed, message] of lies) {
    it(`throws NetworkMismatchError for ${what}`, async () => {
      const { client } = await nodeClaiming(claimed);
      const err = await discoverNetwork(client, at(preset, client)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NetworkMismatchError);
      expect((err as Error).message).toMatch(message);
    });
  }

  it('refuses X-Chain fees above the wallet limits (a lying node cannot inflate what is burned)', async () => {
    const { client } = await nodeClaiming({ ...LOCAL_NODE, txFee: '10000001' });
    await expect(discoverNetwork(client, at(LOCAL, client))).rejects.toBeInstanceOf(FeeLimitError);
    const creation = await nodeClaiming({ ...LOCAL_NODE, createAssetTxFee: '100000001' });
    await expect(discoverNetwork(creation.client, at(LOCAL, creation.client))).rejects.toMatchObject({ code: 'fee-limit' });
  });

  it("a mainnet node (preset or the user's own, added as custom) asking more than mainnet's fixed X-Chain fees is refused: no 10× headroom there", async () => {
    for (const lie of [{ txFee: '1000001' }, { createAssetTxFee: '10000001' }]) {
      const { client } = await nodeClaiming({ ...MAINNET_NODE, ...lie });
      await expect(discoverNetwork(client, at(MAINNET, client))).rejects.toMatchObject({ code: 'fee-limit' });
      await expect(discoverNetwork(client, customPreset(client.url))).rejects.toMatchObject({ code: 'fee-limit' });
    }
  });

  it('custom presets take what the node says', async () => {
    const { client } = await nodeClaiming({ ...LOCAL_NODE, networkID: '4242', chainId: '0x1234' });
    const id = await discoverNetwork(client, customPreset(client.url));
    expect(id).toMatchObject({ kind: 'custom', networkID: 4242, hrp: 'custom', evmChainID: 0x1234 });
  });

  it('custom presets still check the hrp against the network ID', async () => {
    const { client } = await nodeClaiming({ ...LOCAL_NODE, networkID: '12345' });
    await expect(discoverNetwork(client, customPreset(client.url, { hrp: 'local' }))).resolves.toMatchObject({ hrp: 'local' });
    const err = await discoverNetwork(client, customPreset(client.url, { hrp: 'avax' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkMismatchError);
    expect((err as Error).message).toMatch(/hrp/);
  });

  it('lets transport and shape errors through unchanged', async () => {
    const { client } = await nodeClaiming({ ...LOCAL_NODE, networkID: 'twelve' });
    await expect(discoverNetwork(client, at(LOCAL, client))).rejects.toBeInstanceOf(NodeResponseError);
    const dead = new NodeClient({ url: 'http://127.0.0.1:1', atomicApi: LOCAL.atomicApi });
    await expect(discoverNetwork(dead, LOCAL)).rejects.toBeInstanceOf(NodeUnreachableError);
  });
});
