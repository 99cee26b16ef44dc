// A site's name for a chain it adds, as the approval shows it: hidden characters gone, length
// capped, and a name that passes for a known chain on another chain ID flagged.
import { describe, expect, it } from 'vitest';
import { knownNameOf, lookAlikeOf, MAX_CHAIN_NAME, shownName } from '../../src/background/chain-name.js';

describe('shownName', () => {
  it('keeps an ordinary name as it is, of any script', () => {
    for (const name of ['Dexalot Subnet', 'Beam', 'Grüße Chain', '登录链', 'شبكة']) expect(shownName(name)).toEqual({ text: name, altered: false });
  });

  it('removes bidi overrides and isolates, and says so', () => {
    // "Avalanche" with a right-to-left override that shows "…ecnalavA" reversed text after it.
    expect(shownName('Test\u202Eniahc-C ehcnalavA')).toEqual({ text: 'Testniahc-C ehcnalavA', altered: true });
    expect(shownName('\u2067Safe\u2069 chain')).toEqual({ text: 'Safe chain', altered: true });
  });

  it('removes zero-width and other invisible characters, and turns control characters and line breaks into one space', () => {
    expect(shownName('Ava\u200Blanche\u200D\uFEFF')).toEqual({ text: 'Avalanche', altered: true });
    expect(shownName('a\u3164b\u2060c')).toEqual({ text: 'abc', altered: true });
    expect(shownName('line\nbreak\u2028and\u0007bell')).toEqual({ text: 'line break and bell', altered: true });
  });

  it(`cuts a long name to ${MAX_CHAIN_NAME} characters, and a symbol to its own cap`, () => {
    const shown = shownName('A'.repeat(100));
    expect([...shown.text]).toHaveLength(MAX_CHAIN_NAME);
    expect(shown).toEqual({ text: `${'A'.repeat(MAX_CHAIN_NAME - 1)}…`, altered: true });
    expect(shownName('TOKENTOKENTOKEN', 10).text).toBe('TOKENTOKE…');
  });

  it('names a name of nothing but hidden characters as having none', () => {
    expect(shownName('\u200B\u202E')).toEqual({ text: '(no name)', altered: true });
  });
});

describe('lookAlikeOf', () => {
  it('flags a name that reads as Avalanche on another chain ID, with Cyrillic letters, accents, digits or spaces inside', () => {
    for (const name of ['Avalanche C-Chain', 'AVALANCHE', 'Аvаlanche Mainnet', 'Avalanché', 'Ava1anche', 'Ava lanche', 'AVAX']) {
      expect(lookAlikeOf(name, 1337n)?.chainId, name).toBe(43114n);
    }
    expect(lookAlikeOf('Ethereum', 31337n)).toEqual({ chainId: 1n, name: 'Ethereum' });
  });

  it('flags the name of one of the wallet’s own networks used for another chain ID', () => {
    const wallets = [{ chainId: 43112n, name: 'Local network' }];
    expect(lookAlikeOf('Local Network', 42n, wallets)).toEqual(wallets[0]);
    expect(lookAlikeOf('Local network', 43112n, wallets)).toBeUndefined();
  });

  it('does not flag a name on the chain it names, nor names that only share common words', () => {
    expect(lookAlikeOf('Avalanche C-Chain', 43114n)).toBeUndefined();
    for (const name of ['Dexalot Subnet', 'My test network', 'Beam Mainnet', 'Database Chain']) expect(lookAlikeOf(name, 432204n), name).toBeUndefined();
  });
});

describe('knownNameOf', () => {
  it('names a well-known chain ID whose name reads as none of its names; not one that does, nor an unknown chain ID', () => {
    expect(knownNameOf('Mainnet C-Chain', 1n)).toBe('Ethereum');
    expect(knownNameOf('Fun Testnet', 56n)).toBe('BNB Smart Chain');
    expect(knownNameOf('Ethereum Mainnet', 1n)).toBeUndefined();
    expect(knownNameOf('Еthereum', 1n)).toBeUndefined();
    expect(knownNameOf('Arbitrum', 42161n)).toBeUndefined();
    expect(knownNameOf('Fun Testnet', 99_999n)).toBeUndefined();
  });
});
