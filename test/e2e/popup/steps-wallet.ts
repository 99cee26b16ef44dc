// The wallet's own steps through the popup: onboarding (the phrase read from the screen, words
// typed back, a password), the node added in Settings, Receive, funding and the exact totals, an
// accessibility audit of every screen, a UTXO the node makes up, and the restore from the noted
// phrase in a second fresh profile.
import { expect } from 'vitest';
import { formatAddress, formatPrivateKey } from '../../../src/core/encoding.js';
import { formatEvmAddress } from '../../../src/core/evm-address.js';
import { toHex } from '../../../src/core/bytes.js';
import { deriveEvmKey, deriveXpKey, HdRoot, keyPairFromSecret, mnemonicToSeed } from '../../../src/core/keys.js';
import { fundX, PASSWORD } from '../harness.js';
import { madeUpUtxo } from '../loopback.js';
import { amountText } from './amounts.js';
import { type PopupDriver, SCREENS } from './driver.js';
import type { UiRun } from './run.js';

export const NODE_NAME = 'E2E local node';
/** Funding of the new wallet's X address, nAVAX: odd on purpose, so that only the exact amount matches. */
export const FUNDING = 5_432_109_876n;
/** What the lying proxy adds under a made-up tx, nAVAX. */
const MADE_UP = 7_000_000_000n;

