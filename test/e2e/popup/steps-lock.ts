// Locking with the popup open: after the background was stopped (the session survives it), a lock
// made elsewhere that the open popup follows, the header's Lock, a wrong password refused; the idle
// lock firing while the popup polls; and the screenshots of every screen, light and dark, at popup
// size and in a tab.
import { expect } from 'vitest';
import { PASSWORD, POPUP_VIEWPORT } from '../harness.js';
import { SCREENS } from './driver.js';
import type { UiRun } from './run.js';
import { NODE_NAME } from './steps-wallet.js';

const LOCKED = { text: 'The wallet is locked.' };

async function unlock(run: UiRun): Promise<void> {
  await run.ui.fill('Password', PASSWORD);
  await run.ui.click({ button: 'Unlock' });
  await run.ui.find({ tab: 'Home' }, 15_000);
}

export async function lockAfterBackgroundStop(run: UiRun): Promise<void> {
  const { ui, proxy, expected } = run;
  const identityCalls = proxy.count('info.getNetworkID');
  const stopped = await run.browser.stopBackground();
  try {
    // The refresh starts the background again, which is still unlocked (the session is in
    // storage.session) and reads the same balances.
    await ui.expectHomeTotals(expected);
    expect(await stopped.ranAgain(), 'the background ran again after the stop').toBe(true);
    expect(proxy.count('info.getNetworkID'), 'a new background asked the node who it is').toBeGreaterThan(identityCalls);
  } finally {
    await stopped.release();
  }
  // Locked by someone else (the idle lock, another window): the open popup follows by itself.
  await ui.openTab('Assets');
  await ui.call('wallet.lock', {});
  await ui.find(LOCKED, 15_000);
  await ui.audit('Unlock');
  expect(await ui.exists({ tab: 'Home' })).toBe(false);
  await unlock(run);

  await ui.click({ button: 'Lock', within: 'header' });
  await ui.find(LOCKED);
  await ui.screenshot('locked');
  await ui.fill('Password', `${PASSWORD}!`);
  await ui.click({ button: 'Unlock' });
  await ui.waitText({ css: '[role="alert"]' }, 'The password is not correct');
  expect(await ui.read({ label: 'Password' }, 'value')).toBe('');
  expect(await ui.exists({ tab: 'Home' })).toBe(false);

  await unlock(run);
  expect(await ui.textOf({ css: 'header.topbar .badge.net' })).toBe(NODE_NAME);
  await ui.expectHomeTotals(expected);
  await ui.openTab('Receive');
  await ui.waitText({ testid: 'receive-address' }, run.xAddress);
}

export async function idleLockWithPopupOpen(run: UiRun): Promise<void> {
  const { ui } = run;
  await ui.call('wallet.setIdleLock', { minutes: 1 });
  await ui.openTab('Home');
  // Nothing is clicked: the popup keeps asking whether it is still unlocked, every few seconds.
  await ui.find(LOCKED, 100_000);
  await unlock(run);
  await ui.call('wallet.setIdleLock', { minutes: 15 });
}

export async function screenshotsLightAndDark(run: UiRun): Promise<void> {
  const { ui } = run;
  const appBox = () => ui.page.evaluate(() => document.getElementById('app')!.getBoundingClientRect().toJSON() as DOMRect);
  for (const scheme of ['light', 'dark'] as const) {
    await ui.colorScheme(scheme);
    for (const [size, viewport] of [['popup', POPUP_VIEWPORT], ['tab', { width: 1024, height: 768 }]] as const) {
      await ui.page.setViewport(viewport);
      await expect.poll(() => ui.page.evaluate(() => innerWidth).catch(() => 0), { message: `the page is ${viewport.width} px wide` }).toBe(viewport.width);
      for (const name of SCREENS) {
        await ui.openTab(name);
        await ui.screenshot(`screen-${scheme}-${size}-${name.toLowerCase()}`);
      }
      // In a tab the wallet is a column in the middle, the whole height: not a strip on the left.
      const box = await appBox();
      if (size === 'tab') {
        expect(box.x).toBeGreaterThan(100);
        expect(box.height).toBeGreaterThan(700);
      } else expect(box.width).toBeLessThanOrEqual(360);
    }
  }
  await ui.colorScheme('light');
  await ui.page.setViewport(POPUP_VIEWPORT);
}
