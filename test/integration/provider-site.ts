// The provider's background as provider.test.ts drives it: built as a (re)started worker builds it,
// with the approval window played by the test, and a site's requests with their answers checked.
import { expect, inject } from 'vitest';
import type { ApprovalQueue, PendingApproval } from '../../src/background/approvals.js';
import type { ProviderService, Site } from '../../src/background/provider.js';
import type { Session } from '../../src/background/session.js';
import type { MemoryStores } from '../../src/background/storage.js';
import type { Wallet } from '../../src/background/services/index.js';
import { parseAddress } from '../../src/core/encoding.js';
import { generateMnemonic } from '../../src/core/keys.js';
import { makeOwners } from '../../src/core/tx/context.js';
import type { AccountView, ApprovalSummary } from '../../src/shared/messages.js';
import { PROVIDER_CHANNEL, type ProviderResponse } from '../../src/shared/provider-protocol.js';
import { AVAX, genesisEngine, localNetwork, WEI_PER_NAVAX } from './fixture.js';
import { providerBackground } from './wallet-fixture.js';

export const PASSWORD = 'provider test password';
export const SITE: Site = { origin: 'https://dapp.example' };

/** The approval window, played by the test: it answers each request as `answer` says. */
export interface User {
  answer: (p: PendingApproval) => boolean | 'wait';
  seen: PendingApproval[];
  windowOpened: number;
  /** Called when the window opens while locked. */
  onLockedOpen?: () => Promise<void>;
}

export interface Background {
  stores: MemoryStores;
  session: Session;
  wallet: Wallet;
  approvals: ApprovalQueue;
  provider: ProviderService;
  user: User;
  notified: number;
}

/** The background as a (re)started worker builds it, over storage that survives, on the clock `now` (and `fetch`, if given, to reach the node). */
export async function siteBackground(stores: MemoryStores, user: User, now: () => number, fetch?: typeof globalThis.fetch): Promise<Background> {
  // The hooks run only once the background exists (they are called from its requests).
  const answerPending = async () => {
    for (const p of await bg.approvals.list()) {
      if (user.seen.some((s) => s.id === p.id)) continue;
      const a = user.answer(p);
      if (a === 'wait') continue;
      user.seen.push(p);
      await bg.approvals.decide(p.id, a);
    }
  };
  const bg: Background = Object.assign(await providerBackground(stores, {
    openApprovalWindow: ({ session }) => {
      user.windowOpened++;
      if (!session.isUnlocked()) {
        setTimeout(() => void user.onLockedOpen?.(), 20);
        return;
      }
      setTimeout(() => void answerPending(), 10);
    },
    notifyPages: () => {
      bg.notified++;
    },
    now,
    ...(fetch ? { fetch } : {}),
  }), { user, notified: 0 });
  return bg;
}

let nextId = 0;
export function call(bg: Background, method: string, params?: unknown, site: Site = SITE, requestId = `req-${++nextId}`): Promise<ProviderResponse> {
  return bg.provider.handle({ channel: PROVIDER_CHANNEL, requestId, method, ...(params !== undefined ? { params } : {}) }, site);
}

export async function ok(bg: Background, method: string, params?: unknown, site?: Site): Promise<unknown> {
  const r = await call(bg, method, params, site);
  if (!r.ok) throw new Error(`${method} failed: ${r.error.code} ${r.error.message}`);
  return r.result;
}

export async function fails(bg: Background, method: string, params: unknown, code: number, site?: Site): Promise<{ message: string; data?: unknown }> {
  const r = await call(bg, method, params, site);
  expect(r.ok, `${method} should fail with ${code}`).toBe(false);
  if (r.ok) throw new Error('unreachable');
  expect(r.error.code, r.error.message).toBe(code);
  return r.error;
}

export const approveAll = (): User => ({ answer: () => true, seen: [], windowOpened: 0 });

export function lastSummary(bg: Background): ApprovalSummary {
  return bg.user.seen.at(-1)!.summary as ApprovalSummary;
}

/** A new wallet in `bg` on the test node, its account funded with 20 AVAX on X and 5 AVAX on C. */
export async function fundedAccount(bg: Background): Promise<AccountView> {
  await bg.wallet.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(24) });
  const network = await bg.wallet.networks.networksAddCustom({ name: 'Test node', url: inject('nodeUrl') });
  const account = (await bg.wallet.networks.networksSelect({ id: network.id })).account!;
  const { ctx } = await localNetwork();
  const genesis = await genesisEngine();
  const me = makeOwners([parseAddress(account.xAddress).bytes]);
  await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 20n * AVAX, owners: me }]));
  await genesis.sendC(account.cAddress, 5n * AVAX * WEI_PER_NAVAX);
  return account;
}