export async function createWallet(run: UiRun): Promise<void> {
  const { ui } = run;
  // The background may still be starting when the popup first asks for the wallet's state.
  await ui.find({ heading: 'Welcome to XPC Wallet' }, 30_000);
  await ui.screenshot('onboarding');
  await ui.click({ button: 'Create a new wallet' });

  await ui.find({ heading: 'Your recovery phrase' });
  const words = await ui.page.evaluate(() => [...document.querySelectorAll('ol[aria-label="Recovery phrase"] li .mono')].map((e) => (e.textContent ?? '').trim()));
  expect(words).toHaveLength(24);
  for (const w of words) expect(w).toMatch(/^[a-z]{3,8}$/);
  await ui.click({ button: 'I wrote them down' });

  await ui.find({ heading: 'Confirm your recovery phrase' });
  const asked = await ui.page.evaluate(
    () => [...document.querySelectorAll('label')].map((l) => /^Word #(\d+)$/.exec((l.textContent ?? '').trim())?.[1]).filter((n): n is string => n !== undefined).map(Number),
  );
  expect(asked).toHaveLength(3);
  // A wrong word first: it is named and nothing goes on.
  const first = asked[0]!;
  await ui.fill(`Word #${first}`, words.find((w) => w !== words[first - 1])!);
  await ui.click({ button: 'Confirm' });
  await ui.find({ text: `Word #${first} does not match your phrase` });
  expect(await ui.exists({ heading: 'Confirm your recovery phrase' })).toBe(true);
  for (const n of asked) await ui.fill(`Word #${n}`, words[n - 1]!);
  await ui.click({ button: 'Confirm' });

  await ui.find({ heading: 'Choose a password' });
  await ui.fill('Password', PASSWORD);
  await ui.fill('Confirm password', PASSWORD);
  await ui.click({ button: 'Create wallet' });
  await ui.find({ tab: 'Home' }, 30_000);
  await ui.find({ text: 'Total AVAX, all chains' });

  // The keys the test expects from the phrase on screen (BIP-44, account 0, first receive key).
  run.words = words;
  const root = HdRoot.fromSeed(await mnemonicToSeed(words.join(' ')));
  run.receiveKey = deriveXpKey(root, 0, 0, 0);
  run.cAddress = formatEvmAddress(deriveEvmKey(root, 0).evmAddress);
}

/** Settings → Network: adds the node under NODE_NAME and selects it; the header then names it. */
export async function addAndSelectNode(ui: PopupDriver, url: string): Promise<void> {
  await ui.openTab('Settings');
  await ui.openSection('Network');
  // A built-in network's name, in other letters, is refused as it is typed: each network has a name of its own.
  await ui.fill('Name', 'local NETWORK');
  await ui.waitText({ css: '.section[open] form' }, /Another network is named “Local network”: choose another name/);
  await ui.fill('Name', NODE_NAME);
  await ui.fill('Node URL', url);
  await ui.click({ button: 'Add network' });
  // Added (checked with the node first), said below the form, which it focuses: the popup scrolls.
  await ui.find({ text: `Added ${NODE_NAME}. Its Use button, in the list above, switches to it.` });
  // A click on its Use button: the network changes only once networks.select has asked the node
  // who it is; then the badge in the header names it, and the button says it is in use.
  await ui.click({ button: `Use: ${NODE_NAME}` });
  await ui.waitText({ css: 'header.topbar .badge.net' }, NODE_NAME);
  await ui.find({ button: `In use: ${NODE_NAME}` });
  await ui.find({ text: url });
}

export async function addNodeAndReceive(run: UiRun): Promise<void> {
  const { ui } = run;
  await addAndSelectNode(ui, run.proxy.url);
  await ui.screenshot('settings');

  await ui.openTab('Receive');
  run.xAddress = await ui.waitText({ testid: 'receive-address' }, /^X-custom1[02-9ac-hj-np-z]{38}$/);
  expect(run.xAddress).toBe(formatAddress('X', 'custom', run.receiveKey.shortId));
  await ui.check('C-Chain');
  await ui.waitText({ testid: 'receive-address' }, run.cAddress);
  // The QR code comes from its own chunk, loaded when Receive first shows (under the page's CSP).
  await ui.find({ css: 'svg.qr[role="img"][aria-label="QR code of your C-Chain address"]' });
  await ui.screenshot('receive');
}

export async function funded(run: UiRun): Promise<void> {
  const { ui } = run;
  await fundX(run.xAddress, FUNDING);
  run.expected.X = FUNDING;
  await ui.expectHomeTotals(run.expected);
  // One balance per chain (no second AVAX row), rounded for reading, the exact amount in its name and one click away.
  expect(await ui.exists({ testid: `asset-X-${run.avax}` })).toBe(false);
  const total = { css: '[data-testid="total-all"] button' };
  expect(await ui.textOf(total)).toBe(`≈ 5.432109 AVAX (exactly ${amountText(FUNDING, 9)} AVAX)`);
  await ui.click(total);
  await ui.waitText(total, `${amountText(FUNDING, 9)} AVAX`);
  await ui.click(total);
  await ui.waitText(total, /^≈ /);
  await ui.screenshot('home');
}

export async function auditEveryScreen(run: UiRun): Promise<void> {
  const { ui } = run;
  for (const name of SCREENS) {
    await ui.openTab(name);
    if (name === 'Send' || name === 'Receive' || name === 'Move') {
      // The action clicked is gone with Home: focus is on the new screen's heading, not lost to the page.
      await expect.poll(() => ui.page.evaluate(() => document.activeElement?.tagName), { message: `focus on ${name}'s heading` }).toBe('H1');
    }
    await ui.audit(name);
  }
  // Settings with every section open.
  const sections = await ui.page.evaluate(() => [...document.querySelectorAll('details.section > summary')].map((s) => (s.textContent ?? '').replace(/\s+/g, ' ').trim()));
  expect(sections.length).toBeGreaterThan(2);
  for (const title of sections) await ui.openSection(title);
  await ui.audit('Settings, all sections open');
}

export async function unprovenUtxo(run: UiRun): Promise<void> {
  const { ui, proxy, expected } = run;
  proxy.rewrite('avm.getUTXOs', madeUpUtxo(run.xAddress, run.avax, MADE_UP));
  await ui.expectHomeTotals({ ...expected, X: expected.X + MADE_UP });
  expect(await ui.textOf({ testid: `unproven-X-${run.avax}` })).toMatch(/^7 AVAX of this is unproven: your node showed no transaction that created it\./);
  await ui.screenshot('home-unproven');
  proxy.rewrite('avm.getUTXOs', undefined);
  await ui.expectHomeTotals(expected);
  expect(await ui.exists({ testid: `unproven-X-${run.avax}` })).toBe(false);
}

/** In `ui`, a second browser's fresh profile: the wallet restored from the noted phrase finds the same address and funds. */
export async function restoreFromPhrase(run: UiRun, ui: PopupDriver): Promise<void> {
  await ui.find({ heading: 'Welcome to XPC Wallet' }, 30_000);
  await ui.click({ button: 'Restore from a recovery phrase' });
  await ui.find({ heading: 'Restore from a recovery phrase' });
  await ui.fill('Recovery phrase (12 to 24 words)', run.words.join(' '));
  await ui.find({ text: '24 words' });
  await ui.click({ button: 'Next' });
  await ui.find({ heading: 'Choose a password' });
  await ui.fill('Password', PASSWORD);
  await ui.fill('Confirm password', PASSWORD);
  await ui.click({ button: 'Restore wallet' });
  // Nothing answers at the preset network's address in this profile, so the phrase's other
  // accounts could not be looked for: the wallet says so before it opens.
  await ui.find({ heading: 'Wallet restored' }, 30_000);
  await ui.click({ button: 'Continue' });
  await ui.find({ tab: 'Home' }, 30_000);

  await addAndSelectNode(ui, run.proxy.url);
  await ui.openTab('Receive');
  await ui.waitText({ testid: 'receive-address' }, run.xAddress);
  // The restored wallet finds the same funds on all three chains (change outputs included).
  await ui.expectHomeTotals(run.expected);
  await ui.screenshot('restored-home');
}

/**
 * In `ui` (the restored wallet), the password forgotten: "start again with a private key" on the
 * unlock screen, the key checked before the password step, a loss screen that names the recovery
 * phrase, and the wallet made from the key (Receive shows its address). While the loss screen is
 * up, another window of the same wallet (`openOther`) unlocks it and imports a key: the Confirm is
 * refused and the screen, shown again with that account, says it changed; the next Confirm restores.
 */
export async function startAgainWithKey(run: UiRun, ui: PopupDriver, openOther: () => Promise<PopupDriver>): Promise<void> {
  await ui.click({ button: 'Lock', within: 'header' });
  await ui.click({ button: 'start again with a private key' });
  await ui.find({ heading: 'Start again with a private key' });
  const secret = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
  // One character of the key changed (its checksum no longer matches): refused before the password step, in words.
  const typed = formatPrivateKey(secret);
  await ui.fill('Private key', `${typed.slice(0, -1)}${typed.endsWith('a') ? 'b' : 'a'}`);
  await ui.click({ button: 'Next' });
  await ui.waitText({ css: '.field-error' }, /this private key has a typo/i);
  await ui.fill('Private key', toHex(secret));
  await ui.click({ button: 'Next' });
  await ui.find({ heading: 'Choose a password' });
  await ui.fill('Password', PASSWORD);
  await ui.fill('Confirm password', PASSWORD);
  await ui.click({ button: 'Restore wallet' });
  await ui.find({ heading: 'This restore loses data' }, 30_000);
  const shown = await ui.waitText({ css: '[role="alert"]' }, /The recovery phrase stored now: it will be gone from this wallet/);
  expect(shown).not.toMatch(/imported private key|changed since/);
  const other = await openOther();
  await other.fill('Password', PASSWORD);
  await other.click({ button: 'Unlock' });
  await other.find({ tab: 'Home' }, 15_000);
  await importKeyInSettings(other, 'Imported elsewhere', Uint8Array.from({ length: 32 }, (_, i) => 64 - i));
  await ui.click({ button: 'Restore anyway' });
  await ui.waitText({ css: '[role="alert"]' }, /This has changed since you confirmed: read it again\..*1 account from an imported private key/s);
  await ui.click({ button: 'Restore anyway' });
  await ui.find({ tab: 'Home' }, 30_000);
  await ui.openTab('Receive');
  const hrp = run.xAddress.slice(2, run.xAddress.lastIndexOf('1'));
  await ui.waitText({ testid: 'receive-address' }, formatAddress('X', hrp, keyPairFromSecret(secret).shortId));
}

/**
 * Settings → Accounts → Import a key: `secret` imported as account `name`; given `taken` (another
 * account's name), that name is tried first and refused as it is typed.
 */
async function importKeyInSettings(ui: PopupDriver, name: string, secret: Uint8Array, taken?: string): Promise<void> {
  await ui.openTab('Settings');
  await ui.openSection('Accounts');
  await ui.click({ button: 'Import a key' });
  if (taken !== undefined) {
    await ui.fill('New account name', taken.toUpperCase());
    const shown = `Another account is named “${taken}”: choose another name`;
    await ui.waitText({ css: '.section[open] form' }, new RegExp(shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  }
  await ui.fill('New account name', name);
  await ui.fill('Private key', toHex(secret));
  await ui.click({ button: 'Import' });
  await ui.find({ text: name, within: '.section[open] .plain-list' });
}

/**
 * Settings → Accounts: a key imported (after another account's name is refused), then removed through its review: what removing costs is
 * said first; a wrong password is refused and keeps it; the right one removes it and its key.
 */
export async function importThenRemoveAccount(run: UiRun): Promise<void> {
  const { ui } = run;
  const names = async () => (await ui.call('accounts.list', {})).accounts.map((a) => a.name);
  const before = await names();
  await importKeyInSettings(ui, 'Short-lived', Uint8Array.from({ length: 32 }, (_, i) => 90 - i), before[0]);
  await ui.click({ button: 'Remove Short-lived…' });
  const form = 'form[aria-label="Remove Short-lived"]';
  await ui.waitText({ css: `${form} .warn-box` }, /deletes its private key from this wallet/);
  await ui.audit('Settings, removing an account');
  await ui.fill('Password to remove “Short-lived”', 'not the password');
  await ui.click({ button: 'Remove “Short-lived”' });
  await ui.waitText({ css: `${form} [role="alert"]` }, /password/i);
  expect(await names()).toEqual([...before, 'Short-lived']);
  await ui.click({ button: 'Keep it' });
  await ui.click({ button: 'Remove Short-lived…' });
  await ui.fill('Password to remove “Short-lived”', PASSWORD);
  await ui.click({ button: 'Remove “Short-lived”' });
  await expect.poll(names, { message: 'the account is removed' }).toEqual(before);
  // The list follows: its row (the form, then the name) is gone.
  await ui.gone({ css: form });
  await ui.gone({ text: 'Short-lived', within: '.section[open] .plain-list' });
}
