// Closing the approval window, without a node: its requests are answered "no" and their sites held
// off for a while, first, so an ask of theirs that was being prepared then is refused, not shown in
// a window opened again for it; a request asked after the window last listed them stays.
import { describe, expect, it } from 'vitest';
import { Session } from '../../src/background/session.js';
import { createWallet } from '../../src/background/services/index.js';
import { Vault } from '../../src/background/vault.js';
import { errorOf } from './provider-answers.js';
import { ACCOUNT } from './site-account.js';
import { setup, SITE } from './provider-fixtures.js';

const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));
const HELD_OFF = { code: 4001, message: expect.stringMatching(/closed the wallet window; try again/) };

/** A connected site with one request on screen, and a second ask of it whose preparation waits for `release`. */
async function askOnScreenAndOnePreparing() {
  let release!: () => void;
  const hold = new Promise<void>((r) => (release = r));
  let holding = false;
  const t = setup({ wallet: { accountsList: async () => (holding && (await hold), { accounts: [ACCOUNT], selectedId: ACCOUNT.id }) } });
  await t.sites.grant(SITE.origin, [ACCOUNT.id]);
  const onScreen = t.call('wallet_switchEthereumChain', [{ chainId: '0xa86a' }]);
  await tick();
  const [shown] = await t.approvals.list();
  expect(shown).toMatchObject({ origin: SITE.origin, method: 'wallet_switchEthereumChain' });
  const listedAt = Date.now();
  holding = true;
  await tick(5);
  const preparing = t.call('personal_sign', ['0x00', ACCOUNT.cAddress]);
  await tick();
  return { t, shown: shown!, listedAt, onScreen, preparing, release };
}

describe('closing the approval window', () => {
  it('holds the sites on screen off before answering their requests: an ask prepared in between is refused, not shown next', async () => {
    const { t, onScreen, preparing, release } = await askOnScreenAndOnePreparing();
    // Its preparation ends while the requests on screen are being answered.
    const decide = t.approvals.decide.bind(t.approvals);
    t.approvals.decide = async (id, approved) => (release(), await tick(), decide(id, approved));
    expect(await t.provider.windowClosed()).toBe(false);
    expect(await errorOf(onScreen)).toMatchObject({ code: 4001, message: 'the user rejected the request' });
    expect(await errorOf(preparing)).toMatchObject(HELD_OFF);
    expect(await t.approvals.list()).toEqual([]);
    expect(t.windows()).toBe(1);
  });

  it("the window's own \"no\" to the request on screen, sent as it closes and often seen first, holds that site off too", async () => {
    const { t, shown, listedAt, onScreen, preparing, release } = await askOnScreenAndOnePreparing();
    const stores = t.stores;
    // As the background wires it: the approvals service holds off through the provider (locked or not, a "no" is taken).
    const wallet = createWallet(new Session(new Vault(stores, { kdfIterationsForTesting: 1_000 }), stores), stores.local, { approvals: t.approvals, holdOff: (askers) => t.provider.holdOff(askers) });
    // The preparation ends as that "no" is being recorded: the site is held off before it.
    const decide = t.approvals.decide.bind(t.approvals);
    t.approvals.decide = async (id, approved) => (release(), await tick(), decide(id, approved));
    await wallet.approvals.approvalsDecide({ id: shown.id, approved: false, closing: true });
    expect(await errorOf(onScreen)).toMatchObject({ code: 4001, message: 'the user rejected the request' });
    expect(await errorOf(preparing)).toMatchObject(HELD_OFF);
    // Then the close itself is seen: nothing left on screen, nothing to open a window again for.
    expect(await t.provider.windowClosed(listedAt)).toBe(false);
    expect(await t.approvals.list()).toEqual([]);
    expect(t.windows()).toBe(1);
  });

  it("the window's \"no\" as it closes ends no other site's wait for the unlock (a reload sends it too)", async () => {
    const t = setup({ unlocked: false });
    const stores = t.stores;
    const wallet = createWallet(new Session(new Vault(stores, { kdfIterationsForTesting: 1_000 }), stores), stores.local, { approvals: t.approvals, holdOff: (askers) => t.provider.holdOff(askers) });
    const other = { origin: 'https://other.example' };
    const waiting = t.call('eth_requestAccounts', [], other);
    await tick();
    expect(t.provider.sitesWaitingForUnlock()).toEqual([other.origin]);
    const shown = await t.approvals.add({ origin: SITE.origin, method: 'personal_sign', params: {}, summary: { kind: 'connect', accounts: [] } });
    await wallet.approvals.approvalsDecide({ id: shown.id, approved: false, closing: true });
    expect(t.provider.sitesWaitingForUnlock()).toEqual([other.origin]);
    t.unlock();
    await tick(400);
    expect(await t.approvals.list()).toMatchObject([{ origin: other.origin, method: 'eth_requestAccounts' }]);
    // The site on screen is held off.
    expect(await errorOf(t.call('eth_requestAccounts'))).toMatchObject(HELD_OFF);
    void waiting;
  });

  it('a "no" from the Reject button holds nothing off: the site may ask again at once', async () => {
    const { t, shown, onScreen, preparing, release } = await askOnScreenAndOnePreparing();
    const stores = t.stores;
    const wallet = createWallet(new Session(new Vault(stores, { kdfIterationsForTesting: 1_000 }), stores), stores.local, { approvals: t.approvals, holdOff: (askers) => t.provider.holdOff(askers) });
    await wallet.approvals.approvalsDecide({ id: shown.id, approved: false });
    expect((await errorOf(onScreen)).message).toBe('the user rejected the request');
    release();
    await tick();
    expect(await t.approvals.list()).toMatchObject([{ origin: SITE.origin, method: 'personal_sign' }]);
    expect(t.windows()).toBe(2);
    void preparing;
  });

  it('a request asked after the window last listed them stays, its site not held off, and the window opens again for it', async () => {
    const t = setup();
    await t.sites.grant(SITE.origin, [ACCOUNT.id]);
    const shown = t.call('personal_sign', ['0x00', ACCOUNT.cAddress]);
    await tick();
    const listedAt = Date.now();
    await tick(5);
    const other = { origin: 'https://other.example' };
    const later = t.call('eth_requestAccounts', [], other);
    await tick();
    expect(await t.provider.windowClosed(listedAt)).toBe(true);
    expect((await errorOf(shown)).message).toBe('the user rejected the request');
    const [left] = await t.approvals.list();
    expect(left).toMatchObject({ origin: other.origin, method: 'eth_requestAccounts' });
    // The site on screen is held off; the later one is not.
    expect(await errorOf(t.call('wallet_switchEthereumChain', [{ chainId: '0xa86a' }]))).toMatchObject(HELD_OFF);
    void t.call('wallet_switchEthereumChain', [{ chainId: '0xa86a' }], other);
    await tick();
    expect((await t.approvals.list()).map((a) => [a.origin, a.method])).toEqual([
      [other.origin, 'eth_requestAccounts'],
      [other.origin, 'wallet_switchEthereumChain'],
    ]);
    void later;
  });
});
