// Section 3, proofs: what proving UTXOs against the txs that created them (src/core/proof.ts)
// adds to a refresh of the X-Chain UTXOs, against a real local node (started here, stopped here).
// A refresh = getAllUtxos, then proveUtxos over what it read. Two accounts of 50 addresses, 5,000
// UTXOs each: (a) made by 8 txs of 625 outputs, (b) made by 5,000 txs of one output (the worst
// case: one getTx per UTXO). Each is timed with an empty cache (first refresh) and with the cache
// the first refresh filled (cached refresh), side by side with getAllUtxos alone (the reference).
import { WalletEngine } from '../src/core/engine.js';
import { formatAddress } from '../src/core/encoding.js';
import { deriveXpKey, generateMnemonic, HdRoot, mnemonicToSeed, type KeyPair } from '../src/core/keys.js';
import { chainContextOf, discoverNetwork, LOCAL } from '../src/core/network.js';
import { NodeClient } from '../src/core/node.js';
import { memoryProofCache, proveUtxos, type ProofCache } from '../src/core/proof.js';
import { makeOwners, type ChainContext } from '../src/core/tx/context.js';
import { buildXSend } from '../src/core/tx/x.js';
import { resolveNodeBinary, startLocalNode } from '../test/integration/node-harness.js';
import { compare, fmtMs, fmtRatio, fmtStats, statsOf, type Budget, type Stats } from './measure.js';
import { GENESIS_KEY } from './node-balance.js';
import type { Row } from './report.js';

export const PROOF_UTXOS = 5_000;
const ADDRESSES = 50;
/** Outputs per funding tx, as in node-balance.ts (≈ 50 KB signed, under the 64 KiB mempool limit). */
const PER_TX = 625;
const UNIT = 1_000_000n; // 0.001 AVAX per UTXO
/** Single-output txs of case (b) issued at once, without waiting for each. */
const BATCH = 50;
/** Cached refresh ≤ this × the refresh without proofs. */
const CACHED_LIMIT = 1.2;
const BUDGET: Budget = { warmup: 1, minSamples: 7, maxSamples: 15, budgetMs: 4_000 };
/** The cached refresh costs about what the reference does, so it gets more rounds for the same time. */
const CACHED_BUDGET: Budget = { warmup: 2, minSamples: 15, maxSamples: 40, budgetMs: 4_000 };

interface CaseResult {
  label: string;
  txs: number;
  /** getAllUtxos alone, in the first refresh's rounds and in the cached refresh's rounds. */
  refFirst: Stats;
  refCached: Stats;
  first: Stats;
  cached: Stats;
  /** proveUtxos alone within each timed cached refresh. */
  cachedProve: Stats;
  firstRatio: Stats;
  cachedRatio: Stats;
  /** getTx round trips of one refresh (result.txsRead). */
  firstTxsRead: number;
  cachedTxsRead: number;
  /** getUTXOs round trips of one refresh (the same with and without proofs). */
  pages: number;
  problems: string[];
}

export interface ProofResult {
  rows: Row[];
  problems: string[];
  /** proveUtxos alone in the cached refreshes, by case: "8 txs" and "5000 txs". */
  cachedProve: { txs: number; stats: Stats }[];
}

type Log = (msg: string) => void;

/** Pays `count` outputs of `amount` from `engine`'s funds, PER_TX outputs a tx, each tx waited for. */
async function payOut(engine: WalletEngine, ctx: ChainContext, count: number, amount: number | bigint, ownerOf: (i: number) => KeyPair, log: Log): Promise<void> {
  for (let sent = 0; sent < count; sent += PER_TX) {
    const payments = Array.from({ length: Math.min(PER_TX, count - sent) }, (_, i) => ({
      assetID: ctx.avaxAssetID,
      amount: BigInt(amount),
      owners: makeOwners([ownerOf(sent + i).shortId]),
    }));
    await engine.issueAndWait(await engine.buildXSend(payments));
    log(`  paid ${Math.min(sent + PER_TX, count)}/${count} outputs`);
  }
}

