// Site requests: the background half of the EIP-1193 provider (src/inpage) and of our X/P site
// methods. Every request arrives through the content script with the site it came from (the
// browser's word on the sender, never the page's), is validated here, and every signature waits
// for the user's approval in the approval window, which shows what will be signed.
//
// Requests survive a stopped worker: the approval queue and a short request log live in
// storage.session, and the content script re-sends an unanswered request with the same ID. A
// re-sent request picks up its approval (waiting or decided) instead of asking again, and one
// that already ran answers from the log instead of running twice.
import { ProviderErrorCode as Code, type ProviderResponse, type ProviderState, PROVIDER_CHANNEL, STATE_METHOD } from '../shared/provider-protocol.js';
import { type Asker, framesKeyOf, limitKeyOf, requesterOf } from './approvals.js';
import { type Call, type ProviderDeps, ProviderError, providerErrorInfo, type Site } from './provider-context.js';
import { positional } from './provider-params.js';
import { SiteAvalanche } from './site-avalanche.js';
import { SiteChains } from './site-chains.js';
import { SiteConnection } from './site-connection.js';
import { READ_METHODS, readParams, SiteEvm } from './site-evm.js';
import { SiteGate } from './site-gate.js';
import { SiteTokens } from './site-tokens.js';

export { ProviderError, type ProviderDeps, type Site, type SiteWallet } from './provider-context.js';

const MAX_REQUEST_ID = 100;

/**
 * The key a request is known by in this worker, in the request log and in the approval queue: the
 * relay's ID, scoped to the site the browser says sent it (top origin, frame origin). The relay
 * draws the ID, so no page can pick another's today; scoped, an ID that did reach the wallet from
 * another site could still never join that site's running request, replay its answer or ride its
 * approval.
 */
export function requestKeyOf(site: Site, requestId: string): string {
  return JSON.stringify([site.origin, site.frameOrigin ?? null, requestId]);
}
/**
 * Requests one site (registrable domain: all its subdomains, frames and tabs) may have running at
 * once, and one page's frames of other sites together (framesKeyOf). Checked before anything runs,
 * so a page cannot keep the node busy through many frames. No cap over all sites: two pages could
 * then take every place from the user's other sites.
 */
export const MAX_RUNNING_PER_SITE = 64;

/**
 * Node reads (READ_METHODS, no connection needed) one site, or one page's frames of other sites,
 * has on the wire at once; up to MAX_READS_WAITING others wait their turn, apart from the
 * requests running (MAX_RUNNING_PER_SITE), so a dApp's bursts of reads never crowd out its
 * transactions. An answer may be megabytes (rpc.ts MAX_ANSWER_BYTES): 64 at once, parsed and
 * copied, could exhaust the worker's memory.
 */
export const MAX_READS_AT_ONCE = 8;
export const MAX_READS_WAITING = 64;

/**
 * The provider's entry point: checks a request's envelope, joins a duplicate to the request
 * already running, and routes each method to its part (connection and chains, EVM, X/P).
 */
export class ProviderService {
  /** Requests running in this worker, by requestKeyOf: a duplicate joins the first. */
  #inflight = new Map<string, Promise<ProviderResponse>>();
  /** Site (limitKeyOf) or a page's frames (framesKeyOf) → how many of its requests run now. */
  #runningPerSite = new Map<string, number>();
  /** Reads on the wire per site or page's frames (MAX_READS_AT_ONCE), and those waiting their turn. */
  #readTurns = new Map<string, { running: number; waiting: (() => void)[] }>();
  readonly #gate: SiteGate;
  private readonly conn: SiteConnection;
  private readonly chains: SiteChains;
  private readonly evm: SiteEvm;
  private readonly avalanche: SiteAvalanche;
  private readonly tokens: SiteTokens;

