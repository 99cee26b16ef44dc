// NodeClient against a fake node on loopback (node:http) that tells the truth, fails, or lies.
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { fromHex } from '../../src/core/bytes.js';
import { cb58Encode, toApiHex } from '../../src/core/encoding.js';
import { MAX_ERROR_MESSAGE, NodeResponseError, NodeUnreachableError, RpcError, TimeoutError, ValidationError, WalletError } from '../../src/core/errors.js';
import { ASSET, AVAX_API, client, fakeNode, ME_X, pagingRoute, utxoHex } from './node-client-fixtures.js';

describe('info', () => {
  it('parses network ID, blockchain IDs, version and bootstrap state', async () => {
    const { url, calls } = await fakeNode((c) => {
      switch (c.method) {
        case 'info.getNetworkID':
          return { result: { networkID: '12345' } };
        case 'info.getBlockchainID':
          return { result: { blockchainID: '11111111111111111111111111111111LpoYY' } };
        case 'info.getNodeVersion':
          return { result: { version: 'avalanchego/1.15.0', databaseVersion: 'v1.4.5', rpcProtocolVersion: '46', gitCommit: '', vmVersions: { avm: 'x' } } };
        case 'info.isBootstrapped':
          return { result: { isBootstrapped: true } };
      }
      return undefined;
    });
    const n = client(url);
    expect(await n.info.getNetworkID()).toBe(12345);
    expect(await n.info.getBlockchainID('P')).toBe('11111111111111111111111111111111LpoYY');
    expect((await n.info.getNodeVersion()).version).toBe('avalanchego/1.15.0');
    expect(await n.info.isBootstrapped('X')).toBe(true);
    expect(calls.map((c) => c.path)).toEqual(['/ext/info', '/ext/info', '/ext/info', '/ext/info']);
    expect(calls[1]!.params).toEqual({ alias: 'P' });
    expect(calls[3]!.params).toEqual({ chain: 'X' });
    expect(n.requestCount).toBe(4);
  });

  it('refuses a blockchain ID that is not CB58', async () => {
    const { url } = await fakeNode(() => ({ result: { blockchainID: 'not-an-id' } }));
    await expect(client(url).info.getBlockchainID('X')).rejects.toBeInstanceOf(NodeResponseError);
  });
});

