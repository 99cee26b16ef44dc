// The queue of requests waiting for the user's decision (connect, sign, send). It lives in
// storage.session: it survives the service worker being stopped, and is gone with the browser
// session, as are the pages that asked. A page cannot flood the user: one pending request per
// site (the registrable domain of the frame that asked) and method, and a cap on the whole queue.
// A place is held (`reserve`) before the work an approval needs (node reads), so a refused request
// costs nothing.
import { toHex } from '../core/bytes.js';
import { WalletError } from '../core/errors.js';
import { registrableDomain } from './site-domain.js';
import type { StorageArea } from './storage.js';

export const APPROVALS_STORAGE_KEY = 'xpc.approvals';
export const MAX_PENDING_APPROVALS = 10;
/** Requests one site may have waiting at once (of different methods). */
export const MAX_PENDING_PER_SITE = 3;

export interface PendingApproval {
  id: string;
  /** The top-level page's origin. */
  origin: string;
  /** The requesting frame's origin, when it is not the top-level page. */
  frameOrigin?: string;
  method: string;
  /** The validated request, kept so a decision can be acted on after a worker restart. */
  params: unknown;
  /** What the approval window shows: decoded from the exact bytes that would be signed. */
  summary: unknown;
  /** The content script's ID for the site request: a retry after a worker restart finds it. */
  requestId?: string;
  createdAt: number;
}

/**
 * The origin that asked: it holds the connection (MetaMask's rule too), and a request's limits and
 * cooldown count for it. A frame of another origin inside a page must not use up, or block, the
 * page's own requests.
 */
export function requesterOf(asker: { origin: string; frameOrigin?: string }): string {
  return asker.frameOrigin ?? asker.origin;
}

/**
 * What a site's limits count by: the registrable domain of the frame that asked. Subdomain frames
 * (a.evil.com, b.evil.com) share one set of limits; the connection stays the origin's.
 */
export function limitKeyOf(asker: { origin: string; frameOrigin?: string }): string {
  return registrableDomain(requesterOf(asker));
}

/** A place held in the queue while the approval's summary is prepared. */
export interface Reservation {
  /** Turns the place into the pending request. */
  add(request: Omit<PendingApproval, 'id' | 'createdAt'>): Promise<PendingApproval>;
  /** Gives the place up (the preparation failed); nothing once `add` ran. */
  release(): void;
}

type Asking = Pick<PendingApproval, 'origin' | 'frameOrigin' | 'method'>;

export interface Decision {
  id: string;
  approved: boolean;
  decidedAt: number;
  /** The request as it was approved, for a restarted worker to act on. */
  entry?: PendingApproval;
}

interface Stored {
  pending: PendingApproval[];
  /** Recent decisions, for a restarted worker to answer the request it was handling. */
  decided: Decision[];
}

/** A second request of the same kind from the same requester while one waits. */
export class ApprovalPendingError extends WalletError {
  constructor(site: string, method: string) {
    super('request-pending', `${site} already has a ${method} request waiting for your decision`);
  }
}

export class ApprovalQueueFullError extends WalletError {
  constructor() {
    super('too-many-requests', 'too many requests are waiting for a decision; answer or reject some first');
  }
}

export class UnknownApprovalError extends WalletError {
  constructor(id: string) {
    super('unknown-approval', `no request ${id} is waiting for a decision`);
  }
}

const MAX_REMEMBERED_DECISIONS = 50;
const MAX_DECISIONS_WITH_REQUEST = 10;

