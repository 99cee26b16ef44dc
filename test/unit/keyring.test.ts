// The keyring's HD root against a lock or a new vault that lands while the seed is being derived
// (PBKDF2 takes a while): nothing derived from the old phrase may stay, or be handed out.
import { describe, expect, it } from 'vitest';
import { Keyring } from '../../src/background/keyring.js';
import type { Session } from '../../src/background/session.js';
import { VaultLockedError } from '../../src/background/vault.js';
import { toHex } from '../../src/core/bytes.js';
import { deriveXpKey, generateMnemonic, HdRoot, mnemonicToSeed } from '../../src/core/keys.js';
import type { AccountRecord } from '../../src/background/settings.js';

/** A session the test unlocks, locks and swaps the phrase of (the keyring uses only these). */
function fakeSession(mnemonic: string, importedKeys: { id: string; secretHex: string }[] = []) {
  const state = { mnemonic, unlocked: true, listeners: [] as (() => void)[] };
  const session = {
    isUnlocked: () => state.unlocked,
    secrets: () => {
      if (!state.unlocked) throw new VaultLockedError();
      return { mnemonic: state.mnemonic, importedKeys, createdAt: 0 };
    },
    mnemonic: () => session.secrets().mnemonic,
    onLock: (listener: () => void) => {
      state.listeners.push(listener);
      return () => undefined;
    },
  };
  return { session: session as unknown as Session, state, lock: () => ((state.unlocked = false), state.listeners.forEach((l) => l())) };
}

const ACCOUNT: AccountRecord = { id: 'a1', name: 'Account 1', kind: 'hd', index: 0 } as AccountRecord;

async function firstKeyOf(mnemonic: string): Promise<string> {
  return toHex(deriveXpKey(HdRoot.fromSeed(await mnemonicToSeed(mnemonic)), 0, 0, 0).shortId);
}

describe('Keyring', () => {
  it('a lock during the derivation leaves no root: the call fails as locked, and no key is handed out after', async () => {
    const { session, lock } = fakeSession(generateMnemonic());
    const keyring = new Keyring(session);
    const deriving = keyring.root();
    lock();
    await expect(deriving).rejects.toThrow(VaultLockedError);
    await expect(keyring.primaryKeys(ACCOUNT)).rejects.toThrow(VaultLockedError);
  });

  it('a new vault during the derivation: the keys are the new phrase\'s, never the old one\'s', async () => {
    const oldPhrase = generateMnemonic();
    const newPhrase = generateMnemonic();
    const { session, state } = fakeSession(oldPhrase);
    const keyring = new Keyring(session);
    const deriving = keyring.primaryKeys(ACCOUNT);
    // What a restore does: the session gets the new phrase and the keyring forgets the old root.
    state.mnemonic = newPhrase;
    keyring.forget();
    const keys = await deriving;
    expect(toHex(keys.xp.shortId)).toBe(await firstKeyOf(newPhrase));
    expect(toHex((await keyring.primaryKeys(ACCOUNT)).xp.shortId)).toBe(await firstKeyOf(newPhrase));
  });

  it('a lock zeroes every secret handed out, HD and imported: pairs held from before (a move\'s engine) cannot sign', async () => {
    const { session, lock } = fakeSession(generateMnemonic(), [{ id: 'k1', secretHex: '11'.repeat(32) }]);
    const keyring = new Keyring(session);
    const hd = (await keyring.primaryKeys(ACCOUNT)).xp;
    const imported = keyring.importedKey('k1');
    // One pair per key until the lock (every account listing asks for it).
    expect(keyring.importedKey('k1')).toBe(imported);
    const held = [hd.secret, imported.secret];
    expect(toHex(held[1]!)).toBe('11'.repeat(32));
    lock();
    for (const pair of [hd, imported]) expect(() => pair.secret).toThrow(expect.objectContaining({ code: 'vault-locked' }));
    expect(held.every((s) => s.every((b) => b === 0))).toBe(true);
  });

  it("an imported key that left the vault is zeroed at once, not at the next lock, and its pair refuses to sign; another key's pair is untouched", () => {
    const keys = [{ id: 'k1', secretHex: '11'.repeat(32) }, { id: 'k2', secretHex: '22'.repeat(32) }];
    const { session } = fakeSession(generateMnemonic(), keys);
    const keyring = new Keyring(session);
    const [gone, other] = [keyring.importedKey('k1'), keyring.importedKey('k2')];
    const held = gone.secret;
    keys.splice(0, 1);
    keyring.forgetImportedKey('k1');
    expect(held.every((b) => b === 0)).toBe(true);
    expect(toHex(other.secret)).toBe('22'.repeat(32));
    // A holder of the pair from before (a signer under way) is told why, in words.
    expect(() => gone.secret).toThrow(expect.objectContaining({ code: 'account-removed', message: expect.stringMatching(/removed.*nothing was signed/) }));
    expect(() => keyring.importedKey('k1')).toThrow(expect.objectContaining({ code: 'storage-corrupt' }));
  });

  it('callers at the same time share one root', async () => {
    const { session } = fakeSession(generateMnemonic());
    const keyring = new Keyring(session);
    const [a, b] = await Promise.all([keyring.root(), keyring.root()]);
    expect(a).toBe(b);
  });
});
