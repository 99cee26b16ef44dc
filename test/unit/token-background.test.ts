// The background's token parts that need no node: how a token's own words are checked, the log scan
// over a node that limits eth_getLogs ranges (a stand-in that refuses wide ranges, as public nodes
// do; the test node has no limit), and NFT metadata read only as the user asks.
import { describe, expect, it } from 'vitest';
import { addressTopic, selectorOf } from '../../src/core/evm-abi.js';
import { NodeUnreachableError, RpcError } from '../../src/core/errors.js';
import { APPROVAL_TOPIC, TRANSFER_SINGLE_TOPIC, TRANSFER_TOPIC } from '../../src/core/evm-simulate.js';
import type { EthApi, EthLog, LogFilter } from '../../src/core/node/eth.js';
import { memoryStores } from '../../src/background/storage.js';
import { mapLimited } from '../../src/background/map-limited.js';
import { PER_UNLISTED_CONTRACT, RANGES_PER_REFRESH, type ScanState, scanView, TokenScanner } from '../../src/background/token-scan.js';
import { checkedWords, type StoredToken } from '../../src/background/token-store.js';
import { TokensService } from '../../src/background/services/tokens.js';
import { SiteTokens } from '../../src/background/site-tokens.js';
import { evmTxInsight } from '../../src/background/evm-views.js';
import { encodeCall } from '../../src/core/evm-abi.js';

const ME = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const TOKEN = '0x1CB79692389258FD0da4911A4947dF2C51DC7A47';
const OTHER = '0x2222222222222222222222222222222222222222';
const listed: StoredToken[] = [{ address: TOKEN, standard: 'erc20', name: 'Test Dollar', symbol: 'TUSD', decimals: 6, addedBy: 'wallet', addedAt: 0 }];

describe("a token's own words", () => {
  it('look-alikes of AVAX (other scripts, case, separators) and of a listed token are flagged; hidden characters removed and said', () => {
    expect(checkedWords({ address: OTHER, name: 'Wrapped thing', symbol: 'А.V.А.Х' }, listed, 'AVAX').checks.posesAsNative).toBe(true);
    expect(checkedWords({ address: OTHER, name: 'Avalanche', symbol: 'XYZ' }, listed, 'AVAX').checks.posesAsNative).toBe(true);
    expect(checkedWords({ address: OTHER, name: 'Wrapped AVAX', symbol: 'WAVAX' }, listed, 'AVAX').checks.posesAsNative).toBe(false);
    const twin = checkedWords({ address: OTHER, name: 'x', symbol: 'tusd\u202e' }, listed, 'AVAX');
    expect(twin).toEqual({ name: 'x', symbol: 'tusd', checks: { altered: true, posesAsNative: false, looksLike: { address: TOKEN, symbol: 'TUSD' } } });
    // The listed token itself is not its own look-alike.
    expect(checkedWords(listed[0]!, listed, 'AVAX').checks).toEqual({ altered: false, posesAsNative: false });
    expect(checkedWords({ address: OTHER, name: 'n'.repeat(100), symbol: 'S' }, listed, 'AVAX').name.length).toBeLessThanOrEqual(40);
  });
});

/** A node whose eth_getLogs refuses ranges wider than `limit` blocks, with logs at given blocks. */
function limitedNode(head: bigint, limit: bigint, logs: EthLog[]) {
  const asked: [bigint, bigint][] = [];
  const eth = {
    blockNumber: async () => head,
    getBlockByNumber: async (n: bigint) => (n <= head ? { number: n } : null),
    getLogs: async (f: LogFilter) => {
      asked.push([f.fromBlock, f.toBlock]);
      if (f.toBlock - f.fromBlock + 1n > limit) throw new RpcError('eth_getLogs', -32000, `block range too large (max ${limit})`);
      const wanted = f.topics!;
      return logs.filter((l) => l.blockNumber >= f.fromBlock && l.blockNumber <= f.toBlock && wanted.every((t, i) => t === null || (Array.isArray(t) ? t.includes(l.topics[i]!) : t === l.topics[i])));
    },
  };
  return { eth: eth as unknown as EthApi, asked };
}

