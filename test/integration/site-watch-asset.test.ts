// wallet_watchAsset once the user approved it: the token is handed to the wallet as its approval
// showed it (read from the real node for the approval), so the wallet need not read the contract a
// second time, when a node failure would fail a request the user already said yes to.
import { createPublicClient, createWalletClient, defineChain, getAddress, http, type Abi, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import contracts from '../fixtures/contracts.json' with { type: 'json' };
import type { PendingApproval } from '../../src/background/approvals.js';
import { ProviderService, type Site } from '../../src/background/provider.js';
import { SiteStore } from '../../src/background/sites.js';
import { memoryStores } from '../../src/background/storage.js';
import { toHex } from '../../src/core/bytes.js';
import type { TokenMetadata } from '../../src/core/tokens.js';
import type { ApprovalSummary } from '../../src/shared/messages.js';
import { PROVIDER_CHANNEL } from '../../src/shared/provider-protocol.js';
import { GENESIS_KEY } from './fixture.js';
import { providerBackground } from './wallet-fixture.js';

const SITE: Site = { origin: 'https://watch.example' };
const chain = defineChain({ id: 43112, name: 'Test C-Chain', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [] } } });

describe('wallet_watchAsset after approval', () => {
  let provider: ProviderService;
  let token: Hex;
  const seen: PendingApproval[] = [];
  /** What the provider handed the wallet to list, per call. */
  const handed: { address: string; shown: TokenMetadata | undefined }[] = [];
  let nextId = 0;
  let nodeDown = false;
  let wallet: Awaited<ReturnType<typeof providerBackground>>['wallet'];

  async function request(method: string, params?: unknown): Promise<unknown> {
    const r = await provider.handle({ channel: PROVIDER_CHANNEL, requestId: `w-${++nextId}`, method, ...(params !== undefined ? { params } : {}) }, SITE);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    return r.result;
  }

  beforeAll(async () => {
    const rpc = `${inject('nodeUrl')}/ext/bc/C/rpc`;
    const deployer = createWalletClient({ chain, transport: http(rpc), account: privateKeyToAccount(`0x${toHex(GENESIS_KEY.secret)}`) });
    const c = contracts.contracts.TestToken;
    const hash = await deployer.deployContract({ abi: c.abi as Abi, bytecode: c.bytecode as Hex, args: ['Watch Coin', 'WCH', 5n], gas: 3_000_000n });
    const receipt = await createPublicClient({ chain, transport: http(rpc) }).waitForTransactionReceipt({ hash });
    token = getAddress(receipt.contractAddress!);

    const stores = memoryStores();
    // The approval window, played by the test: it approves what it has not seen.
    const approveAll = () =>
      void setTimeout(async () => {
        for (const p of await bg.approvals.list()) {
          if (seen.some((s) => s.id === p.id)) continue;
          seen.push(p);
          if (p.method === 'wallet_watchAsset') nodeDown = true;
          await bg.approvals.decide(p.id, true);
        }
      }, 5);
    const bg = await providerBackground(stores, {
      openApprovalWindow: approveAll,
      // The wallet's node, which fails from the moment the user approves a token (nodeDown).
      fetch: (input, init) => (nodeDown ? Promise.reject(new TypeError('fetch failed')) : fetch(input, init)),
    });
    wallet = bg.wallet;
    await bg.wallet.accounts.walletCreateFromKey({ password: 'watch test password', privateKey: `0x${'11'.repeat(32)}`, name: 'Watcher' });
    const network = await bg.wallet.networks.networksAddCustom({ name: 'Test node', url: inject('nodeUrl') });
    await bg.wallet.networks.networksSelect({ id: network.id });
    // The background's provider, but for what it hands the wallet to list.
    provider = new ProviderService({
      wallet: {
        ...bg.wallet.site,
        watchToken: async (accountId, origin, address, shown) => {
          handed.push({ address, shown });
          await bg.wallet.site.watchToken(accountId, origin, address, shown);
        },
      },
      session: bg.session,
      approvals: bg.approvals,
      sites: new SiteStore(stores.local),
      sessionArea: stores.session,
      openApprovalWindow: async () => approveAll(),
      notifyPages: () => undefined,
    });
    await request('eth_requestAccounts', []);
  }, 120_000);

  it('lists the token as the approval showed it, even when the node fails the moment the user says yes', async () => {
    expect(await request('wallet_watchAsset', { type: 'ERC20', options: { address: token, symbol: 'WCH' } })).toBe(true);
    const shown = seen.at(-1)!.summary as Extract<ApprovalSummary, { kind: 'watch-asset' }>;
    expect(shown.token).toMatchObject({ address: token, name: 'Watch Coin', symbol: 'WCH', decimals: 6, standard: 'erc20' });
    expect(handed).toEqual([{ address: token, shown: { address: token, standard: 'erc20', name: 'Watch Coin', symbol: 'WCH', decimals: 6 } }]);
    // The wallet's node failed the moment the user said yes: the token is listed all the same.
    nodeDown = false;
    expect((await wallet.tokens.tokensList()).tokens.find((t) => t.address === token)).toMatchObject({ addedBy: SITE.origin, name: 'Watch Coin', symbol: 'WCH', decimals: 6, balance: '0' });
  });
});
