// Restores that bring back what the vault alone cannot say (the phrase's other accounts), starting
// again from a private key, and the keys an import must refuse.
import { describe, expect, it } from 'vitest';
import { AccountCaches, accountStorageKeys, entryOutboxKey, journalKey, outboxKey, registerChains } from '../../src/background/account-cache.js';
import { Session } from '../../src/background/session.js';
import { memoryStores } from '../../src/background/storage.js';
import { Vault } from '../../src/background/vault.js';
import { createWallet } from '../../src/background/services/index.js';
import { foundAccounts } from '../../src/background/services/accounts-found.js';
import { keyWallet, shortIdOfSecret } from '../../src/background/services/accounts-restore.js';
import { toHex } from '../../src/core/bytes.js';
import { formatPrivateKey } from '../../src/core/encoding.js';
import { deriveEvmKey, deriveXpKey, generateMnemonic, HdRoot, keyPairFromSecret, mnemonicToSeed } from '../../src/core/keys.js';
import { refusedRestore } from './wallet-service-test-kit.js';

const PASSWORD = 'long enough';

/** The background over memory storage; its node cannot be reached (`fails`: before it says so, by default at once). */
function service(fails: () => Promise<void> = async () => undefined) {
  const stores = memoryStores();
  const session = new Session(new Vault(stores, { kdfIterationsForTesting: 1_000 }), stores);
  const fetch = (() => fails().then(() => Promise.reject(new TypeError('Failed to fetch')))) as typeof globalThis.fetch;
  return { stores, wallet: createWallet(session, stores.local, { fetch }) };
}

/**
 * Account `id` of the phrase taken off the list in storage, as the wallet's own Remove did before it
 * kept the phrase's accounts (settings may still be so).
 */
async function dropFromList(stores: ReturnType<typeof memoryStores>, id: string) {
  const state = (await stores.local.get(['xpc.state']))['xpc.state'] as { accounts: { id: string }[]; selectedAccountId: string };
  const accounts = state.accounts.filter((a) => a.id !== id);
  await stores.local.set({ 'xpc.state': { ...state, accounts, selectedAccountId: state.selectedAccountId === id ? accounts[0]!.id : state.selectedAccountId } });
}

