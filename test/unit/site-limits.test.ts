// Request limits count by site, the registrable domain of the frame that asked
// (src/background/site-domain.ts), and refuse before any node work: subdomain frames cannot
// multiply them, and a refused request costs the node nothing. The provider runs against a
// stand-in wallet whose node work (site tx resolution, JSON-RPC reads) is counted.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { ApprovalQueue, MAX_PENDING_PER_SITE } from '../../src/background/approvals.js';
import { MAX_CALL_DATA_BYTES } from '../../src/background/provider-context.js';
import { MAX_READS_AT_ONCE, MAX_READS_WAITING, MAX_RUNNING_PER_SITE, ProviderService, type Site, type SiteWallet } from '../../src/background/provider.js';
import { CATEGORY_LABELS, CATEGORY_SUFFIXES, OTHER_SUFFIX_RULES } from '../../src/background/public-suffixes.js';
import { registrableDomain } from '../../src/background/site-domain.js';
import { SiteStore } from '../../src/background/sites.js';
import { memoryStores } from '../../src/background/storage.js';
import { PROVIDER_CHANNEL, type ProviderResponse } from '../../src/shared/provider-protocol.js';
import { errorOf } from './provider-answers.js';
import { ACCOUNT } from './site-account.js';


const never = <T>(): Promise<T> => new Promise<T>(() => {});
const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 10));

/**
 * A provider whose node work never ends (so requests stay running) and is counted; `locked`: the
 * wallet waits to be unlocked; `answer`: the node's answer to a JSON-RPC read; `chainHangs`: the
 * wallet never says which network is selected (so even eth_chainId stays running), counted.
 */
function setup(locked = false, answer: (url: unknown, init?: RequestInit) => Promise<Response> = never, chainHangs = false) {
  const stores = memoryStores();
  const approvals = new ApprovalQueue(stores.session);
  const sites = new SiteStore(stores.local);
  const node = { resolveExternal: 0, rpc: 0, chainLooks: 0 };
  let windows = 0;
  const wallet = {
    siteNetwork: chainHangs
      ? () => {
          node.chainLooks++;
          return never();
        }
      : async () => ({ network: { id: 'local', name: 'Local network', url: 'http://127.0.0.1:1', hrp: 'local' }, evmChainId: 43112n }),
    accountsList: async () => ({ accounts: [ACCOUNT], selectedId: ACCOUNT.id }),
    // Resolving a site-built tx reads every input's tx from the node: here it never finishes.
    siteEngine: async () => ({
      engine: {
        resolveExternal: () => {
          node.resolveExternal++;
          return never();
        },
      },
      networkId: 'local',
    }),
  } as unknown as SiteWallet;
  const provider = new ProviderService({
    wallet,
    session: { isUnlocked: () => !locked, idleMaybeDue: () => false, checkIdle: async () => false } as never,
    walletExists: async () => true,
    approvals,
    sites,
    sessionArea: stores.session,
    openApprovalWindow: async () => {
      windows++;
    },
    fetch: ((url: unknown, init?: RequestInit) => {
      node.rpc++;
      return answer(url, init);
    }) as typeof fetch,
    notifyPages: () => {},
  });
  let n = 0;
  const call = (method: string, params: unknown, site: Site): Promise<ProviderResponse> =>
    provider.handle({ channel: PROVIDER_CHANNEL, requestId: `r${++n}`, method, params }, site);
  return { approvals, sites, provider, call, node, windows: () => windows };
}

const siteTx = [{ transactionHex: '0x0000', chainAlias: 'X' }];
const frame = (host: string, page = 'https://news.example'): Site => ({ origin: page, frameOrigin: `https://${host}` });

