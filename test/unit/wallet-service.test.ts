// The wallet service as the router calls it: form errors named by field, network views, hidden
// assets kept per network, approvals, the reviewed selection, and removing a network with moves.
import { describe, expect, it } from 'vitest';
import { ApprovalQueue } from '../../src/background/approvals.js';
import { Session } from '../../src/background/session.js';
import { memoryStores } from '../../src/background/storage.js';
import { Vault } from '../../src/background/vault.js';
import { createWallet } from '../../src/background/services/index.js';
import { cb58Encode } from '../../src/core/encoding.js';
import { ValidationError } from '../../src/core/errors.js';
import { generateMnemonic } from '../../src/core/keys.js';
import { service } from './wallet-service-test-kit.js';

async function fieldOf(p: Promise<unknown>): Promise<string | undefined> {
  const e = await p.catch((x: unknown) => x);
  expect(e).toBeInstanceOf(ValidationError);
  return (e as ValidationError).field;
}

describe('wallet service form errors name the field the user typed into', () => {
  it('mnemonic, private key, new password and idle minutes', async () => {
    const { wallet, stores } = service();
    expect(await fieldOf(wallet.accounts.walletCreate({ password: 'long enough', mnemonic: 'abandon abandon' }))).toBe('mnemonic');
    expect(await fieldOf(wallet.accounts.walletCreateFromKey({ password: 'long enough', privateKey: 'PrivateKey-nope', name: 'k' }))).toBe('privateKey');
    // Nothing was written by the refused attempts.
    expect(stores.local.keys()).toEqual([]);

    await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    expect(await fieldOf(wallet.accounts.walletChangePassword({ oldPassword: 'long enough', newPassword: 'short' }))).toBe('newPassword');
    expect(await fieldOf(wallet.accounts.walletSetIdleLock({ minutes: 0 }))).toBe('minutes');
    expect(await fieldOf(wallet.accounts.accountsImportKey({ name: 'k', privateKey: '0x1234' }))).toBe('privateKey');
    expect(await wallet.accounts.walletSetIdleLock({ minutes: 'never' })).toMatchObject({ minutes: 'never', warning: expect.any(String) });
  });

  it('a wallet, its first account and its addresses exist after create; a second create is refused', async () => {
    const { wallet } = service();
    const status = await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(24) });
    expect(status).toMatchObject({ vault: 'unlocked', network: { id: 'local' }, account: { name: 'Account 1', kind: 'hd', index: 0 } });
    expect(status.account!.xAddress).toMatch(/^X-custom1/);
    await expect(wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(24) })).rejects.toMatchObject({ code: 'vault-exists' });
    const added = await wallet.accounts.accountsAdd({ name: 'Savings' });
    expect(added).toMatchObject({ name: 'Savings', index: 1 });
    expect(added.xAddress).not.toBe(status.account!.xAddress);
  });

  it('each account keeps a name of its own: an add, an import or a rename to a name another account has is refused at the name, and changes nothing', async () => {
    const { wallet, session } = service();
    await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    const savings = await wallet.accounts.accountsAdd({ name: 'Savings' });
    const taken = { code: 'validation', field: 'name', message: expect.stringContaining('“Account 1”') };
    // Letter case, Unicode forms and spaces around or repeated do not make another name.
    await expect(wallet.accounts.accountsAdd({ name: ' account  1' })).rejects.toMatchObject(taken);
    await expect(wallet.accounts.accountsImportKey({ name: 'ACCOUNT 1', privateKey: '0x' + '44'.repeat(32) })).rejects.toMatchObject(taken);
    await expect(wallet.accounts.accountsRename({ id: savings.id, name: 'Ａccount 1' })).rejects.toMatchObject(taken);
    const { accounts } = await wallet.accounts.accountsList();
    expect(accounts.map((a) => a.name)).toEqual(['Account 1', 'Savings']);
    // The refused import left no key in the vault, to be given an account at the next unlock.
    expect(session.secrets().importedKeys).toEqual([]);
    await expect(wallet.accounts.accountsImportKey({ name: 'Cold', privateKey: '0x' + '44'.repeat(32) })).resolves.toMatchObject({ name: 'Cold', kind: 'imported' });
    // The same key again under its own account's name: what is wrong is the key, and it is said so.
    await expect(wallet.accounts.accountsImportKey({ name: 'Cold', privateKey: '0x' + '44'.repeat(32) })).rejects.toMatchObject({ field: 'privateKey', message: 'this key is already in the wallet' });
    // Its own name in other letters is a rename, not a clash.
    await expect(wallet.accounts.accountsRename({ id: savings.id, name: 'SAVINGS' })).resolves.toMatchObject({ name: 'SAVINGS' });
  });

  it('a rename to the name an import is taking, from another window at the same time: one of the two is refused, and no key is left without its account', async () => {
    const { wallet, session } = service();
    const first = (await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) })).account!;
    const [imported, renamed] = await Promise.allSettled([
      wallet.accounts.accountsImportKey({ name: 'Cold', privateKey: '0x' + '44'.repeat(32) }),
      wallet.accounts.accountsRename({ id: first.id, name: 'Cold' }),
    ]);
    expect([imported.status, renamed.status].sort()).toEqual(['fulfilled', 'rejected']);
    const { accounts } = await wallet.accounts.accountsList();
    expect(new Set(accounts.map((a) => a.name.toLowerCase())).size).toBe(accounts.length);
    expect(session.secrets().importedKeys.length).toBe(accounts.filter((a) => a.kind === 'imported').length);
  });
});

