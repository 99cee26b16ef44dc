// The wallet's services, wired in one place: each owns one domain and its storage, and each group
// of requests (src/shared/messages.ts) goes to one of them. The site provider gets the narrow
// SiteWallet view of them.
import type { WaitOptions } from '../../core/node.js';
import { AccountCaches } from '../account-cache.js';
import { AccountEngines } from '../account-engines.js';
import type { ApprovalQueue, Asker } from '../approvals.js';
import { Delivery } from '../delivery.js';
import { Keyring } from '../keyring.js';
import type { SiteWallet } from '../provider.js';
import { handlersFrom, type RequestHandlers } from '../router.js';
import type { Session } from '../session.js';
import { SettingsStore } from '../settings.js';
import type { SiteStore } from '../sites.js';
import type { StorageArea } from '../storage.js';
import { AccountsService } from './accounts.js';
import { ApprovalsService } from './approvals.js';
import { AssetsService } from './assets.js';
import { BalancesService } from './balances.js';
import { NetworksService } from './networks.js';
import { SendsService } from './sends.js';
import { SitesService } from './sites.js';
import { StakingService } from './staking.js';
import { TransfersService } from './transfers.js';
// C-Chain tokens and EVM tx replacement (#21)
import { EvmTxService } from './evm-txs.js';
import { TokensService } from './tokens.js';
import { readTokenMetadata } from '../../core/tokens.js';
import { SiteContracts } from '../site-contracts.js';
import { listedByUser } from '../token-store.js';

export interface WalletOptions {
  fetch?: typeof fetch;
  log?: (line: string) => void;
  /** Site requests waiting for the user (storage.session); without it, nothing ever waits. */
  approvals?: ApprovalQueue;
  /** Sites whose requests wait for the wallet to be unlocked (the provider knows them). */
  sitesWaitingForUnlock?: () => string[];
  /** Holds askers' sites off as a closed approval window does (ApprovalsService). */
  holdOff?: (askers: readonly Asker[]) => void;
  /** Connected sites and chains sites added (storage.local). */
  sites?: SiteStore;
  /** How long a send waits for its tx to become final (default: the engine's, 60 s). */
  wait?: WaitOptions;
}

export interface Wallet {
  accounts: AccountsService;
  networks: NetworksService;
  balances: BalancesService;
  sends: SendsService;
  assets: AssetsService;
  transfers: TransfersService;
  staking: StakingService;
  sites: SitesService;
  approvals: ApprovalsService;
  tokens: TokensService;
  evm: EvmTxService;
  /** What the site provider may ask of the wallet. */
  site: SiteWallet;
}

