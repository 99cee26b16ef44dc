// The vault and the account list (xpc.state) are two storage writes. A change stopped between the
// two (a failed write, or the worker killed: both leave the same storage), or settings that cannot
// be read, must never lock the user out, lose a key, or let an old account's ID stand for new keys.
import { describe, expect, it } from 'vitest';
import { Session } from '../../src/background/session.js';
import { memoryStores } from '../../src/background/storage.js';
import { Vault } from '../../src/background/vault.js';
import { createWallet } from '../../src/background/services/index.js';
import { freeName, UNREADABLE_STATE_KEY } from '../../src/background/settings.js';
import { MAX_NAME_LENGTH } from '../../src/shared/validate-fields.js';
import { generateMnemonic } from '../../src/core/keys.js';
import { refusedRestore } from './wallet-service-test-kit.js';

const PASSWORD = 'long enough';
// Throwaway keys, never funded anywhere that matters.
const KEY_A = '0x' + '44'.repeat(32);
const KEY_B = '0x' + '55'.repeat(32);

/** One storage for every "worker"; `failNext(key)` makes the next write that includes `key` fail. */
function storage() {
  const stores = memoryStores();
  const failing = new Set<string>();
  let onWrite: ((keys: string[]) => void) | null = null;
  const set = stores.local.set.bind(stores.local);
  stores.local.set = async (items: Record<string, unknown>) => {
    onWrite?.(Object.keys(items));
    const hit = Object.keys(items).find((k) => failing.has(k));
    if (hit !== undefined) {
      failing.delete(hit);
      throw new Error('QUOTA_BYTES quota exceeded');
    }
    return set(items);
  };
  /** A new background over the same storage (the worker restarted). */
  const worker = () => createWallet(new Session(new Vault(stores, { kdfIterationsForTesting: 1_000 }), stores), stores.local);
  return { stores, worker, failNext: (key: string) => failing.add(key), onWrite: (hook: typeof onWrite) => (onWrite = hook) };
}

/** A wallet with an imported key whose account is gone from the list (an import stopped between its two writes). */
async function importedAccountLost() {
  const world = storage();
  const first = world.worker();
  await first.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
  await first.accounts.accountsImportKey({ name: 'Imported', privateKey: KEY_A });
  const state = (await world.stores.local.get(['xpc.state']))['xpc.state'] as { accounts: { kind: string }[] };
  await world.stores.local.set({ 'xpc.state': { ...state, accounts: state.accounts.filter((a) => a.kind !== 'imported') } });
  return world;
}