const log = (block: bigint, topics: string[], data = `0x${'0'.repeat(63)}5`): EthLog => ({ address: TOKEN, topics, data, blockNumber: block, transactionHash: `0x${block.toString(16).padStart(64, '0')}`, logIndex: 0n });

describe('letters of other scripts', () => {
  const usdc: StoredToken = { address: TOKEN, standard: 'erc20', name: 'USD Coin', symbol: 'USDC', decimals: 6, addedBy: 'wallet', addedAt: 0 };
  it('small capitals and Cherokee read as AVAX; Armenian and Georgian as a listed USDC; any letter outside ASCII is said', () => {
    for (const symbol of ['ᴀᴠᴀx', 'ᎪᏙᎪX']) expect(checkedWords({ address: OTHER, name: 'x', symbol }, [usdc], 'AVAX').checks).toMatchObject({ posesAsNative: true, otherScripts: true });
    for (const symbol of ['ՍSDC', 'ႽSDC']) expect(checkedWords({ address: OTHER, name: 'x', symbol }, [usdc], 'AVAX').checks).toMatchObject({ looksLike: { address: TOKEN, symbol: 'USDC' }, otherScripts: true });
    expect(checkedWords({ address: OTHER, name: 'Ƭoken', symbol: 'TKN' }, [usdc], 'AVAX').checks.otherScripts).toBe(true);
    expect(checkedWords({ address: OTHER, name: 'Plain Token', symbol: 'TKN' }, [usdc], 'AVAX').checks.otherScripts).toBeUndefined();
  });
});

describe('the log scan', () => {
  it('halves a range the node refuses, reads newest first within a bounded number of ranges, and finishes the rest later', async () => {
    const head = 10_000n;
    const incoming = log(9_990n, [TRANSFER_TOPIC, addressTopic(OTHER), addressTopic(ME)]);
    const old = log(10n, [APPROVAL_TOPIC, addressTopic(ME), addressTopic(OTHER)], `0x${'f'.repeat(64)}`);
    const { eth, asked } = limitedNode(head, 500n, [incoming, old]);
    const scanner = new TokenScanner(memoryStores().local);
    const first = await scanner.refresh('net', 'acc', eth, ME);
    expect(first.error).toBeUndefined();
    expect(first.transfers).toMatchObject([{ blockNumber: '9990', from: OTHER, to: ME, amount: '5', standard: 'erc20' }]);
    expect(BigInt(first.fromBlock)).toBeGreaterThan(0n);
    expect(asked.every(([a, b]) => b >= a)).toBe(true);
    // Later refreshes go on from where it stopped, and join up with what was read.
    let s = first;
    for (let i = 0; i < 20 && s.fromBlock !== '0'; i++) s = await scanner.refresh('net', 'acc', eth, ME);
    expect(s.fromBlock).toBe('0');
    expect(s.toBlock).toBe(head.toString());
    expect(s.approvals).toMatchObject([{ token: TOKEN, spender: OTHER, kind: 'allowance', blockNumber: '10' }]);
    expect(RANGES_PER_REFRESH).toBeGreaterThan(1);
  });

  it('read back to block 0 is not complete while newer blocks wait: more came than one refresh reads', async () => {
    let head = 100n;
    const eth = { blockNumber: async () => head, getBlockByNumber: async (n: bigint) => ({ number: n }), getLogs: async () => [] } as unknown as EthApi;
    const scanner = new TokenScanner(memoryStores().local);
    expect(scanView(await scanner.refresh('net', 'acc', eth, ME))).toMatchObject({ fromBlock: '0', toBlock: '100', complete: true });
    head += BigInt(RANGES_PER_REFRESH) * 2048n + 10n;
    const later = scanView(await scanner.refresh('net', 'acc', eth, ME));
    expect(later).toMatchObject({ fromBlock: '0', complete: false, behind: true });
    expect(BigInt(later.toBlock)).toBeLessThan(head);
    expect(scanView(await scanner.refresh('net', 'acc', eth, ME))).toMatchObject({ toBlock: head.toString(), complete: true });
  });

  it('a node that refuses even small ranges: the scan stops with the reason, keeping what it read', async () => {
    const eth = { blockNumber: async () => 100n, getBlockByNumber: async (n: bigint) => ({ number: n }), getLogs: async () => Promise.reject(new RpcError('eth_getLogs', -32005, 'query limit exceeded')) } as unknown as EthApi;
    const s = await new TokenScanner(memoryStores().local).refresh('net', 'acc', eth, ME);
    expect(s.error).toMatch(/query limit exceeded/);
    expect(scanView(s)).toMatchObject({ error: s.error, errorCode: 'rpc' });
    expect(BigInt(s.toBlock)).toBeLessThan(BigInt(s.fromBlock));
  });
});