describe('the registrable domain', () => {
  it('is the name a site registered, whatever its subdomains, ports or case', () => {
    const cases: Array<[string, string]> = [
      ['https://evil.com', 'evil.com'],
      ['https://a.b.evil.com', 'evil.com'],
      ['https://A.Evil.COM.', 'evil.com'],
      ['https://x.evil.co.uk', 'evil.co.uk'],
      ['https://shop.example.com.au:8443', 'example.com.au'],
      ['https://a.b.example.co.jp', 'example.co.jp'],
      // A hosting platform's users are sites of their own.
      ['https://alice.github.io', 'alice.github.io'],
      ['https://app.bob.vercel.app', 'bob.vercel.app'],
      // Wildcard (*.ck) and exception (!www.ck) rules.
      ['https://a.shop.ck', 'a.shop.ck'],
      ['https://x.www.ck', 'www.ck'],
      // A public suffix asking itself is its own site.
      ['https://github.io', 'github.io'],
      ['https://co.uk', 'co.uk'],
    ];
    for (const [origin, domain] of cases) expect(registrableDomain(origin), origin).toBe(domain);
  });

  it('takes an IP address as it is, every localhost as one, and leaves what has no host unchanged', () => {
    expect(registrableDomain('http://127.0.0.1:3000')).toBe('127.0.0.1');
    expect(registrableDomain('http://127.0.0.1:4000')).toBe('127.0.0.1');
    expect(registrableDomain('http://[::1]:8080')).toBe('[::1]');
    expect(registrableDomain('http://localhost:5173')).toBe('localhost');
    expect(registrableDomain('http://app.localhost')).toBe('localhost');
    expect(registrableDomain('null')).toBe('null');
    expect(registrableDomain('not an origin')).toBe('not an origin');
    expect(registrableDomain('https://intranet')).toBe('intranet');
  });

  it('makes every suffix of its table public', () => {
    const rules = CATEGORY_SUFFIXES.split(' ').flatMap((pair) => {
      const [tld, letters] = pair.split(':') as [string, string];
      return [...letters].map((l) => `${CATEGORY_LABELS['abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.indexOf(l)]}.${tld}`);
    });
    expect(rules.length).toBeGreaterThan(1_000);
    for (const rule of [...rules, ...OTHER_SUFFIX_RULES.split(' ').filter((r) => !/[*!]/.test(r))]) {
      expect(registrableDomain(`https://a.site.${rule}`), rule).toBe(`site.${rule}`);
    }
  });

  // Debian's publicsuffix package: the list the table was generated from (scripts/public-suffixes.mjs).
  const PSL = '/usr/share/publicsuffix/public_suffix_list.dat';
  it.skipIf(!existsSync(PSL))('never splits a site the whole Public Suffix List keeps together: a left-out suffix only groups', () => {
    const rules = readFileSync(PSL, 'utf8')
      .split('\n')
      .map((l) => l.trim().toLowerCase())
      .filter((l) => l !== '' && !l.startsWith('//') && /^[!*a-z0-9.-]+$/.test(l));
    const exact = new Set(rules.filter((r) => !/[*!]/.test(r)));
    const wild = new Set(rules.filter((r) => r.startsWith('*.')).map((r) => r.slice(2)));
    const except = new Set(rules.filter((r) => r.startsWith('!')).map((r) => r.slice(1)));
    /** The list's own algorithm over all of it. */
    const reference = (host: string): string => {
      const labels = host.split('.');
      for (let i = 0; i < labels.length; i++) {
        const c = labels.slice(i).join('.');
        if (except.has(c)) return c;
        if (exact.has(c) || (i + 1 < labels.length && wild.has(labels.slice(i + 1).join('.')))) return labels.slice(Math.max(0, i - 1)).join('.');
      }
      return labels.slice(-2).join('.');
    };
    let grouped = 0;
    for (const rule of rules) {
      const host = `sub.site.${rule.replace(/^[*!]\.?/, rule.startsWith('*') ? 'w.' : '')}`;
      const ours = registrableDomain(`https://${host}`);
      const full = reference(host);
      // Ours is the whole list's answer or a suffix of it: the same site, or a bigger group.
      expect(full === ours || full.endsWith(`.${ours}`), `${host}: ours ${ours}, the list's ${full}`).toBe(true);
      if (full !== ours) grouped++;
    }
    // The table is a part of the list: most of its 9,000 rules are left out (and only group).
    expect(grouped).toBeGreaterThan(5_000);
  });
});

