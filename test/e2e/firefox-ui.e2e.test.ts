// The built Firefox extension (dist/firefox) in Debian's Firefox ESR, headless, with a fresh
// profile, through the popup's own screens: the shared popup-UI suite (popup/suite.ts) driven by
// puppeteer-core over WebDriver BiDi (firefox.ts). The popup page (moz-extension://<uuid>/<popup>)
// is opened in a 400×600 tab; the background is the add-on's event page, unloaded as
// about:debugging's Terminate does where a step asks for it; the dark scheme is the pref a user's
// theme sets; the restore runs in a second Firefox with its own fresh profile.
//
// The idle lock firing with the popup open is left to Chromium's run: it waits one to two minutes
// for the background's alarm, and the lock it ends in is the same code in both browsers.
import type { Page } from 'puppeteer-core';
import { expect } from 'vitest';
import { ConsoleLog } from './artifacts.js';
import { type ExtensionPageGlobals, FirefoxWithExtension, puppeteerAdapter } from './firefox.js';
import { describePopupUi } from './popup/suite.js';

const log = new ConsoleLog();
const main = new FirefoxWithExtension('firefox-ui', log);
const second = new FirefoxWithExtension('firefox-ui-restore', log);
let popup: Page | undefined;

async function open(firefox: FirefoxWithExtension): Promise<Page> {
  await firefox.launch();
  expect(firefox.pid, 'the browser PID (for clean-up)').toBeTypeOf('number');
  return firefox.openPopup();
}

/** When the running event page was created (ms since epoch); asking wakes it if it was unloaded. */
const backgroundStartedAt = (): Promise<number | null> =>
  popup!.evaluate(async () => {
    const page = await (globalThis as unknown as ExtensionPageGlobals).browser.runtime.getBackgroundPage();
    return page ? page.performance.timeOrigin : null;
  });

describePopupUi(
  {
    name: 'firefox',
    log,
    async launch() {
      popup = await open(main);
      return puppeteerAdapter(popup, main);
    },
    launchSecond: async () => puppeteerAdapter(await open(second), second),
    openSecondAgain: async () => puppeteerAdapter(await second.openPopup(), second),
    async stopBackground() {
      const before = await backgroundStartedAt();
      expect(before, 'runtime.getBackgroundPage() gives the event page').toBeTypeOf('number');
      await main.terminateBackground();
      return {
        ranAgain: async () => {
          const after = await backgroundStartedAt();
          log.add('test', `event page restarted: created at ${String(before)}, then at ${String(after)}`);
          return after !== null && after !== before;
        },
        release: () => Promise.resolve(),
      };
    },
    saveFailure: (name) => main.saveStdout(`${name}.stdout.log`),
    async close() {
      await main.close('firefox-ui-stdout.log');
      await second.close('firefox-ui-restore-stdout.log');
    },
  },
  { idleLock: false },
);