describe('a node that lies about its latest block', () => {
  const approvalAt = (block: bigint): EthLog => log(block, [APPROVAL_TOPIC, addressTopic(ME), addressTopic(OTHER)], `0x${'f'.repeat(64)}`);
  /** A chain at `n.head` holding `logs`; while `n.lie` is set the node says that head instead and gives no logs, with a made-up block at it when `n.backed`. */
  function chainNode(logs: EthLog[]) {
    const n = { head: 100n, lie: undefined as bigint | undefined, backed: false };
    const eth = {
      blockNumber: async () => n.lie ?? n.head,
      getBlockByNumber: async (b: bigint) => (b <= n.head || (n.lie && n.backed) ? { number: b } : null),
      getLogs: async (f: LogFilter) => (n.lie ? [] : logs.filter((l) => l.blockNumber >= f.fromBlock && l.blockNumber <= f.toBlock && l.blockNumber <= n.head)),
    } as unknown as EthApi;
    return { n, eth };
  }

  it('a head 1,000,000 blocks ahead, once: nothing is read past the real chain, the scan is not complete meanwhile, and a later approval is found', async () => {
    const logs: EthLog[] = [];
    const { n, eth } = chainNode(logs);
    const scanner = new TokenScanner(memoryStores().local);
    expect(scanView(await scanner.refresh('net', 'acc', eth, ME))).toMatchObject({ toBlock: '100', complete: true });
    n.lie = n.head + 1_000_000n;
    expect(scanView(await scanner.refresh('net', 'acc', eth, ME))).toMatchObject({ toBlock: '100', complete: false, behind: true, errorCode: 'node-response', error: 'the node gave no block 1000100, its own latest' });
    n.lie = undefined;
    n.head = 150n;
    logs.push(approvalAt(120n));
    const s = await scanner.refresh('net', 'acc', eth, ME);
    expect(s.approvals).toMatchObject([{ spender: OTHER, blockNumber: '120' }]);
    expect(scanView(s)).toMatchObject({ toBlock: '150', complete: true });
  });

  it('a node that fails to give its latest block or its number: what was found is kept and shown with why, nothing stored; the next refresh reads on', async () => {
    const logs = [approvalAt(50n)];
    const { n, eth } = chainNode(logs);
    const store = memoryStores().local;
    const scanner = new TokenScanner(store);
    const first = await scanner.refresh('net', 'acc', eth, ME);
    const stored = await scanner.get('net', 'acc');
    n.head = 150n;
    const unreachable = new NodeUnreachableError('http://n', 'timeout');
    for (const failing of [{ getBlockByNumber: async () => Promise.reject(unreachable) }, { blockNumber: async () => Promise.reject(unreachable) }]) {
      const s = await scanner.refresh('net', 'acc', { ...eth, ...failing } as unknown as EthApi, ME);
      expect(s).toMatchObject({ approvals: first.approvals, toBlock: '100', error: unreachable.message, errorCode: 'node-unreachable' });
      expect(await scanner.get('net', 'acc')).toEqual(stored);
    }
    logs.push(approvalAt(140n));
    const s = await scanner.refresh('net', 'acc', eth, ME);
    expect(s).not.toHaveProperty('error');
    expect(scanView(s)).toMatchObject({ toBlock: '150', complete: true });
  });

  it('a lie the node backs with a made-up block: once the head is seen below the blocks read, those past it are read again as they come', async () => {
    const logs: EthLog[] = [];
    const { n, eth } = chainNode(logs);
    const scanner = new TokenScanner(memoryStores().local);
    await scanner.refresh('net', 'acc', eth, ME);
    n.lie = n.head + 1_000_000n;
    n.backed = true;
    expect(scanView(await scanner.refresh('net', 'acc', eth, ME)).complete).toBe(false);
    n.lie = undefined;
    n.head = 150n;
    expect(scanView(await scanner.refresh('net', 'acc', eth, ME))).toMatchObject({ toBlock: '150', complete: true });
    n.head = 170n;
    logs.push(approvalAt(160n));
    const s = await scanner.refresh('net', 'acc', eth, ME);
    expect(s.approvals).toMatchObject([{ spender: OTHER, blockNumber: '160' }]);
    expect(scanView(s)).toMatchObject({ toBlock: '170', complete: true });
  });
});

