// The popup's C-Chain token screens, clicked through in either browser (tokens-suite.ts): a test
// ERC-20 deployed from the genesis key (the project's own TestToken, test/fixtures/contracts.json)
// with part of its supply given to the wallet; the token added by its address (what the contract
// says shown first), its balance, a send through Review → Confirm followed until accepted, the
// recipient's balance read on the node with eth_call, the transfer in Activity, and axe audits of
// the token screens.
import { randomBytes } from 'node:crypto';
import { createPublicClient, createWalletClient, defineChain, getAddress, http, type Abi, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { expect } from 'vitest';
import contracts from '../../fixtures/contracts.json' with { type: 'json' };
import { toHex } from '../../../src/core/bytes.js';
import { AVAX, GENESIS_KEY, genesisEngine, WEI_PER_NAVAX } from '../../integration/fixture.js';
import { amountText, typedAmount } from './amounts.js';
import type { PopupDriver } from './driver.js';

const TOKEN = contracts.contracts.TestToken;
const DECIMALS = 6;
/** What the wallet is given of the token: odd, so only the exact figure matches. */
export const GIVEN = 1_234_567_891n;
/** What the popup sends of it. */
export const SENT = 200_250_000n;

export interface TokenChain {
  token: Hex;
  balanceOf(owner: string): Promise<bigint>;
  allowance(owner: string, spender: string): Promise<bigint>;
  /** Signs approve(spender, amount) with `secret` (the wallet's own C-Chain key) straight to the node, outside the wallet. */
  approveAs(secret: Uint8Array, spender: string, amount: bigint): Promise<void>;
}

/** The node's C-Chain through viem: a reader, the genesis key's wallet client, and a wait until a tx's block is executed. */
export async function localCChain(nodeUrl: string) {
  const chainId = Number(await (await fetch(`${nodeUrl}/ext/bc/C/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }) }).then((r) => r.json() as Promise<{ result: string }>)).result);
  const chain = defineChain({ id: chainId, name: 'Local C-Chain', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [`${nodeUrl}/ext/bc/C/rpc`] } } });
  const reader = createPublicClient({ chain, transport: http() });
  const genesis = createWalletClient({ chain, transport: http(), account: privateKeyToAccount(`0x${toHex(GENESIS_KEY.secret)}`) });
  const executed = async (hash: Hex) => {
    const receipt = await reader.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    // Helicon executes an accepted block a moment after its receipt: state reads wait for it.
    for (let i = 0; i < 100 && (await reader.getBlockNumber({ cacheTime: 0 })) < receipt.blockNumber; i++) await new Promise((r) => setTimeout(r, 50));
    return receipt;
  };
  return { chain, reader, genesis, executed };
}

/** Deploys "E2E Dollar" (E2ED) from the genesis key, gives `wallet` GIVEN of it and 5 AVAX on the C-Chain for fees. */
export async function deployTestToken(nodeUrl: string, wallet: string): Promise<TokenChain> {
  const { chain, reader, genesis, executed } = await localCChain(nodeUrl);
  // Gas limits given: the node's estimate for the genesis key's deployment exceeds the block's.
  const deployed = await executed(await genesis.deployContract({ abi: TOKEN.abi as Abi, bytecode: TOKEN.bytecode as Hex, args: ['E2E Dollar', 'E2ED', 1_000_000_000_000n], gas: 3_000_000n }));
  const token = getAddress(deployed.contractAddress!);
  await executed(await genesis.writeContract({ address: token, abi: TOKEN.abi as Abi, functionName: 'transfer', args: [wallet, GIVEN], gas: 100_000n }));
  await (await genesisEngine()).sendC(wallet, 5n * AVAX * WEI_PER_NAVAX);
  const balanceOf = async (owner: string) => (await reader.readContract({ address: token, abi: TOKEN.abi as Abi, functionName: 'balanceOf', args: [owner] })) as bigint;
  expect(await balanceOf(wallet)).toBe(GIVEN);
  const allowance = async (owner: string, spender: string) => (await reader.readContract({ address: token, abi: TOKEN.abi as Abi, functionName: 'allowance', args: [owner, spender] })) as bigint;
  const approveAs = async (secret: Uint8Array, spender: string, amount: bigint) => {
    const owner = createWalletClient({ chain, transport: http(), account: privateKeyToAccount(`0x${toHex(secret)}`) });
    await executed(await owner.writeContract({ address: token, abi: TOKEN.abi as Abi, functionName: 'approve', args: [spender, amount], gas: 100_000n }));
  };
  return { token, balanceOf, allowance, approveAs };
}

/** Home → Tokens. */
export async function openTokens(ui: PopupDriver): Promise<void> {
  await ui.openTab('Home');
  await ui.click({ action: 'Tokens' });
  await ui.find({ heading: 'Tokens' }, 30_000);
}

/** Add token by address: the contract's words and the balance shown first; then listed with its balance. */
export async function addTokenByAddress(ui: PopupDriver, chain: TokenChain): Promise<void> {
  await openTokens(ui);
  await ui.find({ text: 'No tokens in your list yet. Add one by its contract address.' });
  await ui.audit('Tokens (empty)');
  await ui.click({ button: 'Add token' });
  await ui.find({ heading: 'Add a token' });
  await ui.fill('Token contract address', chain.token);
  await ui.click({ button: 'Look it up' });
  await ui.find({ heading: 'What the contract says' }, 30_000);
  expect((await ui.fact('Name')).text).toBe('E2E Dollar');
  expect((await ui.fact('Symbol')).text).toBe('E2ED');
  expect((await ui.fact('Decimals')).text).toBe(String(DECIMALS));
  expect(await ui.textOf({ testid: 'token-found-balance' })).toBe(`${amountText(GIVEN, DECIMALS)} E2ED`);
  await ui.audit('Add a token, looked up');
  await ui.screenshot('token-add');
  await ui.click({ button: 'Add E2ED to my list' });
  await ui.find({ heading: 'Tokens' });
  const row = `[data-testid="token-${chain.token.toLowerCase()}"]`;
  await ui.waitText({ testid: 'token-balance', within: row }, `${amountText(GIVEN, DECIMALS)} E2ED`, 30_000);
  await ui.audit('Tokens, one listed');
  await ui.screenshot('tokens');
}

/** Send → Review (token amount, from, to, fee in AVAX, what arrives) → Confirm → accepted; the recipient's balance on the node. */
export async function sendToken(ui: PopupDriver, chain: TokenChain, wallet: string): Promise<string> {
  const recipient = getAddress(`0x${randomBytes(20).toString('hex')}`);
  await openTokens(ui);
  await ui.click({ button: 'Send E2ED' });
  await ui.find({ heading: 'Send E2ED' });
  await ui.fill('To (C-Chain address)', recipient);
  await ui.fill('Amount (E2ED)', typedAmount(SENT, DECIMALS));
  await ui.audit('Send E2ED form');
  await ui.click({ button: 'Review' });
  await ui.find({ heading: 'Review: send E2ED' }, 30_000);
  expect((await ui.fact('Amount')).text).toBe(`${amountText(SENT, DECIMALS)} E2ED`);
  expect((await ui.fact('From')).text).toBe(wallet);
  expect((await ui.fact('To')).text).toBe(recipient);
  expect((await ui.fact('Network fee')).text).toMatch(/^at most [\d.,]+ AVAX/);
  expect((await ui.fact('Arrives')).text).toBe(`${amountText(SENT, DECIMALS)} E2ED at the address above; the fee is paid in AVAX`);
  // The node ran it first: the tokens leave the wallet.
  expect((await ui.fact('Tried on your node')).text).toBe(`Leaves you: ${amountText(SENT, DECIMALS)} E2ED`);
  await ui.audit('Send E2ED review');
  await ui.screenshot('token-send-review');
  await ui.click({ button: 'Confirm and send' });
  await ui.find({ heading: 'Sent' }, 60_000);
  await ui.waitAccepted('C');
  await expect.poll(() => chain.balanceOf(recipient), { message: 'the recipient holds what was sent', timeout: 15_000 }).toBe(SENT);
  await expect.poll(() => chain.balanceOf(wallet), { message: 'the wallet holds the rest', timeout: 15_000 }).toBe(GIVEN - SENT);
  await ui.click({ button: 'Back to tokens' });
  const row = `[data-testid="token-${chain.token.toLowerCase()}"]`;
  await ui.waitText({ testid: 'token-balance', within: row }, `${amountText(GIVEN - SENT, DECIMALS)} E2ED`, 30_000);
  return recipient;
}

/** Activity: the token transfers in the token's units, with their counterparty; Allowances: none yet. */
export async function tokenActivityAndAllowances(ui: PopupDriver, recipient: string, genesis: string): Promise<void> {
  await ui.openTab('Activity');
  await ui.find({ heading: 'Token transfers' }, 30_000);
  const sent = '[data-testid="token-transfer"]:has([data-testid="transfer-out"])';
  await ui.waitText({ css: `${sent} .amount` }, `${amountText(SENT, DECIMALS)} E2ED`, 30_000);
  expect(await ui.textOf({ css: `${sent} .mono.break` })).toBe(`To ${recipient}`);
  const received = '[data-testid="token-transfer"]:has([data-testid="transfer-in"])';
  expect(await ui.textOf({ css: `${received} .amount` })).toBe(`${amountText(GIVEN, DECIMALS)} E2ED`);
  expect(await ui.textOf({ css: `${received} .mono.break` })).toBe(`From ${genesis}`);
  await ui.audit('Activity with token transfers');
  await openTokens(ui);
  await ui.click({ button: 'Allowances' });
  await ui.find({ heading: 'Allowances' });
  await ui.find({ text: 'None: no one may take tokens from this account.' }, 30_000);
  await ui.audit('Allowances');
}

/**
 * An unlimited allowance the account gave elsewhere (the same key, signed by the test straight to
 * the node) is found in the account's logs and listed with its spender said to be an ordinary
 * account; Revoke → review → Confirm → accepted; the node's allowance() is then 0 and the list empty.
 */
export async function revokeAllowance(ui: PopupDriver, chain: TokenChain, wallet: string, walletSecret: Uint8Array): Promise<void> {
  const spender = getAddress(`0x${randomBytes(20).toString('hex')}`);
  await chain.approveAs(walletSecret, spender, (1n << 256n) - 1n);
  await openTokens(ui);
  await ui.click({ button: 'Allowances' });
  await ui.find({ heading: 'Allowances' });
  const row = '[data-testid="allowance"]';
  await ui.waitText({ css: `${row} strong` }, 'Unlimited E2ED', 30_000);
  expect(await ui.textOf({ css: `${row} .mono` })).toBe(spender);
  expect(await ui.textOf({ css: `${row} .error-text` })).toBe('An ordinary account: whoever holds its key can take these tokens at any time');
  await ui.audit('Allowances, one unlimited');
  await ui.click({ buttonStarting: 'Revoke E2ED for ' });
  await ui.find({ heading: 'Review: revoke E2ED' }, 30_000);
  expect((await ui.fact('Spender')).text).toBe(spender);
  expect((await ui.fact('It may take now')).text).toBe('Unlimited E2ED');
  expect((await ui.fact('After this')).text).toBe('It may take none of these tokens');
  expect((await ui.fact('From')).text).toBe(wallet);
  expect((await ui.fact('Network fee')).text).toMatch(/^at most [\d.,]+ AVAX/);
  await ui.audit('Revoke review');
  await ui.screenshot('revoke-review');
  await ui.click({ buttonStarting: 'Confirm and revoke (E2ED for ' });
  await ui.waitAccepted('C', row);
  await expect.poll(() => chain.allowance(wallet, spender), { message: 'the allowance is 0 on the node', timeout: 15_000 }).toBe(0n);
  await ui.click({ buttonStarting: 'Reload the list' });
  await ui.find({ text: 'None: no one may take tokens from this account.' }, 30_000);
}
