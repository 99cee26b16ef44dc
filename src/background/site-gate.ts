// The gate every site request that needs the user passes: waiting for an unlock (one shared wait,
// a bounded number of waiters), a cool-down after the user closed the window on a site, the
// approval itself (picked up again after a worker restart), and a short log in storage.session so
// a re-sent request answers from what was done instead of running twice.
import { ProviderErrorCode as Code, type ProviderResponse } from '../shared/provider-protocol.js';
import { type Asker, framesKeyOf, limitKeyOf, pageFramesKeyOf, type PendingApproval, requesterOf, type Reservation } from './approvals.js';
import { registrableDomain } from './site-domain.js';
import { isLoggedRequest, type LoggedRequest, withLoggedRequest } from './site-request-log.js';
import { isLockedError } from '../core/errors.js';
import { type Call, notConnectedError, type Payload, type PayloadOf, type ProviderDeps, ProviderError, providerErrorInfo, type Site } from './provider-context.js';
import type { ApprovalSummary } from '../shared/messages.js';

const REQUEST_LOG_KEY = 'xpc.siteRequests';
const UNLOCK_POLL_MS = 300;
/** A page may wait this long for the user to unlock; then the request is refused. */
const UNLOCK_WAIT_MS = 10 * 60_000;
/** Requests that may wait for an unlock at once; more are refused (a page cannot pile them up). */
const MAX_UNLOCK_WAITERS = 20;
/** Of those, at most this many from one site (its registrable domain), and from a page's frames of other sites together: one page cannot take every place. */
const MAX_UNLOCK_WAITERS_PER_SITE = 5;
/** After the user closed the approval window, sites that had requests in it wait this long. */
const CLOSED_COOLDOWN_MS = 30_000;
/**
 * A site the user said "no" to this many times in a row, each time to a request it made this soon
 * after the "no" before, is a page asking in a loop: its next such ask waits as after a close.
 */
const QUICK_ASK_MS = 2_000;
const QUICK_NOES_IN_A_ROW = 3;
const CLOSED = 'the user closed the wallet window';
const CLOSED_WHY = `${CLOSED}; try again in a little while`;
const LOOP_WHY = 'the user said no to this site several times in a row, each time it asked again at once; try again in a little while';
/** Approval requests a site may make before it is connected; every other one needs a connection. */
const CONNECTION_FREE_METHODS = new Set(['eth_requestAccounts', 'wallet_requestPermissions', 'wallet_switchEthereumChain', 'wallet_addEthereumChain']);

/** Adds `by` to `key`'s count in `counts`; a count of none is no entry. */
function count(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}

/** A request as the approval queue takes it. */
const askingOf = (call: Call) => ({ origin: call.site.origin, ...(call.site.frameOrigin ? { frameOrigin: call.site.frameOrigin } : {}), method: call.method });

/** The runs of "no"s an ask counts in: its site's, and its page's frames of other sites together. */
function noKeysOf(site: Site): string[] {
  const frames = framesKeyOf(site);
  return frames ? [limitKeyOf(site), frames] : [limitKeyOf(site)];
}

export class SiteGate {
  #unlockWait: { promise: Promise<void>; reject: (e: ProviderError) => void; waiters: number } | null = null;
  #logTail: Promise<unknown> = Promise.resolve();
  /** Site (registrable domain) → time until which its approval requests are refused (the user closed the window on them). */
  #cooldown = new Map<string, { until: number; why: string }>();
  /** Requester → how many of its requests wait for the wallet to be unlocked. */
  #unlockWaiters = new Map<string, number>();
  /** framesKeyOf (or '' for a page's own site) → how many of their requests wait for the unlock. */
  #framesWaiting = new Map<string, number>();
  /** pageFramesKeyOf the page of each request waiting for the unlock → how many: a close holds off those pages' frames. */
  #pagesWaiting = new Map<string, number>();
  /** Site → when the user last said "no" to it, and how many "no"s in a row answered asks made right after the one before. */
  #noes = new Map<string, { at: number; run: number }>();

  constructor(private readonly deps: ProviderDeps) {}