describe('spam logs', () => {
  const SPAM = '0x5555555555555555555555555555555555555555';
  const NFT = '0x6666666666666666666666666666666666666666';
  const at = (address: string, block: bigint, topics: string[], data?: string): EthLog => ({ ...log(block, topics, data), address, transactionHash: `0x${address.slice(2, 10)}${block.toString(16).padStart(56, '0')}` });

  it("one contract's 600 fake Approval and Transfer logs cannot push out real allowances and NFT IDs; the cut is said", async () => {
    const real = [
      at(TOKEN, 10n, [APPROVAL_TOPIC, addressTopic(ME), addressTopic(OTHER)], `0x${'f'.repeat(64)}`),
      at(NFT, 11n, [TRANSFER_TOPIC, addressTopic(OTHER), addressTopic(ME), `0x${'0'.repeat(63)}7`], '0x'),
    ];
    const spam = Array.from({ length: 600 }, (_, i) => [
      at(SPAM, 100n + BigInt(i), [APPROVAL_TOPIC, addressTopic(ME), addressTopic(`0x${(i + 1).toString(16).padStart(40, '0')}`)]),
      { ...at(SPAM, 100n + BigInt(i), [TRANSFER_TOPIC, addressTopic(OTHER), addressTopic(ME)]), logIndex: 1n },
    ]).flat();
    const { eth } = limitedNode(1_000n, 5_000n, [...real, ...spam]);
    const s = await new TokenScanner(memoryStores().local).refresh('net', 'acc', eth, ME, [TOKEN]);
    expect(s.approvals.filter((a) => a.token === TOKEN)).toMatchObject([{ spender: OTHER }]);
    expect(s.transfers.filter((t) => t.token === NFT)).toMatchObject([{ tokenId: '7' }]);
    expect(s.approvals.filter((a) => a.token === SPAM)).toHaveLength(PER_UNLISTED_CONTRACT);
    expect(s.transfers.filter((t) => t.token === SPAM)).toHaveLength(PER_UNLISTED_CONTRACT);
    expect(scanView(s).cut).toBe(true);
  });

  it('approvals the chain confirms are 0 are forgotten; the reads are bounded in flight', async () => {
    const stores = memoryStores();
    const scanner = new TokenScanner(stores.local);
    const { eth } = limitedNode(100n, 5_000n, [at(TOKEN, 10n, [APPROVAL_TOPIC, addressTopic(ME), addressTopic(OTHER)]), at(NFT, 12n, [APPROVAL_TOPIC, addressTopic(ME), addressTopic(OTHER)])]);
    await scanner.refresh('net', 'acc', eth, ME);
    // A newer approval of the same spender, found by a scan after the 0 was read, is not the one the 0 was read for: it stays.
    await scanner.dropApprovals('net', 'acc', [{ token: TOKEN.toLowerCase(), spender: OTHER, kind: 'allowance', blockNumber: '9', logIndex: 0 }]);
    expect((await scanner.get('net', 'acc')).approvals.map((a) => a.token)).toEqual([NFT, TOKEN]);
    await scanner.dropApprovals('net', 'acc', [{ token: TOKEN.toLowerCase(), spender: OTHER, kind: 'allowance', blockNumber: '10', logIndex: 0 }]);
    expect((await scanner.get('net', 'acc')).approvals.map((a) => a.token)).toEqual([NFT]);
    let inFlight = 0;
    let most = 0;
    const out = await mapLimited(Array.from({ length: 50 }, (_, i) => i), 8, async (i) => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 1));
      inFlight--;
      return i * 2;
    });
    expect(most).toBe(8);
    expect(out[49]).toBe(98);
  });
});