describe('network views', () => {
  it('carry the address prefix and, where the network has one, the explorer', async () => {
    const { wallet } = service();
    const { networks } = await wallet.networks.networksList();
    expect(networks.find((n) => n.id === 'mainnet')).toMatchObject({ hrp: 'avax', explorerUrl: 'https://subnets.avax.network' });
    expect(networks.find((n) => n.id === 'fuji')).toMatchObject({ hrp: 'fuji', explorerUrl: 'https://subnets-test.avax.network' });
    const local = networks.find((n) => n.id === 'local')!;
    expect(local.hrp).toBe('custom');
    expect(local).not.toHaveProperty('explorerUrl');
    const status = await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    expect(status.network.hrp).toBe('custom');
  });
});

describe('hidden assets', () => {
  const ID_A = cb58Encode(new Uint8Array(32).fill(1));
  const ID_B = cb58Encode(new Uint8Array(32).fill(2));

  it('are kept per network in storage.local, and survive a new service over the same storage', async () => {
    const { wallet, stores } = service();
    await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    expect(await wallet.balances.settingsGetHiddenAssets({ networkId: 'local' })).toEqual({ assetIDs: [] });
    expect(await wallet.balances.settingsSetHiddenAssets({ assetIDs: [ID_A, ID_B], networkId: 'local' })).toEqual({ ok: true });
    expect(await stores.local.get(['xpc.hidden.local'])).toEqual({ 'xpc.hidden.local': [ID_A, ID_B] });

    const again = createWallet(new Session(new Vault(stores, { kdfIterationsForTesting: 1_000 }), stores), stores.local);
    expect(await again.balances.settingsGetHiddenAssets({ networkId: 'local' })).toEqual({ assetIDs: [ID_A, ID_B] });

    // Another network has its own list (switched in storage: no node to check here).
    const state = (await stores.local.get(['xpc.state']))['xpc.state'] as Record<string, unknown>;
    await stores.local.set({ 'xpc.state': { ...state, selectedNetworkId: 'fuji' } });
    expect(await again.balances.settingsGetHiddenAssets({ networkId: 'fuji' })).toEqual({ assetIDs: [] });
    await again.balances.settingsSetHiddenAssets({ assetIDs: [ID_B], networkId: 'fuji' });
    // A list shown for the network before a switch made in another window is not written over the new one's.
    await expect(again.balances.settingsSetHiddenAssets({ assetIDs: [ID_A], networkId: 'local' })).rejects.toMatchObject({ code: 'selection-changed' });
    // What the popup still showing the first network reads is that network's list, not the one selected now.
    expect(await again.balances.settingsGetHiddenAssets({ networkId: 'fuji' })).toEqual({ assetIDs: [ID_B] });
    expect(await again.balances.settingsGetHiddenAssets({ networkId: 'local' })).toEqual({ assetIDs: [ID_A, ID_B] });
    await stores.local.set({ 'xpc.state': state });
    await again.balances.settingsSetHiddenAssets({ assetIDs: [], networkId: 'local' });
    expect(await again.balances.settingsGetHiddenAssets({ networkId: 'local' })).toEqual({ assetIDs: [] });
  });

  it('are dropped with the wallet when it is restored from a recovery phrase', async () => {
    const { wallet, stores } = service();
    const mnemonic = generateMnemonic(12);
    await wallet.accounts.walletCreate({ password: 'long enough', mnemonic });
    await wallet.balances.settingsSetHiddenAssets({ assetIDs: [ID_A], networkId: 'local' });
    await wallet.accounts.walletRestore({ password: 'long enough', mnemonic });
    expect(await wallet.balances.settingsGetHiddenAssets({ networkId: 'local' })).toEqual({ assetIDs: [] });
    expect(stores.local.keys()).not.toContain('xpc.hidden.local');
  });
});

