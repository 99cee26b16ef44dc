// NodeClient and discovery against the real local node started by global-setup.ts.
import { describe, expect, inject, it } from 'vitest';
import { toHex } from '../../src/core/bytes.js';
import { cb58Encode } from '../../src/core/encoding.js';
import { NetworkMismatchError, RpcError, ValidationError } from '../../src/core/errors.js';
import { amountOf, decodeSignedTx, ownersOf, utxoId } from '../../src/core/codec/index.js';
import { FUJI, LOCAL, MAINNET, P_CHAIN_ID, customPreset, discoverNetwork } from '../../src/core/network.js';
import { NodeClient } from '../../src/core/node.js';
import { TEST_NETWORK_ID } from './node-harness.js';

const url = inject('nodeUrl');
const client = (): NodeClient => new NodeClient({ url, atomicApi: LOCAL.atomicApi });

// The funded key of the local genesis, on the test network's custom ID (hrp `custom`).
const BODY = 'custom18jma8ppw3nhx5r4ap8clazz0dps7rv5u9xde7p';
const SHORT_ID = '3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c';
const EVM = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const NAVAX_PER_AVAX = 1_000_000_000n;

const EXPECTED = {
  networkID: TEST_NETWORK_ID,
  hrp: 'custom',
  xChainID: '2huFztbeB4LijVCoLrxP8NwFbRCdtLfUyvx4VXwD5VnVxzxkMX',
  cChainID: 'yUpqseBhEBBP2UCiX1vqf8UQCc4HVwyuNtzL5PUWzmNj2cFXi',
  pChainID: '11111111111111111111111111111111LpoYY',
  avaxAssetID: '28N55gFiYRrHWTopC4mybgvTw92x4EmWiZBLCRBgjXFyBgx9UN',
  evmChainID: 43112,
};