describe('settings that cannot be read', () => {
  it('never lock the user out: the popup gets a status, and the unlock rebuilds them from the vault (set aside, not lost)', async () => {
    const { stores, worker } = storage();
    const first = worker();
    const created = await first.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    await first.accounts.accountsImportKey({ name: 'Imported', privateKey: KEY_A });
    const broken = { version: 1, accounts: 'oops' };
    await stores.local.set({ 'xpc.state': broken });

    const w = worker();
    const status = (await w.accounts.walletOpen()).status;
    expect(status).toMatchObject({ vault: 'locked', account: null });
    const unlocked = await w.accounts.walletUnlock({ password: PASSWORD });
    expect(unlocked.account).toMatchObject({ name: 'Account 1', kind: 'hd', index: 0, cAddress: created.account!.cAddress });
    expect((await w.accounts.accountsList()).accounts.map((a) => a.name)).toEqual(['Account 1', 'Imported']);
    expect((await stores.local.get([UNREADABLE_STATE_KEY]))[UNREADABLE_STATE_KEY]).toEqual([{ at: expect.any(Number), value: broken }]);
  });

  it('an unlock whose account list cannot be brought in line still lets the user in when it has an account to show; the next unlock catches up', async () => {
    const { worker, failNext } = await importedAccountLost();

    const w = worker();
    failNext('xpc.state');
    expect(await w.accounts.walletUnlock({ password: PASSWORD })).toMatchObject({ vault: 'unlocked', account: { name: 'Account 1' } });
    expect((await w.accounts.accountsList()).accounts.map((a) => a.name)).toEqual(['Account 1']);
    await w.accounts.walletLock();
    await w.accounts.walletUnlock({ password: PASSWORD });
    expect((await w.accounts.accountsList()).accounts.map((a) => a.name)).toEqual(['Account 1', 'Imported']);
  });

  it('an unlock whose account list cannot be written and has no account to show leaves the wallet locked, as it says; the next unlock brings it back', async () => {
    const { stores, worker, failNext } = storage();
    const first = worker();
    await first.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    await first.accounts.accountsImportKey({ name: 'Imported', privateKey: KEY_A });
    await stores.local.set({ 'xpc.state': { version: 1, accounts: 'oops' } });

    const w = worker();
    failNext('xpc.state');
    await expect(w.accounts.walletUnlock({ password: PASSWORD })).rejects.toThrow(/quota/);
    expect((await w.accounts.walletOpen()).status).toMatchObject({ vault: 'locked' });
    const unlocked = await w.accounts.walletUnlock({ password: PASSWORD });
    expect(unlocked).toMatchObject({ vault: 'unlocked', account: { name: 'Account 1' } });
    expect((await w.accounts.accountsList()).accounts.map((a) => a.name)).toEqual(['Account 1', 'Imported']);
  });

  it('an unlock whose account list cannot be written, and whose status cannot be read either, is locked again', async () => {
    const { stores, worker, failNext, onWrite } = await importedAccountLost();

    const w = worker();
    // The account list's write fails, and from then on so does every read (a storage gone bad).
    let reads = true;
    const get = stores.local.get.bind(stores.local);
    stores.local.get = async (keys) => {
      if (!reads) throw new Error('storage read failed');
      return get(keys);
    };
    onWrite((keys) => {
      if (keys.includes('xpc.state')) reads = false;
    });
    failNext('xpc.state');
    await expect(w.accounts.walletUnlock({ password: PASSWORD })).rejects.toThrow(/quota/);
    onWrite(null);
    reads = true;
    expect((await w.accounts.walletOpen()).status).toMatchObject({ vault: 'locked' });
  });

  it('keep what holds up of them: one bad field loses only itself, the accounts keep their IDs and names; earlier set-asides stay', async () => {
    const { stores, worker } = storage();
    const w = worker();
    await w.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    await w.accounts.accountsAdd({ name: 'Second' });
    const third = await w.accounts.accountsAdd({ name: 'Third' });
    await w.accounts.accountsSelect({ id: third.id });
    const before = (await w.accounts.accountsList()).accounts.map((a) => [a.id, a.name]);
    const state = (await stores.local.get(['xpc.state']))['xpc.state'] as Record<string, unknown>;
    for (const broken of [{ ...state, nextHdIndex: 3.5 }, { ...state, customNetworks: [{ id: 'custom-x' }] }]) {
      await stores.local.set({ 'xpc.state': broken });
      const next = worker();
      expect((await next.accounts.walletUnlock({ password: PASSWORD })).account).toMatchObject({ id: third.id, name: 'Third' });
      expect((await next.accounts.accountsList()).accounts.map((a) => [a.id, a.name])).toEqual(before);
      expect((await next.accounts.accountsAdd({ name: 'Fourth' })).index).toBe(3);
    }
    expect(((await stores.local.get([UNREADABLE_STATE_KEY]))[UNREADABLE_STATE_KEY] as unknown[]).length).toBe(2);
  });

  it('include settings of the right version whose parts are wrong (a null account, a network that is gone)', async () => {
    for (const broken of [
      (s: Record<string, unknown>) => ({ ...s, accounts: [null] }),
      (s: Record<string, unknown>) => ({ ...s, selectedNetworkId: 'custom-gone' }),
      (s: Record<string, unknown>) => ({ ...s, customNetworks: 'none' }),
      (s: Record<string, unknown>) => ({ ...s, nextHdIndex: -1 }),
      // Past what a derivation path can hold: every status read, the unlock's too, would fail.
      (s: Record<string, unknown>) => ({ ...s, accounts: [...(s.accounts as unknown[]), { id: 'far', name: 'Far', kind: 'hd', index: 2 ** 31 }], selectedAccountId: 'far' }),
      (s: Record<string, unknown>) => ({ ...s, nextHdIndex: 2 ** 31 + 1 }),
    ]) {
      const { stores, worker } = storage();
      const created = await worker().accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
      const state = (await stores.local.get(['xpc.state']))['xpc.state'] as Record<string, unknown>;
      await stores.local.set({ 'xpc.state': broken(state) });
      const w = worker();
      expect((await w.accounts.walletOpen()).status).toMatchObject({ vault: 'locked', account: null });
      expect((await w.accounts.walletUnlock({ password: PASSWORD })).account).toMatchObject({ cAddress: created.account!.cAddress });
    }
  });

  it('do not stop a restore, which replaces the vault and leaves a working wallet', async () => {
    const { stores, worker } = storage();
    await worker().accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    await stores.local.set({ 'xpc.state': 'garbage' });
    const restore = { password: 'a new password', mnemonic: generateMnemonic(12) };
    // What it would drop cannot be told from unreadable settings: asked about, never assumed nothing.
    const shown = await refusedRestore(worker().accounts.walletRestore(restore));
    expect(shown).toMatchObject({ unknown: true });
    // Confirmed in a background started since: the Confirm says what it was shown, so it holds.
    const restored = await worker().accounts.walletRestore({ ...restore, confirmLoss: shown.names });
    expect(restored).toMatchObject({ vault: 'unlocked', account: { name: 'Account 1' } });
    expect((await worker().accounts.walletUnlock({ password: 'a new password' })).account).toMatchObject({ cAddress: restored.account!.cAddress });
  });
});

