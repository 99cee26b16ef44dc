// An ERC-721 in the popup's token screens, in either browser (tokens-suite.ts): the project's
// TestNft (test/fixtures/contracts.json) deployed from the genesis key and one NFT minted to the
// wallet; the contract added by its address, the NFT listed (Show NFTs, audited with axe), sent by
// its token ID through Review → Confirm until accepted, and its owner then read on the node.
import { randomBytes } from 'node:crypto';
import { getAddress, type Abi, type Hex } from 'viem';
import { expect } from 'vitest';
import contracts from '../../fixtures/contracts.json' with { type: 'json' };
import type { PopupDriver } from './driver.js';
import { localCChain, openTokens } from './steps-tokens.js';

const NFT = contracts.contracts.TestNft;
/** The NFT minted to the wallet: an ID no other test uses, so only this one matches. */
const TOKEN_ID = 4_207n;

/** Deploys TestNft ("Test Pictures", TPIC) from the genesis key and mints TOKEN_ID to `wallet`; answers the contract and its ownerOf(TOKEN_ID) on the node. */
async function deployTestNft(nodeUrl: string, wallet: string): Promise<{ nft: Hex; ownerOf(): Promise<string> }> {
  const { reader, genesis, executed } = await localCChain(nodeUrl);
  const deployed = await executed(await genesis.deployContract({ abi: NFT.abi as Abi, bytecode: NFT.bytecode as Hex, gas: 3_000_000n }));
  const nft = getAddress(deployed.contractAddress!);
  await executed(await genesis.writeContract({ address: nft, abi: NFT.abi as Abi, functionName: 'mint', args: [wallet, TOKEN_ID], gas: 200_000n }));
  const ownerOf = async () => (await reader.readContract({ address: nft, abi: NFT.abi as Abi, functionName: 'ownerOf', args: [TOKEN_ID] })) as string;
  expect(await ownerOf()).toBe(getAddress(wallet));
  return { nft, ownerOf };
}

const nftItems = (ui: PopupDriver): Promise<number> => ui.page.evaluate(() => document.querySelectorAll('[data-testid="nft-item"]').length).catch(() => -1);

/**
 * Tokens → Add token by the NFT contract's address (what it says: ERC-721, 1 NFT); listed; Show
 * NFTs lists the one minted; Send NFT by its ID → Review (the NFT, from, to, fee, what arrives,
 * what the node's trial run moves) → Confirm → accepted; ownerOf on the node is the recipient,
 * and the wallet's row then holds none.
 */
export async function addAndSendNft(ui: PopupDriver, nodeUrl: string, wallet: string): Promise<void> {
  const { nft, ownerOf } = await deployTestNft(nodeUrl, wallet);
  const nftName = `NFT #${TOKEN_ID} of TPIC`;
  await openTokens(ui);
  await ui.click({ button: 'Add token' });
  await ui.find({ heading: 'Add a token' });
  await ui.fill('Token contract address', nft);
  await ui.click({ button: 'Look it up' });
  await ui.find({ heading: 'What the contract says' }, 30_000);
  expect((await ui.fact('Name')).text).toBe('Test Pictures');
  expect((await ui.fact('Symbol')).text).toBe('TPIC');
  expect((await ui.fact('Kind')).text).toBe('ERC-721 NFTs');
  expect(await ui.textOf({ testid: 'token-found-balance' })).toBe('1 NFT');
  await ui.click({ button: 'Add TPIC to my list' });
  await ui.find({ heading: 'Tokens' });
  const row = `[data-testid="token-${nft.toLowerCase()}"]`;
  await ui.waitText({ testid: 'token-balance', within: row }, '1 NFT', 30_000);

  await ui.click({ button: 'Show NFTs of TPIC', within: row });
  await ui.waitText({ css: '[data-testid="nft-item"] strong', within: row }, `#${TOKEN_ID}`, 30_000);
  expect(await nftItems(ui)).toBe(1);
  await ui.audit('Tokens, NFTs shown');
  await ui.screenshot('nfts', { testid: `token-${nft.toLowerCase()}` });

  const recipient = getAddress(`0x${randomBytes(20).toString('hex')}`);
  await ui.click({ button: `Send ${nftName}`, within: row });
  await ui.find({ heading: 'Send TPIC' });
  await ui.fill('To (C-Chain address)', recipient);
  await ui.fill('Token ID', TOKEN_ID.toString());
  await ui.audit('Send TPIC form');
  await ui.click({ button: 'Review' });
  await ui.find({ heading: 'Review: send TPIC' }, 30_000);
  expect((await ui.fact('Token')).text).toBe('Test Pictures (TPIC)');
  expect((await ui.fact('Token contract')).text).toBe(nft);
  expect((await ui.fact('NFT')).text).toBe(nftName);
  expect((await ui.fact('From')).text).toBe(wallet);
  expect((await ui.fact('To')).text).toBe(recipient);
  expect((await ui.fact('Network fee')).text).toMatch(/^at most [\d.,]+ AVAX/);
  expect((await ui.fact('Arrives')).text).toBe(`${nftName} at the address above; the fee is paid in AVAX`);
  // The node ran it first: the NFT leaves the wallet.
  expect((await ui.fact('Tried on your node')).text).toBe(`Leaves you: ${nftName}`);
  await ui.audit('Send TPIC review');
  await ui.screenshot('nft-send-review');
  await ui.click({ button: 'Confirm and send' });
  await ui.find({ heading: 'Sent' }, 60_000);
  await ui.waitAccepted('C');
  await expect.poll(ownerOf, { message: 'the recipient owns the NFT on the node', timeout: 15_000 }).toBe(recipient);
  await ui.click({ button: 'Back to tokens' });
  await ui.waitText({ testid: 'token-balance', within: row }, '0 NFTs', 30_000);
  await ui.click({ button: 'Show NFTs of TPIC', within: row });
  await ui.find({ text: 'You hold none of these now.', within: row }, 30_000);
  expect(await nftItems(ui)).toBe(0);
}
