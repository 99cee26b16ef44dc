// A site's name for a chain it adds, as the approval shows it: hidden characters gone, length
// capped, and a name that passes for a known chain on another chain ID flagged.
import { describe, expect, it } from 'vitest';
import { lookAlikeOf, MAX_CHAIN_NAME, shownName, wellKnownChain } from '../../src/background/chain-name.js';

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
    expect(lookAlikeOf('Ethereum', 31337n)).toMatchObject({ chainId: 1n, name: 'Ethereum' });
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

describe('wellKnownChain', () => {
  it("gives a well-known chain ID its own name and coin, renamed when the site's name reads as none of its names or its symbol is another coin's", () => {
    expect(wellKnownChain(1n, 'Mainnet C-Chain', 'AVAX')).toEqual({ name: 'Ethereum', symbol: 'ETH', renamed: true });
    expect(wellKnownChain(1n, 'Avalanche Ethereum', 'AVAX')).toEqual({ name: 'Ethereum', symbol: 'ETH', renamed: true });
    expect(wellKnownChain(56n, 'Fun Testnet', 'BNB')).toEqual({ name: 'BNB Smart Chain', symbol: 'BNB', renamed: true });
    expect(wellKnownChain(1n, 'Ethereum', 'TEST')).toMatchObject({ renamed: true });
  });

  it('says nothing of the usual names and coins (look-alike letters read as Latin), nor of a chain ID it does not know', () => {
    for (const [id, name, symbol] of [[1n, 'Ethereum Mainnet', 'ETH'], [1n, 'Еthereum', 'eth'], [42161n, 'Arbitrum', 'ETH'], [10n, 'OP Mainnet', 'ETH'], [56n, 'Binance Smart Chain', 'BNB'], [137n, 'Matic Mainnet', 'POL']] as const) {
      expect(wellKnownChain(id, name, symbol), name).toMatchObject({ renamed: false });
    }
    expect(wellKnownChain(99_999n, 'Fun Testnet', 'AVAX')).toBeUndefined();
    // The wallet's list of other chains (core/network.ts) with their coins: Linea's is ether.
    expect(wellKnownChain(59_144n, 'Test chain', 'TST')).toEqual({ name: 'Linea', symbol: 'ETH', renamed: true });
    expect(lookAlikeOf('New Era Chain', 7n)).toBeUndefined();
  });
});
