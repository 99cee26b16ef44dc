// The Assets screen: a variable-cap asset created and minted, an NFT family created, an NFT minted
// and sent, each through its review (Review → Confirm), the fees known before signing and paid
// exactly, what was made checked on the node.
import { expect } from 'vitest';
import { cb58Encode, formatAddress, parseId } from '../../../src/core/encoding.js';
import type { KeyPair } from '../../../src/core/keys.js';
import { engineOf, freshKey, localNetwork, spendableOf } from '../../integration/fixture.js';
import { amountText, parseAmount, typedAmount } from './amounts.js';
import type { PopupDriver } from './driver.js';
import type { UiRun } from './run.js';

/** The variable-cap asset: 2 decimals, 1,234.56 minted. */
const GOLD = { name: 'E2E Gold', symbol: 'EGLD', decimals: 2, mint: 123_456n };
const ART = { name: 'E2E Art', symbol: 'EART', payload: 'e2e NFT #1: hello from the popup' };
const REVIEW = '[data-testid="review"]';
const NFT = '[data-testid="nft"]';

/** The network fee an asset form shows before signing, in nAVAX (null while it loads). */
async function feeShown(ui: PopupDriver, within?: string): Promise<bigint | null> {
  const text = await ui.textOf(within ? { testid: 'asset-fee', within } : { testid: 'asset-fee' });
  return text?.includes('AVAX') ? parseAmount(text, 9) : null;
}

/** A node-side view of one key's funds. */
async function engineFor(key: KeyPair) {
  return engineOf(await localNetwork(), { xp: [key], evm: key, change: key.shortId });
}

/** After Confirm: accepted by the X-Chain, the fee paid exactly `fee`. */
async function issued(ui: PopupDriver, fee: bigint, within?: string): Promise<void> {
  await ui.waitAccepted('X', within);
  expect(parseAmount((await ui.fact('Fee paid', within)).text, 9)).toBe(fee);
}

async function createVariableCapAndMint(run: UiRun): Promise<string> {
  const { ui, xAddress } = run;
  // -- a variable-cap asset, this wallet the only minter --
  await ui.check('Create');
  await ui.check('Variable cap');
  await ui.fill('Name', GOLD.name);
  await ui.fill('Symbol', GOLD.symbol);
  await ui.fill('Decimal places (denomination)', String(GOLD.decimals));
  expect(((await ui.read({ label: 'Addresses (one per line)' }, 'value')) as string).trim()).toBe(xAddress);
  expect(await ui.read({ label: 'Signatures needed' }, 'value')).toBe('1');
  // The fee is known before anything is signed: the network's creation fee, then paid exactly.
  await expect.poll(() => feeShown(ui)).toBe(run.createAssetFee);
  await ui.click({ button: 'Create asset' });
  // Review first: nothing is signed until Confirm; the review names the asset, its minter and the fee.
  await ui.find({ heading: 'Review the new asset', within: REVIEW });
  expect((await ui.fact('Name', REVIEW)).text).toBe(GOLD.name);
  expect((await ui.fact('Decimal places', REVIEW)).text).toBe(`2. One output holds at most 184,467,440,737,095,516.15 ${GOLD.symbol}.`);
  expect((await ui.fact('Minter set 1', REVIEW)).text).toBe(`1 of ${xAddress} (this account)`);
  expect(await ui.amount({ testid: 'review-fee', within: REVIEW }, 9)).toBe(run.createAssetFee);
  await ui.screenshot('asset-review');
  // Edit goes back with everything typed kept; the second review confirms.
  await ui.click({ button: 'Edit', within: REVIEW });
  expect(await ui.read({ label: 'Name' }, 'value')).toBe(GOLD.name);
  await ui.click({ button: 'Create asset' });
  await ui.click({ button: 'Confirm and create' });
  await issued(ui, run.createAssetFee);
  const goldID = (await ui.fact('New asset ID')).mono;
  expect(parseId(goldID)).toHaveLength(32);
  await ui.click({ button: 'Done' });

  await ui.check('Mint');
  await ui.select('Asset', goldID);
  await ui.fill(`Amount (${GOLD.symbol})`, typedAmount(GOLD.mint, GOLD.decimals));
  expect(((await ui.read({ label: 'Mint to (X-Chain address)' }, 'value')) as string).trim()).toBe(xAddress);
  await expect.poll(() => feeShown(ui)).toBe(run.xTxFee);
  await ui.click({ button: 'Mint' });
  await ui.find({ heading: 'Review the mint', within: REVIEW });
  expect(await ui.textOf({ testid: 'review-amount', within: REVIEW })).toBe(`${amountText(GOLD.mint, GOLD.decimals)} ${GOLD.symbol}`);
  expect(await ui.textOf({ testid: 'review-to', within: REVIEW })).toBe(xAddress);
  expect(await ui.amount({ testid: 'review-fee', within: REVIEW }, 9)).toBe(run.xTxFee);
  await ui.click({ button: 'Confirm and mint', within: REVIEW });
  await issued(ui, run.xTxFee);
  await ui.click({ button: 'Done' });

  // Held: the new asset with the minted amount, and its details offer minting more.
  await ui.check('Held');
  const held = { buttonStarting: `Details of ${GOLD.symbol}${GOLD.name}` };
  await expect.poll(() => ui.read(held, { child: '.amount' }), { timeout: 20_000 }).toBe(`${amountText(GOLD.mint, GOLD.decimals)} ${GOLD.symbol}`);
  expect(await ui.textOf(held)).toMatch(new RegExp(`\\(asset ID ${goldID}\\)$`));
  await ui.click(held);
  expect((await ui.fact('You hold')).text).toBe(`${amountText(GOLD.mint, GOLD.decimals)} ${GOLD.symbol}`);
  expect((await ui.fact('Name')).text).toBe(GOLD.name);
  expect((await ui.fact('Denomination')).text).toBe(`${GOLD.decimals} decimal places`);
  await ui.find({ button: 'Mint more' });
  await ui.screenshot('assets');
  await ui.click({ button: '← All assets' });
  // On the node: the minted units are on the wallet's first address.
  expect(await spendableOf(await engineFor(run.receiveKey), 'X', parseId(goldID))).toBe(GOLD.mint);
  return goldID;
}