describe('a real local node', () => {
  it('discoverNetwork(LOCAL) finds the documented identity', async () => {
    const id = await discoverNetwork(client(), { ...LOCAL, url });
    expect(id).toMatchObject({
      ...EXPECTED,
      kind: 'local',
      avaxSymbol: 'AVAX',
      avaxDenomination: 9,
      stakingAssetID: EXPECTED.avaxAssetID,
      xTxFee: 1_000_000n,
      xCreateAssetTxFee: 1_000_000n,
    });
    expect(id.pChainID).toBe(P_CHAIN_ID);
  });

  it('a mismatched preset (fuji, mainnet) is refused', async () => {
    await expect(discoverNetwork(client(), { ...FUJI, url })).rejects.toBeInstanceOf(NetworkMismatchError);
    await expect(discoverNetwork(client(), { ...MAINNET, url })).rejects.toBeInstanceOf(NetworkMismatchError);
    await expect(discoverNetwork(client(), customPreset(url, { hrp: 'avax' }))).rejects.toBeInstanceOf(NetworkMismatchError);
    await expect(discoverNetwork(client(), customPreset(url))).resolves.toMatchObject({ networkID: TEST_NETWORK_ID, hrp: 'custom' });
  });

  it('info: version and bootstrap state', async () => {
    const n = client();
    const v = await n.info.getNodeVersion();
    expect(v.version).toBe('avalanchego/1.15.0');
    for (const chain of ['X', 'P', 'C']) expect(await n.info.isBootstrapped(chain)).toBe(true);
  });

  // The suite shares one node and other files spend from the genesis key; the exact genesis
  // balances are asserted while the chain is still at height 0 (always true when this file runs
  // first or alone), and the genesis allocation itself is checked from the genesis tx regardless.
  it('X genesis: the funded key holds exactly 300,000,000 AVAX in one UTXO', async () => {
    const n = client();
    const r = await n.getAllUtxos('X', [`X-${BODY}`]);
    expect(r.dropped).toEqual([]);
    for (const u of r.utxos) expect(ownersOf(u.output).addresses.map(toHex)).toContain(SHORT_ID);

    // The allocation, from the genesis CreateAssetTx (its ID is the AVAX asset ID).
    const genesisTx = decodeSignedTx(await n.avm.getTx(EXPECTED.avaxAssetID), 'avm');
    expect(genesisTx.unsigned.kind).toBe('CreateAssetTx');
    const unsigned = genesisTx.unsigned;
    if (unsigned.vm !== 'avm' || unsigned.kind !== 'CreateAssetTx') throw new Error('the AVAX genesis tx is not a CreateAssetTx');
    const created = unsigned.initialStates.flatMap((s) => s.outputs);
    const mine = created.findIndex((o) => ownersOf(o).addresses.some((a) => toHex(a) === SHORT_ID));
    expect(amountOf(created[mine]!)).toBe(300000000000000000n);
    const genesisUtxoId = `${EXPECTED.avaxAssetID}:${unsigned.outputs.length + mine}`;

    if ((await n.avm.getHeight()) === 0n) {
      expect(r.requests).toBe(1);
      const total = r.utxos.reduce((s, u) => s + amountOf(u.output), 0n);
      expect(total).toBe(300_000_000n * NAVAX_PER_AVAX);
      // Observed on v1.14.2 and v1.15: one TransferOutput at index 1 of the genesis tx.
      expect(r.utxos.map((u) => [u.output.kind, utxoId(u)])).toEqual([['TransferOutput', genesisUtxoId]]);
      expect(cb58Encode(r.utxos[0]!.assetID)).toBe(EXPECTED.avaxAssetID);
    }
  });

  it('P genesis: 30,000,000 AVAX, as plain (unlocked) TransferOutputs', async () => {
    const n = client();
    const r = await n.getAllUtxos('P', [`P-${BODY}`]);
    expect(r.dropped).toEqual([]);
    if ((await n.platform.getHeight()) === 0n) {
      const total = r.utxos.reduce((s, u) => s + amountOf(u.output), 0n);
      expect(total).toBe(30_000_000n * NAVAX_PER_AVAX);
      // Observed on v1.14.2 and v1.15: two TransferOutputs (10M and 20M AVAX) under the zero tx ID; none locked.
      expect(r.utxos.map((u) => u.output.kind)).toEqual(['TransferOutput', 'TransferOutput']);
      expect(r.utxos.map((u) => amountOf(u.output)).sort()).toEqual([10_000_000n * NAVAX_PER_AVAX, 20_000_000n * NAVAX_PER_AVAX]);
      expect(r.utxos.every((u) => cb58Encode(u.txID) === P_CHAIN_ID)).toBe(true);
    }
  });

  it('getAllUtxos pages on a real node (limit 1) and normalises the chain prefix', async () => {
    const n = client();
    const all = await n.getAllUtxos('P', [`P-${BODY}`]);
    const paged = await n.getAllUtxos('P', [`X-${BODY}`], { limit: 1 });
    expect(paged.utxos.map(utxoId).sort()).toEqual(all.utxos.map(utxoId).sort());
    expect(paged.requests).toBe(all.utxos.length + 1); // one per UTXO + the short page that ends it
    expect(paged.dropped).toEqual([]);
  });

  it('the atomic API answers under avax at /ext/bc/C/avax (no atomic UTXOs at genesis)', async () => {
    const n = client();
    for (const sourceChain of ['X', 'P']) {
      const r = await n.getAllUtxos('C', [`C-${BODY}`], { sourceChain });
      expect(r).toEqual({ utxos: [], encoded: [], digests: [], dropped: [], requests: 1 });
    }
    const unknown = cb58Encode(new Uint8Array(32).fill(7));
    expect(await n.atomic.findExecutedAtomicTx(unknown)).toBeUndefined();
    await expect(n.getAllUtxos('C', [`C-${BODY}`])).rejects.toBeInstanceOf(ValidationError);
  });

  it('a client configured with the documents\' "native" namespace gets a 404, not an answer', async () => {
    const n = new NodeClient({ url, atomicApi: { namespace: 'native', path: '/ext/bc/C/native' } });
    await expect(n.getAllUtxos('C', [`C-${BODY}`], { sourceChain: 'X' })).rejects.toThrow(/HTTP 404/);
  });

  it('P fee config and fee state have the documented shapes', async () => {
    const n = client();
    const cfg = await n.platform.getFeeConfig();
    expect(cfg).toEqual({
      weights: [1n, 1000n, 1000n, 4n],
      maxCapacity: 1_000_000n,
      maxPerSecond: 100_000n,
      targetPerSecond: 50_000n,
      minPrice: 1n,
      excessConversionConstant: 2_164_043n,
    });
    const state = await n.platform.getFeeState();
    expect(state.price).toBeGreaterThanOrEqual(cfg.minPrice);
    expect(typeof state.capacity).toBe('bigint');
    expect(typeof state.excess).toBe('bigint');
    expect(Number.isNaN(Date.parse(state.timestamp))).toBe(false);
    expect(await n.platform.getStakingAssetID()).toBe(EXPECTED.avaxAssetID);
    expect(typeof (await n.platform.getHeight())).toBe('bigint');
    expect(Number.isNaN(Date.parse(await n.platform.getTimestamp()))).toBe(false);
    expect(await n.avm.getTxFee()).toEqual({ txFee: 1_000_000n, createAssetTxFee: 1_000_000n });
  });

  it('X: the AVAX CreateAssetTx is Accepted and its bytes hash to its ID', async () => {
    const n = client();
    expect(await n.avm.getTxStatus(EXPECTED.avaxAssetID)).toBe('Accepted');
    const tx = await n.avm.getTx(EXPECTED.avaxAssetID);
    expect(tx.length).toBeGreaterThan(0);
    const done = await n.waitForTx('X', EXPECTED.avaxAssetID, { timeoutMs: 5000 });
    expect(done.accepted).toBe(true);
  });

  it('issueTx of garbage is an RpcError from the node on every chain', async () => {
    const n = client();
    const junk = new Uint8Array([0, 1, 2]);
    await expect(n.avm.issueTx(junk)).rejects.toBeInstanceOf(RpcError);
    await expect(n.platform.issueTx(junk)).rejects.toBeInstanceOf(RpcError);
    await expect(n.atomic.issueTx(junk)).rejects.toBeInstanceOf(RpcError);
  });

  it('C-Chain EVM: chain ID 0xa868, genesis balance, fees', async () => {
    const n = client();
    expect(await n.eth.chainId()).toBe(43112n);
    expect(await n.eth.ethCall('eth_chainId')).toBe('0xa868');
    // At block 0, so other files spending from the genesis key first do not matter.
    expect(await n.eth.getBalance(EVM, 0n)).toBe(50_000_000n * 10n ** 18n);
    expect(await n.eth.baseFee()).toBeGreaterThanOrEqual(1n);
    expect(await n.eth.maxPriorityFeePerGas()).toBeGreaterThanOrEqual(0n);
    expect(await n.eth.estimateGas({ from: EVM, to: EVM, value: '0x1' })).toBe(21000n);
    expect(await n.eth.getTransactionReceipt('0x' + '00'.repeat(31) + '01')).toBeNull();
    const genesis = await n.eth.getBlockByNumber(0n);
    expect(genesis?.number).toBe(0n);
    expect(await n.eth.blockNumber()).toBeGreaterThanOrEqual(0n);
  });

  it('health and readiness are 200', async () => {
    const n = client();
    const ready = await n.health.readiness();
    expect(ready.healthy).toBe(true);
    expect(Object.keys(ready.checks)).toContain('bootstrapped');
    const health = await n.health.health();
    expect(Object.keys(health.checks)).toEqual(expect.arrayContaining(['X', 'P', 'C', 'bootstrapped', 'network']));
    // The Primary Network's checks. (The whole node may report a test chain whose VM does not exist:
    // pvm-types.test.ts creates one, and with sybil protection off the node tries to run it.)
    const primary = Object.fromEntries(['X', 'P', 'C', 'network', 'database', 'bls'].map((k) => [k, (health.checks[k] as { error?: unknown } | undefined)?.error]));
    expect(primary).toEqual({ X: undefined, P: undefined, C: undefined, network: undefined, database: undefined, bls: undefined });
  });

  it('the index API is enabled (empty or not, it answers)', async () => {
    const n = client();
    for (const name of ['X/tx', 'X/block', 'P/block', 'C/block'] as const) {
      try {
        const c = await n.index(name).getLastAccepted();
        expect(c.index).toBeGreaterThanOrEqual(0n);
      } catch (e) {
        expect(e).toBeInstanceOf(RpcError);
        expect((e as RpcError).rpcMessage).toMatch(/no containers/);
      }
    }
  });
});
