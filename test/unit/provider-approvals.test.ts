// A site's approved request against what changed while it waited: the chain, the connection, and
// the gas limit of its EVM tx (the stand-in wallet service of provider-fixtures.ts).
import { describe, expect, it } from 'vitest';
import { errorOf } from './provider-answers.js';
import { MAX_C_GAS_LIMIT } from '../../src/core/fee-limits.js';
import { ACCOUNT } from './site-account.js';
import { requestKeyOf } from '../../src/background/provider.js';
import { setup, SITE } from './provider-fixtures.js';

const ZERO_HASH = '0x' + '00'.repeat(32);
/** The latest block's header, at height 1 and empty. */
const header = (baseFeePerGas: string, gasLimit: string) => ({ number: '0x1', hash: ZERO_HASH, parentHash: ZERO_HASH, timestamp: '0x1', baseFeePerGas, gasLimit, gasUsed: '0x0', transactions: [] });

/** A fake EVM node: each JSON-RPC call answered with `answerOf(method, params)`, '0x0' where that is undefined. */
function evmNode(answerOf: (method: string, params: unknown[]) => unknown): typeof fetch {
  return (async (_url: string, init?: RequestInit) => {
    const { id, method, params } = JSON.parse(String(init?.body)) as { id: number; method: string; params: unknown[] };
    const result = (await answerOf(method, params)) ?? '0x0';
    return new Response(JSON.stringify({ jsonrpc: '2.0', id, result }), { status: 200 });
  }) as unknown as typeof fetch;
}

/** The wallet service's answers a site's EVM tx reads, with `nativeSymbol` as the chain's coin. */
const evmWallet = (nativeSymbol: string) => ({
  recipientOf: async () => ({ warnings: [] }),
  evmInsight: async () => ({ eth: {}, account: ACCOUNT.cAddress, listed: [], nativeSymbol, recipientOf: async () => ({ warnings: [] }), siteCalls: async () => 0 }) as never,
});

/** The site adds chain 42 (`chainName`, its node at rpc.test.example) and the user approves both asks (add, then switch). */
async function addChain(t: ReturnType<typeof setup>, chainName: string) {
  const adding = t.call('wallet_addEthereumChain', [{ chainId: '0x2a', chainName, rpcUrls: ['https://rpc.test.example'], nativeCurrency: { name: 'T', symbol: 'TST', decimals: 18 } }]);
  for (let i = 0; i < 2; i++) {
    await expect.poll(async () => (await t.approvals.list()).length).toBe(1);
    await t.approvals.decide((await t.approvals.list())[0]!.id, true);
  }
  await adding;
}

describe('an approval acts only on the chain it was shown for', () => {
  it('typed data naming a chain, approved after the wallet switched networks, is refused with 4901 and nothing is signed', async () => {
    let network = { network: { id: 'local', name: 'Local network', url: 'http://127.0.0.1:1', hrp: 'local' }, evmChainId: 43112n };
    let signed = 0;
    const t = setup({
      wallet: {
        siteNetwork: async () => network as never,
        evmInsight: async () => ({}) as never,
        withEvmSecret: async () => {
          signed++;
          return '0x' as never;
        },
      },
    });
    await t.sites.grant(SITE.origin, [ACCOUNT.id]);
    const typed = {
      types: { EIP712Domain: [{ name: 'name', type: 'string' }, { name: 'chainId', type: 'uint256' }], Note: [{ name: 'text', type: 'string' }] },
      primaryType: 'Note',
      domain: { name: 'Notes', chainId: 43112 },
      message: { text: 'hello' },
    };
    const answer = t.call('eth_signTypedData_v4', [ACCOUNT.cAddress, JSON.stringify(typed)]);
    let pending = (await t.approvals.list())[0];
    for (let i = 0; !pending && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 10));
      pending = (await t.approvals.list())[0];
    }
    // On Avalanche's C-Chain the approval names no site's node.
    expect(pending!.summary).toMatchObject({ kind: 'sign-typed-data', chainId: '43112' });
    expect(pending!.summary).not.toHaveProperty('rpcHost');
    // The wallet is switched to another network (in the popup, or by another site) before the user approves.
    network = { network: { id: 'mainnet', name: 'Avalanche Mainnet', url: 'https://api.avax.network', hrp: 'avax' }, evmChainId: 43114n };
    await t.approvals.decide(pending!.id, true);
    expect(await errorOf(answer)).toMatchObject({ code: 4901, message: expect.stringContaining('switched to Avalanche Mainnet') });
    expect(signed).toBe(0);
  });
});