describe('a restore that does not finish', () => {
  async function oldWallet() {
    const t = storage();
    const w = t.worker();
    const before = await w.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    const second = await w.accounts.accountsAdd({ name: 'Second' });
    await w.accounts.accountsImportKey({ name: 'Imported', privateKey: KEY_A });
    const journal = `xpc.transfers.local.${second.id}`;
    await t.stores.local.set({ [journal]: [] });
    const restore = { password: 'a new password', mnemonic: generateMnemonic(12) };
    // Shown what it drops (the imported key), so that its confirm is held to that.
    const shown = await refusedRestore(w.accounts.walletRestore(restore));
    expect(shown).toMatchObject({ importedKeys: 1 });
    return { ...t, w, before, journal, restore: { ...restore, confirmLoss: shown.names }, names: ['Account 1', 'Second', 'Imported'] };
  }

  it('with a password too short for a vault: refused before anything changes (still unlocked, same accounts)', async () => {
    const { w, stores, names, restore } = await oldWallet();
    const state = (await stores.local.get(['xpc.state']))['xpc.state'];
    await expect(w.accounts.walletRestore({ ...restore, password: 'short' })).rejects.toMatchObject({ field: 'password' });
    expect((await w.accounts.walletStatus()).vault).toBe('unlocked');
    expect((await stores.local.get(['xpc.state']))['xpc.state']).toEqual(state);
    expect((await w.accounts.accountsList()).accounts.map((a) => a.name)).toEqual(names);
  });

  it('when the vault cannot be written: the old settings are put back, and nothing of the old accounts is dropped', async () => {
    const { stores, worker, failNext, w, before, journal, restore, names } = await oldWallet();
    failNext('xpc.vault');
    await expect(w.accounts.walletRestore(restore)).rejects.toThrow(/quota/);
    const next = worker();
    expect((await next.accounts.walletUnlock({ password: PASSWORD })).account).toMatchObject({ id: before.account!.id, cAddress: before.account!.cAddress });
    expect((await next.accounts.accountsList()).accounts.map((a) => a.name)).toEqual(names);
    expect(stores.local.keys()).toContain(journal);
  });

  it('stopped between its writes (the old settings not put back either): the old vault opens, imported keys and all, under new IDs', async () => {
    const { worker, failNext, onWrite, w, before, restore } = await oldWallet();
    failNext('xpc.vault');
    // The put-back fails too: the storage a worker killed after the settings write leaves.
    onWrite((keys) => keys.includes('xpc.vault') && failNext('xpc.state'));
    await expect(w.accounts.walletRestore(restore)).rejects.toThrow(/quota/);
    const next = worker();
    const after = await next.accounts.walletUnlock({ password: PASSWORD });
    expect(after.account).toMatchObject({ cAddress: before.account!.cAddress });
    // A site connected to the old account ID sees nothing without asking again: no account has it.
    expect(after.account!.id).not.toBe(before.account!.id);
    expect((await next.accounts.accountsList()).accounts.map((a) => a.name)).toEqual(['Account 1', 'Imported']);
  });

  it('an unlock with the old password waits for a restore under way, so it never opens the old vault under the new account', async () => {
    const { w, before, onWrite, restore } = await oldWallet();
    let unlock: Promise<unknown> | undefined;
    // Asked just as the restore writes the new account list, before it writes the vault.
    onWrite((keys) => {
      if (keys.includes('xpc.state') && !unlock) unlock = w.accounts.walletUnlock({ password: PASSWORD });
    });
    const status = await w.accounts.walletRestore(restore);
    await expect(unlock).rejects.toMatchObject({ code: 'wrong-password' });
    expect(status.account!.cAddress).not.toBe(before.account!.cAddress);
    expect((await w.accounts.walletStatus()).account).toMatchObject({ id: status.account!.id, cAddress: status.account!.cAddress });
  });
});