describe('avm', () => {
  it('issueTx sends hex WITH checksum and checks the returned tx ID against the bytes', async () => {
    const tx = fromHex('000102');
    const honestId = cb58Encode(sha256(tx));
    const { url, calls } = await fakeNode(() => ({ result: { txID: honestId } }));
    await expect(client(url).avm.issueTx(tx)).resolves.toBe(honestId);
    expect(calls[0]!.path).toBe('/ext/bc/X');
    expect(calls[0]!.method).toBe('avm.issueTx');
    expect(calls[0]!.params).toEqual({ tx: '0x000102b85b53fc', encoding: 'hex' }); // wire-format §10.3
  });

  it('issueTx refuses a tx ID that does not match the submitted bytes', async () => {
    const { url } = await fakeNode(() => ({ result: { txID: cb58Encode(sha256(fromHex('ff'))) } }));
    await expect(client(url).avm.issueTx(fromHex('000102'))).rejects.toBeInstanceOf(NodeResponseError);
  });

  it('issueTx passes a node rejection through as RpcError', async () => {
    const { url } = await fakeNode(() => ({ error: { code: -32000, message: 'unknown codec version' } }));
    const err = await client(url).avm.issueTx(fromHex('000102')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcError);
    expect((err as RpcError).rpcMessage).toBe('unknown codec version');
  });

  it("keeps at most MAX_ERROR_MESSAGE characters of a node's error message (a failed refresh's error is stored: megabytes would fill the storage quota)", async () => {
    const { url } = await fakeNode(() => ({ error: { code: -32000, message: 'x'.repeat(6_000_000) } }));
    const err = (await client(url).avm.issueTx(fromHex('000102')).catch((e: unknown) => e)) as RpcError;
    expect(err).toBeInstanceOf(RpcError);
    expect(err.message).toBe(`avm.issueTx: ${'x'.repeat(MAX_ERROR_MESSAGE - 'avm.issueTx: '.length)}…`);
    // Never half a character: a pair cut in two is left out whole.
    expect(new WalletError('rpc', `${'x'.repeat(MAX_ERROR_MESSAGE - 1)}😀`).message).toBe(`${'x'.repeat(MAX_ERROR_MESSAGE - 1)}…`);
  });

  it('getTx verifies the checksum and that the bytes hash to the tx ID', async () => {
    const tx = fromHex('00000000000a');
    const id = cb58Encode(sha256(tx));
    const good = await fakeNode(() => ({ result: { tx: toApiHex(tx), encoding: 'hex' } }));
    expect(await client(good.url).avm.getTx(id)).toEqual(tx);
    expect(good.calls[0]!.params).toEqual({ txID: id, encoding: 'hex' });

    const badSum = await fakeNode(() => ({ result: { tx: '0x00000000000a00000000', encoding: 'hex' } }));
    await expect(client(badSum.url).avm.getTx(id)).rejects.toBeInstanceOf(NodeResponseError);

    const other = await fakeNode(() => ({ result: { tx: toApiHex(fromHex('01')), encoding: 'hex' } }));
    await expect(client(other.url).avm.getTx(id)).rejects.toThrow(/do not hash/);
  });

  it('getTxFee turns decimal strings into bigints', async () => {
    const { url } = await fakeNode(() => ({ result: { txFee: '1000000', createAssetTxFee: '10000000' } }));
    expect(await client(url).avm.getTxFee()).toEqual({ txFee: 1_000_000n, createAssetTxFee: 10_000_000n });
  });

  it('getTxFee refuses negative or fractional fees', async () => {
    const { url } = await fakeNode(() => ({ result: { txFee: '-1', createAssetTxFee: '1.5' } }));
    await expect(client(url).avm.getTxFee()).rejects.toBeInstanceOf(NodeResponseError);
  });

  it('getAssetDescription returns a numeric denomination', async () => {
    const assetID = cb58Encode(ASSET);
    const { url, calls } = await fakeNode(() => ({ result: { assetID, name: 'Avalanche', symbol: 'AVAX', denomination: '9' } }));
    expect(await client(url).avm.getAssetDescription('AVAX')).toEqual({ assetID, name: 'Avalanche', symbol: 'AVAX', denomination: 9 });
    expect(calls[0]!.params).toEqual({ assetID: 'AVAX' });
  });

  it('getTxStatus refuses an unknown status word', async () => {
    const { url } = await fakeNode(() => ({ result: { status: 'Maybe' } }));
    await expect(client(url).avm.getTxStatus(cb58Encode(ASSET))).rejects.toBeInstanceOf(NodeResponseError);
  });
});

describe('platform', () => {
  it('fee config and fee state as bigints', async () => {
    const { url } = await fakeNode((c) => {
      if (c.method === 'platform.getFeeConfig') {
        return {
          result: { weights: [1, 1000, 1000, 4], maxCapacity: 1000000, maxPerSecond: 100000, targetPerSecond: 50000, minPrice: 1, excessConversionConstant: 2164043 },
        };
      }
      if (c.method === 'platform.getFeeState') return { result: { capacity: 0, excess: 0, price: 1, timestamp: '2026-10-03T04:00:00Z' } };
      return undefined;
    });
    const n = client(url);
    const cfg = await n.platform.getFeeConfig();
    expect(cfg.weights).toEqual([1n, 1000n, 1000n, 4n]);
    expect(cfg.excessConversionConstant).toBe(2164043n);
    expect(await n.platform.getFeeState()).toEqual({ capacity: 0n, excess: 0n, price: 1n, timestamp: '2026-10-03T04:00:00Z' });
  });

  it('refuses fee config with the wrong number of weights and a zero price', async () => {
    const { url } = await fakeNode((c) =>
      c.method === 'platform.getFeeConfig'
        ? { result: { weights: [1, 2, 3], maxCapacity: 1, maxPerSecond: 1, targetPerSecond: 1, minPrice: 1, excessConversionConstant: 1 } }
        : { result: { capacity: 0, excess: 0, price: 0, timestamp: '2026-10-03T04:00:00Z' } },
    );
    await expect(client(url).platform.getFeeConfig()).rejects.toBeInstanceOf(NodeResponseError);
    await expect(client(url).platform.getFeeState()).rejects.toBeInstanceOf(NodeResponseError);
  });

  it('getTxStatus returns the reason of a Dropped tx', async () => {
    const { url, calls } = await fakeNode(() => ({ result: { status: 'Dropped', reason: 'failed to verify: insufficient funds' } }));
    expect(await client(url).platform.getTxStatus(cb58Encode(ASSET))).toEqual({ status: 'Dropped', reason: 'failed to verify: insufficient funds' });
    expect(calls[0]!.path).toBe('/ext/bc/P');
  });

  it('height, timestamp and staking asset', async () => {
    const assetID = cb58Encode(ASSET);
    const { url } = await fakeNode((c) => {
      if (c.method === 'platform.getHeight') return { result: { height: '42' } };
      if (c.method === 'platform.getTimestamp') return { result: { timestamp: '2026-10-03T04:00:00Z' } };
      if (c.method === 'platform.getStakingAssetID') return { result: { assetID } };
      return undefined;
    });
    const n = client(url);
    expect(await n.platform.getHeight()).toBe(42n);
    expect(await n.platform.getTimestamp()).toBe('2026-10-03T04:00:00Z');
    expect(await n.platform.getStakingAssetID()).toBe(assetID);
  });
});

