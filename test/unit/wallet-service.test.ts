import { describe, expect, it } from 'vitest';
import type { ActivityItem } from '../../src/shared/messages.js';
import { ApprovalQueue } from '../../src/background/approvals.js';
import { Session } from '../../src/background/session.js';
import { memoryStores } from '../../src/background/storage.js';
import { Vault } from '../../src/background/vault.js';
import { type AccountCache, cacheKey, chainsKey, emptyCache, entryJournalKey, entryOutboxKey, mergeRefresh } from '../../src/background/account-cache.js';
import { openOutbox } from '../../src/background/outbox.js';
import { openJournal } from '../../src/background/transfer-journal.js';
import { stakingCsv } from '../../src/background/staking-csv.js';
import { createWallet } from '../../src/background/services/index.js';
import { cb58Encode } from '../../src/core/encoding.js';
import { ValidationError } from '../../src/core/errors.js';
import { generateMnemonic } from '../../src/core/keys.js';

function service() {
  const stores = memoryStores();
  const session = new Session(new Vault(stores, { kdfIterationsForTesting: 1_000 }), stores);
  return { stores, wallet: createWallet(session, stores.local) };
}

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
    await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    await wallet.balances.settingsSetHiddenAssets({ assetIDs: [ID_A], networkId: 'local' });
    await wallet.accounts.walletRestore({ password: 'long enough', mnemonic: generateMnemonic(12) });
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

describe('vault and account changes that overlap', () => {
  // Two well-known throwaway keys (never funded anywhere that matters).
  const KEY_A = '0x' + '11'.repeat(32);
  const KEY_B = '0x' + '22'.repeat(32);

  async function keysInVault(stores: ReturnType<typeof memoryStores>) {
    const fresh = new Session(new Vault(stores, { kdfIterationsForTesting: 1_000 }), stores);
    return (await fresh.unlock('long enough')).importedKeys.map((k) => k.name).sort();
  }

  it('two imports at once both land, in the vault and in the account list', async () => {
    const { wallet, stores } = service();
    await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    await Promise.all([wallet.accounts.accountsImportKey({ name: 'A', privateKey: KEY_A }), wallet.accounts.accountsImportKey({ name: 'B', privateKey: KEY_B })]);
    expect((await wallet.accounts.accountsList()).accounts.map((a) => a.name).sort()).toEqual(['A', 'Account 1', 'B']);
    expect(await keysInVault(stores)).toEqual(['A', 'B']);
  });

  it('an import and a removal at once both take effect', async () => {
    const { wallet, stores } = service();
    await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    const a = await wallet.accounts.accountsImportKey({ name: 'A', privateKey: KEY_A });
    await Promise.all([wallet.accounts.accountsRemove({ id: a.id }), wallet.accounts.accountsImportKey({ name: 'B', privateKey: KEY_B }), wallet.accounts.accountsAdd({ name: 'Savings' })]);
    expect((await wallet.accounts.accountsList()).accounts.map((x) => x.name).sort()).toEqual(['Account 1', 'B', 'Savings']);
    expect(await keysInVault(stores)).toEqual(['B']);
  });
});

