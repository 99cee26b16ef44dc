// The node stopped, then hung, mid-session (played by the proxy): the banner above every screen says
// so in plain words, since when and how old the balances are, which stay on screen; it goes once
// the node answers. (The move paused meanwhile is in steps-moves.ts.)
import { expect } from 'vitest';
import type { PopupDriver } from './driver.js';
import type { UiRun } from './run.js';

/** The node banner's state ('unreachable', 'slow'), null when there is no banner. */
export async function bannerState(ui: PopupDriver): Promise<string | null> {
  return (await ui.read({ testid: 'node-banner' }, { attr: 'data-state' })) as string | null;
}

const bannerText = { css: '[data-testid="node-banner"] p' };

export async function nodeStopsThenHangs(run: UiRun): Promise<void> {
  const { ui, proxy, expected } = run;
  await ui.openTab('Home');
  const updatedAt = (await ui.waitText({ testid: 'refresh-state' }, /^Updated \S+/)).match(/^Updated (\S+)/)![1];

  proxy.setMode('down');
  await ui.click({ button: 'Refresh balances' }, 30_000);
  await expect.poll(() => bannerState(ui), { message: 'the node is said unreachable', timeout: 20_000, interval: 200 }).toBe('unreachable');
  const said = (await ui.textOf(bannerText))!;
  expect(said).toMatch(/^The node can't be reached\. Check that it is running and that its address in Settings is right\. Since \S+\. Balances shown are from /);
  expect(said).not.toMatch(/http|127\.0\.0\.1|ext\/bc/);
  expect(said).toContain(`Balances shown are from ${updatedAt}.`);
  await ui.waitText({ testid: 'refresh-state' }, `Not up to date: these balances are from ${updatedAt}`);
  // The last balances stay on screen, unchanged.
  expect(await ui.homeTotals()).toEqual(expected);
  // On every screen, not only Home.
  for (const screen of ['Send', 'Move'] as const) {
    await ui.openTab(screen);
    expect(await bannerState(ui), `the banner on ${screen}`).toBe('unreachable');
  }
  await ui.screenshot('node-down');
  await ui.openTab('Home');

  // Back up: the banner goes with the next refresh.
  proxy.setMode('up');
  await ui.click({ button: 'Refresh balances' }, 30_000);
  await expect.poll(() => bannerState(ui), { message: 'the banner goes', timeout: 20_000 }).toBeNull();

  // Hung: no answer at all. Slow after 10 s, then "took too long" once the wallet stops waiting.
  proxy.setMode('hang');
  await ui.click({ button: 'Refresh balances' }, 30_000);
  await expect.poll(() => bannerState(ui), { message: 'the node is said slow', timeout: 14_000, interval: 250 }).toBe('slow');
  expect(await ui.textOf({ testid: 'node-banner' })).toMatch(/^The node is slow\. A refresh started at \S+ is still waiting for it\. Balances shown are from /);
  await ui.screenshot('node-slow');
  await expect.poll(() => bannerState(ui), { message: 'the hung node is given up on', timeout: 40_000, interval: 250 }).toBe('unreachable');
  expect(await ui.textOf(bannerText)).toMatch(/^The node took too long to answer\./);
  proxy.setMode('up');
  await ui.find({ button: 'Refresh balances' }, 20_000);
  await ui.expectHomeTotals(expected);
  expect(await bannerState(ui)).toBeNull();
}