describe('restoring a phrase while the node cannot be reached', () => {
  it('restores Account 1, says the others were not looked for, and "Add account" gives them back in order', async () => {
    const { wallet } = service();
    const mnemonic = generateMnemonic(12);
    await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic });
    const second = await wallet.accounts.accountsAdd({ name: 'Savings' });
    await wallet.accounts.walletLock();
    // Another wallet's settings (no tag of this phrase): only the node could say which accounts were used.
    await wallet.accounts.walletRestore({ password: 'a new password', mnemonic: generateMnemonic(12), confirmLoss: ['phrase 2'] });
    await wallet.accounts.walletLock();

    const status = await wallet.accounts.walletRestore({ password: 'a new password', mnemonic, confirmLoss: ['phrase 1'] });
    expect(status).toMatchObject({ vault: 'unlocked', account: { name: 'Account 1', index: 0 }, accountsNotSearched: true });
    expect((await wallet.accounts.accountsList()).accounts).toHaveLength(1);
    const added = await wallet.accounts.accountsAdd({ name: 'Account 2' });
    expect(added).toMatchObject({ index: 1, xAddress: second.xAddress, cAddress: second.cAddress });
  });

  it('its own phrase back restores the accounts the wallet listed from it, by name, though the node could not be asked', async () => {
    const { wallet } = service();
    const mnemonic = generateMnemonic(12);
    await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic });
    const second = await wallet.accounts.accountsAdd({ name: 'Savings' });
    await wallet.accounts.walletLock();
    const status = await wallet.accounts.walletRestore({ password: 'a new password', mnemonic });
    expect(status).toMatchObject({ vault: 'unlocked', account: { name: 'Account 1', index: 0 }, accountsNotSearched: true });
    expect((await wallet.accounts.accountsList()).accounts).toMatchObject([{ name: 'Account 1', index: 0 }, { name: 'Savings', index: 1, xAddress: second.xAddress }]);
  });

  it('its own phrase back leaves out an account the user removed, unless the search finds it used', async () => {
    const { wallet, stores } = service();
    const mnemonic = generateMnemonic(12);
    await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic });
    const removed = await wallet.accounts.accountsAdd({ name: 'Old' });
    const kept = await wallet.accounts.accountsAdd({ name: 'Trading' });
    await dropFromList(stores, removed.id);
    await wallet.accounts.walletLock();
    await wallet.accounts.walletRestore({ password: 'a new password', mnemonic });
    expect((await wallet.accounts.accountsList()).accounts).toMatchObject([{ name: 'Account 1', index: 0 }, { name: 'Trading', index: 2, xAddress: kept.xAddress }]);
    // A new account takes the next index, never the removed one's keys under a new name.
    expect(await wallet.accounts.accountsAdd({ name: 'New' })).toMatchObject({ index: 3 });
    // Nor one removed past the last kept: restored again, the next index is still past it.
    await dropFromList(stores, (await wallet.accounts.accountsList()).accounts.find((a) => a.name === 'New')!.id);
    await wallet.accounts.walletLock();
    await wallet.accounts.walletRestore({ password: 'a new password', mnemonic });
    expect(await wallet.accounts.accountsAdd({ name: 'Newer' })).toMatchObject({ index: 4 });
  });

  it("names an account it brings back by its number only when no listed account has that name", async () => {
    const { wallet, stores } = service();
    const mnemonic = generateMnemonic(12);
    const first = (await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic })).account!;
    const second = await wallet.accounts.accountsAdd({ name: 'Second' });
    await dropFromList(stores, first.id);
    await wallet.accounts.accountsRename({ id: second.id, name: 'Account 1' });
    await wallet.accounts.walletLock();
    await wallet.accounts.walletRestore({ password: 'a new password', mnemonic });
    expect((await wallet.accounts.accountsList()).accounts).toMatchObject([{ name: 'Account 1 (2)', index: 0 }, { name: 'Account 1', index: 1 }]);
  });

  it('does not wait for a node that never answers beyond its deadline', async () => {
    const root = HdRoot.fromSeed(await mnemonicToSeed(generateMnemonic(12)));
    const started = Date.now();
    expect(await foundAccounts(() => new Promise(() => undefined), root, 50)).toEqual({ count: 1, complete: false });
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('starting again from a private key (a forgotten password)', () => {
  const KEY = '0x' + '44'.repeat(32);

  it('replaces a wallet made from that key, after the same loss warning a phrase restore gives', async () => {
    const { wallet } = service();
    const first = await wallet.accounts.walletCreateFromKey({ password: PASSWORD, privateKey: KEY, name: 'Mine' });
    await wallet.accounts.walletLock();
    const again = { password: 'another password', privateKey: KEY, name: 'Mine' };
    const shown = await refusedRestore(wallet.accounts.walletRestore(again));
    expect(shown).toMatchObject({ importedKeys: 1, unfinishedTransfers: 0 });
    const status = await wallet.accounts.walletRestore({ ...again, confirmLoss: shown.names });
    expect(status).toMatchObject({ vault: 'unlocked', account: { name: 'Mine', kind: 'imported', xAddress: first.account!.xAddress } });
    await wallet.accounts.walletLock();
    await expect(wallet.accounts.walletUnlock({ password: PASSWORD })).rejects.toMatchObject({ code: 'wrong-password' });
    expect((await wallet.accounts.walletUnlock({ password: 'another password' })).vault).toBe('unlocked');
  });

  it('a wallet made from it has no phrase: revealing one, or adding a phrase account, says so', async () => {
    const { wallet } = service();
    await wallet.accounts.walletCreateFromKey({ password: PASSWORD, privateKey: KEY, name: 'Mine' });
    await expect(wallet.accounts.walletRevealMnemonic({ password: PASSWORD })).rejects.toMatchObject({ code: 'no-mnemonic', message: expect.stringMatching(/no recovery phrase/) });
    await expect(wallet.accounts.accountsAdd({ name: 'Savings' })).rejects.toMatchObject({ code: 'no-mnemonic' });
    await expect(wallet.accounts.walletRevealMnemonic({ password: 'not the password' })).rejects.toMatchObject({ code: 'wrong-password' });
  });

  it('over a phrase wallet, counts the phrase accounts it drops', async () => {
    const { wallet } = service();
    await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    await wallet.accounts.accountsAdd({ name: 'Savings' });
    await expect(wallet.accounts.walletRestore({ password: PASSWORD, privateKey: KEY, name: 'Mine' })).rejects.toMatchObject({
      code: 'restore-would-drop',
      restoreLoss: { importedKeys: 0, phraseAccounts: 2 },
    });
  });

  it('over a phrase wallet whose phrase accounts were all removed, still names the phrase it drops (locked or not)', async () => {
    const { wallet, stores } = service();
    await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    await wallet.accounts.accountsImportKey({ privateKey: KEY, name: 'Mine' });
    const hd = (await wallet.accounts.accountsList()).accounts.find((a) => a.kind === 'hd')!;
    await dropFromList(stores, hd.id);
    const again = { password: 'another password', privateKey: KEY, name: 'Mine' };
    const dropped = { code: 'restore-would-drop', restoreLoss: { importedKeys: 1, phraseAccounts: 0, unfinishedTransfers: 0 }, message: expect.stringContaining('the recovery phrase') };
    await expect(wallet.accounts.walletRestore(again)).rejects.toMatchObject(dropped);
    await wallet.accounts.walletLock();
    await expect(wallet.accounts.walletRestore(again)).rejects.toMatchObject(dropped);
  });

  it('over a key wallet whose settings still count a phrase account (a phrase restore stopped halfway), goes through: its last count, made locked, names no phrase the vault does not hold', async () => {
    const { wallet, stores } = service();
    await wallet.accounts.walletCreateFromKey({ password: PASSWORD, privateKey: '0x' + '55'.repeat(32), name: 'Old key' });
    const state = (await stores.local.get(['xpc.state']))['xpc.state'] as { nextHdIndex: number };
    await stores.local.set({ 'xpc.state': { ...state, nextHdIndex: 1 } });
    const restore = { password: 'a new password', privateKey: '0x' + '77'.repeat(32), name: 'New key' };
    const shown = await refusedRestore(wallet.accounts.walletRestore(restore));
    expect(shown).toMatchObject({ importedKeys: 1, unfinishedTransfers: 0 });
    expect((await wallet.accounts.walletRestore({ ...restore, confirmLoss: shown.names })).vault).toBe('unlocked');
    expect((await wallet.accounts.accountsList()).accounts.map((a) => a.name)).toEqual(['New key']);
  });

  it('a key with a typo is refused in words at its field, before anything is stored', async () => {
    const { wallet, stores } = service();
    const good = formatPrivateKey(new Uint8Array(32).fill(0x44));
    const typo = good.slice(0, -1) + (good.endsWith('a') ? 'b' : 'a');
    for (const refused of [wallet.accounts.walletCheckKey({ privateKey: typo }), wallet.accounts.walletRestore({ password: PASSWORD, privateKey: typo, name: 'x' })]) {
      await expect(refused).rejects.toMatchObject({ code: 'validation', field: 'privateKey', message: expect.not.stringMatching(/CB58|checksum/) });
    }
    expect(await wallet.accounts.walletCheckKey({ privateKey: good })).toEqual({ ok: true });
    expect(stores.local.keys()).toEqual([]);
  });
});

describe('importing a private key', () => {
  it('refuses the keys of the phrase’s own accounts (EVM, and X/P: any address an account lists), naming the account', async () => {
    const { wallet, stores } = service();
    const mnemonic = generateMnemonic(12);
    await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic });
    await wallet.accounts.accountsAdd({ name: 'Savings' });
    const root = HdRoot.fromSeed(await mnemonicToSeed(mnemonic));
    // Any address an account lists: its first, a later receive address, its last listed change address.
    const keys = [deriveXpKey(root, 0, 0, 0), deriveEvmKey(root, 1), deriveXpKey(root, 1, 0, 19), deriveXpKey(root, 0, 1, 19)];
    for (const [i, key] of keys.entries()) {
      await expect(wallet.accounts.accountsImportKey({ name: 'Copy', privateKey: formatPrivateKey(key.secret) })).rejects.toMatchObject({
        code: 'validation',
        field: 'privateKey',
        message: `this key is already in the wallet: it belongs to “${i === 0 || i === 3 ? 'Account 1' : 'Savings'}”, from the recovery phrase`,
      });
    }
    expect((await wallet.accounts.accountsList()).accounts).toHaveLength(2);
    // A receive address past the first 20 that the account handed out (on any network) is its too; the next one is not yet.
    const savings = (await wallet.accounts.accountsList()).accounts.find((a) => a.name === 'Savings')!;
    await new AccountCaches(stores.local).update('fuji', savings.id, (c) => void (c.receiveNext = 26));
    await expect(wallet.accounts.accountsImportKey({ name: 'Copy', privateKey: formatPrivateKey(deriveXpKey(root, 1, 0, 25).secret) })).rejects.toMatchObject({ message: expect.stringContaining('“Savings”') });
    await wallet.accounts.accountsImportKey({ name: 'Not yet used', privateKey: formatPrivateKey(deriveXpKey(root, 1, 0, 26).secret) });
    // A damaged index (2^33) counts as a scan's most, never as billions of keys to derive.
    await new AccountCaches(stores.local).update('mainnet', savings.id, (c) => void (c.receiveNext = 2 ** 33));
    await wallet.accounts.accountsImportKey({ name: 'Another', privateKey: '0x' + '66'.repeat(32) });
    // Another key still goes in.
    await wallet.accounts.accountsImportKey({ name: 'Other', privateKey: '0x' + '55'.repeat(32) });
  });
});