describe('restore from a recovery phrase over an existing wallet', () => {
  const KEY = '0x' + '33'.repeat(32);

  it('is refused while it would drop imported keys or unfinished transfers, and goes through once confirmed', async () => {
    const { wallet, stores } = service();
    await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    const imported = await wallet.accounts.accountsImportKey({ name: 'Imported', privateKey: KEY });
    const { accounts } = await wallet.accounts.accountsList();
    const journalKey = `xpc.transfers.local.${accounts[0]!.id}`;
    const transfer = (id: string, state: string) => ({ id, from: 'X', to: 'P', amount: '1', state, imports: [], importAttempts: 0, createdAt: 1, updatedAt: 1 });
    await stores.local.set({ [journalKey]: [transfer('a', 'export-accepted'), transfer('b', 'completed'), transfer('c', 'failed')] });
    // An outbox kept per chains (not per network entry) goes with the old vault too.
    const outbox = await openOutbox(stores.local, chainsKey(1337, 'X1'), accounts[0]!.id, [entryOutboxKey('local', accounts[0]!.id)]);
    await outbox.put({ chain: 'X', txID: 't', signedHex: '00', item: { txID: 't', chain: 'X', kind: 'send', status: 'pending', createdAt: 1 }, createdAt: 1, resends: 0 });
    // So is a journal kept per chains, and its unfinished moves are counted with the older one's.
    const chainsJournal = await openJournal(stores.local, chainsKey(1337, 'X2'), accounts[0]!.id, []);
    await chainsJournal.put(transfer('d', 'import-signed') as never);
    await wallet.accounts.walletLock();
    const vaultBefore = (await stores.local.get(['xpc.vault']))['xpc.vault'];

    const restore = { password: 'a new password', mnemonic: generateMnemonic(12) };
    await expect(wallet.accounts.walletRestore(restore)).rejects.toMatchObject({ code: 'restore-would-drop', restoreLoss: { importedKeys: 1, unfinishedTransfers: 2, undecidedSends: 1 } });
    await expect(wallet.accounts.walletRestore({ ...restore, confirmLoss: false })).rejects.toMatchObject({ code: 'restore-would-drop' });
    // Nothing changed: the old vault, the imported account and the journal are all still there.
    expect((await stores.local.get(['xpc.vault']))['xpc.vault']).toBe(vaultBefore);
    await wallet.accounts.walletUnlock({ password: 'long enough' });
    expect((await wallet.accounts.accountsList()).accounts.map((a) => a.id)).toContain(imported.id);
    expect(stores.local.keys()).toContain(journalKey);
    expect(stores.local.keys()).toContain(outbox.key);

    const status = await wallet.accounts.walletRestore({ ...restore, confirmLoss: true });
    expect(status).toMatchObject({ vault: 'unlocked', account: { name: 'Account 1', kind: 'hd' } });
    expect(stores.local.keys()).not.toContain(journalKey);
    expect(stores.local.keys()).not.toContain(outbox.key);
    expect(stores.local.keys()).not.toContain(chainsJournal.key);
  });

  it('is asked about while a send is undecided, or refused and able to go through (its outbox goes with the vault); one already replaced counts for nothing', async () => {
    const { wallet, stores } = service();
    await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    const { accounts } = await wallet.accounts.accountsList();
    const send = (txID: string, extra: Record<string, unknown> = {}) => ({ chain: 'X', txID, signedHex: '00', item: {}, createdAt: 1, resends: 0, ...extra });
    // One kept with a network entry by an older version, one per chains.
    await stores.local.set({ [entryOutboxKey('local', accounts[0]!.id)]: [send('refused', { voided: true }), send('replaced', { voided: true, replacedBy: 'next' })] });
    const outbox = await openOutbox(stores.local, chainsKey(1337, 'X1'), accounts[0]!.id, []);
    await outbox.put({ ...send('undecided'), chain: 'X', item: { txID: 'undecided', chain: 'X', kind: 'send', status: 'pending', createdAt: 1 } });
    const restore = { password: 'long enough', mnemonic: generateMnemonic(12) };
    const refused = await wallet.accounts.walletRestore(restore).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'restore-would-drop', restoreLoss: { importedKeys: 0, unfinishedTransfers: 0, undecidedSends: 2 }, message: expect.stringContaining('2 send(s) not yet decided') });
    expect((await wallet.accounts.walletRestore({ ...restore, confirmLoss: true })).vault).toBe('unlocked');
  });

  it('goes through without a confirmation when nothing would be lost', async () => {
    const { wallet } = service();
    await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    await wallet.accounts.accountsAdd({ name: 'Savings' });
    const finished = await wallet.accounts.walletRestore({ password: 'long enough', mnemonic: generateMnemonic(12) });
    expect(finished.vault).toBe('unlocked');
  });
});

