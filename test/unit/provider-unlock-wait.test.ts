// The unlock wait of a site's request, without a node: asks made while locked hold their place,
// are refused as while unlocked, and nothing is prepared or answered as if the wallet were unlocked
// until the user unlocked it (again, if it locked meanwhile).
import { describe, expect, it } from 'vitest';
import { VaultLockedError } from '../../src/background/vault.js';
import type { Site } from '../../src/background/provider.js';
import { errorOf } from './provider-answers.js';
import { ACCOUNT } from './site-account.js';
import { setup, SITE } from './provider-fixtures.js';

/** A connected site; the wallet locks as the site's permission is read the second time. */
async function connectedLockingOnSecondRead(): Promise<ReturnType<typeof setup>> {
  const t = setup();
  await t.sites.grant(SITE.origin, [ACCOUNT.id]);
  const permission = t.sites.permission.bind(t.sites);
  let reads = 0;
  t.sites.permission = async (origin) => (++reads === 2 && t.lock(), permission(origin));
  return t;
}

describe('the unlock wait', () => {
  it("locked, a window closed on a page's own request waiting for the unlock holds off its frames of other sites too", async () => {
    const t = setup({ unlocked: false });
    const page = t.call('eth_requestAccounts', [], { origin: 'https://news.example' });
    await new Promise((r) => setTimeout(r, 10));
    expect(t.windows()).toBe(1);
    t.provider.cancelWaits();
    expect((await errorOf(page)).code).toBe(4001);
    expect((await errorOf(t.call('eth_requestAccounts', [], { origin: 'https://news.example', frameOrigin: 'https://new1.pages.dev' }))).code).toBe(4001);
    expect(t.windows()).toBe(1);
  });

  it('a frame held off after a close is answered alike locked or not, before anything waits', async () => {
    const answers: unknown[] = [];
    for (const unlocked of [true, false]) {
      const t = setup({ unlocked });
      t.provider.cancelWaits([{ origin: 'https://x.example' }]);
      void t.call('eth_requestAccounts', [], { origin: 'https://g.example' });
      await new Promise((r) => setTimeout(r, 10));
      answers.push(await errorOf(t.call('eth_requestAccounts', [], { origin: 'https://x.example', frameOrigin: 'https://g.example' })));
    }
    expect(answers[0]).toMatchObject({ code: 4001 });
    expect(answers[1]).toEqual(answers[0]);
  });

  it('the places asks held while locked are theirs after the unlock: a site asking at that moment does not take one', async () => {
    const t = setup({ unlocked: false });
    const waiting = Array.from({ length: 10 }, (_, i) => t.call('eth_requestAccounts', [], { origin: `https://s${i}.example` }));
    await new Promise((r) => setTimeout(r, 10));
    t.unlock();
    const late = t.call('eth_requestAccounts', [], { origin: 'https://late.example' });
    expect(await errorOf(late)).toMatchObject({ code: -32002, message: 'too many requests are waiting for a decision; answer or reject some first' });
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await t.approvals.list()).map((a) => a.origin).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `https://s${i}.example`).sort());
    for (const a of await t.approvals.list()) await t.approvals.decide(a.id, false);
    await Promise.all(waiting);
  });

  it('an ask that waited for the unlock, locked again before it was prepared, waits for the unlock again: nothing is prepared while locked, its place kept', async () => {
    let locked = true;
    const preparedLocked: boolean[] = [];
    const t = setup({ unlocked: false, wallet: { accountsList: async () => (preparedLocked.push(locked), { accounts: [ACCOUNT], selectedId: ACCOUNT.id }) } });
    // The wallet locks again right after the unlock, while the ask reads the site's permission.
    const permission = t.sites.permission.bind(t.sites);
    let relocked = false;
    t.sites.permission = async (origin) => {
      if (!locked && !relocked) {
        relocked = true;
        locked = true;
        t.lock();
      }
      return permission(origin);
    };
    const asking = t.call('eth_requestAccounts');
    await new Promise((r) => setTimeout(r, 10));
    expect(t.windows()).toBe(1);
    locked = false;
    t.unlock();
    await new Promise((r) => setTimeout(r, 700));
    expect(relocked).toBe(true);
    expect(await t.approvals.list()).toEqual([]);
    expect(t.windows()).toBe(2);
    locked = false;
    t.unlock();
    await new Promise((r) => setTimeout(r, 700));
    const [pending] = await t.approvals.list();
    expect(pending).toMatchObject({ origin: SITE.origin, method: 'eth_requestAccounts' });
    await t.approvals.decide(pending!.id, true);
    expect(await asking).toEqual({ ok: true, result: [ACCOUNT.cAddress] });
    expect(preparedLocked).not.toContain(true);
  });

  it('locked, a window closed while it is still opening refuses the asks waiting for the unlock: nothing goes on as if unlocked', async () => {
    let prepared = 0;
    const t: ReturnType<typeof setup> = setup({
      unlocked: false,
      wallet: { accountsList: async () => (prepared++, { accounts: [ACCOUNT], selectedId: ACCOUNT.id }) },
      // The user closes the window while the wallet is still opening it.
      windowFails: () => (t.provider.cancelWaits([]), false),
    });
    expect(await errorOf(t.call('eth_requestAccounts'))).toMatchObject({ code: 4001, message: 'the user closed the wallet window' });
    expect(await t.approvals.list()).toEqual([]);
    expect(prepared).toBe(0);
  });

  it('the wallet locked while an ask takes its place, or while it is prepared, waits for the unlock again: the page is never told the wallet is locked', async () => {
    let unlocked = true;
    let lockDuringPrepare = false;
    const preparedLocked: boolean[] = [];
    const t = setup({
      wallet: {
        accountsList: async () => {
          if (lockDuringPrepare) {
            lockDuringPrepare = false;
            unlocked = false;
            t.lock();
          }
          preparedLocked.push(!unlocked);
          // The keyring's own refusal, as while locked.
          if (!unlocked) throw new VaultLockedError();
          return { accounts: [ACCOUNT], selectedId: ACCOUNT.id };
        },
      },
    });
    const unlockAgain = async (): Promise<void> => {
      await new Promise((r) => setTimeout(r, 20));
      expect(await t.approvals.list()).toEqual([]);
      unlocked = true;
      t.unlock();
      await new Promise((r) => setTimeout(r, 700));
    };
    // Locked right after its place was taken.
    const reserve = t.approvals.reserve.bind(t.approvals);
    t.approvals.reserve = async (request) => {
      const place = await reserve(request);
      unlocked = false;
      t.lock();
      t.approvals.reserve = reserve;
      return place;
    };
    const first = t.call('eth_requestAccounts');
    await unlockAgain();
    const [asked] = await t.approvals.list();
    expect(asked).toMatchObject({ origin: SITE.origin, method: 'eth_requestAccounts' });
    await t.approvals.decide(asked!.id, false);
    expect((await errorOf(first)).code).toBe(4001);
    // Locked while it is prepared: asked again once unlocked, not refused as locked.
    lockDuringPrepare = true;
    const second = t.call('eth_requestAccounts', [], { origin: 'https://other.example' });
    await unlockAgain();
    const [again] = await t.approvals.list();
    expect(again).toMatchObject({ origin: 'https://other.example' });
    await t.approvals.decide(again!.id, true);
    expect(await second).toEqual({ ok: true, result: [ACCOUNT.cAddress] });
    // Each preparation ran unlocked but the one the lock cut short; then the connected accounts' read.
    expect(preparedLocked).toEqual([false, true, false, false]);
  });

  it('a failure that is not the lock answers the page even when the wallet locked meanwhile: no unlock is asked for it', async () => {
    const t = setup({
      wallet: {
        accountsList: async () => {
          t.lock();
          throw new Error('the node did not answer');
        },
      },
    });
    expect((await errorOf(t.call('eth_requestAccounts'))).code).toBe(-32603);
    expect(t.windows()).toBe(0);
    expect(await t.approvals.list()).toEqual([]);
  });

  it("a connected site's signing ask, the wallet locked as its accounts are read, waits for the unlock and is asked: never answered 'not connected'", async () => {
    const t = setup({ wallet: { withEvmSecret: (async () => '0x5167') as never } });
    await t.sites.grant(SITE.origin, [ACCOUNT.id]);
    // Reads: the gate's connection check, the acting account's, then its connected accounts' (locked under it).
    const permission = t.sites.permission.bind(t.sites);
    let reads = 0;
    t.sites.permission = async (origin) => (++reads === 3 && t.lock(), permission(origin));
    const signing = t.call('personal_sign', ['0x00', ACCOUNT.cAddress]);
    await new Promise((r) => setTimeout(r, 20));
    expect(t.windows()).toBe(1);
    expect(await t.approvals.list()).toEqual([]);
    t.unlock();
    await new Promise((r) => setTimeout(r, 700));
    const [asked] = await t.approvals.list();
    expect(asked).toMatchObject({ origin: SITE.origin, method: 'personal_sign' });
    await t.approvals.decide(asked!.id, true);
    expect(await signing).toEqual({ ok: true, result: '0x5167' });
  });

  it("a site disconnected as its accounts are read gets the same answer whether the wallet locked then or not: 'not connected', no window", async () => {
    // [method, params, the permission read the disconnect (and the lock) lands on]
    const cases: Array<[string, unknown[], number]> = [
      ['xpc_getAddresses', [], 2],
      ['personal_sign', ['0x00', ACCOUNT.cAddress], 3],
    ];
    for (const [method, params, at] of cases) {
      const answers: unknown[] = [];
      for (const lockToo of [false, true]) {
        const t = setup();
        await t.sites.grant(SITE.origin, [ACCOUNT.id]);
        const permission = t.sites.permission.bind(t.sites);
        let reads = 0;
        t.sites.permission = async (origin) => {
          if (++reads === at) {
            await t.sites.revoke(SITE.origin);
            if (lockToo) t.lock();
          }
          return permission(origin);
        };
        answers.push(await errorOf(t.call(method, params)));
        expect(t.windows()).toBe(0);
      }
      expect(answers[0]).toMatchObject({ code: 4100, message: 'this site is not connected to XPC Wallet; call eth_requestAccounts first' });
      expect(answers[1]).toEqual(answers[0]);
    }
  });

  it("a connected site's address read, the wallet locked as it reads, waits for the unlock and answers: never 'locked'", async () => {
    const t = await connectedLockingOnSecondRead();
    const reading = t.call('xpc_getAddresses');
    await new Promise((r) => setTimeout(r, 20));
    expect(t.windows()).toBe(1);
    t.unlock();
    expect(await reading).toMatchObject({ ok: true, result: { X: ACCOUNT.xAddress, P: ACCOUNT.pAddress, C: ACCOUNT.cAddress } });
    // A keyring that refuses while the wallet is unlocked is not read again for ever: three tries.
    let tries = 0;
    const stuck = setup({ wallet: { accountsList: async () => (tries++, Promise.reject(new VaultLockedError())) } });
    await stuck.sites.grant(SITE.origin, [ACCOUNT.id]);
    expect(await errorOf(stuck.call('xpc_getAddresses'))).toMatchObject({ code: -32603, message: 'the wallet is locked' });
    expect(tries).toBe(3);
    expect(stuck.windows()).toBe(0);
  });

  it('locked and unlocked again while an ask is prepared: it is prepared again, not answered "locked"; a refusal that persists unlocked ends after three tries', async () => {
    let relock = true;
    let tries = 0;
    const t = setup({
      wallet: {
        accountsList: async () => {
          tries++;
          if (!relock) return { accounts: [ACCOUNT], selectedId: ACCOUNT.id };
          // The keys the preparation held were wiped by a lock, and the user has unlocked again since.
          t.lock();
          t.unlock();
          relock = false;
          throw new VaultLockedError();
        },
      },
    });
    const asking = t.call('eth_requestAccounts');
    await new Promise((r) => setTimeout(r, 20));
    const [asked] = await t.approvals.list();
    expect(asked).toMatchObject({ origin: SITE.origin, method: 'eth_requestAccounts' });
    expect(t.windows()).toBe(1);
    await t.approvals.decide(asked!.id, true);
    expect(await asking).toEqual({ ok: true, result: [ACCOUNT.cAddress] });
    // A keyring that refuses while the wallet is unlocked is not waited on for ever.
    const stuck = setup({ wallet: { accountsList: async () => (tries++, Promise.reject(new VaultLockedError())) } });
    tries = 0;
    expect(await errorOf(stuck.call('eth_requestAccounts'))).toMatchObject({ code: -32603, message: 'the wallet is locked' });
    expect(tries).toBe(3);
    expect(stuck.windows()).toBe(0);
    expect(await stuck.approvals.list()).toEqual([]);
  });

  it('the user closed the window on a site while its ask was prepared, the wallet locked then: the ask is held off as any other, unlocked again or not', async () => {
    for (const unlockedAgain of [true, false]) {
      let tries = 0;
      let clock = 1_000_000;
      const t = setup({
        now: () => clock,
        wallet: {
          accountsList: async () => {
            if (++tries > 1) return { accounts: [ACCOUNT], selectedId: ACCOUNT.id };
            // Locked under the preparation; meanwhile the user closed the window on another of the site's requests.
            t.lock();
            if (unlockedAgain) t.unlock();
            t.provider.cancelWaits([{ origin: SITE.origin }]);
            throw new VaultLockedError();
          },
        },
      });
      expect(await errorOf(t.call('eth_requestAccounts'))).toMatchObject({ code: 4001, message: expect.stringMatching(/closed the wallet window; try again/) });
      expect(tries).toBe(1);
      expect(t.windows()).toBe(0);
      expect(await t.approvals.list()).toEqual([]);
      // The refused ask kept no place: past the cool-down, the same ask is asked.
      t.unlock();
      clock += 31_000;
      void t.call('eth_requestAccounts');
      await new Promise((r) => setTimeout(r, 20));
      expect(await t.approvals.list()).toMatchObject([{ origin: SITE.origin, method: 'eth_requestAccounts' }]);
    }
  });

  it('a window closed on a site while its ask was prepared holds the ask off, with no lock between too; held off before "not connected"', async () => {
    const t = setup({ wallet: { accountsList: async () => (t.provider.cancelWaits([{ origin: SITE.origin }]), { accounts: [ACCOUNT], selectedId: ACCOUNT.id }) } });
    expect(await errorOf(t.call('eth_requestAccounts'))).toMatchObject({ code: 4001, message: expect.stringMatching(/closed the wallet window; try again/) });
    expect(t.windows()).toBe(0);
    expect(await t.approvals.list()).toEqual([]);
    // A signing ask: locked under its preparation, its site disconnected and the window closed on it meanwhile.
    for (const unlockedAgain of [true, false]) {
      let tries = 0;
      const s = setup({
        wallet: {
          accountsList: async () => {
            if (++tries > 1) return { accounts: [ACCOUNT], selectedId: ACCOUNT.id };
            s.lock();
            if (unlockedAgain) s.unlock();
            await s.sites.revoke(SITE.origin);
            s.provider.cancelWaits([{ origin: SITE.origin }]);
            throw new VaultLockedError();
          },
        },
      });
      await s.sites.grant(SITE.origin, [ACCOUNT.id]);
      expect(await errorOf(s.call('personal_sign', ['0x00', ACCOUNT.cAddress]))).toMatchObject({ code: 4001, message: expect.stringMatching(/closed the wallet window; try again/) });
      expect(s.windows()).toBe(0);
    }
  });

  it("an unlock the preparation itself waited for, its window closed, is the page's answer: no second wait", async () => {
    // The wallet locks as the preparation checks the connection; it waits for the unlock, and the user closes the window.
    const t = await connectedLockingOnSecondRead();
    const signing = t.call('personal_sign', ['0x00', ACCOUNT.cAddress]);
    await new Promise((r) => setTimeout(r, 20));
    expect(t.windows()).toBe(1);
    t.provider.cancelWaits();
    expect(await errorOf(signing)).toMatchObject({ code: 4001, message: 'the user closed the wallet window' });
    expect(t.windows()).toBe(1);
    expect(t.provider.sitesWaitingForUnlock()).toEqual([]);
  });

  it('a site disconnected while its ask waited out a lock is refused before the unlock is asked for again', async () => {
    const t = setup({
      wallet: {
        accountsList: async () => {
          // Locked during the preparation, and the site disconnected meanwhile.
          t.lock();
          await t.sites.revoke(SITE.origin);
          throw new VaultLockedError();
        },
      },
    });
    await t.sites.grant(SITE.origin, [ACCOUNT.id]);
    expect((await errorOf(t.call('personal_sign', ['0x00', ACCOUNT.cAddress]))).code).toBe(4100);
    expect(t.windows()).toBe(0);
    expect(await t.approvals.list()).toEqual([]);
  });

  it('approved, then locked: a window closed while the unlock window is still opening refuses the request, nothing is done for it', async () => {
    let opening: (() => void) | undefined;
    let lockOnNextRead = false;
    let signed = 0;
    const t = setup({
      windowOpening: () => (lockOnNextRead ? new Promise<void>((r) => (opening = r)) : Promise.resolve()),
      wallet: { withEvmSecret: (async () => (signed++, '0x')) as never },
    });
    await t.sites.grant(SITE.origin, [ACCOUNT.id]);
    // The wallet locks as the approved request checks its connection once more, before it acts.
    const permission = t.sites.permission.bind(t.sites);
    t.sites.permission = async (origin) => (lockOnNextRead && t.lock(), permission(origin));
    const signing = t.call('personal_sign', ['0x00', ACCOUNT.cAddress]);
    await new Promise((r) => setTimeout(r, 20));
    const [asked] = await t.approvals.list();
    lockOnNextRead = true;
    await t.approvals.decide(asked!.id, true);
    await new Promise((r) => setTimeout(r, 20));
    expect(opening).toBeTypeOf('function');
    t.provider.cancelWaits();
    opening!();
    expect(await errorOf(signing)).toMatchObject({ code: 4001, message: 'the user closed the wallet window' });
    expect(t.windows()).toBe(2);
    expect(signed).toBe(0);
  });

  it('a site that is not connected cannot make a locked wallet ask for the password to sign for it', async () => {
    const t = setup({ unlocked: false });
    expect((await errorOf(t.call('personal_sign', ['0x00', ACCOUNT.cAddress]))).code).toBe(4100);
    expect((await errorOf(t.call('eth_sendTransaction', [{ from: ACCOUNT.cAddress, to: ACCOUNT.cAddress }]))).code).toBe(4100);
    expect(t.windows()).toBe(0);
    expect(t.provider.sitesWaitingForUnlock()).toEqual([]);
  });

  it('sites waiting for an unlock are named, and after the window closed on them they wait before asking again', async () => {
    const t = setup({ unlocked: false });
    const framed: Site = { origin: 'https://news.example', frameOrigin: 'https://widget.example' };
    const connecting = t.call('eth_requestAccounts', [], framed);
    await new Promise((r) => setTimeout(r, 20));
    expect(t.windows()).toBe(1);
    expect(t.provider.sitesWaitingForUnlock()).toEqual(['https://widget.example']);
    t.provider.cancelWaits();
    expect((await errorOf(connecting)).code).toBe(4001);
    expect(t.provider.sitesWaitingForUnlock()).toEqual([]);
    // The same frame again, or a frame of a new site in the same page: refused without a window. The page around them is not held back.
    expect((await errorOf(t.call('eth_requestAccounts', [], framed))).code).toBe(4001);
    expect((await errorOf(t.call('eth_requestAccounts', [], { ...framed, frameOrigin: 'https://x1.vercel.app' }))).code).toBe(4001);
    expect(t.windows()).toBe(1);
    t.unlock();
    const page = t.call('eth_requestAccounts', [], { origin: 'https://news.example' });
    await new Promise((r) => setTimeout(r, 20));
    expect(await t.approvals.list()).toHaveLength(1);
    await t.approvals.decide((await t.approvals.list())[0]!.id, true);
    expect(await page).toEqual({ ok: true, result: [ACCOUNT.cAddress] });
  });

  it('locked, one site (its subdomains together) holds at most 3 asks waiting for the unlock, refused as the queue refuses them unlocked; another site still gets one', async () => {
    const t = setup({ unlocked: false });
    // Connected subdomains, each asking something else (a second ask of one site for the same method is refused at once, as while unlocked).
    for (const i of [0, 1, 2, 3, 4, 9]) await t.sites.grant(`https://x${i}.evil.example`, [ACCOUNT.id]);
    const typed = {
      types: { EIP712Domain: [{ name: 'chainId', type: 'uint256' }], Note: [{ name: 'text', type: 'string' }] },
      primaryType: 'Note',
      domain: { chainId: 43112 },
      message: { text: 'hello' },
    };
    const asks: Array<[string, unknown[]]> = [
      ['personal_sign', ['0x00', ACCOUNT.cAddress]],
      ['eth_requestAccounts', []],
      ['eth_signTypedData_v4', [ACCOUNT.cAddress, JSON.stringify(typed)]],
    ];
    const flood = asks.map(([method, params], i) => t.call(method, params, { origin: `https://x${i}.evil.example` }));
    await new Promise((r) => setTimeout(r, 20));
    expect(await errorOf(t.call('personal_sign', ['0x00', ACCOUNT.cAddress], { origin: 'https://x9.evil.example' }))).toMatchObject({ code: -32002, message: 'evil.example already has a personal_sign request waiting for your decision' });
    expect(await errorOf(t.call('wallet_switchEthereumChain', [{ chainId: '0xa86a' }], { origin: 'https://x9.evil.example' }))).toMatchObject({ code: -32002, message: 'too many requests are waiting for a decision; answer or reject some first' });
    const shop = t.call('eth_requestAccounts', [], { origin: 'https://shop.example' });
    await new Promise((r) => setTimeout(r, 20));
    t.provider.cancelWaits();
    for (const r of [...flood, shop]) expect((await errorOf(r)).code).toBe(4001);
  });

  it('locked, a window that cannot open leaves no unlock wait behind: the next request opens one again', async () => {
    let fails = true;
    const t = setup({ unlocked: false, windowFails: () => fails });
    expect((await errorOf(t.call('eth_requestAccounts'))).code).toBe(-32603);
    fails = false;
    const next = t.call('eth_requestAccounts', [], { origin: 'https://news.example' });
    await new Promise((r) => setTimeout(r, 50));
    expect(t.windows()).toBe(2);
    t.provider.cancelWaits();
    expect((await errorOf(next)).code).toBe(4001);
  });
});
