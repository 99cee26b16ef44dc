// The token log scan over stand-in nodes that limit eth_getLogs ranges (as public nodes do) or lie
// about their latest block, with spam logs and zero-value transfers (address poisoning).
import { describe, expect, it } from 'vitest';
import { addressTopic } from '../../src/core/evm-abi.js';
import { AnswerTooLargeError, NodeUnreachableError, RpcError } from '../../src/core/errors.js';
import { APPROVAL_TOPIC, PERMIT2_TOPICS, TRANSFER_BATCH_TOPIC, TRANSFER_SINGLE_TOPIC, TRANSFER_TOPIC } from '../../src/core/evm-simulate.js';
import { PERMIT2_ADDRESS } from '../../src/core/evm-calls.js';
import type { EthApi, EthLog, LogFilter } from '../../src/core/node/eth.js';
import { memoryStores } from '../../src/background/storage.js';
import { mapLimited } from '../../src/background/map-limited.js';
import { PER_UNLISTED_CONTRACT, RANGES_PER_REFRESH, scanView, TokenScanner } from '../../src/background/token-scan.js';
import { ME, OTHER, scanned, TOKEN, tokensOver } from './token-test-kit.js';
import { TokensService } from '../../src/background/services/tokens.js';

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

  it.each([
    ['an answer larger than the wallet reads', new AnswerTooLargeError("the node's answer to eth_getLogs is larger than 8 MB; it was not read")],
    ["a node's refusal for the number of logs", new RpcError('eth_getLogs', -32005, 'query returned more than 10000 results')],
  ])('a flood of logs in a few blocks (%s) is halved down to 16 blocks and passed by, said: the scan goes on past it', async (_what, flood) => {
    const approval = log(900n, [APPROVAL_TOPIC, addressTopic(ME), addressTopic(OTHER)]);
    const older = log(100n, [APPROVAL_TOPIC, addressTopic(ME), addressTopic(TOKEN)]);
    const eth = {
      blockNumber: async () => 1_000n,
      getBlockByNumber: async (n: bigint) => ({ number: n }),
      getLogs: async (f: LogFilter) => {
        if (f.fromBlock <= 500n && f.toBlock >= 500n) throw flood;
        return [approval, older].filter((l) => l.blockNumber >= f.fromBlock && l.blockNumber <= f.toBlock);
      },
    } as unknown as EthApi;
    const scanner = new TokenScanner(memoryStores().local);
    let s = await scanner.refresh('net', 'acc', eth, ME, [TOKEN]);
    for (let i = 0; i < 5 && s.fromBlock !== '0'; i++) s = await scanner.refresh('net', 'acc', eth, ME, [TOKEN]);
    expect(s.approvals.map((a) => a.blockNumber).sort()).toEqual(['100', '900']);
    expect(s.skipped).toHaveLength(1);
    const [from, to] = s.skipped![0]!.split('-').map(BigInt) as [bigint, bigint];
    expect(from <= 500n && to >= 500n && to - from + 1n <= 16n).toBe(true);
    expect(scanView(s)).toMatchObject({ complete: true, flooded: true });
    expect(scanView(s)).not.toHaveProperty('error');
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

  it("an ERC-1155 batch read again (the head stepped back, then on) keeps each of its moves once", async () => {
    const word = (n: bigint) => n.toString(16).padStart(64, '0');
    const batch = `0x${[0x40n, 0xa0n, 2n, 1n, 2n, 2n, 3n, 4n].map(word).join('')}`;
    const logs = [log(50n, [TRANSFER_BATCH_TOPIC, addressTopic(OTHER), addressTopic(OTHER), addressTopic(ME)], batch)];
    const { n, eth } = chainNode(logs);
    const scanner = new TokenScanner(memoryStores().local);
    const ids = async () => (await scanner.refresh('net', 'acc', eth, ME, [TOKEN])).transfers.map((t) => `${t.tokenId}:${t.amount}`).sort();
    expect(await ids()).toEqual(['1:3', '2:4']);
    n.head = 40n;
    await scanner.refresh('net', 'acc', eth, ME, [TOKEN]);
    n.head = 100n;
    expect(await ids()).toEqual(['1:3', '2:4']);
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

  it("32 spam contracts' 16 approvals each cannot push out one older real approval of a token not listed: contracts share the room in turns", async () => {
    const real = at(TOKEN, 10n, [APPROVAL_TOPIC, addressTopic(ME), addressTopic(OTHER)], `0x${'f'.repeat(64)}`);
    const contract = (c: number) => `0x${(0x7000 + c).toString(16).padStart(40, '0')}`;
    const spam = Array.from({ length: 32 * 16 }, (_, i) => at(contract(i % 32), 100n + BigInt(i), [APPROVAL_TOPIC, addressTopic(ME), addressTopic(`0x${(i + 1).toString(16).padStart(40, '0')}`)]));
    const { eth } = limitedNode(1_000n, 5_000n, [real, ...spam]);
    const s = await new TokenScanner(memoryStores().local).refresh('net', 'acc', eth, ME, []);
    expect(s.approvals.filter((a) => a.token === TOKEN)).toMatchObject([{ spender: OTHER }]);
    expect(s.approvals).toHaveLength(500);
    expect(scanView(s).cut).toBe(true);
  });

  it("a token a site listed (one approved watchAsset) is held to an unlisted contract's cap: its flood cannot push out the user's real approvals", async () => {
    const real = at(TOKEN, 10n, [APPROVAL_TOPIC, addressTopic(ME), addressTopic(OTHER)], `0x${'f'.repeat(64)}`);
    const flood = Array.from({ length: 600 }, (_, i) => at(SPAM, 100n + BigInt(i), [APPROVAL_TOPIC, addressTopic(ME), addressTopic(`0x${(i + 1).toString(16).padStart(40, '0')}`)]));
    const { eth } = limitedNode(1_000n, 5_000n, [real, ...flood]);
    const local = memoryStores().local;
    await local.set({ 'xpc.tokens.net': [{ address: SPAM, standard: 'erc20', name: 'Spam', symbol: 'SPM', decimals: 18, addedBy: 'spam.example', addedAt: 1 }] });
    const ctx = { preset: { id: 'net' }, account: { id: 'acc' }, engine: { node: { eth }, evmAddress: ME } };
    await new TokensService({ open: async () => ctx } as never, {} as never, local).tokensActivity({ refresh: true });
    const s = (await local.get(['xpc.tokenscan.net.acc']))['xpc.tokenscan.net.acc'] as { approvals: { token: string }[] };
    expect(s.approvals.filter((a) => a.token === TOKEN)).toHaveLength(1);
    expect(s.approvals.filter((a) => a.token === SPAM)).toHaveLength(PER_UNLISTED_CONTRACT);
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

describe("allowances Permit2 keeps", () => {
  it("Permit2's own Approval and Permit naming the account as owner are kept (token and spender from their topics); the same events from any other contract are not", async () => {
    const SPENDER = '0x7777777777777777777777777777777777777777';
    const p2 = (address: string, block: bigint, topic: string): EthLog => ({ ...log(block, [topic, addressTopic(ME), addressTopic(TOKEN), addressTopic(SPENDER)]), address, transactionHash: `0x${block.toString(16).padStart(64, '0')}` });
    const { eth } = limitedNode(100n, 5_000n, [p2(PERMIT2_ADDRESS, 10n, PERMIT2_TOPICS[0]!), p2(PERMIT2_ADDRESS.toLowerCase(), 11n, PERMIT2_TOPICS[1]!), p2(OTHER, 12n, PERMIT2_TOPICS[0]!)]);
    const s = await new TokenScanner(memoryStores().local).refresh('net', 'acc', eth, ME);
    // One right per token and spender: the newest of Permit2's two logs, none from the look-alike.
    expect(s.approvals).toMatchObject([{ token: TOKEN, spender: SPENDER, kind: 'permit2', blockNumber: '11' }]);
  });
});