describe('typed data shown for signing', () => {
  it('shows characters that hide or reorder text as \\u codes, with a warning, and signs the data itself', async () => {
    const t = setup({ wallet: { evmInsight: async () => ({}) as never } });
    await t.sites.grant(SITE.origin, [ACCOUNT.id]);
    const typed = {
      types: { EIP712Domain: [{ name: 'name', type: 'string' }], Note: [{ name: 'text', type: 'string' }, { name: 'tag', type: 'string' }] },
      primaryType: 'Note',
      domain: { name: 'Uni\u200bswap' },
      message: { text: 'send to \u202eecila\u202c only', tag: 'pay\u{e0041}1' },
    };
    void t.call('eth_signTypedData_v4', [ACCOUNT.cAddress, JSON.stringify(typed)]);
    let pending = (await t.approvals.list())[0];
    for (let i = 0; !pending && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 10));
      pending = (await t.approvals.list())[0];
    }
    const summary = pending!.summary as { messageJson: string; domainJson: string; hiddenCharacters?: true };
    expect(summary.messageJson).toContain('send to \\u202eecila\\u202c only');
    expect(summary.messageJson).not.toMatch(/[\u202e\u202c]/);
    expect(summary.domainJson).toContain('Uni\\u200bswap');
    // Above U+FFFF in braces: never read as a shorter escape followed by a digit.
    expect(summary.messageJson).toContain('pay\\u{e0041}1');
    expect(summary.hiddenCharacters).toBe(true);
    const payload = (await t.approvals.findByRequest(pending!.requestId!))!.entry.params as { typed: { message: { text: string } } };
    expect(payload.typed.message.text).toBe('send to \u202eecila\u202c only');
  });
});

describe('a site disconnected while its request waited', () => {
  /** A connected site's personal_sign waiting for its approval, and how many times a key signed. */
  async function waitingSignature() {
    let signed = 0;
    const t = setup({
      wallet: {
        withEvmSecret: async () => {
          signed++;
          return '0x' as never;
        },
      },
    });
    await t.sites.grant(SITE.origin, [ACCOUNT.id]);
    const answer = t.call('personal_sign', ['0x68656c6c6f', ACCOUNT.cAddress]);
    await expect.poll(async () => (await t.approvals.list()).length).toBe(1);
    const [pending] = await t.approvals.list();
    return { t, answer, pending: pending!, signed: () => signed };
  }

  it('gets nothing done for it, even once the user approves (4100), and nothing is signed', async () => {
    const { t, answer, pending, signed } = await waitingSignature();
    await t.sites.revoke(SITE.origin);
    await t.approvals.decide(pending.id, true);
    expect((await errorOf(answer)).code).toBe(4100);
    expect(signed()).toBe(0);
  });

  it('disconnected and connected again to another account only: the request approved for the first account signs nothing (4100)', async () => {
    const { t, answer, pending, signed } = await waitingSignature();
    // The user disconnects the site, then approves its new connect request for another account.
    await t.sites.revoke(SITE.origin);
    await t.sites.grant(SITE.origin, ['acc2']);
    await t.approvals.decide(pending.id, true);
    expect(await errorOf(answer)).toMatchObject({ code: 4100, message: expect.stringContaining('no longer connected to the account') });
    expect(signed()).toBe(0);
  });
});

