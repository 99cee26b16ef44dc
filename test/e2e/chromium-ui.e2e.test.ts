// The built Chrome extension (dist/chrome) in Debian's Chromium, headless, with a fresh profile,
// through the popup's own screens: the shared popup-UI suite (popup/suite.ts) driven by
// playwright-core. The popup page (chrome-extension://<id>/<popup>) is opened in a 400×600 tab;
// the background is the extension's service worker, stopped through DevTools
// (ServiceWorker.stopAllWorkers) where a step asks for it; the restore runs in a second Chromium
// with its own fresh profile.
import { ConsoleLog } from './artifacts.js';
import { builtExtension, type BuiltExtension, ExtensionWorkerWatch } from './harness.js';
import { describePopupUi } from './popup/suite.js';
import { playwrightAdapter, UiBrowser } from './ui.js';

const log = new ConsoleLog();
const main = new UiBrowser('main', log);
const second = new UiBrowser('restore', log);
let ext: BuiltExtension | undefined;

/** Starts one Chromium with the built extension; the adapter over its popup tab. */
async function open(browser: UiBrowser) {
  ext ??= builtExtension('chrome');
  await browser.launch(ext);
  if (!/^[a-p]{32}$/.test(browser.extensionId)) throw new Error(`not an extension ID: ${browser.extensionId}`);
  return playwrightAdapter(await browser.openPopup(ext));
}

describePopupUi(
  {
    name: 'chromium',
    log,
    launch: () => open(main),
    launchSecond: () => open(second),
    openSecondAgain: async () => playwrightAdapter(await second.openPopup(ext!)),
    async stopBackground() {
      const worker = await ExtensionWorkerWatch.attach(main.context!, main.popup!, main.extensionId, log);
      try {
        await worker.stop();
      } catch (e) {
        await worker.detach();
        throw e;
      }
      return { ranAgain: () => Promise.resolve(worker.ranAgain()), release: () => worker.detach() };
    },
    async close() {
      await main.close();
      await second.close();
    },
  },
  { idleLock: true },
);
