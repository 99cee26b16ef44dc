// The approval window: one browser window the background opens (or brings forward) when a site
// asks for something, remembered in storage.session so a restarted worker finds it again.
import type { Windows } from 'webextension-polyfill';
import type { StorageArea } from './storage.js';

const WINDOW_KEY = 'xpc.approvalWindowId';
const WIDTH = 440;
const HEIGHT = 680;

export class ApprovalWindow {
  #opening: Promise<void> | null = null;

  constructor(
    private readonly windows: Windows.Static,
    private readonly area: StorageArea,
    private readonly url: string,
  ) {}

  async #storedId(): Promise<number | undefined> {
    const id = (await this.area.get([WINDOW_KEY]))[WINDOW_KEY];
    return typeof id === 'number' ? id : undefined;
  }

  /** Brings the window forward, opening it when it is not open; concurrent calls open one window. */
  open(): Promise<void> {
    this.#opening ??= this.#open().finally(() => {
      this.#opening = null;
    });
    return this.#opening;
  }

  async #open(): Promise<void> {
    const id = await this.#storedId();
    if (id !== undefined) {
      try {
        await this.windows.update(id, { focused: true });
        return;
      } catch {
        // The window is gone (closed while the worker was stopped): open a new one.
      }
    }
    const created = await this.windows.create({ url: this.url, type: 'popup', width: WIDTH, height: HEIGHT, focused: true });
    if (typeof created.id === 'number') await this.area.set({ [WINDOW_KEY]: created.id });
  }

  /** True when `windowId` is the approval window (then forgotten: it was closed). */
  async closed(windowId: number): Promise<boolean> {
    if ((await this.#storedId()) !== windowId) return false;
    await this.area.remove([WINDOW_KEY]);
    return true;
  }
}