describe('adding an account', () => {
  it('refuses, in words, the phrase\'s next account when its key (X/P or EVM) was imported, naming that account', async () => {
    const { wallet } = service();
    const mnemonic = generateMnemonic(12);
    await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic });
    const root = HdRoot.fromSeed(await mnemonicToSeed(mnemonic));
    for (const [index, key] of [[1, formatPrivateKey(deriveXpKey(root, 1, 0, 0).secret)], [2, '0x' + toHex(deriveEvmKey(root, 2).secret)], [3, formatPrivateKey(deriveXpKey(root, 3, 1, 7).secret)]] as const) {
      const imported = await wallet.accounts.accountsImportKey({ privateKey: key, name: `Imported ${index}` });
      await expect(wallet.accounts.accountsAdd({ name: 'Next' })).rejects.toMatchObject({ code: 'validation', message: expect.stringContaining(`“Imported ${index}”`) });
      expect((await wallet.accounts.accountsList()).accounts).toHaveLength(index + 1);
      await wallet.accounts.accountsRemove({ id: imported.id, password: PASSWORD });
      const added = await wallet.accounts.accountsAdd({ name: `Account ${index + 1}` });
      if (index < 3) expect(index === 1 ? added.xAddress : added.cAddress).toBe(index === 1 ? imported.xAddress : imported.cAddress);
    }
  });

  it('and an import of that account\'s key asked at the same moment (two windows): only one of them goes in', async () => {
    const { wallet } = service();
    const mnemonic = generateMnemonic(12);
    await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic });
    const root = HdRoot.fromSeed(await mnemonicToSeed(mnemonic));
    for (const key of [formatPrivateKey(deriveXpKey(root, 1, 0, 0).secret), '0x' + toHex(deriveEvmKey(root, 1).secret)]) {
      const [imported, added] = await Promise.allSettled([wallet.accounts.accountsImportKey({ privateKey: key, name: 'Imported' }), wallet.accounts.accountsAdd({ name: 'Account 2' })]);
      expect(imported.status).toBe('fulfilled');
      expect(added).toMatchObject({ status: 'rejected', reason: { code: 'validation', message: expect.stringContaining('“Imported”') } });
      const { accounts } = await wallet.accounts.accountsList();
      expect(accounts.map((a) => a.name)).toEqual(['Account 1', 'Imported']);
      await wallet.accounts.accountsRemove({ id: accounts[1]!.id, password: PASSWORD });
    }
    // The other order: the account first, then its key refused as that account's.
    const key = formatPrivateKey(deriveXpKey(root, 1, 0, 0).secret);
    const [added, imported] = await Promise.allSettled([wallet.accounts.accountsAdd({ name: 'Account 2' }), wallet.accounts.accountsImportKey({ privateKey: key, name: 'Imported' })]);
    expect(added.status).toBe('fulfilled');
    expect(imported).toMatchObject({ status: 'rejected', reason: { code: 'validation', message: expect.stringContaining('“Account 2”') } });
    expect((await wallet.accounts.accountsList()).accounts.map((a) => a.name)).toEqual(['Account 1', 'Account 2']);
  });
});

