// personal_sign with its params reversed ([address, message]), as some dapps send it: taken as
// MetaMask takes it (the first param an address, the second not), the approval showing the message
// and the address still one the site is connected to. The right order is in provider.test.ts.
import { eip191Signer } from 'micro-eth-signer';
import { describe, expect, it } from 'vitest';
import { ApprovalQueue } from '../../src/background/approvals.js';
import { ProviderService, type Site, type SiteWallet } from '../../src/background/provider.js';
import { SiteStore } from '../../src/background/sites.js';
import { memoryStores } from '../../src/background/storage.js';
import { PROVIDER_CHANNEL, type ProviderResponse } from '../../src/shared/provider-protocol.js';
import { formatEvmAddress } from '../../src/core/evm-address.js';
import { evmAddressOfSecret } from '../../src/core/keys.js';
import { ACCOUNT } from './site-account.js';

const SITE: Site = { origin: 'https://dapp.example' };
const SECRET = new Uint8Array(32).fill(7);
const OTHER = '0x000000000000000000000000000000000000dEaD';

async function setup() {
  const stores = memoryStores();
  const approvals = new ApprovalQueue(stores.session);
  const sites = new SiteStore(stores.local);
  await sites.grant(SITE.origin, [ACCOUNT.id]);
  const wallet = {
    siteNetwork: async () => ({ network: { id: 'local', name: 'Local network', url: 'http://127.0.0.1:1', hrp: 'local' }, evmChainId: 43112n }),
    accountsList: async () => ({ accounts: [ACCOUNT], selectedId: ACCOUNT.id }),
    withEvmSecret: async <T>(_id: string, use: (secret: Uint8Array) => T) => use(SECRET),
  } as unknown as SiteWallet;
  const provider = new ProviderService({
    wallet,
    session: { isUnlocked: () => true } as never,
    approvals,
    sites,
    sessionArea: stores.session,
    openApprovalWindow: async () => undefined,
    notifyPages: () => undefined,
  });
  let n = 0;
  const call = (params: unknown): Promise<ProviderResponse> => provider.handle({ channel: PROVIDER_CHANNEL, requestId: `r${++n}`, method: 'personal_sign', params }, SITE);
  /** The approval the request is waiting for, approved once seen. */
  const approveNext = async () => {
    await expect.poll(async () => (await approvals.list()).length).toBe(1);
    const [pending] = await approvals.list();
    await approvals.decide(pending!.id, true);
    return pending!.summary as { message: string; encoding: string; signer: string };
  };
  return { approvals, call, approveNext };
}

describe('personal_sign with reversed params', () => {
  it('[address, message]: the approval shows the message, and the message is what is signed', async () => {
    const t = await setup();
    for (const [params, text] of [
      [[ACCOUNT.cAddress, 'Sign in to dapp.example'], 'Sign in to dapp.example'],
      // Any case of the account's address, a hex message shown as its text.
      [[ACCOUNT.cAddress.toLowerCase(), '0x68656c6c6f'], 'hello'],
    ] as const) {
      const answer = t.call(params);
      const summary = await t.approveNext();
      expect(summary).toMatchObject({ message: text, encoding: 'text', signer: ACCOUNT.cAddress });
      const r = await answer;
      if (!r.ok) throw new Error(r.error.message);
      // Signed over the message's bytes (the stand-in wallet's key signs).
      expect(eip191Signer.recoverAddress(r.result as string, new TextEncoder().encode(text))).toBe(formatEvmAddress(evmAddressOfSecret(SECRET)));
    }
  });

  it('still signs only for an account the site is connected to, and never swaps two addresses', async () => {
    const t = await setup();
    // Reversed, for an address the site is not connected to: refused, nothing asked.
    expect(await t.call([OTHER, 'hello'])).toMatchObject({ ok: false, error: { code: 4100 } });
    // Both look like addresses: the usual order ([message, address]) holds, so OTHER is the signer asked for.
    expect(await t.call([ACCOUNT.cAddress, OTHER])).toMatchObject({ ok: false, error: { code: 4100 } });
    // A first param that is an address with a wrong checksum is refused as that param.
    const badChecksum = ACCOUNT.cAddress.replace('C', 'c').replace('b', 'B');
    expect(await t.call([badChecksum, 'hello'])).toMatchObject({ ok: false, error: { code: -32602, data: { field: 'params[0]' } } });
    // The usual order still names its own params.
    expect(await t.call(['0x00', 'not-an-address'])).toMatchObject({ ok: false, error: { code: -32602, data: { field: 'params[1]' } } });
    expect(await t.approvals.list()).toEqual([]);
  });
});