describe('atomic API namespace', () => {
  it("a node configured with 'native' gets native.getUTXOs at /ext/bc/C/native", async () => {
    const { url, calls } = await fakeNode(pagingRoute([utxoHex({ tx: 1 })], { prefix: 'native.' }));
    const n = client(url, { namespace: 'native', path: '/ext/bc/C/native' });
    const r = await n.getAllUtxos('C', [ME_X], { sourceChain: 'X' });
    expect(r.utxos).toHaveLength(1);
    expect(calls[0]!.path).toBe('/ext/bc/C/native');
    expect(calls[0]!.method).toBe('native.getUTXOs');
    expect(calls[0]!.params).toMatchObject({ sourceChain: 'X', encoding: 'hex', addresses: ['C-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u'] });
  });

  it("with 'avax' it is avax.getUTXOs at /ext/bc/C/avax, and issueTx/status follow", async () => {
    const tx = fromHex('0000aa');
    const id = cb58Encode(sha256(tx));
    const { url, calls } = await fakeNode((c) => {
      if (c.method === 'avax.issueTx') return { result: { txID: id } };
      if (c.method === 'avax.getAtomicTx') return { result: { tx: toApiHex(tx), encoding: 'hex', blockHeight: '7' } };
      return pagingRoute([], { prefix: 'avax.' })(c);
    });
    const n = client(url, AVAX_API);
    await n.getAllUtxos('C', [ME_X], { sourceChain: 'P' });
    await n.atomic.issueTx(tx);
    expect(await n.atomic.findExecutedAtomicTx(id)).toEqual({ tx, blockHeight: 7n });
    expect(calls.map((c) => `${c.path} ${c.method}`)).toEqual([
      '/ext/bc/C/avax avax.getUTXOs',
      '/ext/bc/C/avax avax.issueTx',
      '/ext/bc/C/avax avax.getAtomicTx',
    ]);
  });

  it('refuses a nonsense namespace or path', () => {
    expect(() => client('http://127.0.0.1:1', { namespace: 'a.b', path: '/ext/bc/C/avax' })).toThrow(ValidationError);
    expect(() => client('http://127.0.0.1:1', { namespace: 'avax', path: 'ext/bc/C/avax' })).toThrow(ValidationError);
  });
});

