// The wallet flow both browsers run, step by step, through the background's message protocol.
// Each function is the body of one step and returns what the later steps build on.
import { expect } from 'vitest';
import { BackgroundError } from '../../src/shared/client.js';
import type { AccountView, BalancesView, NetworkView } from '../../src/shared/messages.js';
import { avaxAssetId, fundX, PASSWORD, type Call } from './harness.js';

/** Funding sent to the new wallet, in nAVAX: odd on purpose, so that only the exact amount matches. */
export const FUNDING = 1_234_567_891n;

/** No vault yet → a 24-word phrase from the background → a new vault, unlocked. */
export async function createWallet(call: Call): Promise<void> {
  const before = await call('wallet.status', {});
  expect(before.vault).toBe('none');
  expect(before.account).toBeNull();
  const { mnemonic } = await call('wallet.generateMnemonic', { words: 24 });
  expect(mnemonic.trim().split(/\s+/)).toHaveLength(24);
  const created = await call('wallet.create', { password: PASSWORD, mnemonic });
  expect(created.vault).toBe('unlocked');
  expect(created.account?.kind).toBe('hd');
}

/** Adds the node (at `url`) as a custom network and selects it; the account's view on it. */
export async function addAndSelectNode(call: Call, url: string): Promise<{ network: NetworkView; account: AccountView }> {
  const network = await call('networks.addCustom', { name: 'E2E local node', url });
  expect(network).toMatchObject({ kind: 'custom', url });
  const status = await call('networks.select', { id: network.id });
  expect(status.network.id).toBe(network.id);
  expect(status.vault).toBe('unlocked');
  // The local network's addresses use the hrp "local".
  expect(status.account?.xAddress).toMatch(/^X-custom1/);
  return { network, account: status.account! };
}

/** The snapshot holds exactly FUNDING nAVAX on X, nothing on P and C. */
export async function expectFunded(view: BalancesView): Promise<void> {
  expect(view.error).toBeUndefined();
  expect(view.updatedAt).toBeGreaterThan(0);
  const avax = await avaxAssetId();
  const x = view.balances.find((b) => b.chain === 'X' && b.assetID === avax);
  expect(x).toMatchObject({ spendable: FUNDING.toString(), locked: '0', lockedStakeable: '0', verified: true });
  expect(view.balances.find((b) => b.chain === 'P')?.spendable).toBe('0');
  expect(view.balances.find((b) => b.chain === 'C')?.spendable).toBe('0');
}

/** Sends FUNDING from the genesis key to the account's X address; the refreshed snapshot shows exactly that. */
export async function fundAndRefresh(call: Call, account: AccountView): Promise<BalancesView> {
  await fundX(account.xAddress, FUNDING);
  const snapshot = await call('balances.refresh', {});
  await expectFunded(snapshot);
  return snapshot;
}

/**
 * The snapshot once no refresh is running. The popup page refreshes the balances itself when it
 * loads, so after a (re)load of the popup the snapshot to compare with later is this one.
 */
export async function settledBalances(call: Call): Promise<BalancesView> {
  let view = await call('balances.get', {});
  const deadline = Date.now() + 30_000;
  while (view.refreshing) {
    if (Date.now() > deadline) throw new Error('the balances were still refreshing after 30 s');
    await new Promise((r) => setTimeout(r, 100));
    view = await call('balances.get', {});
  }
  return view;
}

/**
 * After a restart of the background: still unlocked, same account, and the cached snapshot at
 * once (the same balances; the popup page may have refreshed it since, never to older data).
 */
export async function expectSessionResumed(call: Call, account: AccountView, snapshot: BalancesView): Promise<void> {
  const status = await call('wallet.status', {});
  expect(status.vault).toBe('unlocked');
  expect(status.account?.xAddress).toBe(account.xAddress);
  const cached = await call('balances.get', {});
  expect(cached.updatedAt).toBeGreaterThanOrEqual(snapshot.updatedAt);
  expect(cached.error).toBeUndefined();
  expect({ balances: cached.balances, waiting: cached.waiting }).toEqual({ balances: snapshot.balances, waiting: snapshot.waiting });
}

/** Lock → locked; a wrong password is refused as such; the right one unlocks the same account. */
export async function lockAndUnlock(call: Call, account: AccountView, whileLocked?: () => Promise<void>): Promise<void> {
  const locked = await call('wallet.lock', {});
  expect(locked.vault).toBe('locked');
  expect(locked.account).toBeNull();
  expect((await call('wallet.status', {})).vault).toBe('locked');
  await whileLocked?.();
  const wrong = await call('wallet.unlock', { password: `${PASSWORD}!` }).catch((e: unknown) => e);
  expect(wrong).toBeInstanceOf(BackgroundError);
  expect((wrong as BackgroundError).code).toBe('wrong-password');
  const unlocked = await call('wallet.unlock', { password: PASSWORD });
  expect(unlocked.vault).toBe('unlocked');
  expect(unlocked.account?.xAddress).toBe(account.xAddress);
}
