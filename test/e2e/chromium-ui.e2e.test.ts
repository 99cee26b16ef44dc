// The built Chrome extension (dist/chrome) in Debian's Chromium, headless, with a fresh profile,
// against the run's local node: this time through the popup's own screens. The test opens the
// popup page (chrome-extension://<id>/<popup>, 400×600) and clicks, types and reads like a user
// (roles, labels, visible text, data-testid): create a wallet, add the node, receive funds, send
// on X and C, create and mint assets and an NFT, move AVAX X→C→P→X, lock and unlock, and restore
// the wallet from its phrase in a second fresh profile.
//
// Expected balances are tracked in exact base units from the amounts typed and the fees the
// screens show; the fixed X-Chain fees are checked against the node's own (avm.getTxFee), and the
// receiving side of every send is checked on the node itself.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { txId } from '../../src/core/codec/ids.js';
import { cb58Encode, formatAddress, fromApiHex } from '../../src/core/encoding.js';
import { formatEvmAddress } from '../../src/core/evm-address.js';
import { deriveEvmKey, deriveXpKey, HdRoot, mnemonicToSeed, type KeyPair } from '../../src/core/keys.js';
import { engineOf, freshKey, localNetwork } from '../integration/fixture.js';
import { shortenId } from '../../src/popup/format.js';
import { WEI_PER_NAVAX } from '../../src/core/amount.js';
import {
  artifactPath,
  avaxAssetId,
  builtExtension,
  type BuiltExtension,
  clearArtifacts,
  ConsoleLog,
  ExtensionWorkerWatch,
  flowSteps,
  fundX,
  PASSWORD,
  type RpcProxy,
  slug,
  startRpcProxy,
  Timings,
  within,
  launchOrSaveLog,
  madeUpUtxo,
  POPUP_VIEWPORT,
} from './harness.js';
import { AXE_SOURCE, auditInPage } from './a11y.js';
import { amountText, expectHomeTotals, fact, homeTotals, openTab, parseAmount, readAmount, screenshot, settingsSection, typedAmount, UiBrowser, waitAccepted, type Totals } from './ui.js';

const NODE_NAME = 'E2E local node';
/** Funding of the new wallet's X address, nAVAX: odd on purpose, so that only the exact amount matches. */
const FUNDING = 5_432_109_876n;
const SEND_X = 123_456_789n; // nAVAX
/** What the lying proxy adds under a made-up tx, nAVAX. */
const MADE_UP = 7_000_000_000n;
const SEND_C_WEI = 12_345_678_900_000_000n; // 0.0123456789 AVAX
const MOVE_X_TO_C = 1_500_000_000n; // nAVAX
const MOVE_C_TO_P = 600_000_000n;
const MOVE_P_TO_X = 250_000_000n;
const MOVE_X_TO_P = 400_000_000n;
/** The variable-cap asset: 2 decimals, 1,234.56 minted. */
const GOLD = { name: 'E2E Gold', symbol: 'EGLD', decimals: 2, mint: 123_456n };
const ART = { name: 'E2E Art', symbol: 'EART', payload: 'e2e NFT #1: hello from the popup' };

/** The network fee an asset form shows before signing, in nAVAX (null while it loads). */
async function feeShown(scope: Page | Locator): Promise<bigint | null> {
  const text = await scope.getByTestId('asset-fee').first().textContent();
  return text?.includes('AVAX') ? parseAmount(text, 9) : null;
}

/** A node-side view of one key's funds (its X UTXOs, its C balance), for the receiving side of a send. */
async function engineFor(key: KeyPair) {
  return engineOf(await localNetwork(), { xp: [key], evm: key, change: key.shortId });
}