describe('approvals through the wallet service', () => {
  function withQueue() {
    const stores = memoryStores();
    const session = new Session(new Vault(stores, { kdfIterationsForTesting: 1_000 }), stores);
    const queue = new ApprovalQueue(stores.session, () => 1_700_000_000_000);
    return { queue, wallet: createWallet(session, stores.local, { approvals: queue }) };
  }
  async function unlockedWithQueue() {
    const t = withQueue();
    await t.wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    return t;
  }

  it('lists what the provider enqueued, without the request params, and decides it', async () => {
    const { queue, wallet } = await unlockedWithQueue();
    expect(await wallet.approvals.approvalsList()).toEqual({ approvals: [] });
    const summary = { kind: 'connect', accounts: ['X-local1abc'] };
    const a = await queue.add({ origin: 'https://dapp.example', method: 'avax_requestAccounts', params: { secret: 'kept back' }, summary });
    const b = await queue.add({ origin: 'https://top.example', frameOrigin: 'https://frame.example', method: 'avax_signMessage', params: {}, summary: { kind: 'sign-message', encoding: 'text', message: 'hi', signer: 'X-local1abc' } });

    const { approvals } = await wallet.approvals.approvalsList();
    expect(approvals).toEqual([
      { id: a.id, origin: 'https://dapp.example', method: 'avax_requestAccounts', createdAt: 1_700_000_000_000, summary },
      { id: b.id, origin: 'https://top.example', frameOrigin: 'https://frame.example', method: 'avax_signMessage', createdAt: 1_700_000_000_000, summary: expect.objectContaining({ kind: 'sign-message' }) },
    ]);
    expect(JSON.stringify(approvals)).not.toContain('kept back');
    expect(a.id).toMatch(/^[0-9a-f]{24}$/);

    const waiting = queue.waitFor(a.id);
    expect(await wallet.approvals.approvalsDecide({ id: a.id, approved: true })).toEqual({ ok: true });
    expect(await waiting).toBe(true);
    await wallet.approvals.approvalsDecide({ id: b.id, approved: false });
    expect(await queue.waitFor(b.id)).toBe(false);
    expect(await wallet.approvals.approvalsList()).toEqual({ approvals: [] });
  });

  it('a decision on an unknown or already decided request is refused with unknown-approval', async () => {
    const { queue, wallet } = await unlockedWithQueue();
    await expect(wallet.approvals.approvalsDecide({ id: '0'.repeat(24), approved: true })).rejects.toMatchObject({ code: 'unknown-approval' });
    const a = await queue.add({ origin: 'https://dapp.example', method: 'm', params: {}, summary: { kind: 'connect', accounts: [] } });
    await wallet.approvals.approvalsDecide({ id: a.id, approved: false });
    await expect(wallet.approvals.approvalsDecide({ id: a.id, approved: true })).rejects.toMatchObject({ code: 'unknown-approval' });
    // Without a queue nothing waits, and nothing can be decided.
    const { wallet: bare } = service();
    await bare.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    expect(await bare.approvals.approvalsList()).toEqual({ approvals: [] });
    await expect(bare.approvals.approvalsDecide({ id: a.id, approved: true })).rejects.toMatchObject({ code: 'unknown-approval' });
  });

  it('names the sites waiting, also while locked: the frames with requests and those waiting for the unlock', async () => {
    const stores = memoryStores();
    const session = new Session(new Vault(stores, { kdfIterationsForTesting: 1_000 }), stores);
    const queue = new ApprovalQueue(stores.session);
    const wallet = createWallet(session, stores.local, { approvals: queue, sitesWaitingForUnlock: () => ['https://later.example', 'https://frame.example'] });
    await queue.add({ origin: 'https://top.example', frameOrigin: 'https://frame.example', method: 'personal_sign', params: {}, summary: { kind: 'connect', accounts: [] } });
    await queue.add({ origin: 'https://dapp.example', method: 'personal_sign', params: {}, summary: { kind: 'connect', accounts: [] } });
    expect(session.isUnlocked()).toBe(false);
    expect(await wallet.approvals.approvalsWaiting()).toEqual({ sites: ['https://frame.example', 'https://dapp.example', 'https://later.example'] });
  });

  it('while locked, requests are neither shown nor approved, and can still be rejected', async () => {
    const { queue, wallet } = await unlockedWithQueue();
    const a = await queue.add({ origin: 'https://dapp.example', method: 'personal_sign', params: {}, summary: { kind: 'connect', accounts: [] } });
    const b = await queue.add({ origin: 'https://dapp.example', method: 'eth_sendTransaction', params: {}, summary: { kind: 'connect', accounts: [] } });
    await wallet.accounts.walletLock();
    await expect(wallet.approvals.approvalsList()).rejects.toMatchObject({ code: 'vault-locked' });
    await expect(wallet.approvals.approvalsDecide({ id: a.id, approved: true })).rejects.toMatchObject({ code: 'vault-locked' });
    expect((await queue.list()).map((p) => p.id)).toEqual([a.id, b.id]);
    await wallet.approvals.approvalsDecide({ id: b.id, approved: false });
    expect(await queue.waitFor(b.id)).toBe(false);
    expect((await queue.list()).map((p) => p.id)).toEqual([a.id]);
  });
});

