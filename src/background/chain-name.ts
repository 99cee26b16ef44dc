// The name a site gives a chain it adds is only its claim: the wallet names a chain by its ID and
// RPC host, and shows the site's name cleaned of what can disguise it (bidi overrides that reverse
// text, zero-width and control characters, endless length) and flagged when it passes itself off as
// a chain it is not (a name that reads as "Avalanche" on another chain ID).
import { EVERY_INVISIBLE, INVISIBLE_TEXT } from '../core/bytes.js';
import { OTHER_CHAINS } from '../core/network.js';

export const MAX_CHAIN_NAME = 40;
export const MAX_CHAIN_SYMBOL = 10;

/** Chain ID and a name it is known by; a site's name that reads like one of these, on another ID, is flagged. */
export interface KnownChainName {
  chainId: bigint;
  name: string;
  /** Its coin's symbol, on the name the wallet gives it. */
  symbol?: string;
}

/** The names the wallet knows without asking: Avalanche's and those of well-known EVM chains (core/network.ts), with other names they go by. */
const WELL_KNOWN: readonly KnownChainName[] = [
  { chainId: 43114n, name: 'Avalanche C-Chain', symbol: 'AVAX' },
  { chainId: 43114n, name: 'AVAX' },
  { chainId: 43113n, name: 'Avalanche Fuji', symbol: 'AVAX' },
  ...[...OTHER_CHAINS].map(([id, c]) => ({ chainId: BigInt(id), ...c })),
  { chainId: 10n, name: 'Optimism' },
  { chainId: 56n, name: 'Binance Smart Chain' },
  { chainId: 137n, name: 'Matic' },
];

/** Words too common to mark a name as another chain's. */
const COMMON_WORDS = new Set(['chain', 'network', 'mainnet', 'testnet', 'net', 'main', 'test', 'local', 'smart', 'one', 'c', 'evm', 'subnet', 'custom', 'node', 'era']);

// Letters of other scripts (and digits) drawn like Latin ones: enough to catch the usual swaps.
const LOOKALIKE: Record<string, string> = {
  а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', х: 'x', у: 'y', і: 'i', ј: 'j', ѕ: 's', ԁ: 'd', ӏ: 'l', һ: 'h', к: 'k', м: 'm', т: 't', в: 'b', н: 'h', ν: 'v',
  α: 'a', ο: 'o', ρ: 'p', ε: 'e', ι: 'i', κ: 'k', τ: 't', υ: 'u', χ: 'x', η: 'n', β: 'b', '0': 'o', '1': 'l', '|': 'l', '3': 'e', '5': 's',
  // Latin small capitals ("ᴀᴠᴀx").
  ᴀ: 'a', ʙ: 'b', ᴄ: 'c', ᴅ: 'd', ᴇ: 'e', ɢ: 'g', ʜ: 'h', ɪ: 'i', ᴊ: 'j', ᴋ: 'k', ʟ: 'l', ᴍ: 'm', ɴ: 'n', ᴏ: 'o', ᴘ: 'p', ʀ: 'r', ꜱ: 's', ᴛ: 't', ᴜ: 'u', ᴠ: 'v', ᴡ: 'w', ʏ: 'y', ᴢ: 'z',
  // Cherokee capitals ("ᎪᏙᎪX"), looked up before lower-casing (their lower case is another block).
  Ꭺ: 'a', Ᏼ: 'b', Ꮯ: 'c', Ꭰ: 'd', Ꭼ: 'e', Ꮐ: 'g', Ꮋ: 'h', Ꭵ: 'i', Ꭻ: 'j', Ꮶ: 'k', Ꮮ: 'l', Ꮇ: 'm', Ꮲ: 'p', Ꭱ: 'r', Ꮪ: 's', Ꭲ: 't', Ꮩ: 'v', Ꮃ: 'w', Ꮓ: 'z',
  // Armenian and Georgian ("ՍSDC", "ႽSDC").
  Ս: 'u', ս: 'u', Օ: 'o', օ: 'o', Ո: 'n', ո: 'n', հ: 'h', զ: 'q', ց: 'g', Ⴝ: 'u',
};

/** Letters outside ASCII: a token's words in other scripts are said (the mapping above cannot know every look-alike). */
export function usesOtherScripts(text: string): boolean {
  return [...text].some((c) => c.codePointAt(0)! > 0x7f && /[\p{L}\p{N}\p{M}]/u.test(c));
}