describe('Chromium: the popup UI, clicked through, against the local node', () => {
  const timings = new Timings();
  const log = new ConsoleLog();
  const main = new UiBrowser('main', log);
  const second = new UiBrowser('restore', log);
  let ext: BuiltExtension;
  let proxy: RpcProxy | undefined;
  let popup: Page;
  let avax = '';
  let xTxFee = 0n;
  let createAssetFee = 0n;
  /** The phrase as the onboarding screen showed it. */
  let words: string[] = [];
  let xAddress = '';
  /** The phrase's first X/P key (account 0, receive 0) and its C-Chain address, derived by the test. */
  let receiveKey: KeyPair;
  let cAddress = '';
  /** What the home screen must show after each step. */
  const expected: Totals = { X: 0n, P: 0n, C: 0n };

  const step = flowSteps(timings, async (failed) => {
    const name = `chromium-ui-FAILED-${slug(failed)}`;
    for (const b of [main, second]) {
      if (b.popup && !b.popup.isClosed()) await b.popup.screenshot({ path: artifactPath(`${name}-${b.label}.png`), fullPage: true }).catch(() => undefined);
    }
    const path = log.save(`${name}.console.log`);
    console.error(`[e2e chromium-ui] step "${failed}" failed; screenshots and console log: ${path.replace(/\.console\.log$/, '*')}`);
  });

  beforeAll(() =>
    launchOrSaveLog(log, 'chromium-ui-', 'chromium-ui', async () => {
      clearArtifacts('chromium-ui-');
      ext = builtExtension('chrome');
      proxy = await startRpcProxy(inject('nodeUrl'));
      const net = await localNetwork();
      avax = await avaxAssetId();
      xTxFee = net.ctx.xTxFee;
      createAssetFee = net.ctx.xCreateAssetTxFee;
      timings.add('launch', await main.launch(ext));
      popup = await main.openPopup(ext);
    }),
  );

  afterAll(async () => {
    await main.close();
    await second.close();
    await proxy?.close();
    log.save('chromium-ui-console.log');
    console.log(timings.summary('chromium-ui'));
  });

  /** Settings → Network: adds the node under NODE_NAME and selects it; the header then names it. */
  const addAndSelectNode = async (page: Page): Promise<void> => {
    await openTab(page, 'Settings');
    const network = await settingsSection(page, 'Network');
    await network.getByLabel('Name', { exact: true }).fill(NODE_NAME);
    await network.getByLabel('Node URL').fill(proxy!.url);
    await network.getByRole('button', { name: 'Add network' }).click();
    const radio = network.getByRole('radio', { name: NODE_NAME });
    // A click (not check()): the radio follows the selected network, which changes only once
    // networks.select has asked the node who it is; then the badge in the header names it.
    await radio.click();
    await expect.poll(() => page.locator('header.topbar .badge.net').textContent(), { timeout: 15_000 }).toBe(NODE_NAME);
    await expect.poll(() => radio.isChecked()).toBe(true);
    await expect.poll(() => network.getByText(proxy!.url, { exact: true }).count()).toBe(1);
  };

  step('onboarding: creates a wallet from the shown 24-word phrase, confirms it and sets a password', async () => {
    expect(main.extensionId).toMatch(/^[a-p]{32}$/);
    await popup.getByRole('heading', { name: 'Welcome to XPC Wallet' }).waitFor();
    await screenshot(popup, 'onboarding');
    await popup.getByRole('button', { name: 'Create a new wallet' }).click();

    await popup.getByRole('heading', { name: 'Your recovery phrase' }).waitFor();
    words = (await popup.getByRole('list', { name: 'Recovery phrase' }).locator('li .mono').allTextContents()).map((w) => w.trim());
    expect(words).toHaveLength(24);
    for (const w of words) expect(w).toMatch(/^[a-z]{3,8}$/);
    await popup.getByRole('button', { name: 'I wrote them down' }).click();

    await popup.getByRole('heading', { name: 'Confirm your recovery phrase' }).waitFor();
    const asked = (await popup.locator('label').filter({ hasText: /^Word #\d+$/ }).allTextContents()).map((t) => Number(t.slice('Word #'.length)));
    expect(asked).toHaveLength(3);
    // A wrong word first: it is named and nothing goes on.
    const first = asked[0]!;
    const wrong = words.find((w) => w !== words[first - 1])!;
    await popup.getByLabel(`Word #${first}`, { exact: true }).fill(wrong);
    await popup.getByRole('button', { name: 'Confirm', exact: true }).click();
    await popup.getByText(`Word #${first} does not match your phrase`).waitFor();
    for (const n of asked) await popup.getByLabel(`Word #${n}`, { exact: true }).fill(words[n - 1]!);
    await popup.getByRole('button', { name: 'Confirm', exact: true }).click();

    await popup.getByRole('heading', { name: 'Choose a password' }).waitFor();
    await popup.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await popup.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await popup.getByRole('button', { name: 'Create wallet' }).click();
    await popup.getByRole('navigation', { name: 'Wallet sections' }).waitFor({ timeout: 30_000 });
    await popup.getByText('Total AVAX, all chains').waitFor();

    // The keys the test expects from the phrase on screen (BIP-44, account 0, first receive key).
    const root = HdRoot.fromSeed(await mnemonicToSeed(words.join(' ')));
    receiveKey = deriveXpKey(root, 0, 0, 0);
    cAddress = formatEvmAddress(deriveEvmKey(root, 0).evmAddress);
  });

  step('adds the test node in Settings, selects it; Receive shows the X-custom1… address of the phrase', async () => {
    await addAndSelectNode(popup);
    await screenshot(popup, 'settings');

    await openTab(popup, 'Receive');
    const shown = popup.getByTestId('receive-address');
    xAddress = (await shown.textContent())!.trim();
    expect(xAddress).toMatch(/^X-custom1[02-9ac-hj-np-z]{38}$/);
    expect(xAddress).toBe(formatAddress('X', 'custom', receiveKey.shortId));
    await popup.getByRole('radio', { name: 'C-Chain', exact: true }).check();
    await expect.poll(async () => (await shown.textContent())?.trim()).toBe(cAddress);
    await screenshot(popup, 'receive');
  });

  step('funded from the genesis key, Home shows the exact X balance after a refresh', async () => {
    await fundX(xAddress, FUNDING);
    expected.X = FUNDING;
    await expectHomeTotals(popup, expected);
    // One balance per chain (no second AVAX row), rounded for reading, the exact amount in its name and one click away.
    expect(await popup.getByTestId(`asset-X-${avax}`).count()).toBe(0);
    const total = popup.getByTestId('total-all').getByRole('button');
    expect(await total.textContent()).toBe(`≈ 5.432109 AVAX (exactly ${amountText(FUNDING, 9)} AVAX)`);
    await total.click();
    expect(await total.textContent()).toBe(`${amountText(FUNDING, 9)} AVAX`);
    await total.click();
    await screenshot(popup, 'home');
  });

  /** axe-core over the popup as it is now: no serious or critical violation, and one h1. */
  const audit = async (name: string): Promise<void> => {
    if (!(await popup.evaluate(() => 'axe' in globalThis))) await popup.evaluate(AXE_SOURCE);
    await popup.locator('h1').first().waitFor();
    expect(await popup.locator('h1').count(), `one h1 on ${name}`).toBe(1);
    const result = await popup.evaluate(auditInPage);
    if (result.other.length > 0) log.add('test', `axe (moderate/minor) on ${name}: ${result.other.join('; ')}`);
    expect(result.blocking.map((line) => `${name}: ${line}`)).toEqual([]);
    expect(result.passed, `rules axe checked on ${name}`).toBeGreaterThan(10);
  };

  step('every screen passes an accessibility audit (axe-core: no serious or critical violation) and has one main heading', async () => {
    for (const name of ['Home', 'Send', 'Receive', 'Move', 'Assets', 'Activity', 'Settings'] as const) {
      await openTab(popup, name);
      await audit(name);
    }
    // Settings with every section open.
    for (const summary of await popup.locator('details.section > summary').all()) await summary.click();
    await audit('Settings, all sections open');
  });

  step('a UTXO no transaction backs is counted apart and said to be unproven; gone once the node stops making it up', async () => {
    proxy!.rewrite('avm.getUTXOs', madeUpUtxo(xAddress, avax, MADE_UP));
    await expectHomeTotals(popup, { ...expected, X: expected.X + MADE_UP });
    expect(await popup.getByTestId(`unproven-X-${avax}`).textContent()).toMatch(/^7 AVAX of this is unproven: your node showed no transaction that created it\./);
    await screenshot(popup, 'home-unproven');
    proxy!.rewrite('avm.getUTXOs', undefined);
    await expectHomeTotals(popup, expected);
    expect(await popup.getByTestId(`unproven-X-${avax}`).count()).toBe(0);
  });

  step('the node stops, then hangs: a banner says so in words, since when, with the age of the balances; it goes once the node answers', async () => {
    await openTab(popup, 'Home');
    const refresh = popup.getByRole('button', { name: 'Refresh balances' });
    const banner = popup.getByTestId('node-banner');
    const bannerState = () => banner.getAttribute('data-state', { timeout: 500 }).catch(() => null);
    const updatedAt = (await popup.getByTestId('refresh-state').textContent())!.match(/^Updated (\S+)/)![1];

    proxy!.setMode('down');
    await refresh.click();
    await expect.poll(bannerState, { message: 'the node is said unreachable', timeout: 20_000 }).toBe('unreachable');
    const said = (await banner.locator('p').first().textContent())!;
    expect(said).toMatch(/^The node can't be reached\. Check that it is running and that its address in Settings is right\. Since \S+\. Balances shown are from /);
    expect(said).not.toMatch(/http|127\.0\.0\.1|ext\/bc/);
    expect(said).toContain(`Balances shown are from ${updatedAt}.`);
    expect(await popup.getByTestId('refresh-state').textContent()).toBe(`Not up to date: these balances are from ${updatedAt}`);
    // The last balances stay on screen, unchanged.
    expect(await homeTotals(popup)).toEqual(expected);
    // On every screen, not only Home.
    await openTab(popup, 'Send');
    expect(await bannerState()).toBe('unreachable');
    await screenshot(popup, 'node-down');
    await openTab(popup, 'Home');

    // Back up: the banner goes with the next refresh.
    proxy!.setMode('up');
    await refresh.click();
    await expect.poll(() => banner.count(), { message: 'the banner goes', timeout: 20_000 }).toBe(0);

    // Hung: no answer at all. Slow after 10 s, then "took too long" once the wallet stops waiting.
    proxy!.setMode('hang');
    await refresh.click();
    await expect.poll(bannerState, { message: 'the node is said slow', timeout: 14_000, interval: 250 }).toBe('slow');
    expect(await banner.textContent()).toMatch(/^The node is slow\. It has not answered since \S+\. Balances shown are from /);
    await screenshot(popup, 'node-slow');
    await expect.poll(bannerState, { message: 'the hung node is given up on', timeout: 40_000, interval: 250 }).toBe('unreachable');
    expect(await banner.locator('p').first().textContent()).toMatch(/^The node took too long to answer\./);
    proxy!.setMode('up');
    await expect.poll(() => refresh.isEnabled(), { timeout: 20_000 }).toBe(true);
    await expectHomeTotals(popup, expected);
    expect(await banner.count()).toBe(0);
  });

  step('a review confirmed after the account was switched elsewhere is refused, and nothing is sent', async () => {
    const send = <T,>(type: string, params: unknown) =>
      popup.evaluate(
        async ([t, p]) =>
          (await (globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<unknown> } } }).chrome.runtime.sendMessage({ channel: 'xpc-wallet', type: t, params: p })) as { ok: boolean; result: unknown },
        [type, params] as const,
      ) as Promise<{ ok: boolean; result: T }>;
    await openTab(popup, 'Send');
    await popup.getByLabel('To (X-Chain address)').fill(formatAddress('X', 'custom', freshKey().shortId));
    await popup.getByLabel('Amount (AVAX)').fill('0.5');
    await popup.getByRole('button', { name: 'Review' }).click();
    await popup.getByRole('heading', { name: 'Review' }).waitFor();
    // Another window switches the account while this review is open.
    const mine = (await send<{ account: { id: string } }>('wallet.status', {})).result.account.id;
    const other = (await send<{ id: string }>('accounts.add', { name: 'Elsewhere' })).result.id;
    expect((await send('accounts.select', { id: other })).ok).toBe(true);
    await popup.getByRole('button', { name: 'Confirm and send' }).click();
    await expect.poll(() => popup.getByRole('alert').locator('p').first().textContent(), { timeout: 15_000 }).toBe('The account or network was switched since this was reviewed: nothing was sent; review it again');
    expect((await send('accounts.select', { id: mine })).ok).toBe(true);
    await popup.getByRole('button', { name: 'Edit' }).click();
    await expectHomeTotals(popup, expected);
  });

  step('sends AVAX on the X-Chain through Send → Review → Confirm; accepted, balance down by amount + fee', async () => {
    const recipient = freshKey();
    const to = formatAddress('X', 'custom', recipient.shortId);
    await openTab(popup, 'Send');
    expect(await popup.getByRole('radio', { name: 'X-Chain', exact: true }).isChecked()).toBe(true);
    await popup.getByLabel('To (X-Chain address)').fill(to);
    await popup.getByLabel('Amount (AVAX)').fill(typedAmount(SEND_X, 9));
    // The exact fee of this very transaction, before the review.
    await expect.poll(() => popup.getByTestId('fee-line').textContent(), { timeout: 15_000 }).toBe(`${amountText(xTxFee, 9)} AVAX, exactly (this transaction, built but not signed)`);
    await popup.getByRole('button', { name: 'Review' }).click();

    await popup.getByRole('heading', { name: 'Review' }).waitFor();
    expect(await popup.getByTestId('review-amount').textContent()).toBe(`${amountText(SEND_X, 9)} AVAX`);
    expect(await popup.getByTestId('review-to').textContent()).toBe(to);
    expect(await readAmount(popup.getByTestId('review-fee'), 9)).toBe(xTxFee);
    expect(await readAmount(popup.getByTestId('review-total'), 9)).toBe(SEND_X + xTxFee);
    await screenshot(popup, 'send-review');
    await audit('Send review');
    await screenshot(popup, 'send-review');
    await popup.getByRole('button', { name: 'Confirm and send' }).click();

    await popup.getByRole('heading', { name: 'Sent' }).waitFor({ timeout: 30_000 });
    await waitAccepted(popup, 'X');
    expect(await readAmount(fact(popup, 'Fee paid'), 9)).toBe(xTxFee);
    const txID = (await fact(popup, 'Transaction ID').locator('.mono').textContent())!.trim();

    await openTab(popup, 'Activity');
    const item = popup.getByTestId('activity-item').first();
    await expect.poll(() => item.locator('.badge').textContent(), { timeout: 15_000 }).toBe('Accepted');
    expect(await item.locator('strong').textContent()).toBe('Sent');
    expect(await item.locator('.tx-mid').textContent()).toBe(`X-Chain${amountText(SEND_X, 9)} AVAX`);
    expect(await item.getByText(/^Fee /).textContent()).toBe(`Fee ${amountText(xTxFee, 9)} AVAX`);
    expect(await item.locator('.tx-bottom .mono').getAttribute('title')).toBe(txID);

    expected.X -= SEND_X + xTxFee;
    await expectHomeTotals(popup, expected);
    // The receiving side, on the node.
    const theirs = (await (await engineFor(recipient)).balances('X')).find((b) => cb58Encode(b.assetID) === avax);
    expect(theirs?.spendable).toBe(SEND_X);
  });

  step('Assets: creates a variable-cap asset and mints it; creates an NFT family, mints an NFT and sends it', async () => {
    await openTab(popup, 'Assets');
    await popup.getByRole('heading', { name: 'Assets' }).waitFor();

    // -- a variable-cap asset, this wallet the only minter --
    await popup.getByRole('radio', { name: 'Create', exact: true }).check();
    await popup.getByRole('radio', { name: 'Variable cap' }).check();
    await popup.getByLabel('Name', { exact: true }).fill(GOLD.name);
    await popup.getByLabel('Symbol', { exact: true }).fill(GOLD.symbol);
    await popup.getByLabel('Decimal places (denomination)').fill(String(GOLD.decimals));
    expect((await popup.getByLabel('Addresses (one per line)').inputValue()).trim()).toBe(xAddress);
    expect(await popup.getByLabel('Signatures needed').inputValue()).toBe('1');
    // The fee is known before anything is signed: the network's creation fee, then paid exactly.
    await expect.poll(() => feeShown(popup)).toBe(createAssetFee);
    await popup.getByRole('button', { name: 'Create asset' }).click();
    // Review first: nothing is signed until Confirm; the review names the asset, its minter and the fee.
    const goldReview = popup.getByTestId('review');
    await goldReview.getByRole('heading', { name: 'Review the new asset' }).waitFor();
    expect(await fact(goldReview, 'Name').textContent()).toBe(GOLD.name);
    expect(await fact(goldReview, 'Minter set 1').textContent()).toBe(`1 of ${xAddress}`);
    expect(await readAmount(goldReview.getByTestId('review-fee'), 9)).toBe(createAssetFee);
    await screenshot(popup, 'asset-review');
    // Edit goes back with everything typed kept; the second review confirms.
    await goldReview.getByRole('button', { name: 'Edit' }).click();
    expect(await popup.getByLabel('Name', { exact: true }).inputValue()).toBe(GOLD.name);
    await popup.getByRole('button', { name: 'Create asset' }).click();
    await popup.getByRole('button', { name: 'Confirm and create' }).click();
    await waitAccepted(popup, 'X');
    const goldID = (await fact(popup, 'New asset ID').locator('.mono').textContent())!.trim();
    expect(goldID).toMatch(/^[1-9A-HJ-NP-Za-km-z]{49,50}$/);
    expect(await readAmount(fact(popup, 'Fee paid'), 9)).toBe(createAssetFee);
    await popup.getByRole('button', { name: 'Done' }).click();

    await popup.getByRole('radio', { name: 'Mint', exact: true }).check();
    const mintAsset = popup.getByLabel('Asset', { exact: true });
    await mintAsset.waitFor();
    await mintAsset.selectOption(goldID);
    await popup.getByLabel(`Amount (${GOLD.symbol})`).fill(typedAmount(GOLD.mint, GOLD.decimals));
    expect((await popup.getByLabel('Mint to (X-Chain address)').inputValue()).trim()).toBe(xAddress);
    await expect.poll(() => feeShown(popup)).toBe(xTxFee);
    await popup.getByRole('button', { name: 'Mint', exact: true }).click();
    const mintReview = popup.getByTestId('review');
    expect(await mintReview.getByTestId('review-amount').textContent()).toBe(`${amountText(GOLD.mint, GOLD.decimals)} ${GOLD.symbol}`);
    expect(await mintReview.getByTestId('review-to').textContent()).toBe(xAddress);
    expect(await readAmount(mintReview.getByTestId('review-fee'), 9)).toBe(xTxFee);
    await mintReview.getByRole('button', { name: 'Confirm and mint' }).click();
    await waitAccepted(popup, 'X');
    expect(await readAmount(fact(popup, 'Fee paid'), 9)).toBe(xTxFee);
    await popup.getByRole('button', { name: 'Done' }).click();

    // Held: the new asset with the minted amount, and its details offer minting more.
    await popup.getByRole('radio', { name: 'Held', exact: true }).check();
    const held = popup.getByRole('button', { name: new RegExp(`^Details of ${GOLD.symbol} .*\\(asset ID ${goldID}\\)$`) });
    await expect.poll(async () => held.locator('.amount').textContent().catch(() => null), { timeout: 20_000 }).toBe(`${amountText(GOLD.mint, GOLD.decimals)} ${GOLD.symbol}`);
    await held.click();
    expect(await fact(popup, 'You hold').textContent()).toBe(`${amountText(GOLD.mint, GOLD.decimals)} ${GOLD.symbol}`);
    expect(await fact(popup, 'Name').textContent()).toBe(GOLD.name);
    expect(await fact(popup, 'Denomination').textContent()).toBe(`${GOLD.decimals} decimal places`);
    await popup.getByRole('button', { name: 'Mint more' }).waitFor();
    await screenshot(popup, 'assets');
    await popup.getByRole('button', { name: '← All assets' }).click();
    // On the node: the minted units are on the wallet's first address.
    const mine = (await (await engineFor(receiveKey)).balances('X')).find((b) => cb58Encode(b.assetID) === goldID);
    expect(mine?.spendable).toBe(GOLD.mint);

    // -- an NFT family (group 0, this wallet the minter), one NFT minted, then sent away --
    await popup.getByRole('radio', { name: 'Create', exact: true }).check();
    await popup.getByRole('radio', { name: 'NFT family' }).check();
    await popup.getByLabel('Name', { exact: true }).fill(ART.name);
    await popup.getByLabel('Symbol', { exact: true }).fill(ART.symbol);
    expect((await popup.getByLabel('Addresses (one per line)').inputValue()).trim()).toBe(xAddress);
    await popup.getByRole('button', { name: 'Create asset' }).click();
    expect(await fact(popup.getByTestId('review'), 'Group 0 minters').textContent()).toBe(`1 of ${xAddress}`);
    await popup.getByRole('button', { name: 'Confirm and create' }).click();
    await waitAccepted(popup, 'X');
    const artID = (await fact(popup, 'New asset ID').locator('.mono').textContent())!.trim();
    expect(await readAmount(fact(popup, 'Fee paid'), 9)).toBe(createAssetFee);
    await popup.getByRole('button', { name: 'Done' }).click();

    await popup.getByRole('radio', { name: 'NFTs', exact: true }).check();
    await popup.getByText('No NFTs on the X-Chain yet.').waitFor();
    const group = popup.getByLabel('NFT family and group');
    await group.waitFor();
    await group.selectOption(`${artID}:0`);
    await popup.getByLabel('Payload', { exact: true }).fill(ART.payload);
    expect((await popup.getByLabel('Owner (X-Chain address)').inputValue()).trim()).toBe(xAddress);
    await expect.poll(() => feeShown(popup.locator('form').filter({ hasText: 'Mint an NFT' }))).toBe(xTxFee);
    await popup.getByRole('button', { name: 'Mint NFT' }).click();
    const nftReview = popup.getByTestId('review');
    expect(await fact(nftReview, 'Payload').textContent()).toBe(ART.payload);
    expect(await nftReview.getByTestId('review-to').textContent()).toBe(xAddress);
    await nftReview.getByRole('button', { name: 'Confirm and mint NFT' }).click();
    await waitAccepted(popup, 'X');
    expect(await readAmount(fact(popup, 'Fee paid'), 9)).toBe(xTxFee);
    await popup.getByRole('button', { name: 'Done' }).click();

    const nft = popup.getByTestId('nft').filter({ hasText: ART.payload });
    await nft.waitFor({ timeout: 15_000 });
    expect(await nft.locator('.asset-symbol').textContent()).toBe(ART.symbol);
    const nftRecipient = freshKey();
    await nft.getByRole('button', { name: new RegExp(`^Send ${ART.symbol} NFT `) }).click();
    await nft.getByLabel('To (X-Chain address)').fill(formatAddress('X', 'custom', nftRecipient.shortId));
    expect(await feeShown(nft)).toBe(xTxFee);
    await nft.getByRole('button', { name: 'Send NFT' }).click();
    expect(await nft.getByTestId('review-to').textContent()).toBe(formatAddress('X', 'custom', nftRecipient.shortId));
    expect(await readAmount(nft.getByTestId('review-fee'), 9)).toBe(xTxFee);
    await nft.getByRole('button', { name: 'Confirm and send NFT' }).click();
    await waitAccepted(nft, 'X');
    expect(await readAmount(fact(nft, 'Fee paid'), 9)).toBe(xTxFee);
    await nft.getByRole('button', { name: 'Done' }).click();
    await popup.getByText('No NFTs on the X-Chain yet.').waitFor({ timeout: 15_000 });
    // On the node: the recipient holds that NFT, with its payload.
    const theirs = (await (await engineFor(nftRecipient)).utxos('X')).filter((u) => cb58Encode(u.assetID) === artID);
    expect(theirs).toHaveLength(1);
    const out = theirs[0]!.output;
    expect(out.kind).toBe('NftTransferOutput');
    if (out.kind === 'NftTransferOutput') {
      expect(out.groupID).toBe(0);
      expect(new TextDecoder().decode(out.payload)).toBe(ART.payload);
    }

    expected.X -= 2n * createAssetFee + 3n * xTxFee;
    await expectHomeTotals(popup, expected);
    // The minted asset is on Home too, as an unverified X asset.
    expect(await popup.getByTestId(`asset-X-${goldID}`).locator('.amount').getAttribute('aria-label')).toBe(`${amountText(GOLD.mint, GOLD.decimals)} ${GOLD.symbol} spendable`);
  });

  /** How many moves this wallet started (each stays listed on the Move screen). */
  let movesStarted = 0;

  /** Move screen: starts a move from → to of `amount` nAVAX with the button; returns its entry in the list. */
  const startMove = async (from: 'X' | 'P' | 'C', to: 'X' | 'P' | 'C', amount: bigint): Promise<Locator> => {
    await openTab(popup, 'Move');
    await popup.getByRole('heading', { name: 'Move between chains' }).waitFor();
    await popup.getByRole('radio', { name: `From ${from}` }).check();
    await popup.getByRole('radio', { name: `To ${to}` }).check();
    await popup.getByLabel('Amount (AVAX)').fill(typedAmount(amount, 9));
    // The fees of exactly this amount (no "about"), then the button.
    const arrives = popup.getByTestId('move-arrives');
    await expect.poll(async () => (await arrives.textContent().catch(() => null)) ?? '', { timeout: 15_000 }).toMatch(/^\d[\d,.]* AVAX$/);
    const arrivesShown = (await arrives.textContent())!;
    await popup.getByRole('button', { name: `Move to the ${to}-Chain` }).click();
    // The review: what leaves, what arrives (as the form said), then Confirm.
    const review = popup.getByTestId('review');
    await review.getByRole('heading', { name: 'Review the move' }).waitFor();
    expect(await review.getByTestId('move-review-arrives').textContent()).toBe(arrivesShown);
    if (movesStarted === 0) await audit('Move review');
    await review.getByRole('button', { name: 'Confirm and move' }).click();
    await popup.getByRole('heading', { name: 'Move between chains' }).waitFor();
    // Counted by the test: the list on screen may still be loading when the screen opens.
    movesStarted += 1;
    await expect.poll(() => popup.getByTestId('transfer').count(), { timeout: 15_000 }).toBe(movesStarted);
    // Newest first.
    const transfer = popup.getByTestId('transfer').first();
    expect(await transfer.locator('.tx-top strong').textContent()).toBe(`${from}-Chain → ${to}-Chain`);
    expect(await transfer.locator('.tx-top .amount').textContent()).toBe(`${amountText(amount, 9)} AVAX`);
    return transfer;
  };

  /** The last step a move shows as done ("Export issued", …, "Imported"), or its failure. */
  const moveProgress = async (transfer: Locator): Promise<string> =>
    (await transfer.locator('.form-error').count()) > 0 ? `failed: ${await transfer.locator('.form-error').textContent()}` : ((await transfer.locator('ol.steps li.done').last().textContent().catch(() => null)) ?? 'nothing done');

  /** Waits until a started move shows "Imported"; returns the export and import fees it shows. */
  const finishedMove = async (transfer: Locator, what: string, timeoutMs = 90_000): Promise<{ exportFee: bigint; importFee: bigint }> => {
    await expect.poll(() => moveProgress(transfer), { message: `the ${what} move completes`, timeout: timeoutMs, interval: 500 }).toBe('Imported');
    log.add('test', `move ${what}: export ${await fact(transfer, 'Export').locator('.mono').textContent()}, import ${await fact(transfer, 'Import').locator('.mono').textContent()}`);
    const exportFee = await readAmount(fact(transfer, 'Export').locator('.muted'), 9);
    const importFee = await readAmount(fact(transfer, 'Import fee'), 9);
    expect(await fact(transfer, 'Import').count()).toBe(1);
    return { exportFee, importFee };
  };

  const move = async (from: 'X' | 'P' | 'C', to: 'X' | 'P' | 'C', amount: bigint): Promise<{ exportFee: bigint; importFee: bigint }> =>
    finishedMove(await startMove(from, to, amount), `${from}→${to}`);

  step('moves AVAX X→C, C→P and P→X on the Move screen, each until it shows "Imported"', async () => {
    const xc = await move('X', 'C', MOVE_X_TO_C);
    expect(xc.exportFee).toBe(xTxFee);
    expected.X -= MOVE_X_TO_C + xc.exportFee;
    expected.C += (MOVE_X_TO_C - xc.importFee) * WEI_PER_NAVAX;
    await expectHomeTotals(popup, expected);

    const cp = await move('C', 'P', MOVE_C_TO_P);
    expected.C -= (MOVE_C_TO_P + cp.exportFee) * WEI_PER_NAVAX;
    expected.P += MOVE_C_TO_P - cp.importFee;
    await expectHomeTotals(popup, expected);

    const px = await move('P', 'X', MOVE_P_TO_X);
    expect(px.importFee).toBe(xTxFee);
    expected.P -= MOVE_P_TO_X + px.exportFee;
    expected.X += MOVE_P_TO_X - px.importFee;
    await expectHomeTotals(popup, expected);

    await openTab(popup, 'Move');
    await expect.poll(() => popup.getByTestId('transfer').count()).toBe(movesStarted);
    await screenshot(popup, 'move');
    log.add('test', `move fees (nAVAX): X→C ${xc.exportFee}+${xc.importFee}, C→P ${cp.exportFee}+${cp.importFee}, P→X ${px.exportFee}+${px.importFee}`);
  });

  step('sends AVAX on the C-Chain through Send; accepted, balance down by amount + the fee paid', async () => {
    const recipient = formatEvmAddress(freshKey().evmAddress);
    await openTab(popup, 'Send');
    await popup.getByRole('radio', { name: 'C-Chain', exact: true }).check();
    await popup.getByLabel('To (C-Chain address)').fill(recipient);
    await popup.getByLabel('Amount (AVAX)').fill(typedAmount(SEND_C_WEI, 18));
    await expect.poll(async () => (await popup.getByTestId('fee-line').textContent()) ?? '', { timeout: 15_000 }).toMatch(/^at most /);
    await popup.getByRole('button', { name: 'Review' }).click();

    await popup.getByRole('heading', { name: 'Review' }).waitFor();
    // Shown to the nAVAX; the last wei digit only in the exact value (its name, one click away).
    expect(await popup.getByTestId('review-amount').textContent()).toBe(`≈ 0.012345678 AVAX (exactly ${amountText(SEND_C_WEI, 18)} AVAX)`);
    expect((await popup.getByTestId('review-to').textContent())?.toLowerCase()).toBe(recipient.toLowerCase());
    const maxFee = await readAmount(popup.getByTestId('review-fee'), 18);
    expect(await readAmount(popup.getByTestId('review-total'), 18)).toBe(SEND_C_WEI + maxFee);
    await screenshot(popup, 'send-review-c');
    await popup.getByRole('button', { name: 'Confirm and send' }).click();

    await popup.getByRole('heading', { name: 'Sent' }).waitFor({ timeout: 30_000 });
    await waitAccepted(popup, 'C');
    const feePaid = await readAmount(fact(popup, 'Fee paid'), 18);
    expect(feePaid).toBeGreaterThan(0n);
    expect(feePaid).toBeLessThanOrEqual(maxFee);
    const hash = (await fact(popup, 'Transaction hash').locator('.mono').textContent())!.trim();
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);

    expected.C -= SEND_C_WEI + feePaid;
    await expectHomeTotals(popup, expected);
    const net = await localNetwork();
    expect(await net.client.eth.getBalance(recipient)).toBe(SEND_C_WEI);
    // What the node says this wallet paid: gas used × effective gas price of the receipt.
    const receipt = await net.client.eth.getTransactionReceipt(hash);
    expect(receipt?.status).toBe(1n);
    expect(receipt!.gasUsed * receipt!.effectiveGasPrice!).toBe(feePaid);

    await openTab(popup, 'Activity');
    const item = popup.getByTestId('activity-item').first();
    await item.waitFor();
    expect(await item.locator('strong').textContent()).toBe('Sent');
    expect(await item.locator('.badge').textContent()).toBe('Accepted');
    // Rounded for reading; the exact wei amount in its name and one click away.
    expect(await item.locator('.tx-mid').textContent()).toBe(`C-Chain≈ 0.012345 AVAX (exactly ${amountText(SEND_C_WEI, 18)} AVAX)`);
    expect(await item.locator('.tx-bottom .mono').getAttribute('title')).toBe(hash);
    // The three moves are there, export and import each, accepted. Their own X outputs (the X→C
    // export's change, the P→X import) are not taken for receipts: only the genesis funding is one.
    const rows = (await popup.getByTestId('activity-item').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
    for (const row of rows) log.add('activity', row);
    const titled = (title: string) => rows.filter((row) => row.startsWith(`${title} `));
    // X→C, C→P, P→X: one export from and one import into each chain.
    for (const chain of ['X', 'C', 'P']) {
      for (const title of [`Exported to ${chain}-Chain`, `Imported from ${chain}-Chain`]) {
        expect(titled(title)).toHaveLength(1);
        expect(titled(title)[0]).toContain('Accepted');
      }
    }
    expect(titled('Received').length).toBeLessThanOrEqual(1);
    await screenshot(popup, 'activity');
  });

  step('X→P move with the worker stopped between export and import: the same signed import is sent again and lands once', async () => {
    // The P-Chain import reaches the proxy and goes no further: to the wallet the node hangs.
    const caught = proxy!.holdNext('/ext/bc/P', 'platform.issueTx');
    const transfer = await startMove('X', 'P', MOVE_X_TO_P);
    const params = (await within(caught, 60_000, 'the import reaching the node')) as { tx: string };
    const heldImportID = txId(fromApiHex(params.tx));
    // Journaled as signed before it was sent: the move shows the import issued, with that ID.
    await expect.poll(() => moveProgress(transfer), { timeout: 10_000 }).toBe('Import issued');
    expect(await fact(transfer, 'Import').locator('.mono').textContent()).toBe(shortenId(heldImportID));
    const net = await localNetwork();
    expect((await net.client.platform.getTxStatus(heldImportID)).status, 'the node never saw the import').toBe('Unknown');
    await screenshot(popup, 'move-interrupted');

    const worker = await ExtensionWorkerWatch.attach(main.context!, popup, main.extensionId, log);
    try {
      await worker.stop();
      proxy!.dropHeld();
      // Nothing is clicked: the popup's next look at the moves wakes the worker, which resumes the
      // journal and sends the journaled import again.
      const fees = await finishedMove(transfer, 'X→P across a worker stop');
      expect(worker.ranAgain(), 'the worker ran again after the stop').toBe(true);
      expect(await fact(transfer, 'Import').locator('.mono').textContent()).toBe(shortenId(heldImportID));
      expect((await net.client.platform.getTxStatus(heldImportID)).status).toBe('Committed');
      expect(fees.exportFee).toBe(xTxFee);
      expected.X -= MOVE_X_TO_P + fees.exportFee;
      expected.P += MOVE_X_TO_P - fees.importFee;
      await expectHomeTotals(popup, expected);
      // Nothing is left waiting in atomic memory, and nothing was imported twice.
      expect(await popup.getByRole('region', { name: 'Funds waiting to be imported' }).count()).toBe(0);
    } finally {
      await worker.detach();
    }
  });

  step('with the worker stopped mid-session, locks from the header; a wrong password is refused, the right one unlocks', async () => {
    const worker = await ExtensionWorkerWatch.attach(main.context!, popup, main.extensionId, log);
    try {
      await worker.stop();
      // The refresh starts the worker again, which is still unlocked (the session is in
      // storage.session) and reads the same balances.
      await expectHomeTotals(popup, expected);
      expect(worker.ranAgain(), 'the worker ran again after the stop').toBe(true);
    } finally {
      await worker.detach();
    }
    // Locked by someone else (the idle lock, another window): the open popup follows by itself.
    await openTab(popup, 'Assets');
    await popup.evaluate(() => (globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<unknown> } } }).chrome.runtime.sendMessage({ channel: 'xpc-wallet', type: 'wallet.lock', params: {} }));
    await popup.getByText('The wallet is locked.').waitFor({ timeout: 15_000 });
    await audit('Unlock');
    expect(await popup.getByRole('navigation', { name: 'Wallet sections' }).count()).toBe(0);
    await popup.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await popup.getByRole('button', { name: 'Unlock' }).click();
    await popup.getByRole('navigation', { name: 'Wallet sections' }).waitFor({ timeout: 15_000 });

    await popup.getByRole('banner').getByRole('button', { name: 'Lock' }).click();
    await popup.getByText('The wallet is locked.').waitFor();
    await screenshot(popup, 'locked');
    const password = popup.getByLabel('Password', { exact: true });
    await password.fill(`${PASSWORD}!`);
    await popup.getByRole('button', { name: 'Unlock' }).click();
    await expect.poll(() => popup.getByRole('alert').textContent(), { timeout: 15_000 }).toBe('The password is not correct');
    expect(await password.inputValue()).toBe('');
    await expect.poll(() => popup.getByRole('navigation', { name: 'Wallet sections' }).count()).toBe(0);

    await password.fill(PASSWORD);
    await popup.getByRole('button', { name: 'Unlock' }).click();
    await popup.getByRole('navigation', { name: 'Wallet sections' }).waitFor({ timeout: 15_000 });
    expect(await popup.locator('header.topbar .badge.net').textContent()).toBe(NODE_NAME);
    await expectHomeTotals(popup, expected);
    await openTab(popup, 'Receive');
    expect((await popup.getByTestId('receive-address').textContent())?.trim()).toBe(xAddress);
  });

  step('the idle lock fires while the popup stays open and polls on its own (its polls are not activity)', async () => {
    const send = (type: string, params: unknown) =>
      popup.evaluate(([t, p]) => (globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<unknown> } } }).chrome.runtime.sendMessage({ channel: 'xpc-wallet', type: t, params: p }), [type, params] as const);
    await send('wallet.setIdleLock', { minutes: 1 });
    await openTab(popup, 'Home');
    // Nothing is clicked: the popup keeps asking whether it is still unlocked, every few seconds.
    await popup.getByText('The wallet is locked.').waitFor({ timeout: 100_000 });
    await popup.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await popup.getByRole('button', { name: 'Unlock' }).click();
    await popup.getByRole('navigation', { name: 'Wallet sections' }).waitFor({ timeout: 15_000 });
    await send('wallet.setIdleLock', { minutes: 15 });
  });

  step('screenshots of every screen in light and dark, at popup size and in a tab (CI artifacts)', async () => {
    const screens = ['Home', 'Send', 'Receive', 'Move', 'Assets', 'Activity', 'Settings'] as const;
    for (const colorScheme of ['light', 'dark'] as const) {
      await popup.emulateMedia({ colorScheme });
      for (const [size, viewport] of [['popup', POPUP_VIEWPORT], ['tab', { width: 1024, height: 768 }]] as const) {
        await popup.setViewportSize(viewport);
        for (const name of screens) {
          await openTab(popup, name);
          await screenshot(popup, `screen-${colorScheme}-${size}-${name.toLowerCase()}`);
        }
        // In a tab the wallet is a column in the middle, the whole height: not a strip on the left.
        const box = await popup.locator('#app').boundingBox();
        if (size === 'tab') {
          expect(box!.x).toBeGreaterThan(100);
          expect(box!.height).toBeGreaterThan(700);
        } else expect(box!.width).toBeLessThanOrEqual(360);
      }
    }
    await popup.emulateMedia({ colorScheme: 'light' });
    await popup.setViewportSize(POPUP_VIEWPORT);
  });

  step('restores the wallet from the noted phrase in a second fresh profile: same X address, same balances', async () => {
    timings.add('launch (second profile)', await second.launch(ext));
    const page = await second.openPopup(ext);
    await page.getByRole('heading', { name: 'Welcome to XPC Wallet' }).waitFor();
    await page.getByRole('button', { name: 'Restore from a recovery phrase' }).click();
    await page.getByRole('heading', { name: 'Restore from a recovery phrase' }).waitFor();
    await page.getByLabel('Recovery phrase (12 or 24 words)').fill(words.join(' '));
    await page.getByText('24 words', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Choose a password' }).waitFor();
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Restore wallet' }).click();
    await page.getByRole('navigation', { name: 'Wallet sections' }).waitFor({ timeout: 30_000 });

    await addAndSelectNode(page);
    await openTab(page, 'Receive');
    expect((await page.getByTestId('receive-address').textContent())?.trim()).toBe(xAddress);
    // The restored wallet finds the same funds on all three chains (change outputs included).
    await expectHomeTotals(page, expected);
    await screenshot(page, 'restored-home');
  });
});