  constructor(private readonly deps: ProviderDeps) {
    this.#gate = new SiteGate(deps);
    this.conn = new SiteConnection(deps, this.#gate);
    this.chains = new SiteChains(deps, this.#gate, this.conn);
    this.evm = new SiteEvm(deps, this.#gate, this.conn);
    this.avalanche = new SiteAvalanche(deps, this.#gate, this.conn);
    this.tokens = new SiteTokens(deps, this.#gate, this.conn);
  }

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
    const call: Call = { requestId: requestKeyOf(site, m.requestId), method: m.method, params: m.params, site };
    const running = this.#inflight.get(call.requestId);
    if (running) return running;
    // Reads are held by their own turns (#inTurn), not by the running places.
    const keys = READ_METHODS.has(call.method) ? [] : [limitKeyOf(site), framesKeyOf(site) ?? limitKeyOf(site)];
    if (keys.some((k) => (this.#runningPerSite.get(k) ?? 0) >= MAX_RUNNING_PER_SITE)) {
      return { ok: false, error: { code: Code.limitExceeded, message: `at most ${MAX_RUNNING_PER_SITE} requests of one site, or of one page's frames, may run at once` } };
    }
    for (const k of new Set(keys)) this.#runningPerSite.set(k, (this.#runningPerSite.get(k) ?? 0) + 1);
    // A site's request is never the user's activity, but it finds a wallet idle past its lock
    // locked (the alarm may not have run yet): it is answered as the locked wallet it is.
    const answer = this.lockIfIdle().then(() => this.run(call)).then(
      (result): ProviderResponse => ({ ok: true, result }),
      (e: unknown): ProviderResponse => ({ ok: false, error: providerErrorInfo(e, call.method, this.deps.log) }),
    );
    this.#inflight.set(call.requestId, answer);
    try {
      return await answer;
    } finally {
      this.#inflight.delete(call.requestId);
      for (const k of new Set(keys)) {
        const left = (this.#runningPerSite.get(k) ?? 1) - 1;
        if (left > 0) this.#runningPerSite.set(k, left);
        else this.#runningPerSite.delete(k);
      }
    }
  }

  /** Runs `read` once fewer than MAX_READS_AT_ONCE of `key` are on the wire. */
  async #inTurn<T>(key: string, read: () => Promise<T>): Promise<T> {
    let turns = this.#readTurns.get(key);
    if (!turns) this.#readTurns.set(key, (turns = { running: 0, waiting: [] }));
    if (turns.running < MAX_READS_AT_ONCE) turns.running++;
    else if (turns.waiting.length >= MAX_READS_WAITING) {
      throw new ProviderError(Code.limitExceeded, `at most ${MAX_READS_AT_ONCE + MAX_READS_WAITING} reads of one site, or of one page's frames, may run or wait at once`);
    } else await new Promise<void>((go) => turns.waiting.push(go));
    try {
      return await read();
    } finally {
      // The place passes to the next waiting read, or is given up.
      const next = turns.waiting.shift();
      if (next) next();
      else if (--turns.running === 0) this.#readTurns.delete(key);
    }
  }

  /** The approval window was closed (SiteGate.cancelWaits). */
  cancelWaits(askers?: readonly Asker[]): void {
    this.#gate.cancelWaits(askers);
  }

  /**
   * The approval window was closed: each request it could show (asked before `shownBefore`) is
   * answered no, its sites held off first, so an ask of theirs being prepared meanwhile is refused,
   * not shown next. Whether requests remain (one asked as it closed).
   */
  async windowClosed(shownBefore = Infinity): Promise<boolean> {
    const { approvals } = this.deps;
    this.cancelWaits((await approvals.list()).filter((p) => p.createdAt < shownBefore));
    await approvals.rejectAll(shownBefore);
    return (await approvals.list()).length > 0;
  }

  /** The window's own "no" as it closes: its site's cool-down (SiteGate.holdOff), no wait ended. */
  holdOff(askers: readonly Asker[]): void {
    this.#gate.holdOff(askers);
  }

  sitesWaitingForUnlock(): string[] {
    return this.#gate.sitesWaitingForUnlock();
  }

  /** What a site sees of the wallet; the lock state only once it is connected. */
  siteState(site: Site): Promise<ProviderState> {
    return this.conn.siteState(site);
  }

  /** Asked only when it may be due, so a site's requests do not queue behind the session's work (a password check). */
  private async lockIfIdle(): Promise<void> {
    if (this.deps.session.idleMaybeDue()) await this.deps.session.checkIdle();
  }

  private async run(call: Call): Promise<unknown> {
    const { method } = call;
    switch (method) {
      case STATE_METHOD:
        return this.conn.siteState(call.site);
      case 'eth_chainId':
        positional(call.params, 0, 0);
        return `0x${(await this.conn.activeChain(call.site)).chainId.toString(16)}`;
      case 'net_version':
        positional(call.params, 0, 0);
        return (await this.conn.activeChain(call.site)).chainId.toString();
      case 'eth_accounts':
        positional(call.params, 0, 0);
        return (await this.conn.connectedAccounts(call.site)).map((a) => a.cAddress);
      case 'eth_coinbase':
        // As MetaMask answers it: eth_accounts' first entry, or null.
        positional(call.params, 0, 0);
        return (await this.conn.connectedAccounts(call.site))[0]?.cAddress ?? null;
      case 'eth_requestAccounts':
        positional(call.params, 0, 0);
        return (await this.conn.connect(call)).map((a) => a.cAddress);
      case 'wallet_requestPermissions':
        this.conn.permissionsParam(call.params);
        await this.conn.connect(call);
        return this.conn.permissions(call.site);
      case 'wallet_getPermissions':
        positional(call.params, 0, 0);
        return this.conn.permissions(call.site);
      case 'wallet_revokePermissions':
        this.conn.permissionsParam(call.params);
        if (await this.deps.sites.revoke(requesterOf(call.site))) this.deps.notifyPages();
        return null;
      case 'wallet_switchEthereumChain':
        return this.chains.switchChain(call);
      case 'wallet_addEthereumChain':
        return this.chains.addChain(call);
      case 'personal_sign':
        return this.evm.personalSign(call);
      case 'eth_signTypedData_v4':
        return this.evm.signTypedData(call);
      case 'eth_signTypedData_v3':
        return this.evm.signTypedData(call, true);
      case 'personal_ecRecover':
        return this.evm.ecRecover(call);
      case 'eth_sendTransaction':
        return this.evm.sendEvmTransaction(call);
      case 'wallet_watchAsset':
        return this.tokens.watchAsset(call);
      case 'xpc_getAddresses':
        positional(call.params, 0, 0);
        return this.avalanche.xpAddresses(call.site);
      case 'xpc_signTransaction':
        return this.avalanche.siteTx(call, 'sign', this.avalanche.siteTxParams(call.params));
      case 'xpc_sendTransaction':
        return this.avalanche.siteTx(call, 'send', this.avalanche.siteTxParams(call.params));
      case 'xpc_signMessage':
        return this.avalanche.avalancheMessage(call, this.avalanche.siteMessageParams(call.params));
      case 'avalanche_getAccounts':
        positional(call.params, 0, 0);
        return this.avalanche.coreAccounts(call.site);
      case 'avalanche_sendTransaction':
        return this.avalanche.coreSendTransaction(call, 'send');
      case 'avalanche_signTransaction':
        return this.avalanche.coreSendTransaction(call, 'sign');
      case 'avalanche_signMessage':
        return this.avalanche.coreSignMessage(call);
      case 'wallet_sendTransaction':
        // viem retries a failed eth_sendTransaction under this name and reports the first error
        // only when this one is "method not found"; 4200 here would hide the real reason.
        throw new ProviderError(Code.methodNotFound, 'The method "wallet_sendTransaction" does not exist / is not available; use eth_sendTransaction');
      default:
        if (READ_METHODS.has(method)) {
          const list = readParams(call.params);
          return this.#inTurn(framesKeyOf(call.site) ?? limitKeyOf(call.site), () => this.evm.read(call.site, method, list));
        }
        // Worded as MetaMask words it: ethers recognises "does not exist" as an unsupported operation.
        throw new ProviderError(Code.unsupportedMethod, `The method "${method.slice(0, 100)}" does not exist / is not available in XPC Wallet`);
    }
  }
}
