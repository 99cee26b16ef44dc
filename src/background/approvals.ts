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
/**
 * JSON bytes one waiting approval may take (request and summary), one site's waiting ones, and all
 * of them: storage.session (10 MiB in Chrome) also holds the unlock key and other sites' requests.
 */
export const MAX_APPROVAL_BYTES = 1024 * 1024;
export const MAX_SITE_APPROVAL_BYTES = 2 * MAX_APPROVAL_BYTES;
export const MAX_QUEUE_BYTES = 4 * MAX_APPROVAL_BYTES;
/** JSON bytes of the requests decisions keep (the newest first). */
const MAX_DECIDED_BYTES = 2 * MAX_APPROVAL_BYTES;

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

/** Who asked: the top-level page's origin, and the requesting frame's when it is another. */
export type Asker = Pick<PendingApproval, 'origin' | 'frameOrigin'>;

/**
 * The origin that asked: it holds the connection (MetaMask's rule too), and a request's limits and
 * cooldown count for it. A frame of another origin inside a page must not use up, or block, the
 * page's own requests.
 */
export function requesterOf(asker: Asker): string {
  return asker.frameOrigin ?? asker.origin;
}

/**
 * What a site's limits count by: the registrable domain of the frame that asked. Subdomain frames
 * (a.evil.com, b.evil.com) share one set of limits; the connection stays the origin's.
 */
export function limitKeyOf(asker: Asker): string {
  return registrableDomain(requesterOf(asker));
}

/**
 * What a request of a frame from another site than its page's also counts by: with every such frame
 * of that page (the registrable domain of the tab's top page), as one site. Frames from many sites
 * in one page cannot take every place, nor the page's own; the page's own site has none.
 */
export function framesKeyOf(asker: Asker): string | undefined {
  return limitKeyOf(asker) === registrableDomain(asker.origin) ? undefined : pageFramesKeyOf(asker.origin);
}

/** framesKeyOf the frames of other sites in a page of `pageOrigin`. */
export const pageFramesKeyOf = (pageOrigin: string): string => `frames in ${registrableDomain(pageOrigin)}`;

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
  /** The request as it was approved, for a restarted worker to act on (its summary is not kept). */
  entry?: DecidedRequest;
}

export type DecidedRequest = Omit<PendingApproval, 'summary'>;

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

/** A request whose approval would take too much of storage.session. */
export class ApprovalTooLargeError extends WalletError {
  constructor(what: string) {
    super('request-too-large', `${what}; ask for less at once`);
  }
}

const jsonBytes = (value: unknown): number => new TextEncoder().encode(JSON.stringify(value)).byteLength;

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
  readonly #held = new Set<{ site: string; frames: string | undefined; method: string }>();
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

  /** Refuses `request` when its site already waits for this method, or has (or its page's frames of other sites have) or makes the queue full. */
  #admit(s: Stored, request: Asking): void {
    const site = limitKeyOf(request);
    const frames = framesKeyOf(request);
    const taken = [...s.pending.map((p) => ({ site: limitKeyOf(p), frames: framesKeyOf(p), method: p.method })), ...this.#held];
    const fromSite = taken.filter((t) => t.site === site);
    if (fromSite.some((t) => t.method === request.method)) throw new ApprovalPendingError(site, request.method);
    const fromFrames = frames ? taken.filter((t) => t.frames === frames) : [];
    if (taken.length >= MAX_PENDING_APPROVALS || fromSite.length >= MAX_PENDING_PER_SITE || fromFrames.length >= MAX_PENDING_PER_SITE) throw new ApprovalQueueFullError();
  }

  /** Refuses an approval that would take more than its share of storage.session. */
  #fits(s: Stored, entry: PendingApproval): void {
    const bytes = jsonBytes(entry);
    if (bytes > MAX_APPROVAL_BYTES) throw new ApprovalTooLargeError(`this request is too large to show for approval (${bytes} bytes, at most ${MAX_APPROVAL_BYTES})`);
    const site = limitKeyOf(entry);
    let total = bytes;
    let ofSite = bytes;
    for (const p of s.pending) {
      const b = jsonBytes(p);
      total += b;
      if (limitKeyOf(p) === site) ofSite += b;
    }
    if (ofSite > MAX_SITE_APPROVAL_BYTES) throw new ApprovalTooLargeError(`${site}'s requests waiting for a decision are too large together`);
    if (total > MAX_QUEUE_BYTES) throw new ApprovalTooLargeError('the requests waiting for a decision are too large together; answer some first');
  }

  /** Holds a place for `request` if the limits allow it, before anything is prepared for it. */
  reserve(request: Asking): Promise<Reservation> {
    return this.#serial(async () => {
      this.#admit(await this.#load(), request);
      const place = { site: limitKeyOf(request), frames: framesKeyOf(request), method: request.method };
      this.#held.add(place);
      return {
        add: (full) =>
          this.#serial(async () => {
            this.#held.delete(place);
            const s = await this.#load();
            this.#admit(s, full);
            const entry: PendingApproval = { ...full, id: toHex(crypto.getRandomValues(new Uint8Array(12))), createdAt: this.now() };
            this.#fits(s, entry);
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
      // Only the newest decisions keep their request, within a count and a size (a restarted worker
      // acts on those at once; an older one is asked anew), and never its summary, which only the
      // window showed: storage.session stays small.
      let count = MAX_DECISIONS_WITH_REQUEST;
      let bytes = MAX_DECIDED_BYTES;
      const decided = [...s.decided, { id, approved, decidedAt: this.now(), entry }]
        .slice(-MAX_REMEMBERED_DECISIONS)
        .reverse()
        .map((d): Decision => {
          const { id: did, approved: yes, decidedAt } = d;
          if (!d.entry) return { id: did, approved: yes, decidedAt };
          const { summary: _shown, ...request } = d.entry as PendingApproval;
          return count-- > 0 && (bytes -= jsonBytes(request)) >= 0 ? { id: did, approved: yes, decidedAt, entry: request } : { id: did, approved: yes, decidedAt };
        })
        .reverse();
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
  async findByRequest(requestId: string): Promise<{ entry: DecidedRequest; decision?: Decision } | undefined> {
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
