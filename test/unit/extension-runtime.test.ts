// src/shared/runtime.ts: which runtime the wallet's pages and content script talk to. In Chrome
// before 148 a content script has no `browser` of its own, so a page can put an element of that name in its
// way; only an object with a sendMessage function counts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { extensionRuntime } from '../../src/shared/runtime.js';

function fakeRuntime(id: string) {
  return { id, sendMessage: vi.fn(async () => id), onMessage: { addListener: vi.fn() } };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('extensionRuntime', () => {
  it("takes Firefox's browser.runtime when it is one", () => {
    const browser = fakeRuntime('browser');
    vi.stubGlobal('browser', { runtime: browser });
    vi.stubGlobal('chrome', { runtime: fakeRuntime('chrome') });
    expect(extensionRuntime()).toBe(browser);
  });

  it("takes chrome.runtime when there is no browser (Chrome's content scripts and pages)", () => {
    const chrome = fakeRuntime('chrome');
    vi.stubGlobal('browser', undefined);
    vi.stubGlobal('chrome', { runtime: chrome });
    expect(extensionRuntime()).toBe(chrome);
  });

  it('passes over a `browser` the page named: an element, a frame, a form control', () => {
    const chrome = fakeRuntime('chrome');
    vi.stubGlobal('chrome', { runtime: chrome });
    // <form id="browser"><input name="runtime" id="x"></form>: browser.runtime.id reads "x".
    vi.stubGlobal('browser', { runtime: { id: 'x', sendMessage: undefined } });
    expect(extensionRuntime()).toBe(chrome);
    vi.stubGlobal('browser', { runtime: { id: 'x', sendMessage: 'not a function' } });
    expect(extensionRuntime()).toBe(chrome);
    // <iframe name="browser" src="https://elsewhere">: reading a property throws.
    vi.stubGlobal('browser', Object.defineProperty({}, 'runtime', { get: () => { throw new DOMException('Blocked a frame', 'SecurityError'); } }));
    expect(extensionRuntime()).toBe(chrome);
  });

  it('is undefined outside an extension, or when both are dead', () => {
    vi.stubGlobal('browser', undefined);
    vi.stubGlobal('chrome', undefined);
    expect(extensionRuntime()).toBeUndefined();
    vi.stubGlobal('chrome', Object.defineProperty({}, 'runtime', { get: () => { throw new TypeError("can't access dead object"); } }));
    expect(extensionRuntime()).toBeUndefined();
  });
});
