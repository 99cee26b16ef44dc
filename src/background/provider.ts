// Site requests: the background half of the EIP-1193 provider (src/inpage) and of our X/P site
// methods. Every request arrives through the content script with the site it came from (the
// browser's word on the sender, never the page's), is validated here, and every signature waits
// for the user's approval in the approval window, which shows what will be signed.
//
// Requests survive a stopped worker: the approval queue and a short request log live in
// storage.session, and the content script re-sends an unanswered request with the same ID. A
// re-sent request picks up its approval (waiting or decided) instead of asking again, and one
// that already ran answers from the log instead of running twice.
import { fromHex, toHex } from '../core/bytes.js';
import { formatAddress } from '../core/encoding.js';
import { CodecError, FormatError, InsufficientFundsError, NetworkMismatchError, NodeIdentityError, NodeUnreachableError, RpcError, TimeoutError, ValidationError, WalletError } from '../core/errors.js';
import { type ExternalTx } from '../core/external-tx.js';
import { checkFeeInput, MAX_C_BASE_FEE_WEI, MAX_C_TIP_WEI } from '../core/fee-limits.js';
import { avalancheMessageDigest, personalMessageDigest, signAvalancheMessage, signPersonalMessage, signTypedData, type TypedDataInput } from '../core/message.js';
import { EthApi } from '../core/node.js';
import { JsonRpcEndpoint } from '../core/rpc.js';
import { chargedGas, eip1559Fees, signEvmTx, unsignedEvmTxHex, type EvmTxRequest } from '../core/tx/c.js';
import type { AccountView, ActivityItem, ApprovalSummary, ChainName } from '../shared/messages.js';
import {
  type ProviderErrorInfo,
  ProviderErrorCode as Code,
  type ProviderResponse,
  type ProviderState,
  PROVIDER_CHANNEL,
  STATE_METHOD,
} from '../shared/provider-protocol.js';
import { ApprovalPendingError, ApprovalQueueFullError, type ApprovalQueue, type PendingApproval, requesterOf } from './approvals.js';
import {
  chainAliasParam,
  chainIdParam,
  evmAddressParam,
  hexDataParam,
  InvalidParamsError,
  messageParam,
  objectParam,
  onlyKeys,
  positional,
  quantityParam,
  stringParam,
  txHexParam,
  typedDataParam,
  urlParam,
} from './provider-params.js';
import type { Session } from './session.js';
import type { AddedChain, SitePermission, SiteStore } from './sites.js';
import type { StorageArea } from './storage.js';
import type { WalletService } from './wallet.js';

/** Who asked: the top-level page's origin and, for a request from a frame, the frame's. */
export interface Site {
  origin: string;
  frameOrigin?: string;
}


/** An EIP-1193 error: a code from ProviderErrorCode and a message a developer can act on. */
export class ProviderError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

const MAX_MESSAGE_BYTES = 64 * 1024;
const MAX_CALL_DATA_BYTES = 128 * 1024;
const REQUEST_LOG_KEY = 'xpc.siteRequests';
/** Answers kept for re-sent requests; bounded so storage.session (10 MB in Chrome) never fills. */
const MAX_LOGGED_REQUESTS = 20;
const UNLOCK_POLL_MS = 300;
/** A page may wait this long for the user to unlock; then the request is refused. */
const UNLOCK_WAIT_MS = 10 * 60_000;
const MAX_REQUEST_ID = 100;

/** Read-only EVM methods answered by the chain's node, params passed through (they move no funds). */
const READ_METHODS = new Set([
  'eth_blockNumber',
  'eth_call',
  'eth_estimateGas',
  'eth_feeHistory',
  'eth_gasPrice',
  'eth_getBalance',
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getBlockTransactionCountByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getCode',
  'eth_getLogs',
  'eth_getProof',
  'eth_getStorageAt',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'eth_maxPriorityFeePerGas',
  'eth_baseFee',
  'eth_syncing',
  'web3_clientVersion',
  // Node-side filters: ethers' BrowserProvider listens for contract events through these.
  'eth_newFilter',
  'eth_newBlockFilter',
  'eth_getFilterChanges',
  'eth_getFilterLogs',
  'eth_uninstallFilter',
]);
const MAX_READ_PARAMS = 4;

/** The chain sites see: the selected Avalanche network's C-Chain, or an EVM-only chain a site added. */
type ActiveChain =
  | { kind: 'avalanche'; chainId: bigint; name: string; networkId: string; rpcUrl: string; symbol: string }
  | { kind: 'evm'; chainId: bigint; name: string; rpcUrl: string; symbol: string; added: AddedChain };

/** What an approved request acts on; stored with the approval so a restarted worker can act. */
type Payload =
  | { kind: 'connect'; accountId: string }
  | { kind: 'personal-sign'; accountId: string; messageHex: string }
  | { kind: 'typed-data'; accountId: string; typed: TypedDataInput }
  | { kind: 'avalanche-message'; accountId: string; messageHex: string }
  | { kind: 'evm-tx'; accountId: string; rpcUrl: string; activity: boolean; tx: Record<keyof EvmTxRequest, string> }
  | { kind: 'site-tx'; accountId: string; chain: ChainName; txHex: string; action: 'sign' | 'send' }
  | { kind: 'switch-chain'; networkId?: string; addedChainId?: string }
  | { kind: 'add-chain'; chain: AddedChain };

interface LoggedRequest {
  state: 'running' | 'done';
  response?: ProviderResponse;
  at: number;
}

export interface ProviderDeps {
  wallet: WalletService;
  session: Session;
  approvals: ApprovalQueue;
  sites: SiteStore;
  /** storage.session: the request log. */
  sessionArea: StorageArea;
  /** Opens (or focuses) the approval window. */
  openApprovalWindow(): Promise<void>;
  /** Tells every page with our provider that chain, accounts or lock state may have changed. */
  notifyPages(): void;
  fetch?: typeof fetch;
  log?: (line: string) => void;
  now?: () => number;
}

interface Call {
  requestId: string;
  method: string;
  params: unknown;
  site: Site;
}