/** The tokens service over a stand-in node `eth`, for account 'acc' on network 'net', with `stored` in storage. */
async function tokensOver(eth: Partial<EthApi>, stored: Record<string, unknown> = {}) {
  const local = memoryStores().local;
  await local.set(stored);
  const ctx = { preset: { id: 'net' }, account: { id: 'acc' }, engine: { node: { eth }, evmAddress: ME } };
  return new TokensService({ open: async () => ctx, selected: async () => ctx } as never, {} as never, local);
}
const scanned = (s: Partial<ScanState>): Record<string, ScanState> => ({ 'xpc.tokenscan.net.acc': { fromBlock: '0', toBlock: '100', updatedAt: 1, transfers: [], approvals: [], ...s } });

describe('address poisoning', () => {
  const LOOKALIKE = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf5afc';
  it('a zero-value transfer from or to the account (anyone can emit one on ERC-20; ERC-1155 too) is neither kept nor listed; a real one is', async () => {
    const zero = `0x${'0'.repeat(64)}`;
    const logs = [
      { ...log(50n, [TRANSFER_TOPIC, addressTopic(ME), addressTopic(LOOKALIKE)], zero), logIndex: 1n },
      { ...log(50n, [TRANSFER_TOPIC, addressTopic(LOOKALIKE), addressTopic(ME)], zero), logIndex: 2n },
      { ...log(50n, [TRANSFER_SINGLE_TOPIC, addressTopic(LOOKALIKE), addressTopic(ME), addressTopic(LOOKALIKE)], `0x${'0'.repeat(63)}7${zero.slice(2)}`), logIndex: 3n },
      log(51n, [TRANSFER_TOPIC, addressTopic(ME), addressTopic(OTHER)]),
    ];
    const { eth } = limitedNode(100n, 5_000n, logs);
    const s = await new TokenScanner(memoryStores().local).refresh('net', 'acc', eth, ME, [TOKEN]);
    expect(s.transfers.map((t) => [t.to, t.amount])).toEqual([[OTHER, '5']]);
    // One a scan kept before this rule is not listed either.
    const kept = { txHash: `0x${'3'.repeat(64)}`, logIndex: 0, blockNumber: '40', token: TOKEN, standard: 'erc20' as const, from: ME, to: LOOKALIKE, amount: '0' };
    const service = await tokensOver({ blockNumber: async () => 100n } as never, scanned({ transfers: [...s.transfers, kept] }));
    expect((await service.tokensActivity({})).items.map((t) => t.to)).toEqual([OTHER]);
  });
});

describe('allowances the node could not confirm', () => {
  const approval = { token: TOKEN, spender: OTHER, kind: 'allowance' as const, blockNumber: '10', logIndex: 0, txHash: `0x${'1'.repeat(64)}` };
  it('a read that fails (node unreachable, rate limit, revert) keeps the approval, marked unknown; only a 0 read drops it', async () => {
    for (const fail of [new NodeUnreachableError('http://n', 'timeout'), new RpcError('eth_call', -32005, 'limit exceeded'), new RpcError('eth_call', 3, 'execution reverted')]) {
      const s = await tokensOver({ call: () => Promise.reject(fail), getCode: async () => '0x60' } as never, scanned({ approvals: [approval] }));
      expect((await s.tokensAllowances({})).allowances, fail.message).toMatchObject([{ token: TOKEN, spender: OTHER, unknown: true, unlimited: false, spenderIsContract: true }]);
      expect((await s.tokensAllowances({})).allowances[0]!.amount).toBeUndefined();
    }
    const zero = await tokensOver({ call: async () => `0x${'0'.repeat(64)}`, getCode: async () => '0x60' } as never, scanned({ approvals: [approval] }));
    expect((await zero.tokensAllowances({})).allowances).toEqual([]);
  });
});