describe('a wallet made from a private key, stopped between its two writes', () => {
  it('leaves no vault, so making it again works', async () => {
    for (const key of ['xpc.state', 'xpc.vault']) {
      const { worker, failNext } = storage();
      const w = worker();
      failNext(key);
      await expect(w.accounts.walletCreateFromKey({ password: PASSWORD, privateKey: KEY_A, name: 'Mine' })).rejects.toThrow(/quota/);
      expect((await worker().accounts.walletStatus()).vault).toBe('none');
      expect(await worker().accounts.walletCreateFromKey({ password: PASSWORD, privateKey: KEY_A, name: 'Mine' })).toMatchObject({ vault: 'unlocked', account: { name: 'Mine', kind: 'imported' } });
    }
  });
});

describe('an import stopped after its key was stored', () => {
  it('gives the key its account when imported again, and at the next unlock', async () => {
    const { worker, failNext } = storage();
    const w = worker();
    await w.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    failNext('xpc.state');
    await expect(w.accounts.accountsImportKey({ name: 'A', privateKey: KEY_A })).rejects.toThrow(/quota/);
    expect((await w.accounts.accountsList()).accounts.map((a) => a.name)).toEqual(['Account 1']);
    const a = await w.accounts.accountsImportKey({ name: 'A', privateKey: KEY_A });
    expect(a).toMatchObject({ name: 'A', kind: 'imported' });
    await expect(w.accounts.accountsImportKey({ name: 'A again', privateKey: KEY_A })).rejects.toMatchObject({ field: 'privateKey' });

    failNext('xpc.state');
    await expect(w.accounts.accountsImportKey({ name: 'B', privateKey: KEY_B })).rejects.toThrow(/quota/);
    const next = worker();
    await next.accounts.walletUnlock({ password: PASSWORD });
    expect((await next.accounts.accountsList()).accounts.map((x) => x.name)).toEqual(['Account 1', 'A', 'B']);
  });
});

