// What Receive shows comes from the status: on each network, the account's addresses carry that
// network's prefix (avax, fuji, custom) over the same keys, and the C-Chain address is the phrase's
// standard EVM address (m/44'/60'/0'/0/0, the one other wallets show), EIP-55 checksummed.
import { describe, expect, it } from 'vitest';
import { Session } from '../../src/background/session.js';
import { memoryStores } from '../../src/background/storage.js';
import { Vault } from '../../src/background/vault.js';
import { createWallet } from '../../src/background/services/index.js';
import { parseAddress } from '../../src/core/encoding.js';

/** The phrase every EVM toolkit's test accounts come from; its first address is public knowledge. */
const PHRASE = 'test test test test test test test test test test test junk';
const FIRST_EVM = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

describe('the receive addresses on each network', () => {
  it('carry the selected network’s prefix over the same keys; the C-Chain address is the standard checksummed one', async () => {
    const stores = memoryStores();
    const wallet = createWallet(new Session(new Vault(stores, { kdfIterationsForTesting: 1_000 }), stores), stores.local);
    await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: PHRASE });
    const state = (await stores.local.get(['xpc.state']))['xpc.state'] as Record<string, unknown>;
    const seen = new Map<string, { x: string; c: string; cb: string }>();
    // Switched in storage: the presets fix the prefix, no node is asked.
    for (const [network, hrp] of [['mainnet', 'avax'], ['fuji', 'fuji'], ['local', 'custom']] as const) {
      await stores.local.set({ 'xpc.state': { ...state, selectedNetworkId: network } });
      const status = await wallet.accounts.walletStatus();
      expect(status.network).toMatchObject({ id: network, hrp });
      const a = status.account!;
      expect(a.xAddress.startsWith(`X-${hrp}1`)).toBe(true);
      expect(a.pAddress.startsWith(`P-${hrp}1`)).toBe(true);
      expect(a.cBech32Address.startsWith(`C-${hrp}1`)).toBe(true);
      expect(a.cAddress).toBe(FIRST_EVM);
      const x = parseAddress(a.xAddress);
      expect(x.hrp).toBe(hrp);
      expect(parseAddress(a.pAddress).bytes).toEqual(x.bytes);
      seen.set(network, { x: Buffer.from(x.bytes).toString('hex'), c: a.cAddress, cb: Buffer.from(parseAddress(a.cBech32Address).bytes).toString('hex') });
    }
    expect(new Set([...seen.values()].map((v) => JSON.stringify(v))).size).toBe(1);
  });
});