describe('a refresh saved over what other requests wrote meanwhile', () => {
  const item = (txID: string, kind: ActivityItem['kind'], status: ActivityItem['status']): ActivityItem => ({ txID, chain: 'X', kind, status, createdAt: 1 });
  const cacheWith = (activity: ActivityItem[], extra: Partial<AccountCache> = {}): AccountCache => ({
    pHeight: '10',
    receiveNext: 1,
    changeNext: 0,
    balances: { updatedAt: 1, refreshing: false, balances: [], waiting: [] },
    activity,
    knownUtxos: [],
    ...extra,
  });

  it('keeps a send written meanwhile over the "Received" the refresh inferred for its tx, and adds what it did not see', () => {
    const stored = cacheWith([item('late', 'send', 'pending'), item('sent', 'send', 'accepted'), item('old', 'send', 'pending')]);
    const refreshed = cacheWith([item('sent', 'receive', 'accepted'), item('old', 'send', 'pending')], { pHeight: '12', knownUtxos: ['u1'], receiveNext: 3 });
    mergeRefresh(stored, refreshed, new Map([['old', 'pending']]));
    expect(stored.activity.map((a) => `${a.txID}:${a.kind}`)).toEqual(['late:send', 'sent:send', 'old:send']);
    expect(stored).toMatchObject({ pHeight: '12', knownUtxos: ['u1'], receiveNext: 3 });
  });

  it('a status settled by either side wins over pending', () => {
    const stored = cacheWith([item('a', 'send', 'accepted'), item('b', 'mint', 'pending')]);
    const refreshed = cacheWith([item('a', 'send', 'pending'), item('b', 'mint', 'failed')]);
    mergeRefresh(stored, refreshed, new Map([['a', 'pending'], ['b', 'pending']]));
    expect(stored.activity.map((a) => `${a.txID}:${a.status}`)).toEqual(['a:accepted', 'b:failed']);
  });

  it('a failure the refresh took back ("may have gone through") stays taken back; one failed anew meanwhile stays failed', () => {
    const corrected = { ...item('held', 'send', 'pending'), checking: true };
    const stored = cacheWith([item('held', 'send', 'failed')]);
    mergeRefresh(stored, cacheWith([corrected]), new Map([['held', 'failed']]));
    expect(stored.activity).toEqual([corrected]);
    // Pending when the refresh began, failed since (the send's own wait decided it): that decision stays.
    const decided = cacheWith([item('held', 'send', 'failed')]);
    mergeRefresh(decided, cacheWith([corrected]), new Map([['held', 'pending']]));
    expect(decided.activity).toEqual([item('held', 'send', 'failed')]);
  });

  it('a decision the refresh made wins over a pending send written meanwhile (its outbox entry is gone: it would stay pending forever)', () => {
    const stored = cacheWith([{ ...item('late', 'send', 'pending'), checking: true, fee: '99' }]);
    const refreshed = cacheWith([{ ...item('late', 'send', 'accepted'), fee: '42' }]);
    mergeRefresh(stored, refreshed, new Map());
    expect(stored.activity).toEqual([{ ...item('late', 'send', 'accepted'), fee: '42' }]);
  });

  it('an item the refresh read that storage no longer has (a refused send taken back) does not come back', () => {
    const stored = cacheWith([item('kept', 'send', 'pending')]);
    const refreshed = cacheWith([item('refused', 'send', 'pending'), item('kept', 'send', 'pending'), item('new', 'receive', 'accepted')]);
    mergeRefresh(stored, refreshed, new Map([['refused', 'pending'], ['kept', 'pending']]));
    expect(stored.activity.map((a) => a.txID)).toEqual(['kept', 'new']);
  });

  it('items the refresh dropped (a restarted local network) stay dropped, with the new chain\'s first blocks; address indices never go back', () => {
    const stored = cacheWith([item('ghost', 'send', 'accepted')], { receiveNext: 5, changeNext: 4, pBlocks: ['old genesis'] });
    const refreshed = cacheWith([], { receiveNext: 2, changeNext: 1, pHeight: '3', pBlocks: ['new genesis'] });
    mergeRefresh(stored, refreshed, new Map([['ghost', 'accepted']]));
    expect(stored).toMatchObject({ activity: [], receiveNext: 5, changeNext: 4, pHeight: '3', pBlocks: ['new genesis'] });
  });
});

