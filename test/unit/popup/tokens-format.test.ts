// How the popup words tokens: the background's checks, balances, transfers, allowances, token IDs.
import { describe, expect, it } from 'vitest';
import { allowanceText, checkTokenId, replaceOutcome, spenderNote, tokenBalanceText, tokenCallText, tokenFlags, transferLine } from '../../../src/popup/tokens-format.js';
import type { AllowanceView, TokenTransferView, TokenView } from '../../../src/shared/messages.js';
import { checkedWords } from '../../../src/background/token-store.js';

const TOKEN = '0x52C84043CD9c865236f11d9Fc9F56aa003c1f922';
const ME = '0xD6AA9267fDF60B6E69A1A8DF1E946d38dC92bE88';
const OTHER = '0xAc35e96c51AAFE45825Cb92A50340e7c2d8aE215';
const clean = { altered: false, posesAsNative: false };

const token = (over: Partial<TokenView>): TokenView => ({ address: TOKEN, standard: 'erc20', name: 'Test Dollar', symbol: 'TUSD', decimals: 6, checks: clean, addedBy: 'wallet', ...over });
const transfer = (over: Partial<TokenTransferView>): TokenTransferView => ({
  txHash: `0x${'ab'.repeat(32)}`,
  logIndex: 0,
  blockNumber: '7',
  token: TOKEN,
  symbol: 'TUSD',
  decimals: 6,
  standard: 'erc20',
  listed: true,
  direction: 'out',
  from: ME,
  to: OTHER,
  amount: '1500000',
  ...over,
});
const allowance = (over: Partial<AllowanceView>): AllowanceView => ({ token: TOKEN, symbol: 'TUSD', decimals: 6, standard: 'erc20', kind: 'allowance', spender: OTHER, amount: '2500000', unlimited: false, spenderIsContract: true, txHash: '0x01', ...over });

describe('tokenFlags', () => {
  it('says nothing of a token whose words passed every check', () => {
    expect(tokenFlags(clean)).toEqual([]);
  });
  it('names each finding in words: posing as AVAX, a look-alike of a listed token (with its symbol), hidden characters', () => {
    const flags = tokenFlags({ altered: true, posesAsNative: true, looksLike: { address: OTHER, symbol: 'USDC' } });
    expect(flags).toHaveLength(3);
    expect(flags[0]).toMatch(/reads as AVAX.*it is not AVAX/);
    expect(flags[1]).toMatch(/reads like USDC, another token in your list/);
    expect(flags[2]).toMatch(/hidden characters/);
  });
  it('says a symbol in letters of other scripts (Lisu ꓮꓦꓮꓫ, Cyrillic АѴАХ), which no list of look-alikes fully catches', () => {
    for (const symbol of ['ꓮꓦꓮꓫ', 'АѴАХ']) {
      const { checks } = checkedWords({ address: TOKEN, name: 'Avalanche Token', symbol }, [], 'AVAX');
      expect(tokenFlags(checks), symbol).toContain('Its name or symbol uses letters of other scripts, which can imitate familiar ones.');
    }
  });
});

describe('tokenBalanceText', () => {
  it('an ERC-20 balance exactly, in its own decimals', () => {
    expect(tokenBalanceText(token({ balance: '1234567891' }))).toBe('1,234.567891 TUSD');
  });
  it('an unnamed token is named by its address; an ERC-721 balance is a count; a failed read says why', () => {
    expect(tokenBalanceText(token({ symbol: '', balance: '5' }))).toBe('0.000005 units of 0x52C84043…c1f922');
    expect(tokenBalanceText(token({ standard: 'erc721', decimals: 0, balance: '1' }))).toBe('1 NFT');
    expect(tokenBalanceText(token({ standard: 'erc721', decimals: 0, balance: '3' }))).toBe('3 NFTs');
    expect(tokenBalanceText(token({ balanceError: 'the node did not answer' }))).toBe('Balance not read: the node did not answer');
  });
});

describe('transferLine', () => {
  it('a send: amount in token units and the recipient', () => {
    expect(transferLine(transfer({}))).toEqual({ title: 'Sent', amount: '1.5 TUSD', counterparty: `To ${OTHER}` });
  });
  it('a receipt names the sender; one from the zero address is a mint', () => {
    expect(transferLine(transfer({ direction: 'in', from: OTHER, to: ME })).counterparty).toBe(`From ${OTHER}`);
    expect(transferLine(transfer({ direction: 'in', from: `0x${'0'.repeat(40)}`, to: ME })).counterparty).toBe('Minted (from no one)');
  });
  it('NFTs by their ID', () => {
    expect(transferLine(transfer({ standard: 'erc721', symbol: 'ART', amount: undefined, tokenId: '42' })).amount).toBe('NFT #42 of ART');
    expect(transferLine(transfer({ standard: 'erc1155', symbol: 'ITEM', amount: '3', tokenId: '7' })).amount).toBe('3 of NFT #7 of ITEM');
  });
});

