// The wallet service as a service worker builds it, over memory storage, on the test node: for the
// suites that drive the background the way the popup does.
import { inject } from 'vitest';
import { ApprovalQueue } from '../../src/background/approvals.js';
import { ProviderService } from '../../src/background/provider.js';
import { Session } from '../../src/background/session.js';
import { SiteStore } from '../../src/background/sites.js';
import { memoryStores, type MemoryStores } from '../../src/background/storage.js';
import { Vault } from '../../src/background/vault.js';
import { createWallet, type Wallet } from '../../src/background/services/index.js';
import { parseAddress } from '../../src/core/encoding.js';
import { generateMnemonic } from '../../src/core/keys.js';
import type { WaitOptions } from '../../src/core/node.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { genesisEngine, localNetwork } from './fixture.js';

export const PASSWORD = 'correct horse battery';

export interface BackgroundOptions {
  fetch?: typeof fetch;
  wait?: WaitOptions;
}

/** A background as a service worker would build it on start, over storage that survives. */
export async function startBackground(stores: MemoryStores, options: BackgroundOptions = {}) {
  const vault = new Vault(stores, { kdfIterationsForTesting: 1_000 });
  const session = new Session(vault, stores);
  await session.resume();
  return { session, wallet: createWallet(session, stores.local, options) };
}

/** A background over its own storage with a wallet of `mnemonic` (a new one by default), on the test node, not refreshed. */
export async function phraseWallet(mnemonic = generateMnemonic(12)) {
  const stores = memoryStores();
  const { wallet } = await startBackground(stores);
  await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic });
  const network = await wallet.networks.networksAddCustom({ name: 'Test node', url: inject('nodeUrl') });
  const { account } = await wallet.networks.networksSelect({ id: network.id });
  return { wallet, stores, mnemonic, network, account: account! };
}

/** A wallet on the test node, funded from the genesis key with `x` and `p` nAVAX. */
export async function fundedWallet(funding: { x?: bigint; p?: bigint }, options: BackgroundOptions = {}) {
  const { ctx, identity } = await localNetwork();
  const stores = memoryStores();
  const { wallet, session } = await startBackground(stores, options);
  await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
  const network = await wallet.networks.networksAddCustom({ name: 'Test node', url: inject('nodeUrl') });
  const { account } = await wallet.networks.networksSelect({ id: network.id });
  const genesis = await genesisEngine();
  const me = makeOwners([parseAddress(account!.xAddress).bytes]);
  if (funding.x) await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: funding.x, owners: me }]));
  if (funding.p) await genesis.issueAndWait(await genesis.buildPSend(funding.p, me));
  // The first refresh scans the account's addresses once.
  await wallet.balances.balancesRefresh();
  return { wallet, session, stores, account: account!, ctx, avax: identity.avaxAssetID, genesis };
}

export interface ProviderBackground {
  stores: MemoryStores;
  session: Session;
  wallet: Wallet;
  approvals: ApprovalQueue;
  provider: ProviderService;
}

/**
 * The background with the site provider, as a (re)started worker builds it over storage that
 * survives. `openApprovalWindow` stands in for the window (a test answers the queue from there).
 */
export async function providerBackground(
  stores: MemoryStores,
  hooks: { openApprovalWindow: (bg: ProviderBackground) => void; notifyPages?: () => void; now?: () => number; fetch?: typeof fetch; sessionNow?: () => number; wait?: WaitOptions },
): Promise<ProviderBackground> {
  const session = new Session(new Vault(stores, { kdfIterationsForTesting: 1_000 }), stores, hooks.sessionNow ? { now: hooks.sessionNow } : {});
  await session.resume();
  const approvals = new ApprovalQueue(stores.session);
  const sites = new SiteStore(stores.local);
  const wallet = createWallet(session, stores.local, { approvals, sites, ...(hooks.fetch ? { fetch: hooks.fetch } : {}), ...(hooks.wait ? { wait: hooks.wait } : {}) });
  const bg = { stores, session, wallet, approvals } as ProviderBackground;
  bg.provider = new ProviderService({
    wallet: wallet.site,
    session,
    approvals,
    sites,
    sessionArea: stores.session,
    openApprovalWindow: async () => hooks.openApprovalWindow(bg),
    notifyPages: hooks.notifyPages ?? (() => undefined),
    ...(hooks.now ? { now: hooks.now } : {}),
  });
  return bg;
}