export class ApprovalQueue {
  readonly #waiters = new Map<string, ((approved: boolean) => void)[]>();
  /** Places held by requests still being prepared (this worker only: a restart ends the preparing too). */
  readonly #held = new Set<{ site: string; method: string }>();
  #tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly area: StorageArea,
    private readonly now: () => number = Date.now,
  ) {}

  /** Storage reads and writes one at a time, so two decisions never overwrite each other. */
  #serial<T>(op: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(op, op);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  async #load(): Promise<Stored> {
    const raw = (await this.area.get([APPROVALS_STORAGE_KEY]))[APPROVALS_STORAGE_KEY] as Stored | undefined;
    if (!raw || !Array.isArray(raw.pending) || !Array.isArray(raw.decided)) return { pending: [], decided: [] };
    return raw;
  }

  async #save(s: Stored): Promise<void> {
    await this.area.set({ [APPROVALS_STORAGE_KEY]: s });
  }

  /** Refuses `request` when its site already waits for this method, or has or makes the queue full. */
  #admit(s: Stored, request: Asking): void {
    const site = limitKeyOf(request);
    const taken = [...s.pending.map((p) => ({ site: limitKeyOf(p), method: p.method })), ...this.#held];
    const fromSite = taken.filter((t) => t.site === site);
    if (fromSite.some((t) => t.method === request.method)) throw new ApprovalPendingError(site, request.method);
    if (taken.length >= MAX_PENDING_APPROVALS || fromSite.length >= MAX_PENDING_PER_SITE) throw new ApprovalQueueFullError();
  }

  /** Holds a place for `request` if the limits allow it, before anything is prepared for it. */
  reserve(request: Asking): Promise<Reservation> {
    return this.#serial(async () => {
      this.#admit(await this.#load(), request);
      const place = { site: limitKeyOf(request), method: request.method };
      this.#held.add(place);
      return {
        add: (full) =>
          this.#serial(async () => {
            this.#held.delete(place);
            const s = await this.#load();
            this.#admit(s, full);
            const entry: PendingApproval = { ...full, id: toHex(crypto.getRandomValues(new Uint8Array(12))), createdAt: this.now() };
            await this.#save({ ...s, pending: [...s.pending, entry] });
            return entry;
          }),
        release: () => this.#held.delete(place),
      };
    });
  }

  async add(request: Omit<PendingApproval, 'id' | 'createdAt'>): Promise<PendingApproval> {
    const place = await this.reserve(request);
    try {
      return await place.add(request);
    } finally {
      place.release();
    }
  }

  async list(): Promise<PendingApproval[]> {
    return (await this.#load()).pending;
  }

  /** Records the user's answer and wakes whoever waits for it in this worker. */
  decide(id: string, approved: boolean): Promise<PendingApproval> {
    return this.#serial(async () => {
      const s = await this.#load();
      const entry = s.pending.find((p) => p.id === id);
      if (!entry) throw new UnknownApprovalError(id);
      // Only the newest decisions keep their request (a restarted worker acts on those at once);
      // older ones keep the answer alone, so storage.session stays small.
      const decided = [...s.decided.map((d, i, all) => (i < all.length - MAX_DECISIONS_WITH_REQUEST + 1 ? { id: d.id, approved: d.approved, decidedAt: d.decidedAt } : d)), { id, approved, decidedAt: this.now(), entry }].slice(-MAX_REMEMBERED_DECISIONS);
      await this.#save({ pending: s.pending.filter((p) => p.id !== id), decided });
      for (const wake of this.#waiters.get(id) ?? []) wake(approved);
      this.#waiters.delete(id);
      return entry;
    });
  }

  /**
   * Rejects everything waiting (the wallet was reset), or what arrived before `before` (the
   * approval window was closed: what came after was never on screen). Answers what it rejected.
   */
  async rejectAll(before = Infinity): Promise<PendingApproval[]> {
    const rejected = (await this.list()).filter((p) => p.createdAt < before);
    for (const p of rejected) await this.decide(p.id, false).catch(() => undefined);
    return rejected;
  }

  /** The approval made for a site request, waiting or already decided (the decision with it). */
  async findByRequest(requestId: string): Promise<{ entry: PendingApproval; decision?: Decision } | undefined> {
    const s = await this.#load();
    const pending = s.pending.find((p) => p.requestId === requestId);
    if (pending) return { entry: pending };
    const decision = s.decided.find((d) => d.entry?.requestId === requestId);
    return decision?.entry ? { entry: decision.entry, decision } : undefined;
  }

  /**
   * Resolves with the decision: at once if it was already made (also by a previous worker),
   * otherwise when `decide` is called in this worker.
   */
  async waitFor(id: string): Promise<boolean> {
    const s = await this.#load();
    const done = s.decided.find((d) => d.id === id);
    if (done) return done.approved;
    if (!s.pending.some((p) => p.id === id)) throw new UnknownApprovalError(id);
    return new Promise((resolve) => {
      this.#waiters.set(id, [...(this.#waiters.get(id) ?? []), resolve]);
    });
  }
}