describe('NFTs held', () => {
  const art: StoredToken = { address: TOKEN, standard: 'erc721', name: 'Art', symbol: 'ART', decimals: 0, addedBy: 'wallet', addedAt: 0 };
  const got = { txHash: `0x${'2'.repeat(64)}`, logIndex: 0, blockNumber: '20', token: TOKEN, standard: 'erc721' as const, from: OTHER, to: ME, amount: '1', tokenId: '7' };
  const stored = { 'xpc.tokens.net': [art], ...scanned({ transfers: [got] }) };
  it('a node that fails ownerOf is an error, never "you hold none"; only a revert (no owner) is none', async () => {
    const over = (call: () => Promise<string>) => tokensOver({ blockNumber: async () => 100n, call } as never, stored);
    const mine = await over(async () => addressTopic(ME));
    // With how far the logs were read, so the popup says "none" only of a whole chain.
    expect(await mine.tokensNfts({ address: TOKEN })).toMatchObject({ items: [{ tokenId: '7', amount: '1' }], scan: { fromBlock: '0', toBlock: '100', complete: true } });
    const limited = await over(() => Promise.reject(new RpcError('eth_call', -32005, 'limit exceeded')));
    await expect(limited.tokensNfts({ address: TOKEN })).rejects.toThrow(/limit exceeded/);
    const burned = await over(() => Promise.reject(new RpcError('eth_call', 3, 'execution reverted: ERC721NonexistentToken')));
    expect((await burned.tokensNfts({ address: TOKEN })).items).toEqual([]);
  });
  it('the IDs are confirmed at most 8 reads at a time, each in its place', async () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ ...got, logIndex: i, tokenId: String(i) }));
    let inFlight = 0;
    let most = 0;
    const call = async (tx: { data: string }) => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 1));
      inFlight--;
      // The account holds the even IDs.
      return BigInt(`0x${tx.data.slice(-64)}`) % 2n === 0n ? addressTopic(ME) : addressTopic(OTHER);
    };
    const service = await tokensOver({ blockNumber: async () => 100n, call } as never, { 'xpc.tokens.net': [art], ...scanned({ transfers: many }) });
    const { items } = await service.tokensNfts({ address: TOKEN });
    expect(items.map((i) => i.tokenId)).toEqual(Array.from({ length: 20 }, (_, i) => String(i * 2)));
    expect(most).toBe(8);
  });
});

describe('listing a token', () => {
  it("a node that fails the account's balance right after the token is stored still lists it: the balance is said missing, not the listing failed", async () => {
    const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;
    const answers: Record<string, string> = { [selectorOf('decimals()')]: word(6n), [selectorOf('totalSupply()')]: word(1n) };
    const mine = ME.slice(2).toLowerCase();
    const eth = {
      getCode: async () => '0x60',
      call: async (tx: { data: string }) => {
        if (tx.data.toLowerCase().includes(mine)) throw new NodeUnreachableError('http://n', 'timeout');
        if (tx.data.startsWith(selectorOf('balanceOf(address)'))) return word(0n);
        const out = answers[tx.data.slice(0, 10)];
        if (out === undefined) throw new RpcError('eth_call', 3, 'execution reverted');
        if (out === 'rate') throw new RpcError('eth_call', -32005, 'rate limit exceeded');
        return out;
      },
    };
    const service = await tokensOver(eth as never);
    expect((await service.tokensAdd({ address: TOKEN })).token).toMatchObject({ address: TOKEN, standard: 'erc20', balanceError: 'the node did not answer for this token' });
    expect((await service.tokensList()).tokens.map((t) => t.address)).toEqual([TOKEN]);
  });
});