describe('the account and network a request was reviewed on', () => {
  it('passes while they are the selected ones, and refuses with selection-changed once either was switched', async () => {
    const { wallet } = service();
    const status = await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    const reviewed = { accountId: status.account!.id, networkId: status.network.id };
    await expect(wallet.accounts.checkSelection(reviewed)).resolves.toBeUndefined();
    const other = await wallet.accounts.accountsAdd({ name: 'Second' });
    await wallet.accounts.accountsSelect({ id: other.id });
    await expect(wallet.accounts.checkSelection(reviewed)).rejects.toMatchObject({ code: 'selection-changed' });
    await expect(wallet.accounts.checkSelection({ accountId: other.id, networkId: 'fuji' })).rejects.toMatchObject({ code: 'selection-changed' });
  });
});

describe('removing a custom network with moves under way', () => {
  it('is refused in words while a move on it is unfinished, and goes once confirmed, its journal with it', async () => {
    const { wallet, stores } = service();
    await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    const state = (await stores.local.get(['xpc.state']))['xpc.state'] as Record<string, unknown>;
    await stores.local.set({ 'xpc.state': { ...state, customNetworks: [{ id: 'custom-1', name: 'Mine', url: 'http://127.0.0.1:1', atomicNamespace: 'avax' }] } });
    const { accounts } = await wallet.accounts.accountsList();
    const journalKey = `xpc.transfers.custom-1.${accounts[0]!.id}`;
    const transfer = (id: string, state: string) => ({ id, from: 'X', to: 'P', amount: '1', state, imports: [], importAttempts: 0, createdAt: 1, updatedAt: 1 });
    await stores.local.set({ [journalKey]: [transfer('a', 'export-accepted'), transfer('b', 'completed')] });

    const refused = await wallet.networks.networksRemove({ id: 'custom-1' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'network-has-moves', message: expect.stringMatching(/^1 move\(s\) between chains on this network are not finished/) });
    expect((await wallet.networks.networksList()).networks.map((n) => n.id)).toContain('custom-1');
    expect(stores.local.keys()).toContain(journalKey);

    await wallet.networks.networksRemove({ id: 'custom-1', confirmLoss: true });
    expect((await wallet.networks.networksList()).networks.map((n) => n.id)).not.toContain('custom-1');
    expect(stores.local.keys()).not.toContain(journalKey);
  });
});
