// Token contracts that lie, deployed on the real Helicon node: hand-assembled bytecode that answers
// each function with whatever bytes the test chooses (a one-byte "word", a decimals of 2^256 − 1).
// The wallet must never blame the node for the contract's own answer, never fail a listing or a
// look-up on a malformed balance, and never put a 78-digit number in the sentence it shows.
import { createPublicClient, createWalletClient, defineChain, getAddress, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { memoryStores } from '../../src/background/storage.js';
import { toHex } from '../../src/core/bytes.js';
import { selectorOf } from '../../src/core/evm-abi.js';
import { plainError } from '../../src/popup/errors.js';
import { GENESIS_KEY } from './fixture.js';
import { providerBackground } from './wallet-fixture.js';

const chain = defineChain({ id: 43112, name: 'Test C-Chain', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [] } } });

/** What a function answers: these bytes (hex, without 0x), or a revert. */
type Answer = string | 'revert';

const word = (n: bigint): string => n.toString(16).padStart(64, '0');
const hex2 = (n: number): string => n.toString(16).padStart(4, '0');

/**
 * Init code of a contract that answers each listed function (by its signature's selector) with its
 * bytes, and reverts on any other. The runtime: the selector on the stack, one DUP/PUSH4/EQ/JUMPI
 * per function, then each answer as CODECOPY + RETURN of bytes kept at the end of the code.
 */
function liar(answers: Record<string, Answer>): Hex {
  const entries = Object.entries(answers);
  const prelude = '60003560e01c'; // PUSH1 0, CALLDATALOAD, PUSH1 0xe0, SHR
  const dispatchLength = entries.length * 11 + 4; // each: DUP1 PUSH4 sel EQ PUSH2 dest JUMPI; then PUSH1 0 DUP1 REVERT
  const handlerLength = (a: Answer): number => (a === 'revert' ? 5 : 16);
  let at = prelude.length / 2 + dispatchLength;
  const dests = entries.map(([, a]) => {
    const d = at;
    at += handlerLength(a);
    return d;
  });
  let dataAt = at;
  const dispatch = entries.map(([sig], i) => `8063${selectorOf(sig).slice(2)}1461${hex2(dests[i]!)}57`).join('') + '600080fd';
  let data = '';
  const handlers = entries
    .map(([, a]) => {
      if (a === 'revert') return '5b600080fd';
      const len = a.length / 2;
      const h = `5b61${hex2(len)}61${hex2(dataAt)}60003961${hex2(len)}6000f3`;
      dataAt += len;
      data += a;
      return h;
    })
    .join('');
  const runtime = prelude + dispatch + handlers + data;
  const length = runtime.length / 2;
  // PUSH2 len, DUP1, PUSH2 13 (this init code's length), PUSH1 0, CODECOPY, PUSH1 0, RETURN
  return `0x61${hex2(length)}8061000d6000396000f3${runtime}`;
}

describe('token contracts that lie', () => {
  let wallet: Awaited<ReturnType<typeof providerBackground>>['wallet'];
  let deploy: (answers: Record<string, Answer>) => Promise<`0x${string}`>;

  beforeAll(async () => {
    const rpc = `${inject('nodeUrl')}/ext/bc/C/rpc`;
    const deployer = createWalletClient({ chain, transport: http(rpc), account: privateKeyToAccount(`0x${toHex(GENESIS_KEY.secret)}`) });
    const reader = createPublicClient({ chain, transport: http(rpc) });
    deploy = async (answers) => {
      const hash = await deployer.deployContract({ abi: [], bytecode: liar(answers), gas: 1_000_000n });
      const receipt = await reader.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe('success');
      for (let i = 0; i < 100 && (await reader.getBlockNumber({ cacheTime: 0 })) < receipt.blockNumber; i++) await new Promise((r) => setTimeout(r, 50));
      return getAddress(receipt.contractAddress!);
    };
    const bg = await providerBackground(memoryStores(), { openApprovalWindow: () => undefined });
    wallet = bg.wallet;
    await bg.wallet.accounts.walletCreateFromKey({ password: 'liar test password', privateKey: `0x${'22'.repeat(32)}`, name: 'Lied to' });
    const network = await bg.wallet.networks.networksAddCustom({ name: 'Test node', url: inject('nodeUrl') });
    await bg.wallet.networks.networksSelect({ id: network.id });
  }, 120_000);

  it('the test contract answers as told (the assembler is right)', async () => {
    const honest = await deploy({ 'decimals()': word(6n), 'totalSupply()': word(1000n), 'balanceOf(address)': word(42n), 'symbol()': `${word(32n)}${word(3n)}${'4c4941'.padEnd(64, '0')}` });
    expect((await wallet.tokens.tokensInspect({ address: honest })).token).toMatchObject({ standard: 'erc20', symbol: 'LIA', decimals: 6, balance: '42' });
  });

  it('a balanceOf answer shorter than a word: the token is looked up and listed, its balance said missing by the contract, not the node', async () => {
    const shortBalance = await deploy({ 'decimals()': word(6n), 'totalSupply()': word(1000n), 'balanceOf(address)': '05' });
    const inspected = await wallet.tokens.tokensInspect({ address: shortBalance });
    expect(inspected.token).toMatchObject({ standard: 'erc20', decimals: 6, balanceError: 'the token contract did not say what this account holds' });
    expect(inspected.token.balance).toBeUndefined();
    const added = await wallet.tokens.tokensAdd({ address: shortBalance });
    expect(added.token.balanceError).toBe('the token contract did not say what this account holds');
    expect((await wallet.tokens.tokensList()).tokens.find((t) => t.address === shortBalance)?.balanceError).toBe('the token contract did not say what this account holds');
  });

  it('decimals that are no number (one byte) or impossible (2^256 − 1): not a token, said in words the popup shows as they are', async () => {
    const oneByte = await deploy({ 'decimals()': '06', 'totalSupply()': word(1000n), 'balanceOf(address)': word(1n) });
    const e1 = await wallet.tokens.tokensInspect({ address: oneByte }).catch((e: unknown) => e);
    expect(e1).toMatchObject({ code: 'not-a-token' });
    const huge = await deploy({ 'decimals()': word((1n << 256n) - 1n), 'totalSupply()': word(1000n), 'balanceOf(address)': word(1n) });
    const e2 = (await wallet.tokens.tokensInspect({ address: huge }).catch((e: unknown) => e)) as { code: string; message: string };
    expect(e2.code).toBe('not-a-token');
    const shown = plainError(e2.code, e2.message);
    expect(shown.text).toBe('The contract says its token has an impossible number of decimals; the wallet supports at most 36');
    // A plausible but unsupported count is named.
    const many = await deploy({ 'decimals()': word(77n), 'totalSupply()': word(1000n), 'balanceOf(address)': word(1n) });
    await expect(wallet.tokens.tokensInspect({ address: many })).rejects.toMatchObject({ code: 'not-a-token', message: 'the contract says its token has 77 decimals; the wallet supports at most 36' });
  });
});
