// The token screens' suite (popup/tokens-suite.ts) in Debian's Firefox ESR, headless, with a fresh
// profile and the built Firefox add-on over WebDriver BiDi (firefox.ts); the popup page open in a
// 400×600 tab.
import { ConsoleLog } from './artifacts.js';
import { FirefoxWithExtension, puppeteerAdapter } from './firefox.js';
import { describeTokenUi } from './popup/tokens-suite.js';

const log = new ConsoleLog();
const main = new FirefoxWithExtension('firefox-tokens', log);

describeTokenUi({
  name: 'firefox',
  log,
  async launch() {
    await main.launch();
    return puppeteerAdapter(await main.openPopup(), main);
  },
  saveFailure: (name) => main.saveStdout(`${name}.stdout.log`),
  close: () => main.close('firefox-tokens-stdout.log'),
});