describe("a site's EVM tx and the gas limit", () => {
  it("a node's estimate above the wallet's gas ceiling is refused before any approval (under Helicon half of a limit is charged); so is a site's own", async () => {
    const node = (estimate: bigint) =>
      evmNode((method) => ({ eth_baseFee: '0x5d21dba00', eth_getBlockByNumber: header('0x5d21dba00', '0x4c4b400'), eth_estimateGas: '0x' + estimate.toString(16), eth_getBalance: '0xde0b6b3a7640000' })[method]);
    const wallet = { evmNonceFor: async () => 0n, recipientOf: async () => ({ warnings: [] }) };
    const send = (gas?: bigint) => [{ from: ACCOUNT.cAddress, to: ACCOUNT.cAddress, data: '0xa9059cbb', ...(gas ? { gas: '0x' + gas.toString(16) } : {}) }];
    const t = setup({ fetch: node(MAX_C_GAS_LIMIT + 1n), wallet });
    await t.sites.grant(SITE.origin, [ACCOUNT.id]);
    expect(await errorOf(t.call('eth_sendTransaction', send()))).toMatchObject({ message: expect.stringMatching(/gas estimate of 30000001, above the wallet's limit of 30000000/) });
    expect((await errorOf(t.call('eth_sendTransaction', send(MAX_C_GAS_LIMIT + 1n)))).code).toBe(-32602);
    expect(await t.approvals.list()).toEqual([]);
  });

  it("a node claiming a block gas limit past belief is refused before any approval: it would raise a site's own limit (Helicon's gas-per-byte floor)", async () => {
    const node = (blockGas: bigint) =>
      evmNode((method) => ({ eth_baseFee: '0x5d21dba00', eth_getBlockByNumber: header('0x5d21dba00', '0x' + blockGas.toString(16)), eth_estimateGas: '0x5208', eth_getBalance: '0xde0b6b3a7640000' })[method]);
    const wallet = { evmNonceFor: async () => 0n, recipientOf: async () => ({ warnings: [] }) };
    const t = setup({ fetch: node(2n ** 80n), wallet });
    await t.sites.grant(SITE.origin, [ACCOUNT.id]);
    const plain = [{ from: ACCOUNT.cAddress, to: ACCOUNT.cAddress, value: '0x1', gas: '0x5208' }];
    expect(await errorOf(t.call('eth_sendTransaction', plain))).toMatchObject({ message: expect.stringMatching(/block gas limit of 1208925819614629174706176, above the wallet's limit of 320000000/) });
    expect(await t.approvals.list()).toEqual([]);
  });

  it("on Avalanche's C-Chain the fee starts from eth_baseFee (the bound a block keeps to), not the last header's; a site's own fee cap below it gives way to the wallet's fees, shown for approval (it would wait, every later tx behind it)", async () => {
    const gwei = 1_000_000_000n;
    const fetch = evmNode((method) => ({ eth_baseFee: '0x' + (25n * gwei).toString(16), eth_getBlockByNumber: header('0x1', '0x4c4b400'), eth_estimateGas: '0x5208', eth_getBalance: '0xde0b6b3a7640000' })[method]);
    const t = setup({ fetch, wallet: { evmNonceFor: async () => 0n, ...evmWallet('AVAX') } });
    await t.sites.grant(SITE.origin, [ACCOUNT.id]);
    const tx = (fee?: bigint) => [{ from: ACCOUNT.cAddress, to: ACCOUNT.cAddress, value: '0x1', ...(fee ? { maxFeePerGas: '0x' + fee.toString(16), maxPriorityFeePerGas: '0x0' } : {}) }];
    for (const [asked, signed] of [[undefined, 50n * gwei], [10n * gwei, 50n * gwei], [25n * gwei, 25n * gwei]] as const) {
      const sending = t.call('eth_sendTransaction', tx(asked));
      await expect.poll(async () => (await t.approvals.list()).length).toBe(1);
      const [pending] = await t.approvals.list();
      expect(pending!.summary).toMatchObject({ baseFeePerGas: String(25n * gwei), maxFeePerGas: String(signed) });
      // Said when the site's own cap gave way: what it asked for beside what is signed.
      expect((pending!.summary as { siteMaxFeePerGas?: string }).siteMaxFeePerGas).toBe(asked !== undefined && asked < signed ? String(asked) : undefined);
      await t.approvals.decide(pending!.id, false);
      await errorOf(sending);
    }
  });

  it('on a chain a site added (not Avalanche\'s C-Chain), neither the estimate nor the site\'s own limit is held to that ceiling; its approvals, typed data too, name the site\'s node', async () => {
    const big = '0x' + (MAX_C_GAS_LIMIT + 1n).toString(16);
    const fetchStub = evmNode((method) => ({ eth_chainId: '0x2a', eth_baseFee: '0x1', eth_getBlockByNumber: header('0x1', '0x2faf0800'), eth_estimateGas: big, eth_getBalance: '0xde0b6b3a7640000' })[method]);
    const t = setup({ fetch: fetchStub, wallet: evmWallet('TST') });
    await t.sites.grant(SITE.origin, [ACCOUNT.id]);
    await addChain(t, 'Big blocks');
    // An estimate past EIP-7825's per-tx cap gets no room (gas-room tests below); the site's own limit is as it is.
    for (const gas of [undefined, big]) {
      const sending = t.call('eth_sendTransaction', [{ from: ACCOUNT.cAddress, to: ACCOUNT.cAddress, ...(gas ? { gas } : {}) }]);
      await expect.poll(async () => (await t.approvals.list()).length).toBe(1);
      const [pending] = await t.approvals.list();
      // The chain's name is the site's claim: the approval names its RPC host too.
      expect(pending!.summary).toMatchObject({ kind: 'evm-tx', chainId: '42', chainName: 'Big blocks', rpcHost: 'rpc.test.example', gasLimit: String(MAX_C_GAS_LIMIT + 1n) });
      await t.approvals.decide(pending!.id, false);
      expect((await errorOf(sending)).code).toBe(4001);
    }
    // A gas limit is 64-bit there too: past it is refused before any approval.
    expect(await errorOf(t.call('eth_sendTransaction', [{ from: ACCOUNT.cAddress, to: ACCOUNT.cAddress, gas: '0x10000000000000000' }]))).toMatchObject({ code: -32602, data: { field: 'params[0].gas' } });
    expect(await t.approvals.list()).toEqual([]);
    // Typed data signed there: its approval names the site's node too (what a permit says of its token and spender is that node's word).
    const typed = { types: { EIP712Domain: [{ name: 'name', type: 'string' }], Note: [{ name: 'text', type: 'string' }] }, primaryType: 'Note', domain: { name: 'Notes' }, message: { text: 'hi' } };
    const signing = t.call('eth_signTypedData_v4', [ACCOUNT.cAddress, JSON.stringify(typed)]);
    await expect.poll(async () => (await t.approvals.list()).length).toBe(1);
    const [asked] = await t.approvals.list();
    expect(asked!.summary).toMatchObject({ kind: 'sign-typed-data', rpcHost: 'rpc.test.example' });
    await t.approvals.decide(asked!.id, false);
    expect((await errorOf(signing)).code).toBe(4001);
  });

  it("the gas limit of a site's call without its own has room over the estimate: 1.5×, only as far as the balance beside the value pays it, and on a chain a site added within 90% of a block and EIP-7825's cap", async () => {
    // A node estimating `estimate` gas at base fee 1 wei and no tip (maxFeePerGas 2 wei), for an account holding `balance` wei.
    const hex = (n: bigint) => '0x' + n.toString(16);
    const node = (estimate: bigint, balance: bigint, blockGas = 0x4c4b400n) =>
      evmNode((method) => ({ eth_chainId: '0x2a', eth_baseFee: '0x1', eth_getBlockByNumber: header('0x1', hex(blockGas)), eth_estimateGas: hex(estimate), eth_getBalance: hex(balance) })[method]);
    const wallet = { evmNonceFor: async () => 0n, ...evmWallet('AVAX') };
    const limitOf = async (t: ReturnType<typeof setup>, value = 0n) => {
      const sending = t.call('eth_sendTransaction', [{ from: ACCOUNT.cAddress, to: ACCOUNT.cAddress, data: '0xa9059cbb', value: '0x' + value.toString(16) }]);
      await expect.poll(async () => (await t.approvals.list()).length).toBe(1);
      const [pending] = await t.approvals.list();
      await t.approvals.decide(pending!.id, false);
      await errorOf(sending);
      return (pending!.summary as { gasLimit: string }).gasLimit;
    };
    const on = async (fetch: typeof globalThis.fetch) => {
      const t = setup({ fetch, wallet });
      await t.sites.grant(SITE.origin, [ACCOUNT.id]);
      return t;
    };
    expect(await limitOf(await on(node(52_000n, 10n ** 18n)))).toBe('78000');
    // 60,000 gas at 2 wei is what is left beside a value of 5 wei.
    expect(await limitOf(await on(node(52_000n, 120_005n)), 5n)).toBe('60000');
    expect(await limitOf(await on(node(52_000n, 1_000n)))).toBe('52000');

    const added = async (estimate: bigint, blockGas: bigint) => {
      const t = await on(node(estimate, 10n ** 18n, blockGas));
      await addChain(t, 'Other');
      return limitOf(t);
    };
    expect(await added(8_000_000n, 10_000_000n)).toBe('9000000');
    expect(await added(12_000_000n, 60_000_000n)).toBe('16777216');
  });
});

describe('an approval picked up by its request ID (as after a restart)', () => {
  it('of another kind of request than the one asking is never acted on: nothing is signed', async () => {
    let signed = 0;
    const t = setup({ wallet: { withEvmSecret: async () => (signed++, '0x' as never) } });
    await t.sites.grant(SITE.origin, [ACCOUNT.id]);
    // A "yes" to connecting, stored under the request ID a signature request then comes with.
    const shown = await t.approvals.add({ origin: SITE.origin, method: 'eth_requestAccounts', params: { kind: 'connect', accountId: ACCOUNT.id }, summary: { kind: 'connect', accounts: [] }, requestId: requestKeyOf(SITE, 'same') });
    await t.approvals.decide(shown.id, true);
    expect(await errorOf(t.call('personal_sign', ['0x00', ACCOUNT.cAddress], SITE, 'same'))).toMatchObject({ code: -32603 });
    expect(signed).toBe(0);
    // The same request asked under its own ID is signed.
    const place = t.call('personal_sign', ['0x00', ACCOUNT.cAddress]);
    await new Promise((r) => setTimeout(r, 20));
    await t.approvals.decide((await t.approvals.list())[0]!.id, true);
    expect(await place).toMatchObject({ ok: true });
    expect(signed).toBe(1);
  });
});

describe("a site's tx on a chain a site added, whose nonce was the next one when it was asked", () => {
  /** A site on a chain it added, over a node whose pending count is `node.count` (a send takes it up); `node.hold` holds the next count read until released. */
  async function onAddedChain() {
    const hash = '0x' + '11'.repeat(32);
    const node = { count: 3n, sent: [] as string[], hold: false, release: undefined as (() => void) | undefined };
    const fetchStub = evmNode(async (method, params) => {
      const count = node.count;
      if (method === 'eth_getTransactionCount' && node.hold) {
        node.hold = false;
        await new Promise<void>((go) => (node.release = go));
      }
      if (method === 'eth_sendRawTransaction') {
        node.sent.push(String(params[0]));
        node.count++;
      }
      return { eth_chainId: '0x2a', eth_getTransactionCount: '0x' + count.toString(16), eth_sendRawTransaction: hash, eth_getBlockByNumber: header('0x1', '0x2faf0800'), eth_estimateGas: '0x5208', eth_getBalance: '0xde0b6b3a7640000' }[method];
    });
    const wallet = { ...evmWallet('TST'), withEvmSecret: async () => ({ hash, rawTx: '0x02' }) as never, noteSiteCall: async () => undefined };
    const t = setup({ fetch: fetchStub, wallet });
    await t.sites.grant(SITE.origin, [ACCOUNT.id]);
    await addChain(t, 'Other');
    /** Asks for a tx and waits for its approval: its summary, and `approve` (the answer the site gets). */
    const ask = async (tx: Record<string, string> = {}) => {
      const sending = t.call('eth_sendTransaction', [{ from: ACCOUNT.cAddress, to: ACCOUNT.cAddress, ...tx }]);
      await expect.poll(async () => (await t.approvals.list()).length).toBe(1);
      const [pending] = await t.approvals.list();
      const approve = async () => (await t.approvals.decide(pending!.id, true), sending);
      return { summary: pending!.summary as { nonce: string; replacesWaiting?: true }, approve };
    };
    return { node, hash, ask };
  }
  const taken = (nonce: number, now: number) => ({ ok: false, error: { message: expect.stringContaining(`went out since this one was approved (nonce ${nonce}, now ${now}); nothing was sent`) } });

  it('is not signed or sent once another tx of the account took that nonce, whether the wallet chose it or the site named it', async () => {
    const { node, hash, ask } = await onAddedChain();
    const first = await ask();
    expect(first.summary.nonce).toBe('3');
    // Another site's tx, approved first, went out meanwhile.
    node.count = 4n;
    expect(await first.approve()).toMatchObject(taken(3, 4));
    expect(node.sent).toEqual([]);
    // Nothing went out meanwhile: sent as approved.
    expect(await (await ask()).approve()).toMatchObject({ ok: true, result: hash });
    expect(node.sent).toHaveLength(1);
    // The site named the next nonce itself: held to it alike.
    const named = await ask({ nonce: '0x5' });
    expect(named.summary).toMatchObject({ nonce: '5' });
    expect(named.summary.replacesWaiting).toBeUndefined();
    node.count = 6n;
    expect(await named.approve()).toMatchObject(taken(5, 6));
    expect(node.sent).toHaveLength(1);
  });

  it('approved twice at once (two asks at the same nonce), goes out once: the second finds the nonce taken', async () => {
    const { node, hash, ask } = await onAddedChain();
    const first = await ask();
    // The first one's nonce check is held on the wire while the second is asked and approved.
    node.hold = true;
    const firstAnswer = first.approve();
    await expect.poll(() => node.release).toBeDefined();
    const second = await ask();
    expect(second.summary.nonce).toBe('3');
    const secondAnswer = second.approve();
    await new Promise((r) => setTimeout(r, 20));
    node.release!();
    expect(await firstAnswer).toMatchObject({ ok: true, result: hash });
    expect(await secondAnswer).toMatchObject(taken(3, 4));
    expect(node.sent).toHaveLength(1);
  });

  it("one whose nonce the site named under the next one says it takes a waiting tx's place (or is refused), one over it that it waits for those between; each is sent as approved", async () => {
    const { node, hash, ask } = await onAddedChain();
    const replacing = await ask({ nonce: '0x2' });
    expect(replacing.summary).toMatchObject({ nonce: '2', replacesWaiting: true });
    expect(replacing.summary).not.toHaveProperty('nextNonce');
    node.count = 9n;
    expect(await replacing.approve()).toMatchObject({ ok: true, result: hash });
    expect(node.sent).toHaveLength(1);
    const waiting = await ask({ nonce: '0xf' });
    expect(waiting.summary).toMatchObject({ nonce: '15', nextNonce: '10' });
    expect(waiting.summary).not.toHaveProperty('replacesWaiting');
    expect(await waiting.approve()).toMatchObject({ ok: true, result: hash });
    expect(node.sent).toHaveLength(2);
  });
});
