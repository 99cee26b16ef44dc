// The accounts' keys, derived from the unlocked vault (src/background/session.ts) when asked for.
// The HD root is kept only while the session is unlocked and wiped on lock, with every secret
// handed out (HD or imported): a pair held from before a lock cannot sign.
import { fromHex, toHex } from '../core/bytes.js';
import { formatAddress } from '../core/encoding.js';
import { KeysWipedError, WalletError } from '../core/errors.js';
import { formatEvmAddress } from '../core/evm-address.js';
import { deriveEvmKey, deriveXpKey, HdRoot, keyPairFromSecret, mnemonicToSeed, wipe, type KeyPair } from '../core/keys.js';
import type { AccountView } from '../shared/messages.js';
import type { Session } from './session.js';
import type { AccountRecord } from './settings.js';
import { VaultLockedError } from './vault.js';

export class Keyring {
  #root: HdRoot | null = null;
  /** The derivation under way: callers at the same time share it (one root, wiped as one). */
  #deriving: Promise<HdRoot> | null = null;
  /** Bumped by every forget: a derivation that began before it must not leave its root behind. */
  #generation = 0;
  /** The imported keys handed out since the last forget, by key ID: their secrets zeroed by the next. */
  readonly #imported = new Map<string, { pair: KeyPair; secret: Uint8Array }>();

  constructor(private readonly session: Session) {
    session.onLock(() => this.forget());
  }

  /** Throws VaultLockedError while the wallet is locked: before any node is asked on its behalf. */
  assertUnlocked(): void {
    if (!this.session.isUnlocked()) throw new VaultLockedError();
  }

  /** Wipes the HD root and the imported keys handed out (on every lock). */
  forget(): void {
    this.#generation += 1;
    this.#deriving = null;
    this.#root?.wipe();
    this.#root = null;
    for (const { secret } of this.#imported.values()) wipe(secret);
    this.#imported.clear();
  }

  /** Wipes the pair handed out for imported key `keyId` (its key just left the vault). */
  forgetImportedKey(keyId: string): void {
    const known = this.#imported.get(keyId);
    if (known) wipe(known.secret);
    this.#imported.delete(keyId);
  }

  async root(): Promise<HdRoot> {
    this.assertUnlocked();
    if (this.#root) return this.#root;
    if (!this.#deriving) {
      const deriving = this.derive().finally(() => {
        if (this.#deriving === deriving) this.#deriving = null;
      });
      this.#deriving = deriving;
    }
    return this.#deriving;
  }

  /**
   * The root of the phrase unlocked now. The seed takes a while (PBKDF2): a lock or a new vault in
   * that time wipes what was derived from the old phrase; a new vault's root is derived again.
   */
  private async derive(): Promise<HdRoot> {
    const generation = this.#generation;
    const seed = await mnemonicToSeed(this.session.mnemonic());
    const root = HdRoot.fromSeed(seed);
    wipe(seed);
    if (generation !== this.#generation) {
      root.wipe();
      if (!this.session.isUnlocked()) throw new VaultLockedError();
      return this.root();
    }
    this.#root = root;
    return root;
  }

  /**
   * The imported key `keyId`. Its secret is zeroed on lock (or a new vault) or when its account is
   * removed, and then refused: a holder of the pair from before, such as a move's engine, cannot sign.
   */
  importedKey(keyId: string): KeyPair {
    const known = this.#imported.get(keyId);
    if (known && this.session.isUnlocked()) return known.pair;
    const k = this.session.secrets().importedKeys.find((i) => i.id === keyId);
    if (!k) throw new WalletError('storage-corrupt', 'an imported account has no key in the vault');
    const raw = fromHex(k.secretHex);
    const pair = keyPairFromSecret(raw);
    wipe(raw);
    const secret = pair.secret;
    const generation = this.#generation;
    Object.defineProperty(pair, 'secret', {
      get: () => {
        if (generation !== this.#generation) throw new KeysWipedError();
        // Forgotten since (forgetImportedKey): its account was removed while this pair was held.
        if (this.#imported.get(keyId)?.secret !== secret) throw new WalletError('account-removed', 'this account was removed from the wallet, so nothing was signed');
        return secret;
      },
    });
    // One pair per key until the next forget: every account listing asks for it.
    this.#imported.set(keyId, { pair, secret });
    return pair;
  }

  /** The account's first receive key and its EVM key: what addresses are shown from. */
  async primaryKeys(a: AccountRecord): Promise<{ xp: KeyPair; evm: KeyPair }> {
    this.assertUnlocked();
    if (a.kind === 'imported') {
      const k = this.importedKey(a.keyId);
      return { xp: k, evm: k };
    }
    const root = await this.root();
    return { xp: deriveXpKey(root, a.index, 0, 0), evm: deriveEvmKey(root, a.index) };
  }

  /** The short IDs (hex) of the account's keys: its EVM key and, of a phrase's account, the receive and change keys `counts` says it lists. */
  async listedKeyIds(a: AccountRecord, counts: { receive: number; change: number }): Promise<Set<string>> {
    if (a.kind === 'imported') return new Set([toHex(this.importedKey(a.keyId).shortId)]);
    const root = await this.root();
    return new Set([...listedXpKeys(root, a.index, counts), deriveEvmKey(root, a.index)].map((k) => toHex(k.shortId)));
  }

  async accountView(a: AccountRecord, hrp: string): Promise<AccountView> {
    const { xp, evm } = await this.primaryKeys(a);
    return {
      id: a.id,
      name: a.name,
      kind: a.kind,
      ...(a.kind === 'hd' ? { index: a.index } : {}),
      xAddress: formatAddress('X', hrp, xp.shortId),
      pAddress: formatAddress('P', hrp, xp.shortId),
      cAddress: formatEvmAddress(evm.evmAddress),
      cBech32Address: formatAddress('C', hrp, evm.shortId),
    };
  }
}

/** A phrase's account's X/P keys: the receive keys, then the change keys, `counts` says it lists (account-cache.ts listedKeyCounts). */
export function listedXpKeys(root: HdRoot, index: number, counts: { receive: number; change: number }): KeyPair[] {
  return [...Array.from({ length: counts.receive }, (_, i) => deriveXpKey(root, index, 0, i)), ...Array.from({ length: counts.change }, (_, i) => deriveXpKey(root, index, 1, i))];
}