describe('wallet_watchAsset', () => {
  it('the approval shows the token from the one metadata read: a node that fails after it cannot leave it without a token', async () => {
    const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;
    const text = (t: string) => `${word(32n)}${word(BigInt(t.length)).slice(2)}${Buffer.from(t).toString('hex').padEnd(64, '0')}`;
    const answers: Record<string, string> = { [selectorOf('name()')]: text('Test Dollar'), [selectorOf('symbol()')]: text('TUSD'), [selectorOf('decimals()')]: word(6n) };
    let reads = 0;
    const eth = {
      // The node answers one read of the contract, then stops answering.
      getCode: async () => {
        if (reads++ > 0) throw new NodeUnreachableError('http://n', 'timeout');
        return '0x60';
      },
      call: async (tx: { data: string }) => answers[tx.data.slice(0, 10)] ?? word(tx.data.startsWith(selectorOf('supportsInterface(bytes4)')) ? 0n : 1n),
    };
    let shown: unknown;
    const gate = { approved: async (_call: unknown, prepare: () => Promise<{ summary: unknown }>) => ((shown = (await prepare()).summary), true) };
    const conn = { activeChain: async () => ({ kind: 'avalanche', networkId: 'net', rpcUrl: 'http://n', symbol: 'AVAX' }), actingAccount: async () => ({ id: 'acc' }), eth: () => eth };
    const deps = { wallet: { evmInsight: async () => ({ listed: [] }) } };
    const site = new SiteTokens(deps as never, gate as never, conn as never);
    expect(await site.watchAsset({ requestId: 'r1', method: 'wallet_watchAsset', params: { type: 'ERC20', options: { address: TOKEN, symbol: 'TUSD' } }, site: { origin: 'https://dapp.example' } })).toBe(true);
    expect(shown).toMatchObject({ kind: 'watch-asset', token: { address: TOKEN, symbol: 'TUSD', name: 'Test Dollar', decimals: 6, listed: false } });
  });
});

describe("a site's token call in Activity", () => {
  const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;
  /** A site's tx to TOKEN with `data`, over a contract that answers only `answers` (by selector) and reverts the rest. */
  const insight = (answers: Record<string, string>, data: string) => {
    const eth = {
      getCode: async () => '0x60',
      call: async (tx: { data: string }) => {
        const out = answers[tx.data.slice(0, 10)];
        if (out === undefined) throw new RpcError('eth_call', 3, 'execution reverted');
        if (out === 'rate') throw new RpcError('eth_call', -32005, 'rate limit exceeded');
        return out;
      },
      traceCall: () => Promise.reject(new Error('no tracer')),
    };
    const c = { eth, account: ME, listed: [], nativeSymbol: 'AVAX', recipientOf: async () => ({ warnings: [] }), siteCalls: async () => 0 };
    return evmTxInsight(c as never, { from: ME, to: TOKEN, value: 0n, data, gasLimit: 60_000n, nonce: 0n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n });
  };
  const transfer = encodeCall('transfer(address,uint256)', OTHER, 5n * 10n ** 18n);
  it("a transfer to a contract that does not read as a token is a contract call: no token amount, which would read as wei of AVAX (the tx's own value stays)", async () => {
    const { views, item } = await insight({}, transfer);
    expect(views.call).toMatchObject({ kind: 'transfer', amount: '5000000000000000000' });
    expect(item).toEqual({ kind: 'call' });
  });
  it('a contract the node failed to answer for (a rate limit) says so, not that it does not answer as a token', async () => {
    const { views } = await insight({ [selectorOf('decimals()')]: 'rate' }, transfer);
    expect(views.call).toMatchObject({ kind: 'transfer', unread: true });
    expect(views.call!.token).toBeUndefined();
    const notAToken = await insight({}, transfer);
    expect(notAToken.views.call!.unread).toBeUndefined();
  });
  it('an operator approval is listed as one, and setApprovalForAll(operator, false) as a revoke (it read "Approved a spender")', async () => {
    const erc20 = { [selectorOf('decimals()')]: word(18n), [selectorOf('totalSupply()')]: word(1n), [selectorOf('balanceOf(address)')]: word(0n) };
    expect((await insight(erc20, encodeCall('setApprovalForAll(address,bool)', OTHER, true))).item).toMatchObject({ kind: 'approve', to: OTHER });
    expect((await insight(erc20, encodeCall('setApprovalForAll(address,bool)', OTHER, false))).item).toMatchObject({ kind: 'revoke', to: OTHER });
  });
  it('an approve(spender, 0) is listed as a revoke; an increaseAllowance of 0 (which changes nothing) is not', async () => {
    const erc20 = { [selectorOf('decimals()')]: word(18n), [selectorOf('totalSupply()')]: word(1n), [selectorOf('balanceOf(address)')]: word(0n) };
    expect((await insight(erc20, encodeCall('approve(address,uint256)', OTHER, 0n))).item).toMatchObject({ kind: 'revoke', to: OTHER });
    expect((await insight(erc20, encodeCall('approve(address,uint256)', OTHER, 5n))).item).toMatchObject({ kind: 'approve', amount: '5' });
    expect((await insight(erc20, encodeCall('increaseAllowance(address,uint256)', OTHER, 0n))).item).toMatchObject({ kind: 'approve', amount: '0', increase: true });
    expect((await insight(erc20, encodeCall('approve(address,uint256)', OTHER, 5n))).item.increase).toBeUndefined();
  });
  it('a transfer of a token the wallet reads is a send in its units', async () => {
    const erc20 = { [selectorOf('decimals()')]: word(18n), [selectorOf('totalSupply()')]: word(1n), [selectorOf('balanceOf(address)')]: word(0n) };
    const { item } = await insight(erc20, transfer);
    expect(item).toMatchObject({ kind: 'send', amount: '5000000000000000000', to: OTHER, token: { address: TOKEN, decimals: 18, standard: 'erc20' } });
  });
});