async function nftFamilyMintAndSend(run: UiRun): Promise<void> {
  const { ui, xAddress } = run;
  // -- an NFT family (group 0, this wallet the minter), one NFT minted, then sent away --
  await ui.check('Create');
  await ui.check('NFT family');
  await ui.fill('Name', ART.name);
  await ui.fill('Symbol', ART.symbol);
  expect(((await ui.read({ label: 'Addresses (one per line)' }, 'value')) as string).trim()).toBe(xAddress);
  await ui.click({ button: 'Create asset' });
  await ui.find({ heading: 'Review the new asset', within: REVIEW });
  expect((await ui.fact('Group 0 minters', REVIEW)).text).toBe(`1 of ${xAddress} (this account)`);
  await ui.click({ button: 'Confirm and create' });
  await issued(ui, run.createAssetFee);
  const artID = (await ui.fact('New asset ID')).mono;
  await ui.click({ button: 'Done' });

  await ui.check('NFTs');
  await ui.find({ text: 'No NFTs on the X-Chain yet.' });
  await ui.select('NFT family and group', `${artID}:0`);
  await ui.fill('Payload', ART.payload);
  expect(((await ui.read({ label: 'Owner (X-Chain address)' }, 'value')) as string).trim()).toBe(xAddress);
  await expect.poll(() => feeShown(ui)).toBe(run.xTxFee);
  await ui.click({ button: 'Mint NFT' });
  await ui.find({ heading: 'Review the NFT', within: REVIEW });
  expect((await ui.fact('Payload', REVIEW)).text).toBe(ART.payload);
  expect(await ui.textOf({ testid: 'review-to', within: REVIEW })).toBe(xAddress);
  await ui.click({ button: 'Confirm and mint NFT', within: REVIEW });
  await issued(ui, run.xTxFee);
  await ui.click({ button: 'Done' });

  await ui.find({ css: NFT }, 15_000);
  expect(await ui.textOf({ css: `${NFT} .asset-symbol` })).toBe(ART.symbol);
  const nftRecipient = freshKey();
  const to = formatAddress('X', 'custom', nftRecipient.shortId);
  await ui.click({ button: `Send NFT 1: ${ART.symbol}, group 0`, within: NFT });
  await ui.fill('To (X-Chain address)', to, NFT);
  await expect.poll(() => feeShown(ui, NFT)).toBe(run.xTxFee);
  await ui.click({ button: 'Send NFT', within: NFT });
  await ui.find({ heading: 'Review the NFT send', within: NFT });
  expect(await ui.textOf({ testid: 'review-to', within: NFT })).toBe(to);
  expect(await ui.amount({ testid: 'review-fee', within: NFT }, 9)).toBe(run.xTxFee);
  await ui.click({ button: 'Confirm and send NFT', within: NFT });
  await issued(ui, run.xTxFee, NFT);
  await ui.click({ button: 'Done', within: NFT });
  await ui.find({ text: 'No NFTs on the X-Chain yet.' }, 15_000);
  // On the node: the recipient holds that NFT, with its payload.
  const theirs = (await (await engineFor(nftRecipient)).utxos('X')).filter((u) => cb58Encode(u.assetID) === artID);
  expect(theirs).toHaveLength(1);
  const out = theirs[0]!.output;
  expect(out.kind).toBe('NftTransferOutput');
  if (out.kind === 'NftTransferOutput') {
    expect(out.groupID).toBe(0);
    expect(new TextDecoder().decode(out.payload)).toBe(ART.payload);
  }
}

export async function assetStudio(run: UiRun): Promise<void> {
  const { ui, expected } = run;
  await ui.openTab('Assets');
  await ui.find({ heading: 'Assets' });
  const goldID = await createVariableCapAndMint(run);
  await nftFamilyMintAndSend(run);

  expected.X -= 2n * run.createAssetFee + 3n * run.xTxFee;
  await ui.expectHomeTotals(expected);
  // The minted asset is on Home too, as an unverified X asset.
  expect(await ui.read({ css: `[data-testid="asset-X-${goldID}"] .amount` }, { attr: 'aria-label' })).toBe(`${amountText(GOLD.mint, GOLD.decimals)} ${GOLD.symbol} spendable`);

  // With GOLD and the NFT held, Max of the X-Chain's AVAX leaves none for their fees: said on the form.
  await ui.openTab('Send');
  await ui.fill('To (X-Chain address)', formatAddress('X', 'custom', freshKey().shortId));
  await ui.click({ css: 'button[aria-label^="Max"]:not([disabled])' }, 30_000);
  await ui.waitText({ testid: 'send-strands' }, /^This leaves too little AVAX on the X-Chain to pay the fee for sending your (other asset|\d+ other assets) there, until more AVAX arrives\.$/);
  await ui.openTab('Home');
}
