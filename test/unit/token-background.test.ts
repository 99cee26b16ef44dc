// The background's token parts that need no node: how a token's own words are checked, allowances
// and NFTs the node could not confirm, listing a token, wallet_watchAsset, a site's token call in
// Activity, a listed token the node now describes otherwise, and NFT metadata read only as asked.
import { describe, expect, it } from 'vitest';
import { addressTopic, selectorOf } from '../../src/core/evm-abi.js';
import { TRANSFER_TOPIC } from '../../src/core/evm-simulate.js';
import { NodeUnreachableError, RpcError } from '../../src/core/errors.js';
import { checkedWords, type StoredToken } from '../../src/background/token-store.js';
import { SiteTokens } from '../../src/background/site-tokens.js';
import { evmTxInsight } from '../../src/background/evm-views.js';
import { TokensService } from '../../src/background/services/tokens.js';
import { memoryStores } from '../../src/background/storage.js';
import { encodeCall } from '../../src/core/evm-abi.js';
import { ME, OTHER, scanned, TOKEN, tokensOver } from './token-test-kit.js';
import { PERMIT2_ADDRESS } from '../../src/core/evm-calls.js';

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

describe('letters of other scripts', () => {
  const usdc: StoredToken = { address: TOKEN, standard: 'erc20', name: 'USD Coin', symbol: 'USDC', decimals: 6, addedBy: 'wallet', addedAt: 0 };
  it('small capitals and Cherokee read as AVAX; Armenian and Georgian as a listed USDC; any letter outside ASCII is said', () => {
    for (const symbol of ['ᴀᴠᴀx', 'ᎪᏙᎪX']) expect(checkedWords({ address: OTHER, name: 'x', symbol }, [usdc], 'AVAX').checks).toMatchObject({ posesAsNative: true, otherScripts: true });
    for (const symbol of ['ՍSDC', 'ႽSDC']) expect(checkedWords({ address: OTHER, name: 'x', symbol }, [usdc], 'AVAX').checks).toMatchObject({ looksLike: { address: TOKEN, symbol: 'USDC' }, otherScripts: true });
    expect(checkedWords({ address: OTHER, name: 'Ƭoken', symbol: 'TKN' }, [usdc], 'AVAX').checks.otherScripts).toBe(true);
    expect(checkedWords({ address: OTHER, name: 'Plain Token', symbol: 'TKN' }, [usdc], 'AVAX').checks.otherScripts).toBeUndefined();
  });
});

