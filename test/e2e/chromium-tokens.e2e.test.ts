// The token screens' suite (popup/tokens-suite.ts) in Debian's Chromium, headless, with a fresh
// profile and the built Chrome extension; the popup page open in a 400×600 tab (ui.ts).
import { ConsoleLog } from './artifacts.js';
import { builtExtension } from './harness.js';
import { describeTokenUi } from './popup/tokens-suite.js';
import { playwrightAdapter, UiBrowser } from './ui.js';

const log = new ConsoleLog();
const main = new UiBrowser('tokens', log);

describeTokenUi({
  name: 'chromium',
  log,
  async launch() {
    const ext = builtExtension('chrome');
    await main.launch(ext);
    return playwrightAdapter(await main.openPopup(ext));
  },
  close: () => main.close(),
});