describe('a restore while another window imports a key', () => {
  /** A wallet whose next restore is held while it looks for the phrase's accounts (its first node call), until `release`. */
  function heldRestore() {
    let searching!: () => void;
    let release!: () => void;
    const inSearch = new Promise<void>((r) => (searching = r));
    const released = new Promise<void>((r) => (release = r));
    let hold = false;
    const held = service(async () => {
      if (!hold) return;
      hold = false;
      searching();
      await released;
    });
    return { ...held, inSearch, release, holdNext: () => void (hold = true) };
  }

  it('is refused in its turn, counting the key it would drop, rather than dropping the import unsaid', async () => {
    const { wallet, inSearch, release, holdNext } = heldRestore();
    const mnemonic = generateMnemonic(12);
    await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic });
    holdNext();
    // It counted nothing to drop, then looks for accounts; the import lands meanwhile.
    const restoring = wallet.accounts.walletRestore({ password: 'a new password', mnemonic });
    await inSearch;
    await wallet.accounts.accountsImportKey({ privateKey: '0x' + '77'.repeat(32), name: 'Imported' });
    release();
    const shown = await refusedRestore(restoring);
    expect(shown).toMatchObject({ importedKeys: 1 });
    expect((await wallet.accounts.accountsList()).accounts.map((a) => a.name)).toEqual(['Account 1', 'Imported']);
    // Asked again and confirmed, it drops it, as the user was told.
    await wallet.accounts.walletRestore({ password: 'a new password', mnemonic, confirmLoss: shown.names });
    expect((await wallet.accounts.accountsList()).accounts.map((a) => a.name)).toEqual(['Account 1']);
  });

  it('confirmed for one key, is refused again when a second was imported meanwhile', async () => {
    const { wallet, inSearch, release, holdNext } = heldRestore();
    const mnemonic = generateMnemonic(12);
    await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic });
    await wallet.accounts.accountsImportKey({ privateKey: '0x' + '77'.repeat(32), name: 'One' });
    const shown = await refusedRestore(wallet.accounts.walletRestore({ password: 'a new password', mnemonic }));
    holdNext();
    const restoring = wallet.accounts.walletRestore({ password: 'a new password', mnemonic, confirmLoss: shown.names });
    await inSearch;
    await wallet.accounts.accountsImportKey({ privateKey: '0x' + '78'.repeat(32), name: 'Two' });
    release();
    await expect(restoring).rejects.toMatchObject({ code: 'restore-would-drop', restoreLoss: { importedKeys: 2 } });
    expect((await wallet.accounts.accountsList()).accounts.map((a) => a.name)).toEqual(['Account 1', 'One', 'Two']);
    // Nothing was stopped or locked by the refusal.
    expect((await wallet.accounts.walletStatus()).vault).toBe('unlocked');
  });

  it('a confirm is held to the loss the user was shown: more since is asked about, less goes through', async () => {
    const { wallet } = service();
    const mnemonic = generateMnemonic(12);
    const restore = { password: 'a new password', mnemonic };
    await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic });
    await wallet.accounts.accountsImportKey({ privateKey: '0x' + '77'.repeat(32), name: 'One' });
    const first = await refusedRestore(wallet.accounts.walletRestore(restore));
    expect(first).toMatchObject({ importedKeys: 1 });
    // While the warning is on screen, another window imports a second key: Confirm asks again.
    await wallet.accounts.accountsImportKey({ privateKey: '0x' + '78'.repeat(32), name: 'Two' });
    const again = await refusedRestore(wallet.accounts.walletRestore({ ...restore, confirmLoss: first.names }));
    expect(again).toMatchObject({ importedKeys: 2 });
    expect((await wallet.accounts.accountsList()).accounts.map((a) => a.name)).toEqual(['Account 1', 'One', 'Two']);
    // Shown two, one of them removed since: Confirm goes through without asking again.
    await wallet.accounts.accountsRemove({ id: (await wallet.accounts.accountsList()).accounts[2]!.id, password: PASSWORD });
    expect((await wallet.accounts.walletRestore({ ...restore, confirmLoss: again.names })).vault).toBe('unlocked');
    expect((await wallet.accounts.accountsList()).accounts.map((a) => a.name)).toEqual(['Account 1']);
  });

  it('a confirm is held to the keys it was shown, not to their count: one removed and another imported since is asked about', async () => {
    const { wallet } = service();
    const mnemonic = generateMnemonic(12);
    const restore = { password: 'a new password', mnemonic };
    await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic });
    const one = await wallet.accounts.accountsImportKey({ privateKey: '0x' + '77'.repeat(32), name: 'One' });
    const shown = await refusedRestore(wallet.accounts.walletRestore(restore));
    expect(shown).toMatchObject({ importedKeys: 1 });
    await wallet.accounts.accountsRemove({ id: one.id, password: PASSWORD });
    await wallet.accounts.accountsImportKey({ privateKey: '0x' + '78'.repeat(32), name: 'Two' });
    expect(await refusedRestore(wallet.accounts.walletRestore({ ...restore, confirmLoss: shown.names }))).toMatchObject({ importedKeys: 1 });
    expect((await wallet.accounts.accountsList()).accounts.map((a) => a.name)).toEqual(['Account 1', 'Two']);
  });
});

