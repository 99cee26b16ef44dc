// The frames running our provider, and telling them when what they see changes. A frame is told
// only when its own view (chain, its accounts, lock state as shown to it) changed: an unconnected
// page learns nothing of the wallet being locked or of other sites connecting, and a tracker
// cannot line tabs up by our events. The list lives in storage.session so a restarted worker
// still knows the pages.
import type { Site } from './provider.js';
import { registrableDomain } from './site-domain.js';
import type { StorageArea } from './storage.js';

export const PROVIDER_FRAMES_KEY = 'xpc.providerFrames';
export const MAX_PROVIDER_FRAMES = 500;

export interface ProviderFrame {
  tabId: number;
  frameId: number;
  site: Site;
  /** The view this frame last had (JSON), to tell whether a change concerns it. */
  seen: string;
}

export interface ProviderPagesDeps {
  area: StorageArea;
  /** The view a site has now, as JSON (the provider's state for it). */
  viewOf(site: Site): Promise<string>;
  /**
   * Delivers the 'stateChanged' event for the document of `origin` (the frame's own): rejects when
   * the frame is gone, or holds another document now (its content script drops the event).
   */
  send(tabId: number, frameId: number, origin: string): Promise<unknown>;
}

/**
 * The content script's answer to a 'stateChanged' (tabs.sendMessage's): only that of the page the
 * event names is true. Anything else (no answer: another page dropped it, or no content script) is
 * the frame gone, so it is forgotten.
 */
export async function acknowledged(answer: Promise<unknown>): Promise<void> {
  if ((await answer) !== true) throw new Error('not the page that registered');
}

function isFrame(value: unknown): value is ProviderFrame {
  const f = value as ProviderFrame | null;
  return (
    typeof f === 'object' && f !== null && Number.isInteger(f.tabId) && Number.isInteger(f.frameId) &&
    typeof f.seen === 'string' && typeof f.site === 'object' && f.site !== null && typeof f.site.origin === 'string' &&
    (f.site.frameOrigin === undefined || typeof f.site.frameOrigin === 'string')
  );
}

const sameSite = (a: Site, b: Site) => a.origin === b.origin && a.frameOrigin === b.frameOrigin;

export class ProviderPages {
  #frames: Promise<ProviderFrame[]> | null = null;
  #tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: ProviderPagesDeps) {}

  /** One change of the list at a time: a notification and a new page never overwrite each other. */
  #serial(op: (frames: ProviderFrame[]) => Promise<boolean>): Promise<void> {
    const run = this.#tail.then(async () => {
      const frames = await this.#load();
      if (await op(frames)) await this.deps.area.set({ [PROVIDER_FRAMES_KEY]: frames });
    });
    this.#tail = run.catch(() => undefined);
    return run;
  }

  #load(): Promise<ProviderFrame[]> {
    this.#frames ??= this.deps.area.get([PROVIDER_FRAMES_KEY]).then(
      (r) => {
        const stored = r[PROVIDER_FRAMES_KEY];
        // Entries of another shape (an older version, damage) are dropped: those pages re-register on their next request.
        return Array.isArray(stored) ? stored.filter(isFrame) : [];
      },
      () => [],
    );
    return this.#frames;
  }

  /**
   * A frame made a request: remember it with the view it gets now (also after it navigated). A
   * frame new to the list whose request is not its state read (`stateRead`) may hold a view from
   * before (back from the back/forward cache, or dropped from the list): it is told at once to read
   * its state again. Told now, on its own request, not at the next change: an unconnected page
   * must not learn when the wallet locks.
   */
  async remember(tabId: number, frameId: number, site: Site, stateRead = true): Promise<void> {
    let added = false;
    await this.#serial(async (frames) => {
      const i = frames.findIndex((f) => f.tabId === tabId && f.frameId === frameId);
      if (i >= 0 && sameSite(frames[i]!.site, site)) {
        // In use: to the end of the list, the last place to lose (once in its older half: not a write per request).
        if (i >= frames.length / 2) return false;
        frames.push(...frames.splice(i, 1));
        return true;
      }
      // A view that cannot be read now (the node is away) is unknown: the next change tells the frame.
      const frame: ProviderFrame = { tabId, frameId, site, seen: await this.deps.viewOf(site).catch(() => '') };
      // A new page in the tab: the frames of the page it replaced are gone (or cached: they read their
      // state when back). Those of this page (its top origin), which may have asked first, stay.
      const left = frames.filter((f) => f.tabId !== tabId || (f.frameId !== frameId && (frameId !== 0 || f.site.origin === site.origin)));
      left.push(frame);
      if (left.length > MAX_PROVIDER_FRAMES) {
        // The site (top page's registrable domain) with the most frames loses its oldest: a page's
        // many frames (ads, a hostile page's iframes) push out its own, not a dapp in another tab.
        const count = new Map<string, number>();
        const keys = left.map((f) => registrableDomain(f.site.origin));
        for (const k of keys) count.set(k, (count.get(k) ?? 0) + 1);
        const most = Math.max(...count.values());
        left.splice(keys.findIndex((k) => count.get(k) === most), 1);
      }
      frames.splice(0, frames.length, ...left);
      return (added = true);
    });
    if (added && !stateRead) void this.deps.send(tabId, frameId, site.frameOrigin ?? site.origin).catch(() => undefined);
  }

  /**
   * Something changed: tells each frame whose view changed, and forgets frames that are gone. The
   * events go out after the list is saved, so a frame slow to take one holds up no page's request.
   */
  async notify(): Promise<void> {
    const told: ProviderFrame[] = [];
    await this.#serial(async (frames) => {
      const views = new Map<string, Promise<string | undefined>>();
      const viewOf = (site: Site) => {
        const key = `${site.origin} ${site.frameOrigin ?? ''}`;
        if (!views.has(key)) views.set(key, this.deps.viewOf(site).catch(() => undefined));
        return views.get(key)!;
      };
      for (const frame of frames) {
        const view = await viewOf(frame.site);
        if (view === undefined || view === frame.seen) continue;
        frame.seen = view;
        told.push({ ...frame });
      }
      return told.length > 0;
    });
    const gone: ProviderFrame[] = [];
    await Promise.all(told.map((f) => this.deps.send(f.tabId, f.frameId, f.site.frameOrigin ?? f.site.origin).catch(() => gone.push(f))));
    if (gone.length === 0) return;
    await this.#serial(async (frames) => {
      // Only the page that was told: the frame may have loaded another site since.
      const left = frames.filter((f) => !gone.some((g) => g.tabId === f.tabId && g.frameId === f.frameId && sameSite(g.site, f.site)));
      if (left.length === frames.length) return false;
      frames.splice(0, frames.length, ...left);
      return true;
    });
  }
}