describe('allowances', () => {
  it('an amount in token units, "Unlimited", or every NFT for an operator', () => {
    expect(allowanceText(allowance({}))).toBe('2.5 TUSD');
    expect(allowanceText(allowance({ unlimited: true, amount: (2n ** 256n - 1n).toString() }))).toBe('Unlimited TUSD');
    expect(allowanceText(allowance({ kind: 'operator', symbol: 'ART', amount: undefined, unlimited: true }))).toBe('Every NFT of ART, now and later');
  });
  it('an ordinary account as spender is said to be able to take the tokens at any time', () => {
    expect(spenderNote(allowance({ spenderIsContract: false }))).toMatch(/whoever holds its key can take these tokens/);
    expect(spenderNote(allowance({}))).toBe('A contract');
  });
});

describe('checkTokenId and replaceOutcome', () => {
  it('a token ID is a whole number below 2^256', () => {
    expect(checkTokenId(' 42 ')).toEqual({ ok: true, value: 42n });
    expect(checkTokenId('')).toEqual({ ok: false, error: 'Enter the token ID' });
    expect(checkTokenId('1.5').ok).toBe(false);
    expect(checkTokenId('0x10').ok).toBe(false);
    expect(checkTokenId((2n ** 256n).toString())).toEqual({ ok: false, error: 'That token ID is too large' });
    expect(checkTokenId((2n ** 256n - 1n).toString()).ok).toBe(true);
  });
  it('says that only one of the two txs can run', () => {
    expect(replaceOutcome('speed-up')).toMatch(/same transaction again.*Only one of the two can run/);
    expect(replaceOutcome('cancel')).toMatch(/0 AVAX to yourself.*original never runs/);
  });
});

describe('tokenCallText', () => {
  const token = { address: '0x52C84043CD9c865236f11d9Fc9F56aa003c1f922', symbol: 'TUSD', decimals: 6, standard: 'erc20' as const };
  const SPENDER = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
  it('says a waiting token call in the token\'s words: a send, an approval (unlimited in words), a revoke, an NFT', () => {
    expect(tokenCallText({ kind: 'send', token, amount: '2500000', counterparty: SPENDER })).toBe(`Sends 2.5 TUSD to ${SPENDER}`);
    expect(tokenCallText({ kind: 'approve', token, amount: ((1n << 256n) - 1n).toString(), counterparty: SPENDER })).toBe(`Lets ${SPENDER} take an unlimited amount of TUSD`);
    expect(tokenCallText({ kind: 'approve', token, amount: '1000000', counterparty: SPENDER })).toBe(`Lets ${SPENDER} take 1 TUSD`);
    // Judged unlimited when made (Permit2's maximum, or the whole supply): said so, whatever its number.
    expect(tokenCallText({ kind: 'approve', token, amount: ((1n << 160n) - 1n).toString(), counterparty: SPENDER, unlimited: true })).toBe(`Lets ${SPENDER} take an unlimited amount of TUSD`);
    expect(tokenCallText({ kind: 'revoke', token, counterparty: SPENDER })).toBe(`Takes back what ${SPENDER} may take of TUSD`);
    expect(tokenCallText({ kind: 'send', token: { ...token, symbol: 'ART', standard: 'erc721', tokenId: '7' }, amount: '1', counterparty: SPENDER })).toBe(`Sends NFT #7 of ART to ${SPENDER}`);
    expect(tokenCallText({ kind: 'approve', token, amount: '5000000', counterparty: SPENDER, increase: true })).toBe(`Lets ${SPENDER} take 5 TUSD more than it may already`);
    expect(tokenCallText({ kind: 'approve', token: { ...token, symbol: 'ART', standard: 'erc721' }, counterparty: SPENDER })).toBe(`Lets ${SPENDER} take every NFT of ART, now and later`);
    expect(tokenCallText({ kind: 'send', token: { ...token, symbol: 'GEM', standard: 'erc1155', tokenId: '7' }, amount: '40', counterparty: SPENDER })).toBe(`Sends 40 × NFT #7 of GEM to ${SPENDER}`);
    expect(tokenCallText({ kind: 'send', amount: '1', counterparty: SPENDER })).toBeUndefined();
    expect(tokenCallText({ kind: 'call', token, counterparty: SPENDER })).toBeUndefined();
  });
  it('a token whose symbol reads as AVAX is named by its contract too: its send never reads as a send of AVAX', () => {
    const fake = { ...token, symbol: 'AVAX', decimals: 18 };
    expect(tokenCallText({ kind: 'send', token: fake, amount: '5000000000000000000', counterparty: SPENDER })).toBe(`Sends 5 AVAX (0x52C84043…c1f922) to ${SPENDER}`);
  });
});