describe('changing the password', () => {
  it('a wrong current password is said at its field', async () => {
    const { wallet } = service();
    await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    await expect(wallet.accounts.walletChangePassword({ oldPassword: 'not the one', newPassword: 'a new password' })).rejects.toMatchObject({ code: 'wrong-password', field: 'oldPassword' });
  });

  it('a wrong password at unlock is said at its field too', async () => {
    const { wallet } = service();
    await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    await wallet.accounts.walletLock();
    await expect(wallet.accounts.walletUnlock({ password: 'not the one' })).rejects.toMatchObject({ code: 'wrong-password', field: 'password' });
  });
});

describe('a private key handled as bytes', () => {
  it('a wallet made from one keeps it as hex only: the parsed bytes are wiped', () => {
    const secret = new Uint8Array(32).fill(0x78);
    const made = keyWallet(secret, 'Key');
    expect(made.secrets.importedKeys?.[0]?.secretHex).toBe('78'.repeat(32));
    expect(secret.every((b) => b === 0)).toBe(true);
  });

  it("its address body is the same from bytes or from the vault's hex, and the caller's bytes are left as they were", () => {
    const secret = new Uint8Array(32).fill(0x78);
    const fromBytes = shortIdOfSecret(secret);
    expect(fromBytes).toBe(toHex(keyPairFromSecret(secret).shortId));
    expect(shortIdOfSecret('78'.repeat(32))).toBe(fromBytes);
    expect(toHex(secret)).toBe('78'.repeat(32));
  });
});

