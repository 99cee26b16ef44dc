// The idle lock counts only the user's own actions: a page that keeps asking (connect requests, chain
// reads) while the approval window sits open and polls cannot keep the wallet unlocked. Driven
// through the real provider and the real router with the worker's activity rule, on a fake clock.
import { describe, expect, inject, it } from 'vitest';
import { createRouter, type MessageSenderInfo } from '../../src/background/router.js';
import { walletHandlers } from '../../src/background/services/index.js';
import { memoryStores } from '../../src/background/storage.js';
import { userActivity } from '../../src/background/user-activity.js';
import { generateMnemonic } from '../../src/core/keys.js';
import { PROVIDER_CHANNEL } from '../../src/shared/provider-protocol.js';
import { PASSWORD, providerBackground } from './wallet-fixture.js';

const EXT_ID = 'abcdefghijklmnopabcdefghijklmnop';
const ORIGIN = `chrome-extension://${EXT_ID}/`;
const APPROVAL_WINDOW: MessageSenderInfo = { id: EXT_ID, url: `${ORIGIN}src/popup/approval.html`, tab: { id: 12 }, frameId: 0 };
const POPUP: MessageSenderInfo = { id: EXT_ID, url: `${ORIGIN}src/popup/index.html` };

/** A wallet with a 1-minute idle lock, its clock in the test's hands, and the worker's router. */
async function setup() {
  const clock = { t: Date.now() };
  let windowOpened = 0;
  const bg = await providerBackground(memoryStores(), { sessionNow: () => clock.t, openApprovalWindow: () => void windowOpened++ });
  await bg.wallet.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
  const network = await bg.wallet.networks.networksAddCustom({ name: 'Test node', url: inject('nodeUrl') });
  await bg.wallet.networks.networksSelect({ id: network.id });
  await bg.wallet.accounts.walletSetIdleLock({ minutes: 1 });
  const router = createRouter(walletHandlers(bg.wallet), { extensionId: EXT_ID, extensionOrigin: ORIGIN, onValidRequest: userActivity(bg.session) });
  let n = 0;
  const fromPage = (method: string, origin: string) =>
    bg.provider.handle({ channel: PROVIDER_CHANNEL, requestId: `p${++n}`, method, params: [] }, { origin }).catch(() => undefined);
  const fromExtension = (type: string, sender: MessageSenderInfo) => router.handle({ channel: 'xpc-wallet', type, params: {} }, sender);
  return { bg, clock, fromPage, fromExtension, windowOpened: () => windowOpened };
}

describe('the idle lock and a page that keeps asking', () => {
  it('an unconnected page asking to connect every 5 s, with the approval window open and polling every second: the wallet locks after its idle minute', async () => {
    const { bg, clock, fromPage, fromExtension, windowOpened } = await setup();
    const start = clock.t;
    // Left waiting for the user: the approval window shows it and polls.
    void fromPage('eth_requestAccounts', 'https://pushy.example');
    for (let s = 1; s <= 70; s++) {
      clock.t = start + s * 1000;
      expect((await fromExtension('approvals.list', APPROVAL_WINDOW)).ok || !bg.session.isUnlocked()).toBe(true);
      await fromExtension('approvals.waiting', APPROVAL_WINDOW);
      if (s % 5 === 0) {
        void fromPage('eth_requestAccounts', 'https://pushy.example');
        void fromPage('eth_requestAccounts', `https://a${s}.pushy.example`);
        await fromPage('eth_chainId', 'https://pushy.example');
      }
    }
    expect(windowOpened()).toBeGreaterThan(0);
    // The worker's alarm (or the next request) finds the wallet idle.
    await bg.session.checkIdle();
    expect(bg.session.isUnlocked()).toBe(false);
  });

  it("a connected site's request after the idle minute, before the worker's alarm, finds the wallet locked and sees no account", async () => {
    const { bg, clock, fromPage } = await setup();
    const site = 'https://reader.example';
    const connecting = bg.provider.handle({ channel: PROVIDER_CHANNEL, requestId: 'connect', method: 'eth_requestAccounts', params: [] }, { origin: site });
    await expect.poll(async () => (await bg.approvals.list()).length).toBe(1);
    await bg.approvals.decide((await bg.approvals.list())[0]!.id, true);
    const connected = await connecting;
    expect(connected.ok && (connected.result as string[]).length).toBe(1);
    const accounts = () => bg.provider.handle({ channel: PROVIDER_CHANNEL, requestId: `accounts${clock.t}`, method: 'eth_accounts', params: [] }, { origin: site });
    clock.t += 30_000;
    await fromPage('eth_chainId', site);
    expect(await accounts()).toEqual(connected);
    clock.t += 31_000;
    // No alarm has run: the site's own request finds the minute gone (and never counts as activity).
    expect(await accounts()).toEqual({ ok: true, result: [] });
    expect(bg.session.isUnlocked()).toBe(false);
  });

  it('the user clicking in the popup (a request that is not a poll) keeps it unlocked past the minute', async () => {
    const { bg, clock, fromExtension } = await setup();
    const start = clock.t;
    for (let s = 1; s <= 70; s++) {
      clock.t = start + s * 1000;
      await fromExtension('approvals.list', APPROVAL_WINDOW);
      if (s % 20 === 0) expect((await fromExtension('accounts.list', POPUP)).ok).toBe(true);
    }
    await bg.session.checkIdle();
    expect(bg.session.isUnlocked()).toBe(true);
  });
});
