import { describe, expect, it } from 'vitest';
import {
  ApprovalPendingError,
  ApprovalQueue,
  ApprovalQueueFullError,
  ApprovalTooLargeError,
  APPROVALS_STORAGE_KEY,
  MAX_APPROVAL_BYTES,
  MAX_PENDING_APPROVALS,
  UnknownApprovalError,
} from '../../src/background/approvals.js';
import { ProviderService, type Site, type SiteWallet } from '../../src/background/provider.js';
import { SiteStore } from '../../src/background/sites.js';
import { memoryStores } from '../../src/background/storage.js';
import { PROVIDER_CHANNEL } from '../../src/shared/provider-protocol.js';
import { ACCOUNT } from './site-account.js';

const request = (origin: string, method = 'eth_sendTransaction') => ({ origin, method, params: { to: '0x00' }, summary: { text: 'send' } });

/** A request of about `kb` KiB of JSON, params and summary together. */
const sized = (origin: string, kb: number, method = 'personal_sign') => ({ origin, method, params: 'p'.repeat(kb * 512), summary: { text: 's'.repeat(kb * 512) } });

describe('the pending-approval queue', () => {
  it('wakes the waiter with the user decision and forgets the request', async () => {
    const queue = new ApprovalQueue(memoryStores().session);
    const entry = await queue.add(request('https://a.example'));
    const decision = queue.waitFor(entry.id);
    await queue.decide(entry.id, true);
    await expect(decision).resolves.toBe(true);
    expect(await queue.list()).toEqual([]);
    await expect(queue.decide(entry.id, false)).rejects.toBeInstanceOf(UnknownApprovalError);
  });

  it('allows one pending request per origin and method, and caps the queue', async () => {
    const queue = new ApprovalQueue(memoryStores().session);
    await queue.add(request('https://a.example'));
    await expect(queue.add(request('https://a.example'))).rejects.toBeInstanceOf(ApprovalPendingError);
    await queue.add(request('https://a.example', 'personal_sign'));
    await queue.add(request('https://b.example'));
    for (let i = (await queue.list()).length; i < MAX_PENDING_APPROVALS; i++) await queue.add(request(`https://${i}.example`));
    await expect(queue.add(request('https://late.example'))).rejects.toBeInstanceOf(ApprovalQueueFullError);
  });

  it('survives a worker restart: the pending request is still there, and a decision made there is seen', async () => {
    const stores = memoryStores();
    const before = new ApprovalQueue(stores.session);
    const entry = await before.add({ ...request('https://top.example'), frameOrigin: 'https://frame.example' });
    const after = new ApprovalQueue(stores.session);
    expect(await after.list()).toEqual([entry]);
    await after.decide(entry.id, false);
    // The restarted worker answering the original request finds the decision already made.
    await expect(new ApprovalQueue(stores.session).waitFor(entry.id)).resolves.toBe(false);
  });

  it('rejectAll answers every waiter with a rejection', async () => {
    const queue = new ApprovalQueue(memoryStores().session);
    const a = await queue.add(request('https://a.example'));
    const b = await queue.add(request('https://b.example'));
    const waits = [queue.waitFor(a.id), queue.waitFor(b.id)];
    await queue.rejectAll();
    await expect(Promise.all(waits)).resolves.toEqual([false, false]);
  });

  it('rejectAll(before) leaves a request that arrived after the window last looked, and says which it rejected', async () => {
    let now = 100;
    const queue = new ApprovalQueue(memoryStores().session, () => now);
    const seen = await queue.add(request('https://a.example'));
    now = 200;
    const late = await queue.add(request('https://b.example'));
    expect((await queue.rejectAll(150)).map((p) => p.id)).toEqual([seen.id]);
    await expect(queue.waitFor(seen.id)).resolves.toBe(false);
    expect((await queue.list()).map((p) => p.id)).toEqual([late.id]);
  });
  it('refuses an approval too large for storage.session: one alone, one site\'s together, the whole queue', async () => {
    const queue = new ApprovalQueue(memoryStores().session);
    await expect(queue.add(sized('https://big.example', 1025))).rejects.toBeInstanceOf(ApprovalTooLargeError);
    await queue.add(sized('https://a.example', 1000));
    await queue.add(sized('https://sub.a.example', 1000, 'eth_signTypedData_v4'));
    // A third of that site's: past its share, though each one alone would fit.
    await expect(queue.add(sized('https://a.example', 100, 'eth_sendTransaction'))).rejects.toBeInstanceOf(ApprovalTooLargeError);
    await queue.add(sized('https://b.example', 1000));
    await queue.add(sized('https://c.example', 1000));
    await expect(queue.add(sized('https://d.example', 100))).rejects.toThrow(/too large together/);
    // Small requests of other sites still fit, and nothing refused was kept.
    await queue.add(request('https://e.example'));
    expect((await queue.list()).map((p) => p.origin)).toEqual(['https://a.example', 'https://sub.a.example', 'https://b.example', 'https://c.example', 'https://e.example']);
  });

  it('a decision keeps the request it acts on, never its summary, and only the newest within a size', async () => {
    const stores = memoryStores();
    const queue = new ApprovalQueue(stores.session);
    const ids: string[] = [];
    for (const origin of ['https://a.example', 'https://b.example', 'https://c.example']) {
      const entry = await queue.add({ origin, method: 'personal_sign', params: 'p'.repeat(800 * 1024), summary: { text: 's'.repeat(10_000) }, requestId: origin });
      ids.push(entry.id);
      await queue.decide(entry.id, false);
    }
    const found = await queue.findByRequest('https://c.example');
    expect(found?.decision?.approved).toBe(false);
    expect(found?.entry).not.toHaveProperty('summary');
    expect(found?.entry.params).toBe('p'.repeat(800 * 1024));
    expect(await queue.findByRequest('https://b.example')).toBeDefined();
    // Past the size, an older decision keeps its answer alone (its request would be asked anew).
    expect(await queue.findByRequest('https://a.example')).toBeUndefined();
    await expect(queue.waitFor(ids[0]!)).resolves.toBe(false);
    const stored = JSON.stringify((await stores.session.get([APPROVALS_STORAGE_KEY]))[APPROVALS_STORAGE_KEY]);
    expect(stored).not.toContain('sss');
    expect(stored.length).toBeLessThan(2 * MAX_APPROVAL_BYTES);
  });
});