describe('an account given back by an unlock', () => {
  it('keeps its name unless another account took it meanwhile: then it is numbered, never a second account of the same name', async () => {
    const { worker, failNext } = storage();
    const w = worker();
    await w.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    failNext('xpc.state');
    await expect(w.accounts.accountsImportKey({ name: 'Cold', privateKey: KEY_A })).rejects.toThrow(/quota/);
    await w.accounts.accountsAdd({ name: 'cold' });
    const next = worker();
    await next.accounts.walletUnlock({ password: PASSWORD });
    expect((await next.accounts.accountsList()).accounts.map((x) => [x.name, x.kind])).toEqual([
      ['Account 1', 'hd'],
      ['cold', 'hd'],
      ['Cold (2)', 'imported'],
    ]);
  });

  it("a key stored by an import that stopped, imported again under another account's name: refused at the name, the key still waiting for its account", async () => {
    const { worker, failNext } = storage();
    const w = worker();
    await w.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    failNext('xpc.state');
    await expect(w.accounts.accountsImportKey({ name: 'Cold', privateKey: KEY_A })).rejects.toThrow(/quota/);
    await expect(w.accounts.accountsImportKey({ name: 'account 1', privateKey: KEY_A })).rejects.toMatchObject({ field: 'name' });
    expect((await w.accounts.accountsList()).accounts.map((x) => x.name)).toEqual(['Account 1']);
    await expect(w.accounts.accountsImportKey({ name: 'Cold', privateKey: KEY_A })).resolves.toMatchObject({ name: 'Cold', kind: 'imported' });
  });

  it('numbers a name of the longest length within that length', () => {
    const long = 'n'.repeat(MAX_NAME_LENGTH);
    const accounts = [long, `${'n'.repeat(MAX_NAME_LENGTH - 4)} (2)`].map((name, i) => ({ id: `a${i}`, name, kind: 'hd' as const, index: i }));
    expect(freeName(accounts, long)).toBe(`${'n'.repeat(MAX_NAME_LENGTH - 4)} (3)`);
    expect(freeName(accounts, 'free')).toBe('free');
    // The limit counts UTF-16 units, as the name check does; a character is never cut in two.
    const foxes = '🦊'.repeat(MAX_NAME_LENGTH / 2);
    expect(freeName([{ id: 'f', name: foxes, kind: 'hd', index: 0 }], foxes)).toBe(`${'🦊'.repeat(MAX_NAME_LENGTH / 2 - 2)} (2)`);
    // Cut by what shows as one character: a family emoji goes whole, and no space is left before the number.
    const family = '👨\u200d👩\u200d👧';
    const crowded = `${'n'.repeat(MAX_NAME_LENGTH - family.length - 1)} ${family}`;
    expect(freeName([{ id: 'c', name: crowded, kind: 'hd', index: 0 }], crowded)).toBe(`${'n'.repeat(MAX_NAME_LENGTH - family.length - 1)} (2)`);
  });
});

describe('a removal stopped between its two writes', () => {
  it('never leaves an account without its key: the wallet keeps opening', async () => {
    const { worker, failNext } = storage();
    const w = worker();
    await w.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    const a = await w.accounts.accountsImportKey({ name: 'A', privateKey: KEY_A });
    await w.accounts.accountsSelect({ id: a.id });
    failNext('xpc.vault');
    await expect(w.accounts.accountsRemove({ id: a.id, password: PASSWORD })).rejects.toThrow(/quota/);
    expect((await w.accounts.walletOpen()).status.account).toMatchObject({ name: 'Account 1' });
    // The key the removal could not take out of the vault is not lost: the next unlock lists it again.
    const next = worker();
    await next.accounts.walletUnlock({ password: PASSWORD });
    expect((await next.accounts.accountsList()).accounts.map((x) => x.name)).toEqual(['Account 1', 'A']);
  });
});

describe('a custom network whose stored pin is damaged', () => {
  it('is set aside with the settings, never read as pinned (its node would be believed unchecked) nor as never pinned; a sound one stays', async () => {
    const { stores, worker } = storage();
    await worker().accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    const state = (await stores.local.get(['xpc.state']))['xpc.state'] as Record<string, unknown>;
    const pinned = { networkID: 12345, evmChainID: 43112, xChainID: 'x', cChainID: 'c', avaxAssetID: 'a' };
    const network = (id: string, pin: unknown) => ({ id, name: id, url: 'http://127.0.0.1:1', atomicNamespace: 'avax', pinned: pin });
    const damaged = { ...state, customNetworks: [network('sound', pinned), network('damaged', {}), network('half', { ...pinned, evmChainID: '43112' })] };
    await stores.local.set({ 'xpc.state': damaged });
    const w = worker();
    await w.accounts.walletUnlock({ password: PASSWORD });
    const names = (await w.networks.networksList()).networks.map((n) => n.name);
    expect(names).toContain('sound');
    expect(names).not.toContain('damaged');
    expect(names).not.toContain('half');
    expect((await stores.local.get([UNREADABLE_STATE_KEY]))[UNREADABLE_STATE_KEY]).toEqual([{ at: expect.any(Number), value: damaged }]);
  });
});