describe('eth', () => {
  it('decodes quantities and passes params positionally', async () => {
    const { url, calls } = await fakeNode((c) => {
      const r: Record<string, unknown> = {
        eth_chainId: '0xa868',
        eth_getBalance: '0x295be96e64066972000000',
        eth_getTransactionCount: '0x3',
        eth_baseFee: '0x1',
        eth_maxPriorityFeePerGas: '0x0',
        eth_estimateGas: '0x5208',
        eth_blockNumber: '0x2',
        eth_sendRawTransaction: '0x' + '11'.repeat(32),
        net_version: '43112',
      };
      return c.method in r ? { result: r[c.method] } : undefined;
    });
    const n = client(url);
    const addr = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
    expect(await n.eth.chainId()).toBe(43112n);
    expect(await n.eth.getBalance(addr)).toBe(50_000_000n * 10n ** 18n);
    expect(await n.eth.getTransactionCount(addr, 5n)).toBe(3n);
    expect(await n.eth.baseFee()).toBe(1n);
    expect(await n.eth.maxPriorityFeePerGas()).toBe(0n);
    expect(await n.eth.estimateGas({ from: addr, to: addr, value: '0x1' })).toBe(21000n);
    expect(await n.eth.blockNumber()).toBe(2n);
    expect(await n.eth.sendRawTransaction(fromHex('02f8'))).toBe('0x' + '11'.repeat(32));
    expect(await n.eth.ethCall('net_version')).toBe('43112');
    expect(calls.find((c) => c.method === 'eth_getTransactionCount')!.params).toEqual([addr, '0x5']);
    expect(calls.find((c) => c.method === 'eth_sendRawTransaction')!.params).toEqual(['0x02f8']);
    expect(calls.every((c) => c.path === '/ext/bc/C/rpc')).toBe(true);
  });

  it('refuses a receipt for another transaction and a block of another height', async () => {
    const { url } = await fakeNode((c) => {
      if (c.method === 'eth_getTransactionReceipt') {
        return {
          result: {
            transactionHash: '0x' + 'cd'.repeat(32),
            blockHash: '0x' + '01'.repeat(32),
            blockNumber: '0x1',
            status: '0x1',
            gasUsed: '0x1',
            from: '0x' + '02'.repeat(20),
            to: null,
          },
        };
      }
      return {
        result: {
          number: '0x5',
          hash: '0x' + '01'.repeat(32),
          parentHash: '0x' + '00'.repeat(32),
          timestamp: '0x0',
          gasLimit: '0x1',
          gasUsed: '0x0',
          transactions: [],
        },
      };
    });
    await expect(client(url).eth.getTransactionReceipt('0x' + 'ab'.repeat(32))).rejects.toBeInstanceOf(NodeResponseError);
    await expect(client(url).eth.getBlockByNumber(4n)).rejects.toBeInstanceOf(NodeResponseError);
    expect((await client(url).eth.getBlockByNumber('latest'))?.number).toBe(5n);
  });
});

describe('health', () => {
  it('200 is healthy, 503 unhealthy with the details', async () => {
    let up = false;
    const { url, gets } = await fakeNode(() =>
      up
        ? { raw: JSON.stringify({ checks: { bootstrapped: { message: [] } }, healthy: true }), status: 200 }
        : { raw: JSON.stringify({ checks: { bootstrapped: { error: 'not yet run' } }, healthy: false }), status: 503 },
    );
    const n = client(url);
    const down = await n.health.readiness();
    expect(down).toMatchObject({ healthy: false, status: 503 });
    expect(down.checks['bootstrapped']).toEqual({ error: 'not yet run' });
    up = true;
    expect((await n.health.health()).healthy).toBe(true);
    expect(gets).toEqual(['/ext/health/readiness', '/ext/health']);
  });

  it('refuses a status that contradicts the body, and other statuses', async () => {
    const liar = await fakeNode(() => ({ raw: JSON.stringify({ healthy: false, checks: {} }), status: 200 }));
    await expect(client(liar.url).health.health()).rejects.toBeInstanceOf(NodeResponseError);
    const gone = await fakeNode(() => ({ raw: '{}', status: 404 }));
    await expect(client(gone.url).health.health()).rejects.toBeInstanceOf(NodeUnreachableError);
  });
});

describe('index', () => {
  it('talks to /ext/index/{chain}/{kind} and decodes containers', async () => {
    const bytes = fromHex('00000001');
    const id = cb58Encode(sha256(bytes));
    const { url, calls } = await fakeNode((c) => ({
      result: { id, bytes: toApiHex(bytes), timestamp: '2026-11-22T00:00:00Z', encoding: 'hex', index: c.method === 'index.getLastAccepted' ? '3' : '1' },
    }));
    const n = client(url);
    expect(await n.index('X/tx').getLastAccepted()).toEqual({ id, bytes, timestamp: '2026-11-22T00:00:00Z', index: 3n });
    expect((await n.index('P/block').getContainerByIndex(1)).index).toBe(1n);
    await expect(n.index('C/block').getContainerByIndex(2)).rejects.toBeInstanceOf(NodeResponseError);
    expect(calls.map((c) => c.path)).toEqual(['/ext/index/X/tx', '/ext/index/P/block', '/ext/index/C/block']);
    expect(calls[1]!.params).toEqual({ index: 1, encoding: 'hex' });
  });
});

describe('timeouts', () => {
  it('a client-wide timeout applies to every call', async () => {
    const { url } = await fakeNode(() => ({ hang: true }));
    await expect(client(url, AVAX_API, 100).info.getNetworkID()).rejects.toBeInstanceOf(TimeoutError);
  });
});