describe('limits per site', () => {
  it('refuses a second request of a kind from another subdomain of the same site, before any node work', async () => {
    const t = setup();
    for (const host of ['a.evil.com', 'b.evil.com', 'c.other.com']) await t.sites.grant(`https://${host}`, [ACCOUNT.id]);
    // a.evil.com's site-built tx is being resolved (node reads under way).
    void t.call('xpc_sendTransaction', siteTx, frame('a.evil.com'));
    await tick();
    expect(t.node.resolveExternal).toBe(1);
    const refused = await errorOf(t.call('xpc_sendTransaction', siteTx, frame('b.evil.com')));
    expect(refused).toMatchObject({ code: -32002, message: expect.stringContaining('evil.com already has') });
    expect(t.node.resolveExternal).toBe(1);
    // Another site is not held up by it.
    void t.call('xpc_sendTransaction', siteTx, frame('c.other.com'));
    await tick();
    expect(t.node.resolveExternal).toBe(2);
  });

  it('counts waiting approvals of all subdomains together, and the site cap refuses before preparing', async () => {
    const t = setup();
    const hosts = ['a.evil.com', 'b.evil.com', 'c.evil.com', 'd.evil.com'];
    for (const host of hosts) await t.sites.grant(`https://${host}`, [ACCOUNT.id]);
    // Three requests of different kinds from three subdomains: the site's share of the queue.
    void t.call('personal_sign', ['0x68656c6c6f', ACCOUNT.cAddress], frame(hosts[0]!));
    void t.call('avalanche_signMessage', ['hello'], frame(hosts[1]!));
    void t.call('xpc_signMessage', [{ message: 'hi' }], frame(hosts[2]!));
    await tick();
    expect(await t.approvals.list()).toHaveLength(MAX_PENDING_PER_SITE);
    const full = await errorOf(t.call('xpc_sendTransaction', siteTx, frame(hosts[3]!)));
    expect(full.code).toBe(-32002);
    expect(t.node.resolveExternal).toBe(0);
    const same = await errorOf(t.call('personal_sign', ['0x00', ACCOUNT.cAddress], frame(hosts[3]!)));
    expect(same.message).toMatch(/evil\.com already has a personal_sign request/);
  });

  it(`lets one site run at most ${MAX_RUNNING_PER_SITE} requests at once over all its subdomains, refused before anything runs`, async () => {
    const t = setup(false, never, true);
    for (let i = 0; i < MAX_RUNNING_PER_SITE; i++) void t.call('eth_chainId', [], frame(`s${i}.evil.com`));
    await tick();
    expect(t.node.chainLooks).toBe(MAX_RUNNING_PER_SITE);
    const refused = await errorOf(t.call('eth_chainId', [], frame('one-more.evil.com')));
    expect(refused.code).toBe(-32005);
    expect(t.node.chainLooks).toBe(MAX_RUNNING_PER_SITE);
    // Another site in another page is served.
    void t.call('eth_chainId', [], frame('other.com', 'https://elsewhere.example'));
    await tick();
    expect(t.node.chainLooks).toBe(MAX_RUNNING_PER_SITE + 1);
  });

  it(`lets one page's frames of many sites run at most ${MAX_RUNNING_PER_SITE} requests together; the page's own site and other pages keep their share`, async () => {
    const t = setup(false, never, true);
    for (let i = 0; i < MAX_RUNNING_PER_SITE; i++) void t.call('eth_chainId', [], frame(`f${i}.github.io`));
    await tick();
    expect(t.node.chainLooks).toBe(MAX_RUNNING_PER_SITE);
    expect((await errorOf(t.call('eth_chainId', [], frame('f-more.github.io')))).code).toBe(-32005);
    void t.call('eth_chainId', [], { origin: 'https://news.example' });
    await tick();
    expect(t.node.chainLooks).toBe(MAX_RUNNING_PER_SITE + 1);
    // Other pages, however many run, are not held up by it.
    for (let i = 0; i < 4 * MAX_RUNNING_PER_SITE; i++) void t.call('eth_chainId', [], { origin: `https://p${i}.example` });
    await tick();
    expect(t.node.chainLooks).toBe(5 * MAX_RUNNING_PER_SITE + 1);
  });

  it(`holds one site's node reads apart: ${MAX_READS_AT_ONCE} on the wire, ${MAX_READS_WAITING} waiting, the next refused; its other requests still run, and a page's frames have their own turns`, async () => {
    const t = setup();
    for (let i = 0; i < MAX_READS_AT_ONCE; i++) void t.call('eth_blockNumber', [], { origin: 'https://dapp.example' });
    await tick();
    // A read too large to pass is refused before it would wait for its turn: it never waits in memory, and takes no waiting place.
    const oversized = errorOf(t.call('eth_call', [{ data: '0x' + 'ab'.repeat(MAX_CALL_DATA_BYTES + 1024) }, 'latest'], { origin: 'https://dapp.example' }));
    expect(await Promise.race([oversized, tick().then(() => 'still waiting')])).toMatchObject({ code: -32602 });
    for (let i = 0; i < MAX_READS_WAITING; i++) void t.call('eth_blockNumber', [], { origin: 'https://dapp.example' });
    await tick();
    expect(t.node.rpc).toBe(MAX_READS_AT_ONCE);
    expect((await errorOf(t.call('eth_getBalance', [ACCOUNT.cAddress, 'latest'], { origin: 'https://dapp.example' }))).code).toBe(-32005);
    // Not a read: it runs (here, to the approval queue) while the reads wait.
    void t.call('eth_requestAccounts', [], { origin: 'https://dapp.example' });
    await tick();
    expect(await t.approvals.list()).toHaveLength(1);
    void t.call('eth_blockNumber', [], frame('ads.example', 'https://dapp.example'));
    await tick();
    expect(t.node.rpc).toBe(MAX_READS_AT_ONCE + 1);
  });

  it(`puts at most ${MAX_READS_AT_ONCE} of one site's node reads on the wire at once (each answer may be megabytes); the others wait their turn and are all answered`, async () => {
    const answers: (() => void)[] = [];
    const t = setup(false, (_url, init) => {
      const { id } = JSON.parse(String(init?.body)) as { id: number };
      return new Promise<Response>((done) => answers.push(() => done(new Response(JSON.stringify({ jsonrpc: '2.0', id, result: '0x10' })))));
    });
    const reads = Array.from({ length: 10 }, () => t.call('eth_blockNumber', [], { origin: 'https://dapp.example' }));
    await tick();
    expect(t.node.rpc).toBe(MAX_READS_AT_ONCE);
    while (answers.length > 0) {
      answers.shift()!();
      await tick();
      expect(answers.length).toBe(Math.min(MAX_READS_AT_ONCE, 10 - (t.node.rpc - answers.length)));
    }
    expect(t.node.rpc).toBe(10);
    expect((await Promise.all(reads)).map((r) => r.ok)).toEqual(Array(10).fill(true));
  });

  it("keeps a page's frames of other sites waiting after the user closed the window on some: a frame of a new site cannot reopen it; the page itself and other pages are not held", async () => {
    const t = setup();
    t.provider.cancelWaits([{ origin: 'https://news.example', frameOrigin: 'https://x0.vercel.app' }]);
    const before = t.windows();
    expect((await errorOf(t.call('eth_requestAccounts', [], frame('x1.vercel.app')))).code).toBe(4001);
    expect((await errorOf(t.call('eth_requestAccounts', [], frame('y.other.app')))).code).toBe(4001);
    expect(t.windows()).toBe(before);
    void t.call('eth_requestAccounts', [], frame('y.other.app', 'https://elsewhere.example'));
    await tick();
    expect((await t.approvals.list()).map((a) => a.frameOrigin)).toEqual(['https://y.other.app']);
  });

  it('keeps the whole site waiting after the user closed the window on one of its subdomains', async () => {
    const t = setup();
    t.provider.cancelWaits([{ origin: 'https://a.evil.com' }]);
    const before = t.windows();
    expect((await errorOf(t.call('eth_requestAccounts', [], frame('b.evil.com')))).code).toBe(4001);
    expect(t.windows()).toBe(before);
    // Connection stays per origin: the cooldown is not a grant or a refusal of one.
    expect(await t.sites.permission('https://b.evil.com')).toBeFalsy();
  });
});

