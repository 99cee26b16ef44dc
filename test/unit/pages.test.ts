// Which pages are told of a change: only those whose own view changed.
import { describe, expect, it, vi } from 'vitest';
import { acknowledged, MAX_PROVIDER_FRAMES, PROVIDER_FRAMES_KEY, type ProviderFrame, ProviderPages } from '../../src/background/pages.js';
import type { Site } from '../../src/background/provider.js';
import { memoryStores } from '../../src/background/storage.js';

const SHOP: Site = { origin: 'https://shop.example' };
const NEWS: Site = { origin: 'https://news.example' };
const WIDGET: Site = { origin: 'https://news.example', frameOrigin: 'https://widget.example' };

function setup() {
  const stores = memoryStores();
  const views = new Map<string, string>();
  const viewKey = (s: Site) => s.frameOrigin ?? s.origin;
  const sent: string[] = [];
  /** Each event's frame with the origin of the document it is for. */
  const addressed: string[] = [];
  const gone = new Set<string>();
  const deps = {
    area: stores.session,
    viewOf: async (s: Site) => views.get(viewKey(s)) ?? 'locked-out',
    send: async (tabId: number, frameId: number, origin: string) => {
      if (gone.has(`${tabId}/${frameId}`)) throw new Error('Could not establish connection. Receiving end does not exist.');
      sent.push(`${tabId}/${frameId}`);
      addressed.push(`${tabId}/${frameId} ${origin}`);
    },
  };
  return { stores, views, sent, addressed, gone, pages: new ProviderPages(deps), fresh: () => new ProviderPages(deps) };
}

describe("a content script's answer to an event", () => {
  it('is taken as delivered only when it is true: no answer (the polyfill and Firefox resolve undefined) means the frame holds another page, forgotten', async () => {
    await expect(acknowledged(Promise.resolve(true))).resolves.toBeUndefined();
    for (const answer of [undefined, false, null, 'true']) await expect(acknowledged(Promise.resolve(answer))).rejects.toThrow(/not the page/);
    await expect(acknowledged(Promise.reject(new Error('Receiving end does not exist.')))).rejects.toThrow(/Receiving end/);
  });
});