/** A name as the wallet shows it: the site's text made safe, and what was done to it. */
export interface ShownName {
  text: string;
  /** Hidden characters (bidi, zero-width, control) were removed, or the name was cut short. */
  altered: boolean;
}

/** Control characters and line breaks: a space. */
const BREAKS = /[\p{Cc}\p{Zl}\p{Zp}]/gu;

/**
 * The site's text without the characters that hide or reorder what is shown (bidi overrides and
 * isolates, zero-width characters, BOM, fillers; line breaks become spaces), spaces collapsed, cut
 * to `max` characters.
 */
export function shownName(raw: string, max = MAX_CHAIN_NAME): ShownName {
  const cleaned = raw.normalize('NFC').replace(BREAKS, ' ').replace(EVERY_INVISIBLE, '').replace(/\s+/gu, ' ').trim();
  const chars = [...cleaned];
  const cut = chars.length > max;
  const text = cut ? `${chars.slice(0, max - 1).join('')}…` : cleaned;
  return { text: text === '' ? '(no name)' : text, altered: cut || INVISIBLE_TEXT.test(raw) };
}

/** The words a name reads as: Latin look-alikes mapped to Latin, accents dropped, lower case. */
function wordsOf(name: string): string[] {
  const plain = name.normalize('NFKD').replace(/\p{M}/gu, '');
  const mapped = [...plain].map((c) => LOOKALIKE[c] ?? LOOKALIKE[c.toLowerCase()] ?? c.toLowerCase()).join('');
  return mapped.split(/[^a-z0-9]+/).filter((w) => w !== '');
}

/** What a person reads a name or symbol as: look-alike letters as Latin, no accents, case or separators ("АVАХ" reads "avax"). */
export function plainReading(text: string): string {
  return wordsOf(text).join('');
}

/** Whether a name, as `words`, reads as known chain `k`: a distinctive word of its name, or the whole name run together. */
function readsAs(words: readonly string[], k: KnownChainName): boolean {
  const joined = words.join('');
  const theirs = wordsOf(k.name);
  const distinctive = theirs.filter((w) => !COMMON_WORDS.has(w) && w.length >= 3);
  // Run together counts too ("Aval anche"), for words long enough not to occur by chance.
  return (joined !== '' && joined === theirs.join('')) || distinctive.some((w) => words.includes(w) || (w.length >= 6 && joined.includes(w)));
}

/**
 * The known chain the name passes itself off as, when its chain ID is another: a distinctive word
 * of a known name (after look-alike letters are read as Latin), or the whole name run together.
 */
export function lookAlikeOf(name: string, chainId: bigint, known: readonly KnownChainName[] = []): KnownChainName | undefined {
  const words = wordsOf(name);
  const matches = [...known, ...WELL_KNOWN].filter((k) => readsAs(words, k));
  // A name true of its own chain ID is not flagged for sharing a word with another (Avalanche's C-Chain and Fuji).
  return matches.some((k) => k.chainId === chainId) ? undefined : matches[0];
}

/**
 * A well-known chain ID's own name and coin, which the wallet uses whatever a site calls them (chain
 * ID 1 is Ethereum, its coin ETH); `renamed` when the site's name reads as none of its names, or its
 * symbol is another coin's.
 */
export function wellKnownChain(chainId: bigint, name: string, symbol: string): { name: string; symbol: string; renamed: boolean } | undefined {
  const own = WELL_KNOWN.filter((k) => k.chainId === chainId);
  const main = own.find((k) => k.symbol);
  const words = wordsOf(name);
  return main && { name: main.name, symbol: main.symbol!, renamed: !own.some((k) => readsAs(words, k)) || plainReading(symbol) !== plainReading(main.symbol!) };
}

/**
 * An added chain as the wallet shows it: a well-known chain ID under its own name and coin, and a
 * coin that reads as AVAX off Avalanche (or in other scripts) marked as not AVAX. New adds are held
 * to this (site-chains.ts); chains an older version stored as the site wrote them are shown so.
 */
export function heldToKnown<T extends { chainId: string; name: string; symbol: string }>(c: T): T {
  const known = wellKnownChain(BigInt(c.chainId), c.name, c.symbol);
  return known ? { ...c, name: known.name, symbol: known.symbol } : posesAsAvax(c.symbol) ? { ...c, symbol: 'NOT AVAX' } : c;
}

/** A coin's symbol that reads as AVAX, or is written in other scripts (a native coin's symbol is Latin; look-alikes are endless). */
export const posesAsAvax = (symbol: string): boolean => usesOtherScripts(symbol) || plainReading(symbol).includes('avax');