describe('allowances Permit2 keeps, as the chain says now', () => {
  const approval = { token: TOKEN, spender: OTHER, kind: 'permit2' as const, blockNumber: '10', logIndex: 0, txHash: `0x${'1'.repeat(64)}` };
  const word = (n: bigint) => n.toString(16).padStart(64, '0');
  // The chain's time is an hour behind this computer's clock: ends are judged by the chain's.
  const chainNow = BigInt(Math.floor(Date.now() / 1000) - 3_600);
  const held = { amount: 0n, expiration: 0n };
  const permit2 = (amount: bigint, expiration: bigint) => {
    Object.assign(held, { amount, expiration });
    return tokensOver({ call: async (c: { to: string }) => (c.to.toLowerCase() === PERMIT2_ADDRESS.toLowerCase() ? `0x${word(held.amount)}${word(held.expiration)}${word(0n)}` : '0x'), getCode: async () => '0x60', getBlockByNumber: async () => ({ timestamp: chainNow }) } as never, scanned({ approvals: [approval] }));
  };
  it("listed with its amount (Permit2's maximum unlimited) and end; not once 0 or expired by the chain's time (an expired one is kept for a later look, a 0 forgotten)", async () => {
    const later = chainNow + 1_800n;
    expect((await (await permit2((1n << 160n) - 1n, later)).tokensAllowances({})).allowances).toMatchObject([{ token: TOKEN, spender: OTHER, kind: 'permit2', amount: ((1n << 160n) - 1n).toString(), unlimited: true, expiration: later.toString() }]);
    expect((await (await permit2(5n, later)).tokensAllowances({})).allowances).toMatchObject([{ amount: '5', unlimited: false }]);
    const expired = await permit2(5n, chainNow - 1n);
    expect((await expired.tokensAllowances({})).allowances).toEqual([]);
    // Given again (a signed permit), the same log's right shows: the expired one was not forgotten.
    held.expiration = later;
    expect((await expired.tokensAllowances({})).allowances).toMatchObject([{ amount: '5' }]);
    const zero = await permit2(0n, later);
    expect((await zero.tokensAllowances({})).allowances).toEqual([]);
    held.amount = 5n;
    expect((await zero.tokensAllowances({})).allowances).toEqual([]);
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
    const gate = { approved: async (_call: unknown, _kind: string, prepare: () => Promise<{ summary: unknown }>) => ((shown = (await prepare()).summary), true) };
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

  it("an allowance of at least the token's whole supply is unlimited in effect; one under it is not, nor any when the supply reads 0", async () => {
    const supply = { v: 10n ** 12n };
    const eth = {
      ...node({ n: 6n }),
      call: async (tx: { data: string }) => (tx.data.startsWith(selectorOf('totalSupply()')) ? word(supply.v) : node({ n: 6n }).call(tx)),
    };
    const c = { eth, account: ME, listed, nativeSymbol: 'AVAX', recipientOf: async () => ({ warnings: [] }), siteCalls: async () => 0 };
    const view = async (amount: bigint) => (await evmTxInsight(c as never, { from: ME, to: TOKEN, value: 0n, data: encodeCall('approve(address,uint256)', OTHER, amount), gasLimit: 60_000n, nonce: 0n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n })).views.call!;
    expect(await view(10n ** 12n)).toMatchObject({ amount: (10n ** 12n).toString(), unlimited: true });
    expect(await view(10n ** 12n - 1n)).toMatchObject({ unlimited: false });
    supply.v = 0n;
    expect(await view(5n)).toMatchObject({ amount: '5', unlimited: false });
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

describe('a token call and the network it is built on', () => {
  it('a revoke is delivered on the account and network it was built on, even when another network is selected meanwhile (its call would be signed for that chain)', async () => {
    // The contract answers allowance(): it is a token's.
    const on = (network: string) => ({ preset: { id: network }, account: { id: 'acc' }, engine: { node: { eth: { call: async () => `0x${'0'.repeat(63)}5` } }, evmAddress: ME } });
    const opened = [on('net'), on('switched')];
    const delivered: unknown[] = [];
    const delivery = { sendEvm: async (_tx: unknown, _fee: bigint, _item: unknown, ctx?: unknown) => (delivered.push(ctx), { txHash: '0x01', fee: '1' }) };
    const s = new TokensService({ open: async () => opened.shift() } as never, delivery as never, memoryStores().local);
    await s.tokensRevoke({ address: TOKEN, spender: OTHER, kind: 'allowance', maxFeeWei: '1000' });
    expect(delivered).toEqual([{ preset: { id: 'net' }, account: { id: 'acc' }, engine: expect.anything() }]);
  });

  it("an allowance is not revoked on a contract that does not answer allowance() (an NFT contract's approve(spender, 0) would hand over its NFT #0)", async () => {
    const ctx = { preset: { id: 'net' }, account: { id: 'acc' }, engine: { node: { eth: { call: async () => Promise.reject(new RpcError('eth_call', 3, 'execution reverted')) } }, evmAddress: ME, quoteC: async () => ({}) } };
    const delivered: unknown[] = [];
    const s = new TokensService({ open: async () => ctx } as never, { sendEvm: async (tx: unknown) => (delivered.push(tx), { txHash: '0x01', fee: '1' }) } as never, memoryStores().local);
    const refused = { code: 'token-call-failed', message: expect.stringMatching(/NFT #0/) };
    await expect(s.tokensEstimateRevoke({ address: TOKEN, spender: OTHER, kind: 'allowance' })).rejects.toMatchObject(refused);
    await expect(s.tokensRevoke({ address: TOKEN, spender: OTHER, kind: 'allowance', maxFeeWei: '1000' })).rejects.toMatchObject(refused);
    expect(delivered).toEqual([]);
  });
});

describe("a token send's trial run", () => {
  const word = (n: bigint) => n.toString(16).padStart(64, '0');
  const KEEPER = '0x3333333333333333333333333333333333333333';
  /** A listed 6-decimal token whose transfer moves the sender's tokens to `receiver` (the recipient, or another). */
  const send = async (receiver: string) => {
    const local = memoryStores().local;
    await local.set({ 'xpc.tokens.net': [{ address: TOKEN, standard: 'erc20', name: 'Test Dollar', symbol: 'TUSD', decimals: 6, addedBy: 'wallet', addedAt: 1 }] });
    const log = { address: TOKEN, topics: [TRANSFER_TOPIC, addressTopic(ME), addressTopic(receiver)], data: `0x${word(5_000_000n)}` };
    const eth = { traceCall: async () => ({ type: 'CALL', from: ME, to: TOKEN, input: '0xa9059cbb', value: '0x0', logs: [log] }) };
    const quoteC = async () => ({ gasLimit: 60_000n, gasUse: 40_000n, baseFeeWei: 25n, maxFeePerGas: 50n, maxPriorityFeePerGas: 1n });
    const ctx = { preset: { id: 'net' }, account: { id: 'acc' }, engine: { node: { eth }, evmAddress: ME, quoteC } };
    return new TokensService({ open: async () => ctx } as never, {} as never, local).tokensEstimateSend({ address: TOKEN, to: OTHER, amount: '5000000' });
  };
  it('says nothing arrives when the full trace shows the recipient getting none (a token passing it elsewhere), and nothing when it all arrives', async () => {
    expect((await send(KEEPER)).arrives).toBe('0');
    expect(await send(OTHER)).not.toHaveProperty('arrives');
  });

  it('a trace without logs (a node whose tracer leaves them out) says nothing of what arrives: it shows no one receiving anything', async () => {
    const local = memoryStores().local;
    await local.set({ 'xpc.tokens.net': [{ address: TOKEN, standard: 'erc20', name: 'Test Dollar', symbol: 'TUSD', decimals: 6, addedBy: 'wallet', addedAt: 1 }] });
    const eth = { traceCall: async () => ({ type: 'CALL', from: ME, to: TOKEN, input: '0xa9059cbb', value: '0x0' }) };
    const quoteC = async () => ({ gasLimit: 60_000n, gasUse: 40_000n, baseFeeWei: 25n, maxFeePerGas: 50n, maxPriorityFeePerGas: 1n });
    const ctx = { preset: { id: 'net' }, account: { id: 'acc' }, engine: { node: { eth }, evmAddress: ME, quoteC } };
    const estimate = await new TokensService({ open: async () => ctx } as never, {} as never, local).tokensEstimateSend({ address: TOKEN, to: OTHER, amount: '5000000' });
    expect(estimate).not.toHaveProperty('arrives');
  });
});

describe('token transfers in Activity', () => {
  it("a token a site listed is not the user's ('Not in your list'), and a symbol its checks flag carries its address: a look-alike's 5,000 never reads as AVAX", async () => {
    const transfer = { txHash: `0x${'4'.repeat(64)}`, logIndex: 0, blockNumber: '50', token: TOKEN, standard: 'erc20' as const, from: ME, to: OTHER, amount: '5000000000000000000000' };
    const site = { address: TOKEN, standard: 'erc20', name: 'Avalanche', symbol: 'AVAX', decimals: 18, addedBy: 'evil.example', addedAt: 1 };
    const service = await tokensOver({ blockNumber: async () => 100n } as never, { ...scanned({ transfers: [transfer] }), 'xpc.tokens.net': [site] });
    const [item] = (await service.tokensActivity({})).items;
    expect(item).toMatchObject({ listed: false, decimals: 18 });
    expect(item!.symbol).toMatch(/^AVAX \(0x1CB79692…DC7A47\)$/);
  });
});
