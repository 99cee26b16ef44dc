// Section 3: against a real local node (started here, stopped here). An HD account with 50 used
// receive addresses holding 5,000, then 50,000 X-Chain UTXOs between them; at each, the time to a
// complete balance view (every UTXO fetched, checked, decoded and classified) and the round trips
// it took. The reference side by side: avalanchejs' own AVMApi.getUTXOs, paged the same way,
// amounts summed.
import { avm, utils } from '@avalabs/avalanchejs';
import { toHex } from '../src/core/bytes.js';
import { WalletEngine } from '../src/core/engine.js';
import { formatAddress, parsePrivateKey } from '../src/core/encoding.js';
import { deriveEvmKey, deriveXpKey, generateMnemonic, HdRoot, keyPairFromSecret, mnemonicToSeed, type KeyPair } from '../src/core/keys.js';
import { chainContextOf, discoverNetwork, LOCAL } from '../src/core/network.js';
import { MAX_UTXO_PAGE, NodeClient } from '../src/core/node.js';
import { memoryProofCache } from '../src/core/proof.js';
import { makeOwners } from '../src/core/tx/context.js';
import { resolveNodeBinary, startLocalNode } from '../test/integration/node-harness.js';
import { statsOf, type Stats } from './measure.js';

export const ADDRESSES = 50;
/** The balance view is timed at each of these UTXO counts, the account funded up to each in turn. */
export const UTXO_COUNTS = [5_000, 50_000] as const;
/** Outputs per funding tx: 625 × 80 bytes ≈ 50 KB signed, under the 64 KiB mempool limit. */
const PER_TX = 625;
const UNIT = 1_000_000n; // 0.001 AVAX per UTXO
const RUNS = 11;

/** The local network's pre-funded key: public knowledge, used only to fund the bench account. */
export const GENESIS_KEY = keyPairFromSecret(parsePrivateKey('PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN'));

export interface BalanceAtSize {
  utxos: number;
  fundingMs: number;
  ours: Stats;
  ref: Stats;
  /** Per-run ratios reference ÷ ours (runs paired: same round). */
  ratio: Stats;
  /** Round trips of one balance view (the same every run; the last run's is reported). */
  oursRequests: number;
  refRequests: number;
  totalOk: boolean;
  detail: string;
}

export interface NodeResult {
  startupMs: number;
  sizes: BalanceAtSize[];
}