// storage.session (Chrome: 10 MiB for the whole extension) also holds the unlock key and other
// sites' approvals: a request too large to approve is refused before it is queued.
const SITE: Site = { origin: 'https://dapp.example' };
const OTHER: Site = { origin: 'https://good.example' };

describe('approvals in storage.session', () => {
  it('typed data whose approval would be too large (invisible characters, each shown as a \\u code) is refused with -32602, and another site is still asked', async () => {
    const stores = memoryStores();
    const approvals = new ApprovalQueue(stores.session);
    const sites = new SiteStore(stores.local);
    for (const s of [SITE, OTHER]) await sites.grant(s.origin, [ACCOUNT.id]);
    const wallet = {
      siteNetwork: async () => ({ network: { id: 'local', name: 'Local network', url: 'http://127.0.0.1:1', hrp: 'local' }, evmChainId: 43112n }),
      siteNetworks: async () => [{ id: 'local', name: 'Local network', evmChainId: 43112n }],
      accountsList: async () => ({ accounts: [ACCOUNT], selectedId: ACCOUNT.id }),
      evmInsight: async () => ({ eth: {}, account: ACCOUNT.cAddress, listed: [], nativeSymbol: 'AVAX', recipientOf: async () => ({ warnings: [] }), siteCalls: async () => 0 }),
    } as unknown as SiteWallet;
    const provider = new ProviderService({
      wallet,
      session: { isUnlocked: () => true, idleMaybeDue: () => false, checkIdle: async () => false } as never,
      approvals,
      sites,
      sessionArea: stores.session,
      openApprovalWindow: async () => undefined,
      notifyPages: () => undefined,
    });
    // 250,000 zero-width spaces: 750 kB as params, 1.5 MB more as the summary's \u codes.
    const typed = JSON.stringify({ types: { Mail: [{ name: 'contents', type: 'string' }] }, primaryType: 'Mail', domain: { name: 'x' }, message: { contents: '\u200b'.repeat(250_000) } });
    for (let i = 0; i < 5; i++) {
      const answer = await provider.handle({ channel: PROVIDER_CHANNEL, requestId: `r${i}`, method: 'eth_signTypedData_v4', params: [ACCOUNT.cAddress, typed] }, SITE);
      expect(answer).toMatchObject({ ok: false, error: { code: -32602, message: expect.stringMatching(/too large to show for approval/) } });
    }
    expect(await approvals.list()).toEqual([]);
    void provider.handle({ channel: PROVIDER_CHANNEL, requestId: 'g1', method: 'personal_sign', params: ['0x68656c6c6f', ACCOUNT.cAddress] }, OTHER);
    await expect.poll(async () => (await approvals.list()).map((p) => p.origin)).toEqual([OTHER.origin]);
    const stored = JSON.stringify((await stores.session.get([APPROVALS_STORAGE_KEY]))[APPROVALS_STORAGE_KEY]);
    expect(stored.length).toBeLessThan(MAX_APPROVAL_BYTES / 100);
  });
});