describe('a refresh the node cannot answer', () => {
  it('keeps the last snapshot and says why, with the error code and since when refreshes fail; a lock is not a node failure', async () => {
    const stores = memoryStores();
    const session = new Session(new Vault(stores, { kdfIterationsForTesting: 1_000 }), stores);
    const fetchFails: typeof fetch = () => Promise.reject(new TypeError('Failed to fetch'));
    const wallet = createWallet(session, stores.local, { fetch: fetchFails });
    await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });

    const first = await wallet.balances.balancesRefresh();
    expect(first).toMatchObject({ refreshing: false, updatedAt: 0, errorCode: 'node-unreachable', error: expect.stringContaining('unreachable') });
    const since = first.failingSince!;
    expect(since).toBeGreaterThan(0);
    // A second failure keeps the first one's time: "since when" does not move on each retry.
    await new Promise((r) => setTimeout(r, 5));
    const second = await wallet.balances.balancesRefresh();
    expect(second.failingSince).toBe(since);
    expect((await wallet.balances.balancesGet({})).failingSince).toBe(since);

    // Locked meanwhile: the refresh fails with the lock, and the snapshot records no node failure.
    await wallet.accounts.walletLock();
    await expect(wallet.balances.balancesRefresh()).rejects.toMatchObject({ code: 'vault-locked' });
  });
});

describe('refreshes of two accounts', () => {
  it('each has its own: a slow one of the account switched away from neither stands for nor holds up the other\'s', async () => {
    const stores = memoryStores();
    const session = new Session(new Vault(stores, { kdfIterationsForTesting: 1_000 }), stores);
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    let hold = true;
    // The node hangs while `hold`, then cannot be reached.
    const fetchHangs: typeof fetch = async () => {
      if (hold) await held;
      throw new TypeError('Failed to fetch');
    };
    const wallet = createWallet(session, stores.local, { fetch: fetchHangs });
    await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    const a = await wallet.balances.balancesGet({ refresh: true });
    await new Promise((r) => setTimeout(r, 5));
    expect((await wallet.balances.balancesGet({})).refreshing).toBe(true);
    expect(a.refreshing).toBe(true);

    const b = await wallet.accounts.accountsAdd({ name: 'B' });
    await wallet.accounts.accountsSelect({ id: b.id });
    expect((await wallet.balances.balancesGet({})).refreshing).toBe(false);
    hold = false;
    // B's own refresh runs (and fails in words) while A's still hangs.
    const bRefreshed = await wallet.balances.balancesRefresh();
    expect(bRefreshed).toMatchObject({ refreshing: false, errorCode: 'node-unreachable' });
    release();
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

describe('what Activity no longer holds', () => {
  it('activity.list says it (from the cache), and the CSV of everything passes it on for its screen to say', async () => {
    const { wallet, stores } = service();
    const status = await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    const item: ActivityItem = { txID: cb58Encode(new Uint8Array(32).fill(9)), chain: 'X', kind: 'send', status: 'accepted', createdAt: 9_000 };
    expect(await wallet.balances.activityList()).toEqual({ items: [] });
    await stores.local.set({ [cacheKey(status.network!.id, status.account!.id)]: { ...emptyCache(), activity: [item], trimmed: { received: 5_000 } } });
    const list = await wallet.balances.activityList();
    expect(list).toEqual({ items: [item], trimmed: { received: 5_000 } });
    expect(stakingCsv([], list, 'AVAX').trimmed).toEqual({ received: 5_000 });
    expect(stakingCsv([], { items: [item] }, 'AVAX')).not.toHaveProperty('trimmed');
  });
});

describe('Activity on the Local network with its node down', () => {
  it('lists what the wallet holds when a move is journaled and the node was never asked who it is (a restarted worker)', async () => {
    const stores = memoryStores();
    const down: typeof fetch = () => Promise.reject(new TypeError('fetch failed'));
    const wallet = createWallet(new Session(new Vault(stores, { kdfIterationsForTesting: 1_000 }), stores), stores.local, { fetch: down });
    const status = await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    expect(status.network!.id).toBe('local');
    const item: ActivityItem = { txID: cb58Encode(new Uint8Array(32).fill(9)), chain: 'X', kind: 'send', status: 'accepted', createdAt: 1 };
    const move = { id: 'm1', from: 'X', to: 'P', amount: '1000', state: 'completed', export: { chain: 'X', txID: 'exp1', signedHex: '', fee: '1', accepted: true }, imports: [], importAttempts: 0, createdAt: 2, updatedAt: 3 };
    await stores.local.set({ [cacheKey('local', status.account!.id)]: { ...emptyCache(), activity: [item] }, [entryJournalKey('local', status.account!.id)]: [move] });
    expect((await wallet.balances.activityList()).items).toEqual([item]);
  });
});