describe('a listed token the node now describes otherwise', () => {
  const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;
  const text = (t: string) => `${word(32n)}${word(BigInt(t.length)).slice(2)}${Buffer.from(t).toString('hex').padEnd(64, '0')}`;
  /** TUSD's contract answering `decimals` (listed with 6), and reverting what it does not have. */
  const node = (decimals: { n: bigint }) => {
    const answers = (): Record<string, string> => ({ [selectorOf('name()')]: text('Test Dollar'), [selectorOf('symbol()')]: text('TUSD'), [selectorOf('decimals()')]: word(decimals.n), [selectorOf('totalSupply()')]: word(1n), [selectorOf('balanceOf(address)')]: word(0n) });
    return {
      getCode: async () => '0x60',
      call: async (tx: { data: string }) => answers()[tx.data.slice(0, 10)] ?? Promise.reject(new RpcError('eth_call', 3, 'execution reverted')),
      traceCall: () => Promise.reject(new Error('no tracer')),
    };
  };
  const approve = encodeCall('approve(address,uint256)', OTHER, 10n ** 12n);

  it("decimals of 18 for the listed 6-decimal token: the approval shows the listed units (as the trial run does), and says it is not the listed token", async () => {
    const decimals = { n: 18n };
    const c = { eth: node(decimals), account: ME, listed, nativeSymbol: 'AVAX', recipientOf: async () => ({ warnings: [] }), siteCalls: async () => 0 };
    const tx = { from: ME, to: TOKEN, value: 0n, data: approve, gasLimit: 60_000n, nonce: 0n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n };
    const lied = await evmTxInsight(c as never, tx);
    expect(lied.views.call!.token).toMatchObject({ symbol: 'TUSD', decimals: 6, standard: 'erc20', listed: false });
    expect(lied.item).toMatchObject({ kind: 'approve', token: { decimals: 6 } });
    decimals.n = 6n;
    expect((await evmTxInsight(c as never, tx)).views.call!.token).toMatchObject({ decimals: 6, listed: true });
  });

  it('tokens.add lists what the user looked up, not a second read of the contract', async () => {
    const decimals = { n: 6n };
    const service = await tokensOver(node(decimals) as never);
    expect((await service.tokensInspect({ address: TOKEN })).token).toMatchObject({ decimals: 6 });
    decimals.n = 18n;
    expect((await service.tokensAdd({ address: TOKEN })).token).toMatchObject({ symbol: 'TUSD', decimals: 6 });
  });
});

describe('NFT metadata', () => {
  it("the metadata address is the contract's own text: shown without direction overrides or invisible characters", async () => {
    const uri = 'https://art.example/\u202egnp.exe\u200b/7.json';
    const bytes = Buffer.from(uri);
    const answer = `0x${(32n).toString(16).padStart(64, '0')}${bytes.length.toString(16).padStart(64, '0')}${bytes.toString('hex').padEnd(Math.ceil(bytes.length / 32) * 64, '0')}`;
    const s = await tokensOver({ call: async () => answer } as never, { 'xpc.tokens.net': [{ address: TOKEN, standard: 'erc721', name: 'Art', symbol: 'ART', decimals: 0, addedBy: 'wallet', addedAt: 0 }] });
    expect(await s.tokensNftMetadata({ address: TOKEN, tokenId: '7' })).toEqual({ uri: 'https://art.example/gnp.exe/7.json', error: expect.stringMatching(/on another server/) });
  });
});
