// The accounts' keys, derived from the unlocked vault (src/background/session.ts) when asked for.
// The HD root is kept only while the session is unlocked and wiped on lock.
import { fromHex } from '../core/bytes.js';
import { formatAddress } from '../core/encoding.js';
import { WalletError } from '../core/errors.js';
import { formatEvmAddress } from '../core/evm-address.js';
import { deriveEvmKey, deriveXpKey, HdRoot, keyPairFromSecret, mnemonicToSeed, type KeyPair } from '../core/keys.js';
import type { AccountView } from '../shared/messages.js';
import type { Session } from './session.js';
import type { AccountRecord } from './settings.js';
import { VaultLockedError } from './vault.js';

export class Keyring {
  #root: HdRoot | null = null;

  constructor(private readonly session: Session) {
    session.onLock(() => this.forget());
  }

  /** Throws VaultLockedError while the wallet is locked: before any node is asked on its behalf. */
  assertUnlocked(): void {
    if (!this.session.isUnlocked()) throw new VaultLockedError();
  }

  /** Wipes the HD root (lock, or a vault about to be replaced). */
  forget(): void {
    this.#root?.wipe();
    this.#root = null;
  }

  async root(): Promise<HdRoot> {
    if (this.#root) return this.#root;
    const { mnemonic } = this.session.secrets();
    if (!mnemonic) throw new WalletError('no-mnemonic', 'this wallet has no recovery phrase (it was created from a private key)');
    this.#root = HdRoot.fromSeed(await mnemonicToSeed(mnemonic));
    return this.#root;
  }

  importedKey(keyId: string): KeyPair {
    const k = this.session.secrets().importedKeys.find((i) => i.id === keyId);
    if (!k) throw new WalletError('storage-corrupt', 'an imported account has no key in the vault');
    return keyPairFromSecret(fromHex(k.secretHex));
  }

  /** The account's first receive key and its EVM key: what addresses are shown from. */
  async primaryKeys(a: AccountRecord): Promise<{ xp: KeyPair; evm: KeyPair }> {
    if (a.kind === 'imported') {
      const k = this.importedKey(a.keyId);
      return { xp: k, evm: k };
    }
    const root = await this.root();
    return { xp: deriveXpKey(root, a.index, 0, 0), evm: deriveEvmKey(root, a.index) };
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