describe('removing an account', () => {
  async function twoAccounts() {
    const { wallet, stores } = service();
    await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    const imported = await wallet.accounts.accountsImportKey({ privateKey: '0x' + '78'.repeat(32), name: 'Imported' });
    const names = async () => (await wallet.accounts.accountsList()).accounts.map((a) => a.name);
    return { wallet, stores, imported, names };
  }

  it('asks for the password again: a wrong one removes nothing, the right one removes the account and its key', async () => {
    const { wallet, stores, imported, names } = await twoAccounts();
    await expect(wallet.accounts.accountsRemove({ id: imported.id, password: 'not the one' })).rejects.toMatchObject({ code: 'wrong-password' });
    expect(await names()).toEqual(['Account 1', 'Imported']);
    await wallet.accounts.accountsRemove({ id: imported.id, password: PASSWORD });
    expect(await names()).toEqual(['Account 1']);
    const fresh = new Session(new Vault(stores, { kdfIterationsForTesting: 1_000 }), stores);
    expect((await fresh.unlock(PASSWORD)).importedKeys).toEqual([]);
  });

  it("an account of the phrase is never removed (nothing could give it back), and the last account neither", async () => {
    const { wallet, imported, names } = await twoAccounts();
    const hd = (await wallet.accounts.accountsList()).accounts.find((a) => a.kind === 'hd')!;
    await expect(wallet.accounts.accountsRemove({ id: hd.id, password: PASSWORD })).rejects.toMatchObject({ code: 'hd-account' });
    await wallet.accounts.accountsRemove({ id: imported.id, password: PASSWORD });
    await expect(wallet.accounts.accountsRemove({ id: hd.id, password: PASSWORD })).rejects.toMatchObject({ code: 'validation', message: 'the last account cannot be removed' });
    expect(await names()).toEqual(['Account 1']);
  });

  it("a refused send that could still go through holds it, said with what to do; one whose place was taken does not, and what the wallet kept of the account goes with it", async () => {
    const { wallet, stores, imported, names } = await twoAccounts();
    await registerChains(stores.local, 'n12345-someChains');
    const refused = { txID: 'refused', chain: 'X', signedHex: '00', createdAt: 1, resends: 0, voided: true };
    const keys = [outboxKey('n12345-someChains', imported.id), journalKey('n12345-someChains', imported.id), ...accountStorageKeys('local', imported.id)];
    await stores.local.set({ [keys[0]!]: [refused], [keys[1]!]: [], [keys[2]!]: { activity: [] }, [outboxKey('n12345-someChains', 'someone-else')]: [refused] });
    await expect(wallet.accounts.accountsRemove({ id: imported.id, password: PASSWORD })).rejects.toMatchObject({ code: 'account-busy', message: expect.stringContaining('your next send on its chain takes its place') });
    expect(await names()).toEqual(['Account 1', 'Imported']);
    // A later send took its place: it can never run, so nothing holds the account.
    await stores.local.set({ [keys[0]!]: [{ ...refused, replacedBy: 'later' }] });
    await wallet.accounts.accountsRemove({ id: imported.id, password: PASSWORD });
    expect(await names()).toEqual(['Account 1']);
    expect(Object.keys(await stores.local.get(keys))).toEqual([]);
    expect(Object.keys(await stores.local.get([outboxKey('n12345-someChains', 'someone-else')]))).toHaveLength(1);
  });

  it('an outbox that cannot be read holds it, said so (not "wait")', async () => {
    const { wallet, stores, imported } = await twoAccounts();
    await registerChains(stores.local, 'n12345-someChains');
    await stores.local.set({ [outboxKey('n12345-someChains', imported.id)]: 'damaged' });
    await expect(wallet.accounts.accountsRemove({ id: imported.id, password: PASSWORD })).rejects.toMatchObject({ code: 'account-busy', message: expect.stringContaining('a record of its sends that cannot be read') });
  });

  it('is refused while the account has a transaction not decided, or a move not finished (wherever kept), and then removes nothing', async () => {
    for (const [key, value] of [
      // A send in its outbox for some chains, and a journal that cannot be read (what it held is unknown).
      [(id: string) => outboxKey('n12345-someChains', id), [{ txID: 'undecided', chain: 'X', signedHex: '00', createdAt: 1, resends: 0 }]],
      [(id: string) => journalKey('n12345-someChains', id), 'damaged'],
      // Where an older version kept them: per network entry.
      [(id: string) => entryOutboxKey('local', id), [{ txID: 'older', chain: 'P', signedHex: '00', createdAt: 1, resends: 0 }]],
    ] as const) {
      const { wallet, stores, imported, names } = await twoAccounts();
      await registerChains(stores.local, 'n12345-someChains');
      await stores.local.set({ [key(imported.id)]: value });
      await expect(wallet.accounts.accountsRemove({ id: imported.id, password: PASSWORD })).rejects.toMatchObject({ code: 'account-busy', message: expect.stringContaining('nothing was removed') });
      expect(await names()).toEqual(['Account 1', 'Imported']);
      // Another account's unfinished work stops nothing here.
      await stores.local.remove([key(imported.id)]);
      await stores.local.set({ [key('someone-else')]: value });
      await wallet.accounts.accountsRemove({ id: imported.id, password: PASSWORD });
      expect(await names()).toEqual(['Account 1']);
    }
  });
});