/** The services over one session (keys) and storage.local, as a worker builds them on start. */
export function createWallet(session: Session, local: StorageArea, options: WalletOptions = {}): Wallet {
  const { log } = options;
  const settings = new SettingsStore(local);
  const keyring = new Keyring(session);
  const networks: NetworksService = new NetworksService(settings, local, {
    status: () => accounts.walletStatus(),
    unfinishedMoves: (journalKeys) => transfers.unfinishedIn(journalKeys),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const engines = new AccountEngines(settings, networks, keyring, new AccountCaches(local), local, { ...(log ? { log } : {}), ...(options.wait ? { wait: options.wait } : {}) });
  const delivery = new Delivery(engines, log);
  const staking: StakingService = new StakingService(engines, delivery, local, { ...(options.fetch ? { fetch: options.fetch } : {}), ...(log ? { log } : {}), activity: () => balances.activityList() });
  const transfers = new TransfersService(engines, session, local, log, delivery);
  const accounts = new AccountsService(session, local, settings, keyring, networks, engines, transfers, {
    ...(options.sites ? { sites: options.sites } : {}),
    balances: (accountId, networkId) => balances.balancesFor(accountId, networkId),
  });
  const approvals = new ApprovalsService(session, engines, networks, {
    ...(options.approvals ? { queue: options.approvals } : {}),
    ...(options.sitesWaitingForUnlock ? { sitesWaitingForUnlock: options.sitesWaitingForUnlock } : {}),
    ...(options.holdOff ? { holdOff: options.holdOff } : {}),
    accounts: async () => (await accounts.accountsList()).accounts,
  });
  const balances: BalancesService = new BalancesService(engines, networks, settings, local, log, (ctx) => staking.followAfterRefresh(ctx));
  const tokens = new TokensService(engines, delivery, local);
  const siteContracts = new SiteContracts(local);
  return {
    accounts,
    networks,
    tokens,
    evm: new EvmTxService(engines, delivery),
    balances,
    sends: new SendsService(engines, delivery),
    assets: new AssetsService(engines, networks, delivery),
    transfers,
    staking,
    sites: new SitesService(settings, networks, keyring, options.sites),
    approvals,
    site: {
      siteNetwork: () => networks.siteNetwork(),
      siteNetworks: () => networks.siteNetworks(),
      networksSelect: (p) => networks.networksSelect(p),
      accountsList: () => accounts.accountsList(),
      withEvmSecret: (accountId, use) => engines.withEvmSecret(accountId, use),
      withXpKey: (accountId, use) => engines.withXpKey(accountId, use),
      siteEngine: async (accountId) => {
        const { engine, preset } = await engines.open(accountId);
        return { engine, networkId: preset.id };
      },
      evmNonceFor: (accountId) => delivery.nonceLine.evmNonceFor(accountId),
      checkSiteSigning: (accountId, chain, signedBytes, networkId, txID) => delivery.checkSiteSigning(accountId, chain, signedBytes, networkId, txID),
      sendSiteTx: (accountId, signed, item, networkId, beforeSending) => delivery.sendSiteTx(accountId, signed, item, networkId, beforeSending),
      recordSiteStake: (accountId, networkId, stake) => staking.recordSiteStake(accountId, networkId, stake),
      approvalSummaryForTx: (accountId, ext) => approvals.approvalSummaryForTx(accountId, ext),
      recipientOf: (accountId, address) => approvals.recipientOf(accountId, address),
      evmInsight: async (accountId, requester, eth, chain) => {
        const { accounts: list } = await accounts.accountsList();
        const { preset } = await engines.selected(accountId);
        return {
          eth,
          account: list.find((a) => a.id === accountId)?.cAddress ?? '',
          // Only tokens the user listed vouch for a token in a site's approval: one a site had listed
          // (wallet_watchAsset, harmless to approve) would make its own fake "USDC" read as listed.
          listed: chain.avalanche ? (await tokens.store.list(preset.id)).filter(listedByUser) : [],
          nativeSymbol: chain.symbol,
          recipientOf: (address) => approvals.recipientOf(accountId, address),
          siteCalls: (address) => siteContracts.calls(requester, chain.key, address),
        };
      },
      noteSiteCall: (requester, chain, address) => siteContracts.note(requester, chain, address),
      watchToken: async (accountId, origin, address, shown) => {
        // As the approval showed it: no node read after the user said yes.
        if (shown) return void (await tokens.store.add((await engines.selected(accountId)).preset.id, { ...shown, addedBy: origin, addedAt: Date.now() }));
        const ctx = await engines.open(accountId);
        await tokens.addToken(ctx, await readTokenMetadata(ctx.engine.node.eth, address), origin);
      },
    },
  };
}

/** Which service answers each group of requests ('send.x' → sends.sendX). */
export function walletHandlers(w: Wallet): RequestHandlers {
  return handlersFrom({
    wallet: w.accounts,
    accounts: w.accounts,
    networks: w.networks,
    balances: w.balances,
    activity: w.balances,
    settings: w.balances,
    send: w.sends,
    assets: w.assets,
    transfers: w.transfers,
    staking: w.staking,
    sites: w.sites,
    approvals: w.approvals,
    tokens: w.tokens,
    evm: w.evm,
  });
}