/** Waits until the node shows `count` UTXOs for `addresses` (the txs issued without waiting). */
async function untilCount(client: NodeClient, addresses: string[], count: number, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const n = (await client.getAllUtxos('X', addresses)).utxos.length;
    if (n === count) return;
    if (Date.now() > deadline) throw new Error(`the node shows ${n} UTXOs, not ${count}, ${timeoutMs} ms after the last tx was issued`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * One case in two comparisons, each against getAllUtxos alone: the first refresh (empty cache each
 * round), then the cached refresh on the cache the last first refresh filled. Apart, so no cached
 * round pays for collecting a first refresh's garbage (5,000 decoded txs in case b).
 */
async function measureCase(url: string, ctx: ChainContext, label: string, txs: number, addresses: string[]): Promise<CaseResult> {
  const client = new NodeClient({ url, atomicApi: LOCAL.atomicApi, timeoutMs: 30_000 });
  const problems = new Set<string>();
  let cache: ProofCache = memoryProofCache();
  let firstTxsRead = -1;
  let cachedTxsRead = -1;
  let pages = -1;
  const proveTimes: number[] = [];
  const read = async () => {
    const result = await client.getAllUtxos('X', addresses);
    if (result.utxos.length !== PROOF_UTXOS || result.dropped.length > 0) problems.add(`${label}: getAllUtxos read ${result.utxos.length} UTXOs (${result.dropped.length} dropped), not ${PROOF_UTXOS}`);
    pages = result.requests;
    return result;
  };
  const refresh = async (c: ProofCache) => {
    const result = await read();
    const proveStart = performance.now();
    const checked = await proveUtxos(client, 'X', result.utxos.map((utxo, i) => ({ utxo, bytes: result.encoded[i]!, digest: result.digests[i]! })), { network: ctx, cache: c });
    const proveMs = performance.now() - proveStart;
    if (checked.utxos.length !== PROOF_UTXOS || checked.unproven.length > 0 || checked.disproven.length > 0) {
      problems.add(`${label}: proveUtxos kept ${checked.utxos.length} UTXOs, ${checked.unproven.length} unproven, ${checked.disproven.length} disproven (expected ${PROOF_UTXOS}, 0, 0)`);
    }
    return { checked, proveMs };
  };
  const firsts = await compare(
    {
      ref: read,
      first: async () => {
        cache = memoryProofCache();
        const { checked } = await refresh(cache);
        firstTxsRead = checked.txsRead;
        return checked;
      },
    },
    BUDGET,
  );
  const cachedRounds = await compare(
    {
      ref: read,
      cached: async () => {
        const { checked, proveMs } = await refresh(cache);
        cachedTxsRead = checked.txsRead;
        proveTimes.push(proveMs);
        return checked;
      },
    },
    CACHED_BUDGET,
  );
  // The warm-up runs are in proveTimes too; keep the timed rounds' only.
  const timedProve = proveTimes.slice(proveTimes.length - cachedRounds.rounds);
  return {
    label,
    txs,
    refFirst: firsts.stats.ref,
    refCached: cachedRounds.stats.ref,
    first: firsts.stats.first,
    cached: cachedRounds.stats.cached,
    cachedProve: statsOf(timedProve),
    firstRatio: firsts.pairRatios('first', 'ref'),
    cachedRatio: cachedRounds.pairRatios('cached', 'ref'),
    firstTxsRead,
    cachedTxsRead,
    pages,
    problems: [...problems],
  };
}

function caseRows(r: CaseResult, note: string): Row[] {
  const name = `proving ${PROOF_UTXOS} UTXOs made by ${r.txs} txs`;
  return [
    { section: '3', case: `${name}: first refresh (empty cache)`, ours: fmtStats(r.first), reference: `getAllUtxos only ${fmtStats(r.refFirst)}`, ratio: fmtRatio(r.firstRatio), limit: '—', met: '—', note },
    {
      section: '3',
      case: `${name}: cached refresh (same cache)`,
      ours: fmtStats(r.cached),
      reference: `getAllUtxos only ${fmtStats(r.refCached)}`,
      ratio: fmtRatio(r.cachedRatio),
      limit: `≤ ${CACHED_LIMIT}× no-proof`,
      met: r.cachedRatio.median <= CACHED_LIMIT ? 'yes' : 'no',
      note:
        `Timed in rounds of its own against getAllUtxos alone, after the first refresh's rounds, on the cache the last of them filled ` +
        `(so no cached round pays for collecting a first refresh's garbage); ${CACHED_BUDGET.warmup} untimed runs each. ` +
        `Of each cached refresh, proveUtxos itself (a fingerprint and a cache lookup per UTXO, no getTx) took ${fmtStats(r.cachedProve)}.`,
    },
    {
      section: '3',
      case: `${name}: getTx round trips (first; cached)`,
      ours: `${r.firstTxsRead}; ${r.cachedTxsRead} (plus ${r.pages} getUTXOs pages each)`,
      reference: `${r.pages} getUTXOs pages`,
      ratio: '—',
      limit: `first ≤ ${r.txs} (one per creating tx); cached 0`,
      met: r.firstTxsRead <= r.txs && r.cachedTxsRead === 0 ? 'yes' : 'no',
    },
  ];
}

export async function proofSection(log: Log): Promise<ProofResult> {
  const binary = await resolveNodeBinary();
  const node = await startLocalNode({ binary });
  log(`node ready at ${node.url} in ${node.startupMs} ms`);
  try {
    const client = new NodeClient({ url: node.url, atomicApi: LOCAL.atomicApi, timeoutMs: 30_000 });
    const identity = await discoverNetwork(client, { ...LOCAL, url: node.url });
    const ctx = chainContextOf(identity);
    const wait = { timeoutMs: 120_000, pollMs: 50 };
    const engineOptions = { evmChainId: BigInt(identity.evmChainID), wait };
    const genesis = new WalletEngine(client, ctx, { xp: [GENESIS_KEY], evm: GENESIS_KEY, change: GENESIS_KEY.shortId }, engineOptions);

    // Accounts a and b (50 receive addresses each) and a helper key that pays b, one tx a UTXO.
    const root = HdRoot.fromSeed(await mnemonicToSeed(generateMnemonic(24)));
    const keysA = Array.from({ length: ADDRESSES }, (_, i) => deriveXpKey(root, 0, 0, i));
    const keysB = Array.from({ length: ADDRESSES }, (_, i) => deriveXpKey(root, 1, 0, i));
    const helper = deriveXpKey(root, 2, 0, 0);
    const addressesOf = (keys: KeyPair[]): string[] => keys.map((k) => formatAddress('X', ctx.hrp, k.shortId));

    log(`(a) funding ${PROOF_UTXOS} UTXOs in ${Math.ceil(PROOF_UTXOS / PER_TX)} txs`);
    let start = performance.now();
    await payOut(genesis, ctx, PROOF_UTXOS, UNIT, (i) => keysA[i % ADDRESSES]!, log);
    const fundingA = performance.now() - start;

    log(`(b) splitting genesis funds into ${PROOF_UTXOS} UTXOs of the helper key`);
    start = performance.now();
    const each = UNIT + ctx.xTxFee; // one payment of UNIT and its fee: no change
    await payOut(genesis, ctx, PROOF_UTXOS, each, () => helper, log);
    const splitMs = performance.now() - start;
    const helperEngine = new WalletEngine(client, ctx, { xp: [helper], evm: helper, change: helper.shortId }, engineOptions);
    const pool = (await helperEngine.spendable('X')).filter((s) => s.amount === each);
    if (pool.length !== PROOF_UTXOS) throw new Error(`the helper key holds ${pool.length} UTXOs of ${each} nAVAX, not ${PROOF_UTXOS}`);

    log(`(b) issuing ${PROOF_UTXOS} single-output txs, ${BATCH} at a time`);
    start = performance.now();
    const changeOwners = makeOwners([helper.shortId]);
    let last: string[] = [];
    for (let i = 0; i < PROOF_UTXOS; i += BATCH) {
      last = await Promise.all(
        pool.slice(i, i + BATCH).map(async (s, j) => {
          const payment = { assetID: ctx.avaxAssetID, amount: UNIT, owners: makeOwners([keysB[(i + j) % ADDRESSES]!.shortId]) };
          const signed = helperEngine.sign(buildXSend({ ctx, pool: [s], changeOwners, payments: [payment] }));
          await helperEngine.submit('X', signed.signedBytes, signed.txID);
          return signed.txID;
        }),
      );
      if ((i + BATCH) % 1000 === 0) log(`  issued ${i + BATCH}/${PROOF_UTXOS}`);
    }
    const issueMs = performance.now() - start;
    const outcomes = await Promise.all(last.map((id) => client.waitForTx('X', id, wait)));
    if (outcomes.some((o) => !o.accepted)) throw new Error(`a tx of the last batch was not accepted: ${outcomes.find((o) => !o.accepted)!.status}`);
    await untilCount(client, addressesOf(keysB), PROOF_UTXOS);
    const fundingB = performance.now() - start;
    log(`(b) ${PROOF_UTXOS} txs issued in ${fmtMs(issueMs)}, all accepted after ${fmtMs(fundingB)}`);

    log(`(a) timing refreshes: ${PROOF_UTXOS} UTXOs from ${Math.ceil(PROOF_UTXOS / PER_TX)} txs`);
    const a = await measureCase(node.url, ctx, '(a)', Math.ceil(PROOF_UTXOS / PER_TX), addressesOf(keysA));
    log(`  first ${fmtMs(a.first.median)} (${a.firstTxsRead} getTx), cached ${fmtMs(a.cached.median)}, no proof ${fmtMs(a.refCached.median)}`);
    log(`(b) timing refreshes: ${PROOF_UTXOS} UTXOs from ${PROOF_UTXOS} txs`);
    const b = await measureCase(node.url, ctx, '(b)', PROOF_UTXOS, addressesOf(keysB));
    log(`  first ${fmtMs(b.first.median)} (${b.firstTxsRead} getTx), cached ${fmtMs(b.cached.median)}, no proof ${fmtMs(b.refCached.median)}`);

    const common =
      `${ADDRESSES} addresses, UTXOs of ${UNIT} nAVAX; one client per case; first refresh and getAllUtxos interleaved, after ${BUDGET.warmup} untimed run each; ` +
      `getTx 8 at a time (proveUtxos' default). The node has served every getTx before the timed rounds, so its own caches are warm. Node start ${fmtMs(node.startupMs)}.`;
    const noteA = `${common} Funding (not timed): ${Math.ceil(PROOF_UTXOS / PER_TX)} txs of ${PER_TX} outputs, each waited for, ${fmtMs(fundingA)}.`;
    const noteB =
      `${common} Funding (not timed): genesis funds split into ${PROOF_UTXOS} UTXOs of a helper key (${Math.ceil(PROOF_UTXOS / PER_TX)} txs) ${fmtMs(splitMs)}; ` +
      `then ${PROOF_UTXOS} one-output BaseTxs from the helper key, signed and issued ${BATCH} at a time without waiting, ${fmtMs(issueMs)}, all accepted after ${fmtMs(fundingB)}.`;
    return {
      rows: [...caseRows(a, noteA), ...caseRows(b, noteB)],
      problems: [...a.problems, ...b.problems],
      cachedProve: [a, b].map((c) => ({ txs: c.txs, stats: c.cachedProve })),
    };
  } finally {
    await node.stop();
    log('node stopped');
  }
}