describe('provider pages', () => {
  it('tells only the frames whose view changed, and nothing when nothing they see changed', async () => {
    const t = setup();
    t.views.set('https://shop.example', 'chain 1, no accounts');
    t.views.set('https://news.example', 'chain 1, no accounts');
    await t.pages.remember(1, 0, SHOP);
    await t.pages.remember(2, 0, NEWS);
    await t.pages.remember(2, 5, WIDGET);

    // The wallet locked: no site is connected, so no view changed and no page hears of it.
    await t.pages.notify();
    expect(t.sent).toEqual([]);

    // The shop got connected: only its page is told.
    t.views.set('https://shop.example', 'chain 1, account A');
    await t.pages.notify();
    expect(t.sent).toEqual(['1/0']);

    // The chain changed: everybody sees that.
    for (const origin of ['https://shop.example', 'https://news.example', 'https://widget.example']) t.views.set(origin, `chain 2 for ${origin}`);
    await t.pages.notify();
    expect(t.sent.slice(1).sort()).toEqual(['1/0', '2/0', '2/5']);
    // Each for the document that registered (a frame's own origin): one that loaded another page since drops it (src/content/relay.ts).
    expect(t.addressed.slice(1).sort()).toEqual(['1/0 https://shop.example', '2/0 https://news.example', '2/5 https://widget.example']);
    // So is the event a frame new to the list gets at once, its first request not its state read.
    await t.pages.remember(3, 4, WIDGET, false);
    expect(t.addressed.at(-1)).toBe('3/4 https://widget.example');
  });

  it('forgets frames that are gone, and a restarted worker knows the others and what they saw', async () => {
    const t = setup();
    t.views.set('https://shop.example', 'v1');
    t.views.set('https://news.example', 'v1');
    await t.pages.remember(1, 0, SHOP);
    await t.pages.remember(2, 0, NEWS);
    t.gone.add('1/0');
    t.views.set('https://shop.example', 'v2');
    t.views.set('https://news.example', 'v2');
    await t.pages.notify();
    expect(t.sent).toEqual(['2/0']);
    const stored = (await t.stores.session.get([PROVIDER_FRAMES_KEY]))[PROVIDER_FRAMES_KEY];
    expect(stored).toEqual([{ tabId: 2, frameId: 0, site: NEWS, seen: 'v2' }]);

    const restarted = t.fresh();
    await restarted.notify();
    expect(t.sent).toEqual(['2/0']);
    t.views.set('https://news.example', 'v3');
    await restarted.notify();
    expect(t.sent).toEqual(['2/0', '2/0']);
  });

  it('a frame that navigated to another site is that site now', async () => {
    const t = setup();
    t.views.set('https://shop.example', 'shop view');
    t.views.set('https://news.example', 'news view');
    await t.pages.remember(1, 0, SHOP);
    await t.pages.remember(1, 0, NEWS);
    t.views.set('https://shop.example', 'shop changed');
    await t.pages.notify();
    expect(t.sent).toEqual([]);
    t.views.set('https://news.example', 'news changed');
    await t.pages.notify();
    expect(t.sent).toEqual(['1/0']);
  });

  it('a frame slow to take an event holds up no other page, and a frame whose view cannot be read is still remembered', async () => {
    const t = setup();
    t.views.set('https://shop.example', 'v1');
    await t.pages.remember(1, 0, SHOP);
    let release!: () => void;
    const slow = new ProviderPages({
      area: t.stores.session,
      viewOf: async (s: Site) => t.views.get(s.origin) ?? 'none',
      send: () => new Promise<void>((resolve) => (release = resolve)),
    });
    t.views.set('https://shop.example', 'v2');
    const notifying = slow.notify();
    await new Promise((r) => setTimeout(r, 10));
    // A new page registers while the event to the shop has not been taken.
    await slow.remember(2, 0, NEWS);
    release();
    await notifying;

    const area = memoryStores().session;
    const failing = new ProviderPages({
      area,
      viewOf: async () => {
        throw new Error('node away');
      },
      send: async () => undefined,
    });
    await failing.remember(3, 0, NEWS);
    expect((await area.get([PROVIDER_FRAMES_KEY]))[PROVIDER_FRAMES_KEY]).toEqual([{ tabId: 3, frameId: 0, site: NEWS, seen: '' }]);
  });

  it('a frame new to the list whose first request is not its state read is told at once to read it (back from the cache, or dropped from the list)', async () => {
    const t = setup();
    t.views.set('https://shop.example', 'v1');
    // A page loading: its first request is the state read; nothing to tell.
    await t.pages.remember(1, 0, SHOP, true);
    await t.pages.remember(1, 0, SHOP, false);
    // The frame goes to another site, and back (a page restored from the back/forward cache polls).
    await t.pages.remember(1, 0, NEWS, true);
    t.views.set('https://shop.example', 'v2');
    await t.pages.remember(1, 0, SHOP, false);
    await vi.waitFor(() => expect(t.sent).toEqual(['1/0']));
    // An unconnected frame learns nothing of the change that follows its registration.
    await t.pages.notify();
    expect(t.sent).toEqual(['1/0']);
  });

  it('a page with many frames pushes out its own frames, not a dapp open in another tab', async () => {
    const t = setup();
    t.views.set('https://shop.example', 'connected, unlocked');
    await t.pages.remember(1, 0, SHOP);
    // Ad frames (or a hostile page's iframes) of one page, each of another site, each reading its state.
    for (let i = 0; i < MAX_PROVIDER_FRAMES + 50; i++) await t.pages.remember(2, 1000 + i, { origin: 'https://news.example', frameOrigin: `https://ad${i}.example` });
    const stored = (await t.stores.session.get([PROVIDER_FRAMES_KEY]))[PROVIDER_FRAMES_KEY] as ProviderFrame[];
    expect(stored).toHaveLength(MAX_PROVIDER_FRAMES);
    expect(stored[1]?.frameId).toBe(1051);
    t.views.set('https://shop.example', 'locked');
    await t.pages.notify();
    expect(t.sent).toEqual(['1/0']);
  });

  it('a frame in use moves to the end of the list: of frames one site each, the least recently used goes first', async () => {
    const t = setup();
    for (let i = 0; i < MAX_PROVIDER_FRAMES; i++) await t.pages.remember(10 + i, 0, { origin: `https://site${i}.example` });
    // The first two make requests again (a poll); then a new page arrives.
    await t.pages.remember(10, 0, { origin: 'https://site0.example' });
    await t.pages.remember(11, 0, { origin: 'https://site1.example' });
    await t.pages.remember(9, 0, SHOP);
    const stored = (await t.stores.session.get([PROVIDER_FRAMES_KEY]))[PROVIDER_FRAMES_KEY] as ProviderFrame[];
    expect(stored.map((f) => f.tabId)).not.toContain(12);
    expect(stored.slice(-3).map((f) => f.tabId)).toEqual([10, 11, 9]);
  });

  it('a new page in a tab\'s main frame drops the frames of the page it replaced in that tab only', async () => {
    const t = setup();
    await t.pages.remember(1, 0, NEWS);
    await t.pages.remember(1, 5, WIDGET);
    await t.pages.remember(2, 5, WIDGET);
    await t.pages.remember(1, 0, SHOP);
    const stored = (await t.stores.session.get([PROVIDER_FRAMES_KEY]))[PROVIDER_FRAMES_KEY] as ProviderFrame[];
    expect(stored.map((f) => `${f.tabId}/${f.frameId} ${f.site.origin}`)).toEqual(['2/5 https://news.example', '1/0 https://shop.example']);
    // A frame of the new page that asked before its main frame stays.
    await t.pages.remember(3, 5, WIDGET);
    await t.pages.remember(3, 0, NEWS);
    const after = (await t.stores.session.get([PROVIDER_FRAMES_KEY]))[PROVIDER_FRAMES_KEY] as ProviderFrame[];
    expect(after.filter((f) => f.tabId === 3).map((f) => f.frameId)).toEqual([5, 0]);
  });

  it('stored entries of another shape are dropped, not trusted', async () => {
    const t = setup();
    await t.stores.session.set({ [PROVIDER_FRAMES_KEY]: [{ tabId: 1, frameId: 0 }, 'x', { tabId: 2, frameId: 0, site: NEWS, seen: 'old' }] });
    t.views.set('https://news.example', 'new');
    await t.pages.notify();
    expect(t.sent).toEqual(['2/0']);
    expect((await t.stores.session.get([PROVIDER_FRAMES_KEY]))[PROVIDER_FRAMES_KEY]).toEqual([{ tabId: 2, frameId: 0, site: NEWS, seen: 'new' }]);
  });
});