/** Requests that may wait for an unlock at once; more are refused (a page cannot pile them up). */
const MAX_UNLOCK_WAITERS = 20;
/** After the user closed the approval window, sites that had requests in it wait this long. */
const CLOSED_COOLDOWN_MS = 30_000;
/** Approval requests a site may make before it is connected; every other one needs a connection. */
const CONNECTION_FREE_METHODS = new Set(['eth_requestAccounts', 'wallet_requestPermissions', 'wallet_switchEthereumChain', 'wallet_addEthereumChain']);

/** The EVM tx an approval holds (as JSON-safe strings), back as the request that is shown and signed. */
function evmRequestOf(t: Record<keyof EvmTxRequest, string>): EvmTxRequest {
  return {
    chainId: BigInt(t.chainId),
    nonce: BigInt(t.nonce),
    to: t.to,
    value: BigInt(t.value),
    gasLimit: BigInt(t.gasLimit),
    maxFeePerGas: BigInt(t.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(t.maxPriorityFeePerGas),
    ...(t.data && t.data !== '0x' ? { data: t.data } : {}),
  };
}

export class ProviderService {
  #unlockWait: { promise: Promise<void>; reject: (e: ProviderError) => void; waiters: number } | null = null;
  #logTail: Promise<unknown> = Promise.resolve();
  /** Requests running in this worker, by requestId: a duplicate joins the first. */
  #inflight = new Map<string, Promise<ProviderResponse>>();
  /** Requester → time until which its approval requests are refused (the user closed the window on them). */
  #cooldown = new Map<string, number>();
  /** Requester → how many of its requests wait for the wallet to be unlocked. */
  #unlockWaiters = new Map<string, number>();

  constructor(private readonly deps: ProviderDeps) {}

  /** Checks the runtime message's shape, runs the request, and always answers (never throws). */
  async handle(raw: unknown, site: Site): Promise<ProviderResponse> {
    const m = raw as { channel?: unknown; requestId?: unknown; method?: unknown; params?: unknown } | null;
    if (typeof m !== 'object' || m === null || m.channel !== PROVIDER_CHANNEL) {
      return { ok: false, error: { code: Code.invalidParams, message: 'not a provider request' } };
    }
    if (typeof m.requestId !== 'string' || m.requestId.length === 0 || m.requestId.length > MAX_REQUEST_ID) {
      return { ok: false, error: { code: Code.invalidParams, message: 'requestId must be a short string' } };
    }
    if (typeof m.method !== 'string' || m.method.length === 0 || m.method.length > 100) {
      return { ok: false, error: { code: Code.invalidParams, message: 'method must be a non-empty string' } };
    }
    const call: Call = { requestId: m.requestId, method: m.method, params: m.params, site };
    const running = this.#inflight.get(call.requestId);
    if (running) return running;
    const answer = this.run(call).then(
      (result): ProviderResponse => ({ ok: true, result }),
      (e: unknown): ProviderResponse => ({ ok: false, error: this.errorInfo(e, call.method) }),
    );
    this.#inflight.set(call.requestId, answer);
    try {
      return await answer;
    } finally {
      this.#inflight.delete(call.requestId);
    }
  }

  /**
   * The approval window was closed: whoever waits for an unlock gets "rejected by the user", and
   * the sites that had requests waiting (`requesters`, and those waiting for the unlock) are
   * refused for a while, so a page cannot reopen the window in a loop.
   */
  cancelWaits(requesters: readonly string[] = []): void {
    const until = (this.deps.now ?? Date.now)() + CLOSED_COOLDOWN_MS;
    for (const requester of [...requesters, ...this.#unlockWaiters.keys()]) this.#cooldown.set(requester, until);
    this.#unlockWait?.reject(new ProviderError(Code.userRejected, 'the user closed the wallet window'));
    this.#unlockWait = null;
  }

  /** The sites whose requests wait for the wallet to be unlocked (the unlock form names them). */
  sitesWaitingForUnlock(): string[] {
    return [...this.#unlockWaiters.keys()];
  }

  private errorInfo(e: unknown, method: string): ProviderErrorInfo {
    if (e instanceof ProviderError) return { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) };
    if (e instanceof InvalidParamsError || e instanceof ValidationError) {
      const field = (e as ValidationError).field;
      return { code: Code.invalidParams, message: e.message, ...(field ? { data: { field } } : {}) };
    }
    if (e instanceof CodecError || e instanceof FormatError) return { code: Code.invalidParams, message: `the transaction bytes cannot be decoded: ${e.message}` };
    if (e instanceof ApprovalPendingError || e instanceof ApprovalQueueFullError) return { code: Code.resourceUnavailable, message: e.message };
    // Fixed text: the node's URL stays in the wallet (see below).
    if (e instanceof NodeIdentityError) return { code: Code.chainDisconnected, message: "the wallet's node is not the network the wallet is set to" };
    if (e instanceof NetworkMismatchError) return { code: Code.chainDisconnected, message: e.message };
    if (e instanceof RpcError) return { code: e.rpcCode, message: e.rpcMessage, ...(e.data !== undefined ? { data: e.data } : {}) };
    // Fixed text: the node's URL (which may hold an API key) and its answers stay in the wallet.
    if (e instanceof NodeUnreachableError || e instanceof TimeoutError) return { code: Code.chainDisconnected, message: 'the wallet cannot reach its node' };
    if (e instanceof InsufficientFundsError || e instanceof WalletError) return { code: Code.internal, message: e.message, data: { reason: e.code } };
    this.deps.log?.(`site request ${method} failed: ${e instanceof Error ? e.name : typeof e}`);
    return { code: Code.internal, message: 'the wallet could not handle this request; nothing was signed or sent' };
  }

  // ---- routing ----

  private async run(call: Call): Promise<unknown> {
    const { method } = call;
    switch (method) {
      case STATE_METHOD:
        return this.siteState(call.site);
      case 'eth_chainId':
        positional(call.params, 0, 0);
        return `0x${(await this.activeChain()).chainId.toString(16)}`;
      case 'net_version':
        positional(call.params, 0, 0);
        return (await this.activeChain()).chainId.toString();
      case 'eth_accounts':
        positional(call.params, 0, 0);
        return (await this.connectedAccounts(call.site)).map((a) => a.cAddress);
      case 'eth_requestAccounts':
        positional(call.params, 0, 0);
        return (await this.connect(call)).map((a) => a.cAddress);
      case 'wallet_requestPermissions':
        this.permissionsParam(call.params);
        await this.connect(call);
        return this.permissions(call.site);
      case 'wallet_getPermissions':
        positional(call.params, 0, 0);
        return this.permissions(call.site);
      case 'wallet_revokePermissions':
        this.permissionsParam(call.params);
        if (await this.deps.sites.revoke(requesterOf(call.site))) this.deps.notifyPages();
        return null;
      case 'wallet_switchEthereumChain':
        return this.switchChain(call);
      case 'wallet_addEthereumChain':
        return this.addChain(call);
      case 'personal_sign':
        return this.personalSign(call);
      case 'eth_signTypedData_v4':
        return this.signTypedData(call);
      case 'eth_sendTransaction':
        return this.sendEvmTransaction(call);
      case 'xpc_getAddresses':
        positional(call.params, 0, 0);
        return this.xpAddresses(call.site);
      case 'xpc_signTransaction':
        return this.siteTx(call, 'sign', this.siteTxParams(call.params));
      case 'xpc_sendTransaction':
        return this.siteTx(call, 'send', this.siteTxParams(call.params));
      case 'xpc_signMessage':
        return this.avalancheMessage(call, this.siteMessageParams(call.params));
      case 'avalanche_getAccounts':
        positional(call.params, 0, 0);
        return this.coreAccounts(call.site);
      case 'avalanche_sendTransaction':
        return this.coreSendTransaction(call, 'send');
      case 'avalanche_signTransaction':
        return this.coreSendTransaction(call, 'sign');
      case 'avalanche_signMessage':
        return this.coreSignMessage(call);
      case 'wallet_sendTransaction':
        // viem retries a failed eth_sendTransaction under this name and reports the first error
        // only when this one is "method not found"; 4200 here would hide the real reason.
        throw new ProviderError(Code.methodNotFound, 'The method "wallet_sendTransaction" does not exist / is not available; use eth_sendTransaction');
      default:
        if (READ_METHODS.has(method)) return this.read(method, call.params);
        // Worded as MetaMask words it: ethers recognises "does not exist" as an unsupported operation.
        throw new ProviderError(Code.unsupportedMethod, `The method "${method.slice(0, 100)}" does not exist / is not available in XPC Wallet`);
    }
  }

  // ---- state, chains and connection ----

  private async activeChain(): Promise<ActiveChain> {
    const { chains, activeChainId } = await this.deps.sites.chains();
    const added = activeChainId === null ? undefined : chains.find((c) => c.chainId === activeChainId);
    if (added) return { kind: 'evm', chainId: BigInt(added.chainId), name: added.name, rpcUrl: added.rpcUrl, symbol: added.symbol, added };
    const { network, evmChainId } = await this.deps.wallet.siteNetwork();
    return { kind: 'avalanche', chainId: evmChainId, name: network.name, networkId: network.id, rpcUrl: `${network.url.replace(/\/+$/, '')}/ext/bc/C/rpc`, symbol: 'AVAX' };
  }

  private eth(rpcUrl: string): EthApi {
    return new EthApi(new JsonRpcEndpoint(rpcUrl, this.deps.fetch ? { fetch: this.deps.fetch } : {}));
  }

  /** What a site sees of the wallet; the lock state only once it is connected. */
  async siteState(site: Site): Promise<ProviderState> {
    const chain = await this.activeChain();
    const permission = await this.deps.sites.permission(requesterOf(site));
    const accounts = await this.accountsOf(permission);
    return {
      chainId: `0x${chain.chainId.toString(16)}`,
      networkVersion: chain.chainId.toString(),
      accounts: accounts.map((a) => a.cAddress),
      isUnlocked: permission !== undefined && this.deps.session.isUnlocked(),
    };
  }

  /** The site's connected accounts that still exist, the selected one first; [] while locked. */
  private async connectedAccounts(site: Site): Promise<AccountView[]> {
    if (!this.deps.session.isUnlocked()) return [];
    return this.accountsOf(await this.deps.sites.permission(requesterOf(site)));
  }

  /** The accounts a permission names that still exist, the selected one first; [] while locked. */

  private async accountsOf(permission: SitePermission | undefined): Promise<AccountView[]> {
    if (!this.deps.session.isUnlocked() || !permission) return [];
    const { accounts, selectedId } = await this.deps.wallet.accountsList();
    const connected = accounts.filter((a) => permission.accountIds.includes(a.id));
    return connected.sort((a, b) => Number(b.id === selectedId) - Number(a.id === selectedId));
  }

  private async requireConnection(site: Site): Promise<void> {
    if (!(await this.deps.sites.permission(requesterOf(site)))) {
      throw new ProviderError(Code.unauthorized, 'this site is not connected to XPC Wallet; call eth_requestAccounts first');
    }
  }

  /** The connected account a request acts for: the one named by `address`, else the first. */
  private async actingAccount(site: Site, address?: string): Promise<AccountView> {
    await this.requireConnection(site);
    await this.unlocked(site);
    const accounts = await this.connectedAccounts(site);
    if (accounts.length === 0) throw new ProviderError(Code.unauthorized, 'this site is not connected to any account of XPC Wallet');
    if (address === undefined) return accounts[0]!;
    const match = accounts.find((a) => a.cAddress.toLowerCase() === address.toLowerCase() || a.xAddress === address || a.pAddress === address);
    if (!match) throw new ProviderError(Code.unauthorized, `the address ${address} is not an account this site is connected to`);
    return match;
  }

  /**
   * Resolves once the wallet is unlocked, asking the user to unlock in the approval window. All
   * waiting requests share one wait (one timer, one window); the window names the sites waiting.
   */
  private async unlocked(site: Site): Promise<void> {
    if (this.deps.session.isUnlocked()) return;
    this.checkCooldown(site);
    const requester = requesterOf(site);
    this.#unlockWaiters.set(requester, (this.#unlockWaiters.get(requester) ?? 0) + 1);
    try {
      await this.waitForUnlock();
    } finally {
      const left = (this.#unlockWaiters.get(requester) ?? 1) - 1;
      if (left > 0) this.#unlockWaiters.set(requester, left);
      else this.#unlockWaiters.delete(requester);
    }
  }

  private async waitForUnlock(): Promise<void> {
    if (!this.#unlockWait) {
      const now = this.deps.now ?? Date.now;
      const deadline = now() + UNLOCK_WAIT_MS;
      let reject!: (e: ProviderError) => void;
      const promise = new Promise<void>((resolve, rej) => {
        const timer = setInterval(() => {
          if (this.deps.session.isUnlocked()) {
            clearInterval(timer);
            this.#unlockWait = null;
            resolve();
          } else if (now() > deadline) {
            reject(new ProviderError(Code.userRejected, 'the wallet stayed locked'));
          }
        }, UNLOCK_POLL_MS);
        reject = (e) => {
          clearInterval(timer);
          if (this.#unlockWait?.promise === promise) this.#unlockWait = null;
          rej(e);
        };
      });
      promise.catch(() => undefined);
      this.#unlockWait = { promise, reject, waiters: 0 };
      await this.openWindow();
    }
    const wait = this.#unlockWait;
    if (!wait) return;
    if (wait.waiters >= MAX_UNLOCK_WAITERS) throw new ProviderError(Code.resourceUnavailable, 'too many requests are waiting for the wallet to be unlocked');
    wait.waiters++;
    try {
      await wait.promise;
    } finally {
      wait.waiters--;
    }
  }

  private async openWindow(): Promise<void> {
    try {
      await this.deps.openApprovalWindow();
    } catch (e) {
      this.deps.log?.(`could not open the approval window: ${(e as Error).message}`);
      throw new ProviderError(Code.internal, 'the wallet could not open its window');
    }
  }

  private checkCooldown(site: Site): void {
    const requester = requesterOf(site);
    const until = this.#cooldown.get(requester);
    if (until === undefined) return;
    if ((this.deps.now ?? Date.now)() < until) throw new ProviderError(Code.userRejected, 'the user closed the wallet window; try again in a little while');
    this.#cooldown.delete(requester);
  }

  private async connect(call: Call): Promise<AccountView[]> {
    const logged = await this.logged(call.requestId);
    if (logged) {
      this.replay(logged);
      return this.connectedAccounts(call.site);
    }
    if (!(await this.deps.approvals.findByRequest(call.requestId))) {
      await this.unlocked(call.site);
      const existing = await this.connectedAccounts(call.site);
      if (existing.length > 0) return existing;
    }
    await this.approved(call, async () => {
      const { accounts, selectedId } = await this.deps.wallet.accountsList();
      const account = accounts.find((a) => a.id === selectedId);
      if (!account) throw new WalletError('no-account', 'the wallet has no account to connect');
      return {
        summary: { kind: 'connect', accountName: account.name, accounts: [account.cAddress, account.xAddress, account.pAddress] },
        payload: { kind: 'connect', accountId: account.id },
      };
    }, async (payload) => {
      if (payload.kind !== 'connect') throw new Error('payload mismatch');
      await this.deps.sites.grant(requesterOf(call.site), [payload.accountId]);
      this.deps.notifyPages();
      return null;
    });
    return this.connectedAccounts(call.site);
  }

  private permissionsParam(params: unknown): void {
    const [request] = positional(params, 1, 1);
    const o = objectParam(request, 'params[0]');
    const keys = Object.keys(o);
    if (keys.length !== 1 || keys[0] !== 'eth_accounts') {
      throw new InvalidParamsError('params[0] must be { eth_accounts: {} }: XPC Wallet grants no other permission', 'params[0]');
    }
  }

  /** EIP-2255 permissions, the shape MetaMask gives them. */
  private async permissions(site: Site): Promise<unknown[]> {
    const origin = requesterOf(site);
    const permission = await this.deps.sites.permission(origin);
    if (!permission) return [];
    const accounts = (await this.connectedAccounts(site)).map((a) => a.cAddress);
    return [
      {
        invoker: origin,
        parentCapability: 'eth_accounts',
        caveats: [{ type: 'restrictReturnedAccounts', value: accounts }],
        date: permission.connectedAt,
      },
    ];
  }

  private async switchChain(call: Call): Promise<null> {
    const [arg] = positional(call.params, 1, 1);
    const o = objectParam(arg, 'params[0]');
    onlyKeys(o, 'params[0]', ['chainId']);
    const chainId = chainIdParam(o.chainId, 'params[0].chainId');
    const current = await this.activeChain();
    if (current.chainId === chainId) return null;
    const target = await this.knownChain(chainId);
    if (!target) throw new ProviderError(Code.unrecognizedChain, `chain 0x${chainId.toString(16)} is not known to XPC Wallet; add it with wallet_addEthereumChain`);
    await this.approved(call, async () => ({
      summary: { kind: 'switch-chain', fromName: current.name, toName: target.name, chainId: chainId.toString() },
      payload: { kind: 'switch-chain', ...(target.networkId ? { networkId: target.networkId } : { addedChainId: chainId.toString() }) },
    }), (payload) => this.applySwitch(payload));
    return null;
  }

  private async knownChain(chainId: bigint): Promise<{ name: string; networkId?: string } | undefined> {
    const networks = await this.deps.wallet.siteNetworks();
    const network = networks.find((n) => n.evmChainId === chainId);
    if (network) return { name: network.name, networkId: network.id };
    const { chains } = await this.deps.sites.chains();
    const added = chains.find((c) => c.chainId === chainId.toString());
    return added ? { name: added.name } : undefined;
  }

  private async applySwitch(payload: Payload): Promise<null> {
    if (payload.kind !== 'switch-chain') throw new Error('payload mismatch');
    if (payload.networkId !== undefined) {
      await this.deps.wallet.networksSelect({ id: payload.networkId });
      await this.deps.sites.setActiveChain(null);
    } else {
      await this.deps.sites.setActiveChain(payload.addedChainId!);
    }
    this.deps.notifyPages();
    return null;
  }

  private async addChain(call: Call): Promise<null> {
    const [arg] = positional(call.params, 1, 1);
    const o = objectParam(arg, 'params[0]');
    onlyKeys(o, 'params[0]', ['chainId', 'chainName', 'rpcUrls', 'nativeCurrency', 'blockExplorerUrls', 'iconUrls']);
    const chainId = chainIdParam(o.chainId, 'params[0].chainId');
    // A chain the wallet already knows is a switch (as EIP-3085 allows).
    if (await this.knownChain(chainId)) {
      const current = await this.activeChain();
      if (current.chainId === chainId) return null;
      return this.switchChain({ ...call, params: [{ chainId: `0x${chainId.toString(16)}` }] });
    }
    const name = stringParam(o.chainName, 'params[0].chainName', 100);
    if (!Array.isArray(o.rpcUrls) || o.rpcUrls.length === 0 || o.rpcUrls.length > 10) {
      throw new InvalidParamsError('params[0].rpcUrls must be an array of 1 to 10 URLs', 'params[0].rpcUrls');
    }
    const rpcUrl = urlParam(o.rpcUrls[0], 'params[0].rpcUrls[0]');
    const currency = objectParam(o.nativeCurrency, 'params[0].nativeCurrency');
    const symbol = stringParam(currency.symbol, 'params[0].nativeCurrency.symbol', 10);
    if (currency.decimals !== 18) throw new InvalidParamsError('params[0].nativeCurrency.decimals must be 18', 'params[0].nativeCurrency.decimals');
    let explorerUrl: string | undefined;
    if (o.blockExplorerUrls !== undefined && o.blockExplorerUrls !== null) {
      if (!Array.isArray(o.blockExplorerUrls) || o.blockExplorerUrls.length > 10) {
        throw new InvalidParamsError('params[0].blockExplorerUrls must be an array of URLs', 'params[0].blockExplorerUrls');
      }
      if (o.blockExplorerUrls.length > 0) explorerUrl = urlParam(o.blockExplorerUrls[0], 'params[0].blockExplorerUrls[0]');
    }
    const chain: AddedChain = { chainId: chainId.toString(), name, rpcUrl, symbol, decimals: 18, ...(explorerUrl ? { explorerUrl } : {}) };
    await this.approved(call, async () => ({
      summary: { kind: 'add-chain', chainName: name, chainId: chain.chainId, rpcUrl, symbol, decimals: 18, ...(explorerUrl ? { explorerUrl } : {}) },
      payload: { kind: 'add-chain', chain },
    }), async (payload) => {
      if (payload.kind !== 'add-chain') throw new Error('payload mismatch');
      // The RPC must serve the chain the site claims. Asked only after the user approved the URL:
      // a page must not make the wallet call arbitrary addresses; its answers stay here.
      const served = await this.eth(payload.chain.rpcUrl)
        .chainId()
        .catch(() => undefined);
      if (served !== BigInt(payload.chain.chainId)) {
        throw new InvalidParamsError(`params[0].rpcUrls[0] does not serve chain ${payload.chain.chainId}; nothing was added`, 'params[0].rpcUrls[0]');
      }
      await this.deps.sites.addChain(payload.chain);
      await this.deps.sites.setActiveChain(payload.chain.chainId);
      this.deps.notifyPages();
      return null;
    });
    return null;
  }

  // ---- EVM signing ----

  private async personalSign(call: Call): Promise<string> {
    const [rawMessage, rawAddress] = positional(call.params, 2, 3);
    const message = messageParam(rawMessage, 'params[0]', MAX_MESSAGE_BYTES);
    const address = evmAddressParam(rawAddress, 'params[1]');
    return (await this.approved(call, async () => {
      const account = await this.actingAccount(call.site, address);
      return {
        summary: { kind: 'sign-message', format: 'personal', ...messageShown(message), digestHex: `0x${toHex(personalMessageDigest(message.bytes))}`, signer: account.cAddress },
        payload: { kind: 'personal-sign', accountId: account.id, messageHex: toHex(message.bytes) },
      };
    }, async (payload) => {
      if (payload.kind !== 'personal-sign') throw new Error('payload mismatch');
      return this.deps.wallet.withEvmSecret(payload.accountId, (secret) => signPersonalMessage(secret, fromHex(payload.messageHex)));
    })) as string;
  }

  private async signTypedData(call: Call): Promise<string> {
    const [rawAddress, rawTyped] = positional(call.params, 2, 2);
    const address = evmAddressParam(rawAddress, 'params[0]');
    const typed = typedDataParam(rawTyped, 'params[1]');
    const domainChain = typed.domain.chainId;
    let chainId: bigint | undefined;
    if (domainChain !== undefined) {
      try {
        chainId = BigInt(domainChain as string | number);
      } catch {
        throw new InvalidParamsError('params[1].domain.chainId is not a number', 'params[1].domain.chainId');
      }
      const active = await this.activeChain();
      if (chainId !== active.chainId) {
        throw new InvalidParamsError(`params[1].domain.chainId is ${chainId}; the wallet is on chain ${active.chainId}`, 'params[1].domain.chainId');
      }
    }
    return (await this.approved(call, async () => {
      const account = await this.actingAccount(call.site, address);
      // Encode once before asking: typed data the library cannot encode is refused, not shown.
      signTypedData(new Uint8Array(32).fill(1), typed);
      return {
        summary: {
          kind: 'sign-typed-data',
          signer: account.cAddress,
          primaryType: typed.primaryType,
          domainJson: JSON.stringify(typed.domain, null, 2),
          messageJson: JSON.stringify(typed.message, null, 2),
          typesJson: JSON.stringify(typed.types, null, 2),
          ...(chainId !== undefined ? { chainId: chainId.toString() } : {}),
        },
        payload: { kind: 'typed-data', accountId: account.id, typed },
      };
    }, async (payload) => {
      if (payload.kind !== 'typed-data') throw new Error('payload mismatch');
      return this.deps.wallet.withEvmSecret(payload.accountId, (secret) => signTypedData(secret, payload.typed));
    })) as string;
  }

  private async sendEvmTransaction(call: Call): Promise<string> {
    const [arg] = positional(call.params, 1, 1);
    const o = objectParam(arg, 'params[0]');
    onlyKeys(o, 'params[0]', ['from', 'to', 'value', 'data', 'input', 'gas', 'gasLimit', 'maxFeePerGas', 'maxPriorityFeePerGas', 'gasPrice', 'nonce', 'chainId', 'type', 'accessList']);
    const from = evmAddressParam(o.from, 'params[0].from');
    if (o.to === undefined || o.to === null) throw new InvalidParamsError('params[0].to is required: XPC Wallet does not deploy contracts', 'params[0].to');
    const to = evmAddressParam(o.to, 'params[0].to');
    const value = o.value === undefined ? 0n : quantityParam(o.value, 'params[0].value');
    if (o.data !== undefined && o.input !== undefined && o.data !== o.input) throw new InvalidParamsError('params[0].data and params[0].input differ', 'params[0].data');
    const rawData = o.data ?? o.input;
    const data = rawData === undefined ? '0x' : hexDataParam(rawData, o.data !== undefined ? 'params[0].data' : 'params[0].input', MAX_CALL_DATA_BYTES);
    const gas = o.gas ?? o.gasLimit;
    const gasLimit = gas === undefined ? undefined : quantityParam(gas, 'params[0].gas', 30_000_000n);
    const siteMaxFee = o.maxFeePerGas === undefined ? undefined : quantityParam(o.maxFeePerGas, 'params[0].maxFeePerGas', MAX_C_BASE_FEE_WEI * 2n + MAX_C_TIP_WEI);
    const siteTip = o.maxPriorityFeePerGas === undefined ? undefined : quantityParam(o.maxPriorityFeePerGas, 'params[0].maxPriorityFeePerGas', MAX_C_TIP_WEI);
    const gasPrice = o.gasPrice === undefined ? undefined : quantityParam(o.gasPrice, 'params[0].gasPrice', MAX_C_BASE_FEE_WEI * 2n + MAX_C_TIP_WEI);
    const siteNonce = o.nonce === undefined ? undefined : quantityParam(o.nonce, 'params[0].nonce', (1n << 64n) - 2n);
    if (o.type !== undefined && o.type !== '0x2' && o.type !== '0x0') throw new InvalidParamsError('params[0].type must be 0x2 (EIP-1559) or 0x0', 'params[0].type');
    if (o.accessList !== undefined && !(Array.isArray(o.accessList) && o.accessList.length === 0)) {
      throw new InvalidParamsError('params[0].accessList is not supported (only an empty list)', 'params[0].accessList');
    }
    const chain = await this.activeChain();
    if (o.chainId !== undefined && chainIdParam(o.chainId, 'params[0].chainId') !== chain.chainId) {
      throw new ProviderError(Code.chainDisconnected, `the transaction is for chain ${BigInt(o.chainId as string)}; the wallet is on chain ${chain.chainId}`);
    }
    return (await this.approved(call, async () => {
      const account = await this.actingAccount(call.site, from);
      const eth = this.eth(chain.rpcUrl);
      const estimateUse = (): Promise<bigint> => eth.estimateGas({ from: account.cAddress, to, value: `0x${value.toString(16)}`, data });
      const [nonce, block, tip, use] = await Promise.all([
        // On the Avalanche C-Chain the wallet chooses the nonce, whatever the site asked
        // (WalletEngine.evmNonce: never past a gap, a refused tx's nonce taken again).
        chain.kind === 'avalanche' ? this.deps.wallet.evmNonceFor(account.id) : (siteNonce ?? eth.getTransactionCount(account.cAddress, 'pending')),
        eth.getBlockByNumber('latest'),
        siteTip ?? eth.maxPriorityFeePerGas(),
        // With the site's own limit, the estimate only informs the approval (what is likely charged).
        gasLimit === undefined ? estimateUse() : estimateUse().catch(() => undefined),
      ]);
      const estimated = gasLimit ?? use!;
      const baseFee = block?.baseFeePerGas;
      if (baseFee === undefined) throw new WalletError('unsupported-chain', 'the chain has no EIP-1559 base fee; XPC Wallet signs only EIP-1559 transactions');
      checkFeeInput('a base fee (wei) of', baseFee, MAX_C_BASE_FEE_WEI);
      checkFeeInput('a priority fee (wei) of', tip, MAX_C_TIP_WEI);
      let fees = eip1559Fees(baseFee, tip);
      if (siteMaxFee !== undefined) fees = { maxFeePerGas: siteMaxFee, maxPriorityFeePerGas: siteTip ?? (tip < siteMaxFee ? tip : siteMaxFee) };
      else if (gasPrice !== undefined) fees = { maxFeePerGas: gasPrice, maxPriorityFeePerGas: tip < gasPrice ? tip : gasPrice };
      if (fees.maxPriorityFeePerGas > fees.maxFeePerGas) throw new InvalidParamsError('params[0].maxPriorityFeePerGas is above maxFeePerGas', 'params[0].maxPriorityFeePerGas');
      const tx = { chainId: chain.chainId, nonce, to, value, data, gasLimit: estimated, ...fees };
      const approvedTx = Object.fromEntries(Object.entries(tx).map(([k, v]) => [k, String(v)])) as Record<keyof EvmTxRequest, string>;
      return {
        summary: {
          kind: 'evm-tx',
          chainName: chain.name,
          chainId: chain.chainId.toString(),
          symbol: chain.symbol,
          from: account.cAddress,
          to,
          valueWei: value.toString(),
          data,
          nonce: nonce.toString(),
          gasLimit: estimated.toString(),
          maxFeePerGas: fees.maxFeePerGas.toString(),
          maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
          ...(use !== undefined ? { estimatedGasUse: use.toString() } : {}),
          expectedGas: chargedGas(use ?? 0n, estimated).toString(),
          baseFeePerGas: baseFee.toString(),
          unsignedHex: unsignedEvmTxHex(evmRequestOf(approvedTx)),
        },
        payload: { kind: 'evm-tx', accountId: account.id, rpcUrl: chain.rpcUrl, activity: chain.kind === 'avalanche', tx: approvedTx },
      };
    }, async (payload) => {
      if (payload.kind !== 'evm-tx') throw new Error('payload mismatch');
      const t = payload.tx;
      // Exactly the approved fields (the bytes the user was shown): nothing is re-estimated after the user said yes.
      const request = evmRequestOf(t);
      const signed = await this.deps.wallet.withEvmSecret(payload.accountId, (secret) => signEvmTx(request, secret));
      if (payload.activity) {
        // The Avalanche C-Chain: kept in the outbox, so a lost answer never becomes a second payment.
        const item: ActivityItem = { txID: signed.hash, chain: 'C', kind: 'send', status: 'pending', amount: t.value, createdAt: Date.now() };
        await this.deps.wallet.sendSiteTx(payload.accountId, { chain: 'C', txID: signed.hash, signedBytes: fromHex(signed.rawTx.slice(2)) }, item);
        return signed.hash;
      }
      const hash = await this.eth(payload.rpcUrl).sendRawTransaction(signed.rawTx);
      if (hash.toLowerCase() !== signed.hash.toLowerCase()) throw new WalletError('node-response', `the node reports hash ${hash} for transaction ${signed.hash}`);
      return signed.hash;
    })) as string;
  }

  private async read(method: string, params: unknown): Promise<unknown> {
    const list = positional(params, 0, MAX_READ_PARAMS);
    if (JSON.stringify(list).length > MAX_CALL_DATA_BYTES * 2 + 1024) throw new InvalidParamsError('params are too large', 'params');
    const chain = await this.activeChain();
    return this.eth(chain.rpcUrl).ethCall(method, list);
  }

  // ---- X/P site methods ----

  private async avalancheOnly(): Promise<void> {
    const chain = await this.activeChain();
    if (chain.kind !== 'avalanche') {
      throw new ProviderError(Code.chainDisconnected, `X/P methods need an Avalanche network; the wallet is on ${chain.name} (EVM only)`);
    }
  }

  private async xpAddresses(site: Site): Promise<{ X: string; P: string; C: string; CBech32: string }> {
    await this.avalancheOnly();
    const account = await this.actingAccount(site);
    return { X: account.xAddress, P: account.pAddress, C: account.cAddress, CBech32: account.cBech32Address };
  }

  private siteTxParams(params: unknown): { chain: ChainName; bytes: Uint8Array } {
    const [arg] = positional(params, 1, 1);
    const o = objectParam(arg, 'params[0]');
    onlyKeys(o, 'params[0]', ['transactionHex', 'chainAlias']);
    return { chain: chainAliasParam(o.chainAlias, 'params[0].chainAlias', ['X', 'P', 'C']), bytes: txHexParam(o.transactionHex, 'params[0].transactionHex') };
  }

  /**
   * Signs (and, for 'send' when the wallet's signatures complete it, issues) a tx the site built.
   * Answer: { txID } once issued, else { signedTransactionHex, txID, complete }.
   */
  private async siteTx(call: Call, action: 'sign' | 'send', p: { chain: ChainName; bytes: Uint8Array }): Promise<unknown> {
    await this.avalancheOnly();
    return this.approved(call, async () => {
      const account = await this.actingAccount(call.site);
      const engine = await this.deps.wallet.siteEngine(account.id);
      const ext = await engine.resolveExternal(p.chain, p.bytes);
      if (!engine.signsAnyOf(ext)) throw new InvalidParamsError('params[0].transactionHex: no key of this account signs any input of this transaction', 'params[0].transactionHex');
      const complete = engine.signExternal(ext).complete;
      const base = await this.deps.wallet.approvalSummaryForTx(ext.tx, ext.spent, ext.unsignedBytes);
      return {
        summary: { ...base, action, complete },
        payload: { kind: 'site-tx', accountId: account.id, chain: p.chain, txHex: toHex(p.bytes), action },
      };
    }, async (payload) => {
      if (payload.kind !== 'site-tx') throw new Error('payload mismatch');
      const engine = await this.deps.wallet.siteEngine(payload.accountId);
      const ext: ExternalTx = await engine.resolveExternal(payload.chain, fromHex(payload.txHex));
      const signed = engine.signExternal(ext);
      const hex = `0x${toHex(signed.signedBytes)}`;
      if (payload.action === 'sign' || !signed.complete) {
        await this.deps.wallet.checkSiteSigning(payload.accountId, payload.chain, signed.signedBytes);
        return { signedTransactionHex: hex, txID: signed.txID, complete: signed.complete };
      }
      await this.deps.wallet.sendSiteTx(payload.accountId, { chain: payload.chain, txID: signed.txID, signedBytes: signed.signedBytes }, { txID: signed.txID, chain: payload.chain, kind: activityKind(ext), status: 'pending', createdAt: Date.now() });
      return { txID: signed.txID };
    });
  }

  private siteMessageParams(params: unknown): { chain: 'X' | 'P'; message: ReturnType<typeof messageParam> } {
    const [arg] = positional(params, 1, 1);
    const o = objectParam(arg, 'params[0]');
    onlyKeys(o, 'params[0]', ['message', 'chainAlias']);
    return {
      chain: chainAliasParam(o.chainAlias ?? 'X', 'params[0].chainAlias', ['X', 'P']) as 'X' | 'P',
      message: messageParam(o.message, 'params[0].message', MAX_MESSAGE_BYTES),
    };
  }

  /** The Avalanche signed-message format with the account's X/P key; answers { signature, address }. */
  private async avalancheMessage(call: Call, p: { chain: 'X' | 'P'; message: ReturnType<typeof messageParam> }): Promise<{ signature: string; address: string }> {
    await this.avalancheOnly();
    return (await this.approved(call, async () => {
      const account = await this.actingAccount(call.site);
      return {
        summary: {
          kind: 'sign-message',
          format: 'avalanche',
          ...messageShown(p.message),
          digestHex: `0x${toHex(avalancheMessageDigest(p.message.bytes))}`,
          signer: p.chain === 'X' ? account.xAddress : account.pAddress,
        },
        payload: { kind: 'avalanche-message', accountId: account.id, messageHex: toHex(p.message.bytes) },
      };
    }, async (payload) => {
      if (payload.kind !== 'avalanche-message') throw new Error('payload mismatch');
      const hrp = (await this.deps.wallet.siteNetwork()).network.hrp;
      return this.deps.wallet.withXpKey(payload.accountId, (key) => ({
        signature: signAvalancheMessage(key.secret, fromHex(payload.messageHex)),
        address: formatAddress(p.chain, hrp, key.shortId),
      }));
    })) as { signature: string; address: string };
  }

  // ---- Core's avalanche_* names for the same requests ----

  private async coreAccounts(site: Site): Promise<unknown[]> {
    await this.avalancheOnly();
    const accounts = await this.connectedAccounts(site);
    return accounts.map((a, i) => ({
      index: a.index ?? i,
      name: a.name,
      active: i === 0,
      addressC: a.cAddress,
      addressAVM: a.xAddress,
      addressPVM: a.pAddress,
      addressCoreEth: a.cBech32Address,
    }));
  }

  private async coreSendTransaction(call: Call, action: 'sign' | 'send'): Promise<unknown> {
    const [arg] = positional(call.params, 1, 1);
    const o = objectParam(arg, 'params[0]');
    // Core's extra fields are accepted and not used: the wallet reads the UTXOs from its own node
    // and signs with every key of the account it knows, whatever indices a site names.
    onlyKeys(o, 'params[0]', ['transactionHex', 'chainAlias', 'externalIndices', 'internalIndices', 'utxos', 'feeTolerance']);
    const p = { chain: chainAliasParam(o.chainAlias, 'params[0].chainAlias', ['X', 'P', 'C']), bytes: txHexParam(o.transactionHex, 'params[0].transactionHex') };
    const result = (await this.siteTx(call, action, p)) as { txID?: string; signedTransactionHex?: string };
    // Core answers a send with the tx ID alone and a sign with the signed hex.
    if (action === 'send' && result.signedTransactionHex === undefined) return result.txID;
    return action === 'send' ? result : { signedTransactionHex: result.signedTransactionHex };
  }

  private async coreSignMessage(call: Call): Promise<string> {
    const list = positional(call.params, 1, 2);
    const message = messageParam(list[0], 'params[0]', MAX_MESSAGE_BYTES);
    const result = await this.avalancheMessage(call, { chain: 'X', message });
    return result.signature;
  }

  // ---- approvals and the request log ----

  /**
   * Asks the user (or picks up the answer to an earlier ask of the same request), then runs the
   * approved payload once. `prepare` builds what the window shows and what will be done; it runs
   * only when no approval exists yet for this request.
   */
  private async approved(
    call: Call,
    prepare: () => Promise<{ summary: ApprovalSummary; payload: Payload }>,
    act: (payload: Payload) => Promise<unknown>,
  ): Promise<unknown> {
    const logged = await this.logged(call.requestId);
    if (logged) return this.replay(logged);
    const found = await this.deps.approvals.findByRequest(call.requestId);
    let entry: PendingApproval;
    let approved: boolean;
    if (found) {
      entry = found.entry;
      if (found.decision) {
        approved = found.decision.approved;
      } else {
        // Resumed after a worker restart: the window may have gone with it.
        await this.openWindow().catch(() => undefined);
        approved = await this.deps.approvals.waitFor(entry.id);
      }
    } else {
      this.checkCooldown(call.site);
      // A site that is not connected cannot make the wallet ask for the password to sign for it.
      if (!CONNECTION_FREE_METHODS.has(call.method)) await this.requireConnection(call.site);
      await this.unlocked(call.site);
      const { summary, payload } = await prepare();
      entry = await this.deps.approvals.add({
        origin: call.site.origin,
        ...(call.site.frameOrigin ? { frameOrigin: call.site.frameOrigin } : {}),
        method: call.method,
        params: payload,
        summary,
        requestId: call.requestId,
      });
      try {
        await this.openWindow();
      } catch (e) {
        // Nobody can answer a request whose window did not open: it must not block the site.
        await this.deps.approvals.decide(entry.id, false).catch(() => undefined);
        throw e;
      }
      approved = await this.deps.approvals.waitFor(entry.id);
    }
    if (!approved) throw new ProviderError(Code.userRejected, 'the user rejected the request');
    if (!this.deps.session.isUnlocked()) await this.unlocked(call.site);
    await this.log(call.requestId, { state: 'running', at: Date.now() });
    let response: ProviderResponse;
    try {
      response = { ok: true, result: await act(entry.params as Payload) };
    } catch (e) {
      response = { ok: false, error: this.errorInfo(e, call.method) };
    }
    // What was done is answered even when recording it fails (a full storage.session).
    await this.log(call.requestId, { state: 'done', response, at: Date.now() }).catch((e: unknown) => {
      this.deps.log?.(`could not record a site request's outcome: ${(e as Error).message}`);
    });
    return this.replay({ state: 'done', response, at: 0 });
  }

  private replay(logged: LoggedRequest): unknown {
    if (logged.state === 'running') {
      throw new ProviderError(Code.internal, 'the wallet stopped while it acted on this request; check its activity before asking again');
    }
    const r = logged.response!;
    if (r.ok) return r.result;
    throw new ProviderError(r.error.code, r.error.message, r.error.data);
  }

  private async logged(requestId: string): Promise<LoggedRequest | undefined> {
    const all = ((await this.deps.sessionArea.get([REQUEST_LOG_KEY]))[REQUEST_LOG_KEY] ?? {}) as Record<string, LoggedRequest>;
    return Object.hasOwn(all, requestId) ? all[requestId] : undefined;
  }

  private log(requestId: string, entry: LoggedRequest): Promise<void> {
    const run = this.#logTail.then(async () => {
      const all = ((await this.deps.sessionArea.get([REQUEST_LOG_KEY]))[REQUEST_LOG_KEY] ?? {}) as Record<string, LoggedRequest>;
      all[requestId] = entry;
      const kept = Object.entries(all).sort((a, b) => b[1].at - a[1].at).slice(0, MAX_LOGGED_REQUESTS);
      await this.deps.sessionArea.set({ [REQUEST_LOG_KEY]: Object.fromEntries(kept) });
    });
    this.#logTail = run.catch(() => undefined);
    return run;
  }
}

/** How a message to sign is shown: as text or hex, and always as its exact bytes. */
function messageShown(message: { bytes: Uint8Array; encoding: 'text' | 'hex'; shown: string }) {
  return { encoding: message.encoding, message: message.shown, bytesHex: `0x${toHex(message.bytes)}` };
}

function activityKind(ext: ExternalTx): ActivityItem['kind'] {
  if (ext.tx.kind === 'ExportTx') return 'export';
  if (ext.tx.kind === 'ImportTx') return 'import';
  if (ext.tx.kind === 'CreateAssetTx') return 'create-asset';
  if (ext.tx.kind === 'OperationTx') return 'mint';
  return 'send';
}