export async function nodeSection(log: (msg: string) => void): Promise<NodeResult> {
  const binary = await resolveNodeBinary();
  const node = await startLocalNode({ binary });
  log(`node ready at ${node.url} in ${node.startupMs} ms`);
  try {
    const setupClient = new NodeClient({ url: node.url, atomicApi: LOCAL.atomicApi, timeoutMs: 30_000 });
    const identity = await discoverNetwork(setupClient, { ...LOCAL, url: node.url });
    const ctx = chainContextOf(identity);
    const engineOptions = { evmChainId: BigInt(identity.evmChainID), wait: { timeoutMs: 60_000, pollMs: 50 } };
    const genesis = new WalletEngine(setupClient, ctx, { xp: [GENESIS_KEY], evm: GENESIS_KEY, change: GENESIS_KEY.shortId }, engineOptions);

    // The account: a fresh mnemonic, receive addresses m/44'/9000'/0'/0/0…49, each one used.
    const root = HdRoot.fromSeed(await mnemonicToSeed(generateMnemonic(24)));
    const keys: KeyPair[] = Array.from({ length: ADDRESSES }, (_, i) => deriveXpKey(root, 0, 0, i));
    const evmKey = deriveEvmKey(root, 0);
    const addresses = keys.map((k) => formatAddress('X', ctx.hrp, k.shortId));
    // The wallet keeps its proofs (xpc.utxoProofs): a popup opening finds the account's UTXOs
    // proven by an earlier refresh. The untimed first run fills this cache; what proving costs
    // when it is empty is measured on its own (utxo-proof.ts).
    const proofs = memoryProofCache();

    // Ours: what the popup does on open: a fresh client and engine, then balances('X').
    const oursOnce = async (): Promise<{ ms: number; requests: number; total: bigint }> => {
      const client = new NodeClient({ url: node.url, atomicApi: LOCAL.atomicApi, timeoutMs: 30_000 });
      const engine = new WalletEngine(client, ctx, { xp: keys, evm: evmKey, change: keys[0]!.shortId }, { ...engineOptions, proofs });
      const start = process.hrtime.bigint();
      const balances = await engine.balances('X');
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const avax = balances.find((b) => toHex(b.assetID) === toHex(ctx.avaxAssetID));
      return { ms, requests: client.requestCount, total: avax?.spendable ?? 0n };
    };
    // avalanchejs: its X API client, page by page (1024 per page, as many as the node gives).
    const refOnce = async (): Promise<{ ms: number; requests: number; total: bigint }> => {
      const api = new avm.AVMApi(node.url);
      const start = process.hrtime.bigint();
      let total = 0n;
      let requests = 0;
      let startIndex: { address: string; utxo: string } | undefined;
      for (;;) {
        requests++;
        const page = await api.getUTXOs({ addresses, limit: MAX_UTXO_PAGE, ...(startIndex ? { startIndex } : {}) });
        for (const u of page.utxos) if (utils.isTransferOut(u.output)) total += u.output.amount();
        if (page.utxos.length < MAX_UTXO_PAGE) break;
        startIndex = page.endIndex;
      }
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      return { ms, requests, total };
    };

    const sizes: BalanceAtSize[] = [];
    let funded = 0;
    for (const target of UTXO_COUNTS) {
      const fundingStart = performance.now();
      for (; funded < target; funded += PER_TX) {
        const payments = Array.from({ length: Math.min(PER_TX, target - funded) }, (_, i) => ({
          assetID: ctx.avaxAssetID,
          amount: UNIT,
          owners: makeOwners([keys[(funded + i) % ADDRESSES]!.shortId]),
        }));
        await genesis.issueAndWait(await genesis.buildXSend(payments));
        if ((funded / PER_TX) % 8 === 7) log(`funded ${Math.min(funded + PER_TX, target)}/${target} UTXOs`);
      }
      funded = target;
      const fundingMs = performance.now() - fundingStart;
      const expected = UNIT * BigInt(target);

      // One untimed run each (connection set-up, JIT, proofs), then alternating timed runs.
      await oursOnce();
      await refOnce();
      const ours: number[] = [];
      const ref: number[] = [];
      let oursRequests = 0;
      let refRequests = 0;
      let totalOk = true;
      for (let i = 0; i < RUNS; i++) {
        // Who goes first alternates, so neither always meets a node still busy with the other.
        let a: Awaited<ReturnType<typeof oursOnce>>;
        let b: Awaited<ReturnType<typeof refOnce>>;
        if (i % 2 === 0) {
          a = await oursOnce();
          b = await refOnce();
        } else {
          b = await refOnce();
          a = await oursOnce();
        }
        ours.push(a.ms);
        ref.push(b.ms);
        oursRequests = a.requests;
        refRequests = b.requests;
        if (a.total !== expected || b.total !== expected) totalOk = false;
      }
      log(`balance view of ${target} UTXOs: ours ${statsOf(ours).median.toFixed(0)} ms, avalanchejs ${statsOf(ref).median.toFixed(0)} ms`);
      sizes.push({
        utxos: target,
        fundingMs,
        ours: statsOf(ours),
        ref: statsOf(ref),
        ratio: statsOf(ref.map((r, i) => r / ours[i]!)),
        oursRequests,
        refRequests,
        totalOk,
        detail: `${ADDRESSES} addresses, ${target} UTXOs of ${UNIT} nAVAX, ${Math.ceil(target / PER_TX)} funding txs`,
      });
    }
    return { startupMs: node.startupMs, sizes };
  } finally {
    await node.stop();
    log('node stopped');
  }
}