  /**
   * The approval window was closed: whoever waits for an unlock gets "rejected by the user", and
   * the sites that had requests waiting (`askers`, and those waiting for the unlock) are refused
   * for a while, and so are the frames of other sites in their pages (framesKeyOf), so a page
   * cannot reopen the window in a loop, not even through frames of ever new sites.
   */
  cancelWaits(askers: readonly Asker[] = []): void {
    // Those waiting for the unlock are known by their own origin, and their pages' frames by framesKeyOf.
    this.holdOff(askers, [...[...this.#unlockWaiters.keys()].map(registrableDomain), ...this.#pagesWaiting.keys()]);
    this.#unlockWait?.reject(new ProviderError(Code.userRejected, CLOSED));
    this.#unlockWait = null;
  }

  /** The cool-down of a closed window alone, for `askers` (and sites or frames keyed `more`): nobody's wait is ended. */
  holdOff(askers: readonly Asker[], more: readonly string[] = []): void {
    const until = (this.deps.now ?? Date.now)() + CLOSED_COOLDOWN_MS;
    // A page asking itself: its frames of other sites too (the page could ask through them at once).
    for (const key of [...askers.flatMap((a) => [limitKeyOf(a), pageFramesKeyOf(a.origin)]), ...more]) if (key) this.#cooldown.set(key, { until, why: CLOSED_WHY });
  }

  /** The sites whose requests wait for the wallet to be unlocked (the unlock form names them). */
  sitesWaitingForUnlock(): string[] {
    return [...this.#unlockWaiters.keys()];
  }

  /** `accountId`: the account an approved request acts for, which the site must still be connected to. */
  async requireConnection(site: Site, accountId?: unknown): Promise<void> {
    const permission = await this.deps.sites.permission(requesterOf(site));
    if (!permission) throw notConnectedError();
    if (typeof accountId === 'string' && !permission.accountIds.includes(accountId)) {
      throw new ProviderError(Code.unauthorized, 'this site is no longer connected to the account this request was approved for; nothing was signed: ask again');
    }
  }

  /**
   * Resolves once the wallet is unlocked, asking the user to unlock in the approval window. All
   * waiting requests share one wait (one timer, one window); the window names the sites waiting.
   */
  async unlocked(site: Site): Promise<void> {
    if (this.deps.session.isUnlocked()) return;
    // No wallet: no window (it could only show an unlock form that cannot work), no waiting.
    if ((await this.deps.walletExists?.()) === false) throw new ProviderError(Code.unauthorized, 'XPC Wallet is not set up yet: create or import a wallet in it first');
    this.checkCooldown(site);
    const requester = requesterOf(site);
    const key = limitKeyOf(site);
    const frames = framesKeyOf(site) ?? '';
    const fromSite = [...this.#unlockWaiters].reduce((n, [r, count]) => (registrableDomain(r) === key ? n + count : n), 0);
    // The site's share, and that of its page's frames of other sites together (framesKeyOf).
    const full = fromSite >= MAX_UNLOCK_WAITERS_PER_SITE ? key : frames && (this.#framesWaiting.get(frames) ?? 0) >= MAX_UNLOCK_WAITERS_PER_SITE ? frames : undefined;
    if (full) throw new ProviderError(Code.resourceUnavailable, `${full} already has ${MAX_UNLOCK_WAITERS_PER_SITE} requests waiting for the wallet to be unlocked`);
    count(this.#unlockWaiters, requester, 1);
    count(this.#framesWaiting, frames, 1);
    count(this.#pagesWaiting, pageFramesKeyOf(site.origin), 1);
    try {
      await this.waitForUnlock();
    } finally {
      count(this.#unlockWaiters, requester, -1);
      count(this.#framesWaiting, frames, -1);
      count(this.#pagesWaiting, pageFramesKeyOf(site.origin), -1);
    }
  }

  private async waitForUnlock(): Promise<void> {
    // Its own wait, not the field: a window closed while it opens clears the field and rejects this one.
    let wait = this.#unlockWait;
    if (!wait) {
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
      wait = this.#unlockWait = { promise, reject, waiters: 0 };
      try {
        await this.openWindow();
      } catch (e) {
        // No window, so no unlock to wait for: later requests try to open one again.
        reject(e as ProviderError);
        throw e;
      }
    }
    if (wait.waiters >= MAX_UNLOCK_WAITERS) throw new ProviderError(Code.resourceUnavailable, 'too many requests are waiting for the wallet to be unlocked');
    wait.waiters++;
    try {
      await wait.promise;
    } finally {
      wait.waiters--;
    }
  }

  async openWindow(): Promise<void> {
    try {
      await this.deps.openApprovalWindow();
    } catch (e) {
      this.deps.log?.(`could not open the approval window: ${(e as Error).message}`);
      throw new ProviderError(Code.internal, 'the wallet could not open its window');
    }
  }

  private checkCooldown(site: Site): void {
    for (const key of [limitKeyOf(site), framesKeyOf(site)]) {
      const held = key === undefined ? undefined : this.#cooldown.get(key);
      if (held === undefined) continue;
      if ((this.deps.now ?? Date.now)() < held.until) throw new ProviderError(Code.userRejected, held.why);
      this.#cooldown.delete(key!);
    }
  }

  /**
   * Waits for the unlock before an ask, holding its place in the approval queue meanwhile (the
   * place is returned, for the ask to take: undefined when the wallet was unlocked). An ask the
   * gate or the queue would refuse while unlocked (a cool-down, a loop, one of the site's for the
   * same method waiting, the site's, its page's frames' or the queue's places taken) is refused
   * alike, and first, while locked: a page cannot tell the lock state by how it is answered.
   */
  async unlockedToAsk(call: Call): Promise<Reservation | undefined> {
    if (this.deps.session.isUnlocked()) return undefined;
    this.checkCooldown(call.site);
    this.checkAskingLoop(call.site, (this.deps.now ?? Date.now)());
    const place = await this.deps.approvals.reserve(askingOf(call));
    try {
      await this.unlocked(call.site);
    } catch (e) {
      place.release();
      throw e;
    }
    return place;
  }

  /**
   * For a request answered without asking the user (a switch to a chain the wallet does not know):
   * refused first as an ask of it would be now (a cool-down, a loop, one of the site's for the same
   * method waiting, a full queue), so the answer does not tell which chains the wallet knows.
   */
  async refuseAsAnAsk(call: Call): Promise<void> {
    this.checkCooldown(call.site);
    this.checkAskingLoop(call.site, (this.deps.now ?? Date.now)());
    (await this.deps.approvals.reserve(askingOf(call))).release();
  }

  /** Whether an ask made at `askedAt` came right after the site's last "no" (not before it). */
  private quickAfterNo(key: string, askedAt: number): boolean {
    const last = this.#noes.get(key);
    return last !== undefined && askedAt >= last.at && askedAt - last.at < QUICK_ASK_MS;
  }

  /**
   * An ask right after the last of QUICK_NOES_IN_A_ROW quick "no"s starts the cool-down, whatever it
   * asks. Counted per site, and per page's frames of other sites together: frames of ever new
   * sites are one run.
   */
  private checkAskingLoop(site: Site, askedAt: number): void {
    for (const key of noKeysOf(site)) {
      if (!this.quickAfterNo(key, askedAt) || this.#noes.get(key)!.run < QUICK_NOES_IN_A_ROW) continue;
      this.#noes.delete(key);
      this.#cooldown.set(key, { until: askedAt + CLOSED_COOLDOWN_MS, why: LOOP_WHY });
      throw new ProviderError(Code.userRejected, LOOP_WHY);
    }
  }

  /**
   * Asks the user (or picks up the answer to an earlier ask of the same request), then runs the
   * approved payload once, if it is of `kind`. `prepare` builds what the window shows and what will
   * be done; it runs only when no approval exists yet for this request, and only once the queue's
   * limits have taken it (its node reads must not be a way around them).
   */
  async approved<K extends Payload['kind']>(call: Call, kind: K, prepare: () => Promise<{ summary: ApprovalSummary; payload: PayloadOf<NoInfer<K>> }>, act: (payload: PayloadOf<NoInfer<K>>) => Promise<unknown>, held?: Reservation): Promise<unknown> {
    try {
      return await this.#approved(call, kind, prepare, act, held);
    } finally {
      // `held`: the place an earlier wait for the unlock kept (unlockedToAsk); given up unless taken.
      held?.release();
    }
  }

  /** `prepare` run unlocked. Refused by the keyring as the wallet locked under it, it waits for the unlock again (place kept,
   * cool-down and connection checked again, as for a new ask), or, unlocked again already, runs again (twice at most: nothing
   * spins), rather than tell a page "locked"; any other failure, the gate's own refusals too, answers the page. A window the
   * user closed on the site meanwhile holds the ask off, a lock between or not. */
  private async preparedUnlocked<R>(call: Call, prepare: () => Promise<R>): Promise<R> {
    for (let pass = 0, relocked = 0; ; pass++) {
      if (pass > 0) this.checkCooldown(call.site);
      if (pass > 0 && !CONNECTION_FREE_METHODS.has(call.method)) await this.requireConnection(call.site);
      if (!this.deps.session.isUnlocked()) await this.unlocked(call.site);
      try {
        const prepared = await prepare();
        this.checkCooldown(call.site);
        return prepared;
      } catch (e) {
        if (!isLockedError(e) || (this.deps.session.isUnlocked() && ++relocked > 2)) throw e;
      }
    }
  }

  async #approved<K extends Payload['kind']>(call: Call, kind: K, prepare: () => Promise<{ summary: ApprovalSummary; payload: PayloadOf<K> }>, act: (payload: PayloadOf<K>) => Promise<unknown>, held: Reservation | undefined): Promise<unknown> {
    const askedAt = (this.deps.now ?? Date.now)();
    const logged = await this.logged(call.requestId);
    if (logged) return this.replay(logged);
    const found = await this.deps.approvals.findByRequest(call.requestId);
    let entry: Pick<PendingApproval, 'id' | 'params'>;
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
      this.checkAskingLoop(call.site, askedAt);
      // A site that is not connected cannot make the wallet ask for the password to sign for it.
      if (!CONNECTION_FREE_METHODS.has(call.method)) await this.requireConnection(call.site);
      const asking = askingOf(call);
      // The place held through the unlock is kept: no other ask takes it in between.
      const place = held ?? (await this.unlockedToAsk(call)) ?? (await this.deps.approvals.reserve(asking));
      try {
        const { summary, payload } = await this.preparedUnlocked(call, prepare);
        entry = await place.add({ ...asking, params: payload, summary, requestId: call.requestId });
      } finally {
        place.release();
      }
      try {
        await this.openWindow();
      } catch (e) {
        // Nobody can answer a request whose window did not open: it must not block the site.
        await this.deps.approvals.decide(entry.id, false).catch(() => undefined);
        throw e;
      }
      approved = await this.deps.approvals.waitFor(entry.id);
    }
    if (!approved) {
      // Only a "no" counts (an ask refused as already waiting is none): one more in the run when it answered an ask made right after the last.
      for (const key of noKeysOf(call.site)) this.#noes.set(key, { at: (this.deps.now ?? Date.now)(), run: this.quickAfterNo(key, askedAt) ? this.#noes.get(key)!.run + 1 : 1 });
      throw new ProviderError(Code.userRejected, 'the user rejected the request');
    }
    // A "yes" ends the run: the user is answering, not being pestered.
    for (const key of noKeysOf(call.site)) this.#noes.delete(key);
    // Disconnected while the request waited (Settings, or the site's own revoke), or connected since
    // to other accounts only: nothing is done for it.
    if (!CONNECTION_FREE_METHODS.has(call.method)) await this.requireConnection(call.site, (entry.params as { accountId?: unknown } | null)?.accountId);
    if (!this.deps.session.isUnlocked()) await this.unlocked(call.site);
    await this.log(call.requestId, { state: 'running', at: Date.now() });
    let response: ProviderResponse;
    try {
      // An approval picked up by request ID (after a restart) for another kind of request is never acted on.
      if ((entry.params as Payload | null)?.kind !== kind) throw new Error('payload mismatch');
      response = { ok: true, result: await act(entry.params as PayloadOf<K>) };
    } catch (e) {
      response = { ok: false, error: providerErrorInfo(e, call.method, this.deps.log) };
    }
    // What was done is answered even when recording it fails (a full storage.session).
    await this.log(call.requestId, { state: 'done', response, at: Date.now() }).catch((e: unknown) => {
      this.deps.log?.(`could not record a site request's outcome: ${(e as Error).message}`);
    });
    return this.replay({ state: 'done', response, at: 0 });
  }

  replay(logged: LoggedRequest): unknown {
    if (logged.state === 'running') {
      throw new ProviderError(Code.internal, 'the wallet stopped while it acted on this request; check its activity before asking again');
    }
    const r = logged.response!;
    if (r.ok) return r.result;
    throw new ProviderError(r.error.code, r.error.message, r.error.data);
  }

  async logged(requestId: string): Promise<LoggedRequest | undefined> {
    const log = await this.readLog();
    const entry = Object.hasOwn(log, requestId) ? log[requestId] : undefined;
    return isLoggedRequest(entry) ? entry : undefined;
  }

  /** The log as storage holds it; {} when it holds none, or something that is no log. */
  private async readLog(): Promise<Record<string, unknown>> {
    const stored: unknown = (await this.deps.sessionArea.get([REQUEST_LOG_KEY]))[REQUEST_LOG_KEY];
    return typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : {};
  }

  private log(requestId: string, entry: LoggedRequest): Promise<void> {
    const run = this.#logTail.then(async () => {
      await this.deps.sessionArea.set({ [REQUEST_LOG_KEY]: withLoggedRequest(await this.readLog(), requestId, entry) });
    });
    this.#logTail = run.catch(() => undefined);
    return run;
  }
}
