// The popup-UI suite both browsers run (chromium-ui.e2e.test.ts, firefox-ui.e2e.test.ts): the built
// extension's popup page (400×600) clicked, typed into and read like a user does, against the run's
// local node behind a proxy that can stop, hang or lie. The same steps, in the same order, with the
// same exact expectations (balances in base units from the amounts typed and the fees shown; the
// X-Chain fees checked against the node's own; the receiving side of every send on the node).
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { localNetwork } from '../../integration/fixture.js';
import { artifactPath, clearArtifacts, flowSteps, launchOrSaveLog, slug, Timings } from '../artifacts.js';
import { avaxAssetId } from '../harness.js';
import { startRpcProxy } from '../loopback.js';
import { PopupDriver } from './driver.js';
import type { BrowserUnderTest, UiRun } from './run.js';
import { assetStudio } from './steps-assets.js';
import { idleLockWithPopupOpen, lockAfterBackgroundStop, screenshotsLightAndDark } from './steps-lock.js';
import { importAcrossBackgroundStop, importWaitingReviewed, movesAround, pausedWhileNodeDown } from './steps-moves.js';
import { nodeStopsThenHangs } from './steps-node.js';
import { activityAfterAccountSwitch, reviewRefusedAfterSwitchElsewhere, sendC, sendX, sendXByKeyboard } from './steps-send.js';
import { addNodeAndReceive, auditEveryScreen, createWallet, funded, importThenRemoveAccount, restoreFromPhrase, startAgainWithKey, unprovenUtxo } from './steps-wallet.js';

const TITLE = { chromium: 'Chromium', firefox: 'Firefox ESR' } as const;

/** `options.idleLock`: the idle lock firing with the popup open (waits one to two minutes for the background's alarm). */
export function describePopupUi(browser: BrowserUnderTest, options: { idleLock: boolean }): void {
  describe(`${TITLE[browser.name]}: the popup UI, clicked through, against the local node`, () => {
    const prefix = `${browser.name}-ui-`;
    const timings = new Timings();
    const { log } = browser;
    const run = { browser, log, prefix, words: [], xAddress: '', cAddress: '', avax: '', expected: { X: 0n, P: 0n, C: 0n }, movesStarted: 0 } as unknown as UiRun;
    let second: PopupDriver | undefined;

    const step = flowSteps(timings, async (failed) => {
      const name = `${prefix}FAILED-${slug(failed)}`;
      for (const [label, ui] of [['main', run.ui], ['restore', second]] as const) {
        if (ui && !ui.page.isClosed()) await ui.page.screenshot(artifactPath(`${name}-${label}.png`)).catch(() => undefined);
      }
      const path = log.save(`${name}.console.log`);
      browser.saveFailure?.(name);
      console.error(`[e2e ${browser.name}-ui] step "${failed}" failed; screenshots and console log: ${path.replace(/\.console\.log$/, '*')}`);
    });

    beforeAll(() =>
      launchOrSaveLog(log, prefix, `${browser.name}-ui`, async () => {
        clearArtifacts(prefix);
        run.proxy = await startRpcProxy(inject('nodeUrl'));
        const net = await localNetwork();
        run.avax = await avaxAssetId();
        run.xTxFee = net.ctx.xTxFee;
        run.createAssetFee = net.ctx.xCreateAssetTxFee;
        const started = Date.now();
        run.ui = new PopupDriver(await browser.launch(), prefix, log);
        timings.add('launch', Date.now() - started);
      }),
    );

    afterAll(async () => {
      await browser.close();
      await run.proxy?.close();
      log.save(`${prefix}console.log`);
      console.log(timings.summary(`${browser.name}-ui`));
    });

    step('onboarding: creates a wallet from the shown 24-word phrase, confirms it and sets a password', () => createWallet(run));
    step('adds the test node in Settings, selects it; Receive shows the X-custom1… address of the phrase', () => addNodeAndReceive(run));
    step('funded from the genesis key, Home shows the exact X balance after a refresh', () => funded(run));
    step('every screen passes an accessibility audit (axe-core: no serious or critical violation) and has one main heading; one opened by an action has focus on it', () => auditEveryScreen(run));
    step('a UTXO no transaction backs is counted apart and said to be unproven; gone once the node stops making it up', () => unprovenUtxo(run));
    step('the node stops, then hangs: a banner on every screen says so in words, since when, with the age of the balances; it goes once the node answers', () => nodeStopsThenHangs(run));
    step('a review confirmed after the account was switched elsewhere is refused, and nothing is sent', () => reviewRefusedAfterSwitchElsewhere(run));
    step('sends AVAX on the X-Chain through Send → Review → Confirm; accepted, balance down by amount + fee', () => sendX(run));
    step('keyboard only: the same send with Tab, typing and Enter, from Home to accepted; Send opens with focus on its heading', () => sendXByKeyboard(run));
    step("Activity after an account switch in the header shows only that account's items (the change of a send its keys signed elsewhere as its own); switching back shows the first one's", () => activityAfterAccountSwitch(run));
    step("Settings → Accounts: another account's name refused as it is typed; an imported key removed through its review (what it costs said first); a wrong password keeps it, the right one removes it", () => importThenRemoveAccount(run));
    step('Assets: creates a variable-cap asset and mints it; creates an NFT family, mints an NFT and sends it, each through its review', () => assetStudio(run));
    step('moves AVAX X→C, C→P and P→X on the Move screen, each through its review until it shows "Imported"', () => movesAround(run));
    step('sends AVAX on the C-Chain through Send → Review → Confirm; accepted, balance down by amount + the fee paid; Activity lists it and the moves', () => sendC(run));
    step('an X→P move is paused while the node is down ("waiting for the node", since when) and finishes by itself once the node is back: the same import, once', () => pausedWhileNodeDown(run), 240_000);
    step('X→P move with the background stopped between export and import: the same signed import is sent again and lands once', () => importAcrossBackgroundStop(run));
    step('funds another wallet exported to this one: Home lists them; Import now reviews the import, its fee and what arrives, and imports only on Confirm', () => importWaitingReviewed(run));
    step('with the background stopped mid-session, still unlocked; a lock made elsewhere is followed by the open popup; the header locks; a wrong password is refused, the right one unlocks', () => lockAfterBackgroundStop(run));
    if (options.idleLock) step('the idle lock fires while the popup stays open and polls on its own (its polls are not activity)', () => idleLockWithPopupOpen(run));
    step('screenshots of every screen in light and dark, at popup size and in a tab (CI artifacts)', () => screenshotsLightAndDark(run));
    step('restores the wallet from the noted phrase in a second fresh profile: same X address, same balances', async () => {
      const started = Date.now();
      second = new PopupDriver(await browser.launchSecond(), prefix, log);
      timings.add('launch (second profile)', Date.now() - started);
      await restoreFromPhrase(run, second);
    });
    step('the password forgotten: starts again with a private key from the unlock screen; the key is checked before the password, the loss screen names the recovery phrase; a key imported in another window meanwhile is asked about again, said changed', () =>
      startAgainWithKey(run, second!, async () => new PopupDriver(await browser.openSecondAgain(), prefix, log)),
    );
  });
}
