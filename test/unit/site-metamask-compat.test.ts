// Requests dapps send that MetaMask answers: personal_sign's params reversed, tx quantities with
// leading zeros, eth_coinbase, personal_ecRecover and eth_signTypedData_v3. Signing ones still
// wait for the same approval.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { eip191Signer } from 'micro-eth-signer';
import { describe, expect, it } from 'vitest';
import { ApprovalQueue } from '../../src/background/approvals.js';
import { ProviderService, type Site, type SiteWallet } from '../../src/background/provider.js';
import { SiteStore } from '../../src/background/sites.js';
import { memoryStores } from '../../src/background/storage.js';
import { toHex } from '../../src/core/bytes.js';
import { PROVIDER_CHANNEL, type ProviderResponse } from '../../src/shared/provider-protocol.js';
import { errorOf, resultOf } from './provider-answers.js';
import { ACCOUNT } from './site-account.js';

const SITE: Site = { origin: 'https://dapp.example' };
/** EIP-712's own example signer: keccak256('cow'). */
const COW_SECRET = keccak_256(new TextEncoder().encode('cow'));
const COW = { ...ACCOUNT, cAddress: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' };
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const h32 = '0x' + '00'.repeat(32);

/** A node that answers what eth_sendTransaction reads before its approval. */
const node = (async (_url: string, init?: RequestInit) => {
  const { id, method } = JSON.parse(String(init?.body)) as { id: number; method: string };
  const result = {
    eth_baseFee: '0x5d21dba00', eth_getBlockByNumber: { number: '0x1', hash: h32, parentHash: h32, timestamp: '0x1', baseFeePerGas: '0x5d21dba00', gasLimit: '0x4c4b400', gasUsed: '0x0', transactions: [] },
    eth_maxPriorityFeePerGas: '0x0',
    eth_estimateGas: '0x5208',
    eth_getBalance: '0xde0b6b3a7640000',
  }[method];
  return new Response(JSON.stringify({ jsonrpc: '2.0', id, result }), { status: 200 });
}) as unknown as typeof fetch;

function setup(options: { chainId?: bigint; unlocked?: boolean } = {}) {
  const stores = memoryStores();
  const approvals = new ApprovalQueue(stores.session);
  const sites = new SiteStore(stores.local);
  let windows = 0;
  let unlocked = options.unlocked ?? true;
  const wallet = {
    siteNetwork: async () => ({ network: { id: 'local', name: 'Local network', url: 'http://127.0.0.1:1', hrp: 'local' }, evmChainId: options.chainId ?? 43112n }),
    accountsList: async () => ({ accounts: [COW], selectedId: COW.id }),
    withEvmSecret: async <T>(_id: string, use: (secret: Uint8Array) => T) => use(COW_SECRET),
    evmNonceFor: async () => 0n,
    recipientOf: async () => ({ warnings: [] }),
    evmInsight: async () => ({ eth: {}, account: COW.cAddress, listed: [], nativeSymbol: 'AVAX', recipientOf: async () => ({ warnings: [] }), siteCalls: async () => 0 }),
  } as unknown as SiteWallet;
  const provider = new ProviderService({
    wallet,
    session: { isUnlocked: () => unlocked, idleMaybeDue: () => false, checkIdle: async () => false } as never,
    approvals,
    sites,
    sessionArea: stores.session,
    fetch: node,
    openApprovalWindow: async () => {
      windows++;
    },
    notifyPages: () => undefined,
  });
  let n = 0;
  const call = (method: string, params?: unknown): Promise<ProviderResponse> => provider.handle({ channel: PROVIDER_CHANNEL, requestId: `r${++n}`, method, params }, SITE);
  const pending = async () => {
    await expect.poll(async () => (await approvals.list()).length).toBe(1);
    return (await approvals.list())[0]!;
  };
  return { approvals, sites, call, pending, windows: () => windows, lock: () => (unlocked = false) };
}

describe('transaction quantities with leading zeros', () => {
  it('eth_sendTransaction: the approval shows the amounts written with leading zeros, and holds them for signing', async () => {
    const t = setup();
    await t.sites.grant(SITE.origin, [COW.id]);
    const sending = t.call('eth_sendTransaction', [{ from: COW.cAddress, to: COW.cAddress, value: '0x016345785d8a0000', gas: '0x05208', maxFeePerGas: '0x0ba43b7400', maxPriorityFeePerGas: '0x00', nonce: '0x00' }]);
    const p = await t.pending();
    expect(p.summary).toMatchObject({ kind: 'evm-tx', valueWei: '100000000000000000', gasLimit: '21000', maxFeePerGas: '50000000000', maxPriorityFeePerGas: '0' });
    // The wallet's own network: named as the wallet names it, no RPC host said. The site's nonce is the wallet's: nothing to say of it.
    expect(p.summary).not.toHaveProperty('rpcHost');
    expect(p.summary).not.toHaveProperty('siteNonce');
    const payload = (await t.approvals.findByRequest(p.requestId!))!.entry.params as { tx: { value: string; gasLimit: string } };
    expect(payload.tx).toMatchObject({ value: '100000000000000000', gasLimit: '21000' });
    await t.approvals.decide(p.id, false);
    expect((await errorOf(sending)).code).toBe(4001);
    // '0x' alone and a value past uint256 are refused before any approval.
    for (const value of ['0x', '0x1' + '0'.repeat(64)]) {
      expect(await errorOf(t.call('eth_sendTransaction', [{ from: COW.cAddress, to: COW.cAddress, value }]))).toMatchObject({ code: -32602, data: { field: 'params[0].value' } });
    }
    expect(await errorOf(t.call('eth_sendTransaction', [{ from: COW.cAddress, to: COW.cAddress, gasLimit: '0x' }]))).toMatchObject({ code: -32602 });
    expect(await t.approvals.list()).toEqual([]);
  });

  it("eth_sendTransaction with a nonce the wallet does not take: the approval names both (a site's same-nonce retry would be a second tx here)", async () => {
    const t = setup();
    await t.sites.grant(SITE.origin, [COW.id]);
    const sending = t.call('eth_sendTransaction', [{ from: COW.cAddress, to: COW.cAddress, value: '0x1', gas: '0x5208', maxFeePerGas: '0x0ba43b7400', maxPriorityFeePerGas: '0x0', nonce: '0x05' }]);
    const p = await t.pending();
    expect(p.summary).toMatchObject({ kind: 'evm-tx', nonce: '0', siteNonce: '5' });
    await t.approvals.decide(p.id, false);
    expect((await errorOf(sending)).code).toBe(4001);
  });
});

describe('personal_sign with reversed params', () => {
  // Taken as MetaMask takes them (the first param an address, the second not); the right order is in provider*.test.ts.
  const OTHER = '0x000000000000000000000000000000000000dEaD';

  it('[address, message]: the approval shows the message, and the message is what is signed', async () => {
    const t = setup();
    await t.sites.grant(SITE.origin, [COW.id]);
    for (const [params, text] of [
      [[COW.cAddress, 'Sign in to dapp.example'], 'Sign in to dapp.example'],
      // Any case of the account's address, a hex message shown as its text.
      [[COW.cAddress.toLowerCase(), '0x68656c6c6f'], 'hello'],
    ] as const) {
      const answer = t.call('personal_sign', params);
      const p = await t.pending();
      expect(p.summary).toMatchObject({ message: text, encoding: 'text', signer: COW.cAddress });
      await t.approvals.decide(p.id, true);
      // Signed over the message's bytes, with the connected account's key.
      expect(eip191Signer.recoverAddress((await resultOf(answer)) as string, new TextEncoder().encode(text))).toBe(COW.cAddress);
    }
  });

  it('still signs only for an account the site is connected to, and never swaps two addresses', async () => {
    const t = setup();
    await t.sites.grant(SITE.origin, [COW.id]);
    // Reversed, for an address the site is not connected to: refused, nothing asked.
    expect((await errorOf(t.call('personal_sign', [OTHER, 'hello']))).code).toBe(4100);
    // Both look like addresses: the usual order ([message, address]) holds, so OTHER is the signer asked for.
    expect((await errorOf(t.call('personal_sign', [COW.cAddress, OTHER]))).code).toBe(4100);
    // A first param that is an address with a wrong checksum is refused as that param.
    const badChecksum = COW.cAddress.replace('C', 'c').replace('b', 'B');
    expect(await errorOf(t.call('personal_sign', [badChecksum, 'hello']))).toMatchObject({ code: -32602, data: { field: 'params[0]' } });
    // The usual order still names its own params.
    expect(await errorOf(t.call('personal_sign', ['0x00', 'not-an-address']))).toMatchObject({ code: -32602, data: { field: 'params[1]' } });
    expect(await t.approvals.list()).toEqual([]);
  });
});

describe('eth_coinbase', () => {
  it("is eth_accounts' first entry, or null (not connected, locked), without an approval", async () => {
    const t = setup();
    expect(await resultOf(t.call('eth_coinbase'))).toBeNull();
    await t.sites.grant(SITE.origin, [COW.id]);
    expect(await resultOf(t.call('eth_coinbase', []))).toBe(COW.cAddress);
    expect((await errorOf(t.call('eth_coinbase', ['x']))).code).toBe(-32602);
    t.lock();
    expect(await resultOf(t.call('eth_coinbase'))).toBeNull();
    expect(t.windows()).toBe(0);
  });
});

describe('personal_ecRecover', () => {
  const key = new Uint8Array(32).fill(9);
  const signer = eip191Signer.recoverAddress(eip191Signer.sign('hello', key, false), 'hello');

  it('recovers the signer of a text or hex message, for v 27/28 or 0/1 and for a high-S twin, with no approval or connection', async () => {
    const t = setup();
    const sig = eip191Signer.sign('Sign in to dapp.example', key, false);
    expect(await resultOf(t.call('personal_ecRecover', ['Sign in to dapp.example', sig]))).toBe(signer);
    const hexSig = eip191Signer.sign(new Uint8Array([0, 1, 255]), key, false);
    expect(await resultOf(t.call('personal_ecRecover', ['0x0001ff', hexSig]))).toBe(signer);
    const v = parseInt(sig.slice(130), 16);
    expect(await resultOf(t.call('personal_ecRecover', ['Sign in to dapp.example', sig.slice(0, 130) + (v - 27).toString(16).padStart(2, '0')]))).toBe(signer);
    // (r, n − s) with the other v is the same signature, as Ethereum's ecrecover takes it.
    const twin = sig.slice(0, 66) + (N - BigInt('0x' + sig.slice(66, 130))).toString(16).padStart(64, '0') + (v === 27 ? '1c' : '1b');
    expect(await resultOf(t.call('personal_ecRecover', ['Sign in to dapp.example', twin]))).toBe(signer);
    // Another message recovers another address, not an error.
    expect(await resultOf(t.call('personal_ecRecover', ['Sign in to evil.example', sig]))).not.toBe(signer);
    expect(t.windows()).toBe(0);
  });

  it('refuses a signature of the wrong length, a bad v, non-hex or one no key made (-32602)', async () => {
    const t = setup();
    const sig = eip191Signer.sign('m', key, false);
    for (const bad of [sig.slice(0, 130), sig + '00', sig.slice(0, 130) + '1d', sig.slice(0, 130) + '02', 'zz' + sig.slice(2), sig.slice(2), `0x${'00'.repeat(64)}1b`, `0x${toHex(new Uint8Array(32).fill(0xff))}${sig.slice(66)}`]) {
      expect(await errorOf(t.call('personal_ecRecover', ['m', bad])), bad).toMatchObject({ code: -32602, data: { field: 'params[1]' } });
    }
    expect((await errorOf(t.call('personal_ecRecover', ['m']))).code).toBe(-32602);
    expect((await errorOf(t.call('personal_ecRecover', [7, sig]))).code).toBe(-32602);
  });
});

describe('eth_signTypedData_v3', () => {
  // EIP-712's own example, with the signature the EIP gives for it (v3 and v4 encode it alike).
  const mail = {
    types: {
      EIP712Domain: [{ name: 'name', type: 'string' }, { name: 'version', type: 'string' }, { name: 'chainId', type: 'uint256' }, { name: 'verifyingContract', type: 'address' }],
      Person: [{ name: 'name', type: 'string' }, { name: 'wallet', type: 'address' }],
      Mail: [{ name: 'from', type: 'Person' }, { name: 'to', type: 'Person' }, { name: 'contents', type: 'string' }],
    },
    primaryType: 'Mail',
    domain: { name: 'Ether Mail', version: '1', chainId: 1, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' },
    message: { from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' }, to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' }, contents: 'Hello, Bob!' },
  };
  const EIP_SIGNATURE = '0x4355c47d63924e8a72e509b65029052eb6c299d53a04e167c5775fd466751c9d07299936d304c153f6443dfa05f40ff007d72911b6f72307f996231605b915621c';

  it('is signed after the same approval as v4, to the signature EIP-712 gives', async () => {
    const t = setup({ chainId: 1n });
    await t.sites.grant(SITE.origin, [COW.id]);
    const signing = t.call('eth_signTypedData_v3', [COW.cAddress, JSON.stringify(mail)]);
    const p = await t.pending();
    expect(p.summary).toMatchObject({ kind: 'sign-typed-data', primaryType: 'Mail', signer: COW.cAddress, chainId: '1' });
    await t.approvals.decide(p.id, true);
    expect(await resultOf(signing)).toBe(EIP_SIGNATURE);
  });

  it('refuses what v3 cannot encode as v4 does (a list, an absent field) before any approval', async () => {
    const t = setup({ chainId: 1n });
    await t.sites.grant(SITE.origin, [COW.id]);
    const withList = { ...mail, types: { ...mail.types, Mail: [...mail.types.Mail, { name: 'cc', type: 'Person[]' }] }, message: { ...mail.message, cc: [] } };
    expect(await errorOf(t.call('eth_signTypedData_v3', [COW.cAddress, JSON.stringify(withList)]))).toMatchObject({ code: -32602, data: { field: 'params[1].types.Mail' } });
    const { to: _to, ...noTo } = mail.message;
    expect(await errorOf(t.call('eth_signTypedData_v3', [COW.cAddress, { ...mail, message: noTo }]))).toMatchObject({ code: -32602, data: { field: 'params[1].message.to' } });
    expect(await errorOf(t.call('eth_signTypedData_v3', [COW.cAddress, { ...mail, message: { ...mail.message, from: { name: 'Cow' } } }]))).toMatchObject({ code: -32602, data: { field: 'params[1].message.from.wallet' } });
    const { version: _v, ...noVersion } = mail.domain;
    expect(await errorOf(t.call('eth_signTypedData_v3', [COW.cAddress, { ...mail, domain: noVersion }]))).toMatchObject({ code: -32602, data: { field: 'params[1].domain.version' } });
    // No EIP712Domain type: v3 hashes the domain as an empty struct, v4's encoder from the fields given.
    const { EIP712Domain: _d, ...noDomainType } = mail.types;
    expect(await errorOf(t.call('eth_signTypedData_v3', [COW.cAddress, { ...mail, types: noDomainType }]))).toMatchObject({ code: -32602, data: { field: 'params[1].types' } });
    expect(await t.approvals.list()).toEqual([]);
    expect(t.windows()).toBe(0);
  });
});