describe("a page's frames of other sites share one site's limits", () => {
  const hosts = ['a.com', 'b.com', 'c.com', 'd.com', 'e.com', 'f.com'];
  const NEWS = { origin: 'https://news.example' };

  it(`lets them have at most ${MAX_PENDING_PER_SITE} approvals waiting, whatever their sites; the page's own site and another page are not held up`, async () => {
    const t = setup();
    for (const host of [...hosts, 'news.example']) await t.sites.grant(`https://${host}`, [ACCOUNT.id]);
    for (const host of hosts.slice(0, MAX_PENDING_PER_SITE)) void t.call('personal_sign', ['0x68656c6c6f', ACCOUNT.cAddress], frame(host));
    await tick();
    expect(await t.approvals.list()).toHaveLength(MAX_PENDING_PER_SITE);
    expect((await errorOf(t.call('personal_sign', ['0x68656c6c6f', ACCOUNT.cAddress], frame('d.com')))).message).toMatch(/too many requests are waiting/);
    // The page's own site keeps its places; the same site framed in another page still asks.
    void t.call('personal_sign', ['0x68656c6c6f', ACCOUNT.cAddress], NEWS);
    void t.call('personal_sign', ['0x68656c6c6f', ACCOUNT.cAddress], frame('d.com', 'https://other.example'));
    await tick();
    expect((await t.approvals.list()).map((a) => a.frameOrigin ?? a.origin)).toEqual([...hosts.slice(0, MAX_PENDING_PER_SITE), 'news.example', 'd.com'].map((h) => `https://${h}`));
  });

  it('tell a site that is not connected nothing of the lock state: its accounts are read alike, and a second connection request is refused at once, locked or not', async () => {
    const reads: number[] = [];
    const seconds: string[] = [];
    for (const locked of [true, false]) {
      const t = setup(locked);
      const permission = vi.spyOn(t.sites, 'permission');
      expect(await t.call('eth_accounts', [], NEWS)).toEqual({ ok: true, result: [] });
      reads.push(permission.mock.calls.length);
      void t.call('eth_requestAccounts', [], NEWS);
      await tick();
      seconds.push((await errorOf(t.call('eth_requestAccounts', [], NEWS))).message);
    }
    expect(reads[0]).toBe(reads[1]);
    expect(seconds).toEqual(Array(2).fill('news.example already has a eth_requestAccounts request waiting for your decision'));
  });

  it(`lets them have at most ${MAX_PENDING_PER_SITE} asks waiting for the unlock, whatever their sites, refused as the queue refuses them unlocked; the page itself and another page still wait`, async () => {
    const t = setup(true);
    const settled: string[] = [];
    const ask = (site: Site) => void t.call('eth_requestAccounts', [], site).then((r) => settled.push(r.ok ? 'ok' : (r as { error: { message: string } }).error.message));
    for (const host of hosts.slice(0, MAX_PENDING_PER_SITE)) ask(frame(host));
    await tick();
    expect(settled).toEqual([]);
    ask(frame('f.com'));
    await tick();
    expect(settled).toEqual(['too many requests are waiting for a decision; answer or reject some first']);
    ask(NEWS);
    ask(frame('f.com', 'https://other.example'));
    await tick();
    expect(settled).toHaveLength(1);
  });
});
