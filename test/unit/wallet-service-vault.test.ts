// The vault under the wallet service: key imports and removals that overlap all take effect, and a
// restore over an existing wallet asks first when it would drop keys, moves or undecided sends.
import { describe, expect, it } from 'vitest';
import { Session } from '../../src/background/session.js';
import { memoryStores } from '../../src/background/storage.js';
import { Vault } from '../../src/background/vault.js';
import { chainsKey, entryOutboxKey } from '../../src/background/account-cache.js';
import { openOutbox } from '../../src/background/outbox.js';
import { openJournal } from '../../src/background/transfer-journal.js';
import { generateMnemonic } from '../../src/core/keys.js';
import { validateParams } from '../../src/shared/validate.js';
import { refusedRestore, service } from './wallet-service-test-kit.js';

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
    await Promise.all([wallet.accounts.accountsRemove({ id: a.id, password: 'long enough' }), wallet.accounts.accountsImportKey({ name: 'B', privateKey: KEY_B }), wallet.accounts.accountsAdd({ name: 'Savings' })]);
    expect((await wallet.accounts.accountsList()).accounts.map((x) => x.name).sort()).toEqual(['Account 1', 'B', 'Savings']);
    expect(await keysInVault(stores)).toEqual(['B']);
  });
});

describe('restore from a recovery phrase over an existing wallet', () => {
  const KEY = '0x' + '33'.repeat(32);
  /** An outbox entry of an X send not decided yet. */
  const send = (txID: string) => ({ chain: 'X' as const, txID, signedHex: '00', item: { txID, chain: 'X' as const, kind: 'send' as const, status: 'pending' as const, createdAt: 1 }, createdAt: 1, resends: 0 });

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
    const shown = await refusedRestore(wallet.accounts.walletRestore(restore));
    // Locked, the wallet still tells the phrase typed is another one (its tag): its own phrase goes too, and is named.
    expect(shown).toMatchObject({ importedKeys: 1, phraseAccounts: 1, unfinishedTransfers: 2, undecidedSends: 1 });
    expect(shown.phraseUnsure).toBeUndefined();
    // A Confirm that names nothing, or only part of it, is asked again.
    await refusedRestore(wallet.accounts.walletRestore({ ...restore, confirmLoss: [] }));
    await refusedRestore(wallet.accounts.walletRestore({ ...restore, confirmLoss: shown.names.slice(1) }));
    // Nothing changed: the old vault, the imported account and the journal are all still there.
    expect((await stores.local.get(['xpc.vault']))['xpc.vault']).toBe(vaultBefore);
    await wallet.accounts.walletUnlock({ password: 'long enough' });
    expect((await wallet.accounts.accountsList()).accounts.map((a) => a.id)).toContain(imported.id);
    expect(stores.local.keys()).toContain(journalKey);
    expect(stores.local.keys()).toContain(outbox.key);

    // Unlocked, the same is said: the Confirm given for it holds.
    const status = await wallet.accounts.walletRestore({ ...restore, confirmLoss: shown.names });
    expect(status).toMatchObject({ vault: 'unlocked', account: { name: 'Account 1', kind: 'hd' } });
    expect(stores.local.keys()).not.toContain(journalKey);
    expect(stores.local.keys()).not.toContain(outbox.key);
    expect(stores.local.keys()).not.toContain(chainsJournal.key);
  });

  it('locked, tells the phrase it holds from another (a tag of it, kept in the settings): another is asked about, the same one is not', async () => {
    const { wallet, stores } = service();
    const mine = generateMnemonic(12);
    await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: mine });
    await wallet.accounts.accountsAdd({ name: 'Savings' });
    await wallet.accounts.accountsAdd({ name: 'Trading' });
    await wallet.accounts.walletLock();
    const vaultBefore = (await stores.local.get(['xpc.vault']))['xpc.vault'];
    // Another phrase (the user forgot the password and typed an old wallet's): the stored phrase is named, nothing replaced.
    const other = await refusedRestore(wallet.accounts.walletRestore({ password: 'a new password', mnemonic: generateMnemonic(12) }));
    expect(other).toMatchObject({ phraseAccounts: 3, names: ['phrase 3'] });
    expect(other.phraseUnsure).toBeUndefined();
    expect((await stores.local.get(['xpc.vault']))['xpc.vault']).toBe(vaultBefore);
    // The same phrase: nothing is lost, nothing asked; the accounts it listed come back by name,
    // though the node shows nothing on them (the search for used accounts stops at the first such).
    expect(await wallet.accounts.walletRestore({ password: 'a new password', mnemonic: mine })).toMatchObject({ vault: 'unlocked' });
    expect((await wallet.accounts.accountsList()).accounts.map((a) => [a.name, a.kind === 'hd' ? a.index : -1])).toEqual([
      ['Account 1', 0],
      ['Savings', 1],
      ['Trading', 2],
    ]);
  });

  it('locked, over a vault from before the tag: asked "unless it is the one you entered"; its next unlock writes the tag', async () => {
    const { wallet, stores } = service();
    const mine = generateMnemonic(12);
    await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: mine });
    await wallet.accounts.walletLock();
    const { phraseTag, ...older } = (await stores.local.get(['xpc.state']))['xpc.state'] as { phraseTag: string };
    expect(phraseTag).toMatch(/^[\da-f]{16}$/);
    await stores.local.set({ 'xpc.state': older });
    expect(await refusedRestore(wallet.accounts.walletRestore({ password: 'a new password', mnemonic: mine }))).toMatchObject({ phraseAccounts: 1, phraseUnsure: true });
    await wallet.accounts.walletUnlock({ password: 'long enough' });
    expect((await stores.local.get(['xpc.state']))['xpc.state']).toMatchObject({ phraseTag });
    await wallet.accounts.walletLock();
    expect(await wallet.accounts.walletRestore({ password: 'a new password', mnemonic: mine })).toMatchObject({ vault: 'unlocked' });
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
    const refused = wallet.accounts.walletRestore(restore);
    await expect(refused).rejects.toMatchObject({ code: 'restore-would-drop', restoreLoss: { importedKeys: 0, unfinishedTransfers: 0, undecidedSends: 2 }, message: expect.stringContaining('2 undecided transaction(s)') });
    const shown = await refusedRestore(refused);
    expect((await wallet.accounts.walletRestore({ ...restore, confirmLoss: shown.names })).vault).toBe('unlocked');
  });

  it('a confirm is held to the sends and moves it was shown, not to their count: one decided and another made since is asked about', async () => {
    const { wallet, stores } = service();
    await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    const { accounts } = await wallet.accounts.accountsList();
    const outbox = await openOutbox(stores.local, chainsKey(1337, 'X1'), accounts[0]!.id, []);
    const journal = await openJournal(stores.local, chainsKey(1337, 'X2'), accounts[0]!.id, []);
    const move = (id: string, state = 'export-accepted') => ({ id, from: 'X', to: 'P', amount: '1', state, imports: [], importAttempts: 0, createdAt: 1, updatedAt: 1 }) as never;
    await outbox.put(send('shown'));
    await journal.put(move('shown'));
    const restore = { password: 'long enough', mnemonic: generateMnemonic(12) };
    const asked = { undecidedSends: 1, unfinishedTransfers: 1 };
    const first = await refusedRestore(wallet.accounts.walletRestore(restore));
    expect(first).toMatchObject(asked);
    // While the warning is on screen, the send is decided and another window sends again.
    await outbox.remove('shown');
    await outbox.put(send('made since'));
    const second = await refusedRestore(wallet.accounts.walletRestore({ ...restore, confirmLoss: first.names }));
    expect(second).toMatchObject(asked);
    expect((await outbox.list()).map((e) => e.txID)).toEqual(['made since']);
    // Then the move finishes and another starts.
    await journal.put(move('shown', 'completed'));
    await journal.put(move('started since'));
    const third = await refusedRestore(wallet.accounts.walletRestore({ ...restore, confirmLoss: second.names }));
    expect(third).toMatchObject(asked);
    expect((await journal.unfinished()).map((r) => r.id)).toEqual(['started since']);
    // Confirmed for what it shows now, it goes through.
    expect((await wallet.accounts.walletRestore({ ...restore, confirmLoss: third.names })).vault).toBe('unlocked');
    expect(stores.local.keys()).not.toContain(outbox.key);
  });

  it('each window\'s Confirm holds for what that window showed: one shown less than another is asked again', async () => {
    const { wallet, stores } = service();
    await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    const { accounts } = await wallet.accounts.accountsList();
    const outbox = await openOutbox(stores.local, chainsKey(1337, 'X1'), accounts[0]!.id, []);
    const restore = { password: 'a new password', mnemonic: generateMnemonic(12) };
    await outbox.put(send('one'));
    const windowA = await refusedRestore(wallet.accounts.walletRestore(restore));
    await outbox.put(send('two'));
    const windowB = await refusedRestore(wallet.accounts.walletRestore(restore));
    expect([windowA.undecidedSends, windowB.undecidedSends]).toEqual([1, 2]);
    // A's Confirm came last to the background, after B was shown both: A never saw the second send.
    expect(await refusedRestore(wallet.accounts.walletRestore({ ...restore, confirmLoss: windowA.names }))).toMatchObject({ undecidedSends: 2 });
    expect((await outbox.list()).map((e) => e.txID)).toEqual(['one', 'two']);
    expect((await wallet.accounts.walletRestore({ ...restore, confirmLoss: windowB.names })).vault).toBe('unlocked');
    expect(stores.local.keys()).not.toContain(outbox.key);
  });

  it('over damaged outboxes, names what it drops so that the Confirm passes the message checks: the restore is the way out', async () => {
    const { wallet, stores } = service();
    await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    const { accounts } = await wallet.accounts.accountsList();
    await stores.local.set({ [entryOutboxKey('local', accounts[0]!.id)]: [{ txID: 12345 }, { txID: 'x'.repeat(300) }, { txID: 'lone \ud800 surrogate' }] });
    const restore = { password: 'a new password', mnemonic: generateMnemonic(12) };
    const shown = await refusedRestore(wallet.accounts.walletRestore(restore));
    expect(shown.undecidedSends).toBe(3);
    // As the popup sends it: through the background's check of every request first.
    const confirm = validateParams('wallet.restore', JSON.parse(JSON.stringify({ ...restore, confirmLoss: shown.names })));
    expect((await wallet.accounts.walletRestore(confirm)).vault).toBe('unlocked');
  });

  it('counts a key the settings and the vault disagree on once each: every key it drops', async () => {
    const { wallet, stores } = service();
    await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    await wallet.accounts.accountsImportKey({ name: 'A', privateKey: KEY });
    const b = await wallet.accounts.accountsImportKey({ name: 'B', privateKey: '0x' + '34'.repeat(32) });
    // The settings name a key C where the vault holds B (an import and a removal each stopped halfway).
    const state = (await stores.local.get(['xpc.state']))['xpc.state'] as { accounts: { id: string; keyId?: string }[] };
    await stores.local.set({ 'xpc.state': { ...state, accounts: state.accounts.map((a) => (a.id === b.id ? { ...a, keyId: 'c'.repeat(16) } : a)) } });
    const shown = await refusedRestore(wallet.accounts.walletRestore({ password: 'a new password', mnemonic: generateMnemonic(12) }));
    expect(shown.importedKeys).toBe(3);
    expect(new Set(shown.names).size).toBe(shown.names.length);
  });

  it('goes through without a confirmation when nothing would be lost (the same phrase); another phrase, unlocked, names the phrase it drops', async () => {
    const { wallet } = service();
    const mnemonic = generateMnemonic(12);
    await wallet.accounts.walletCreate({ password: 'long enough', mnemonic });
    await wallet.accounts.accountsAdd({ name: 'Savings' });
    const other = await refusedRestore(wallet.accounts.walletRestore({ password: 'long enough', mnemonic: generateMnemonic(12) }));
    expect(other).toMatchObject({ phraseAccounts: 2, importedKeys: 0, names: ['phrase 2'] });
    const finished = await wallet.accounts.walletRestore({ password: 'long enough', mnemonic: ` ${mnemonic.toUpperCase()} ` });
    expect(finished.vault).toBe('unlocked');
  });
});
