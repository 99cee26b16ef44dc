// The popup's form checks, run as the user types. They say what is wrong in words; the background
// validates every request again, and its field errors are shown in the same places.
import { fromHex, toHex } from '../core/bytes.js';
import { formatEvmAddress, parseEvmAddress } from '../core/evm-address.js';
import { parseAmount, UINT64_MAX } from '../core/amount.js';
import { noKeyAddress, parseAddressFor } from '../core/encoding.js';
import { phraseWords } from '../core/phrase-words.js';
import { displayName, sameDisplayName } from '../shared/validate-fields.js';
import { sentence } from './api.js';
import { formatValue, withArticle } from './format.js';

/** Largest wei amount the C-Chain takes. */
export const U256_MAX = (1n << 256n) - 1n;

export type Check<T> = { ok: true; value: T } | { ok: false; error: string };

function fail<T>(error: string): Check<T> {
  return { ok: false, error };
}

// ---- amounts ----

export interface AmountRules {
  denomination: number;
  symbol: string;
  /** What the wallet can spend of this asset; unknown → no balance check. */
  spendable?: bigint;
  /** A fee paid in this same asset on top of the amount, when known. */
  fee?: bigint;
  /** Largest value the field accepts (u64 for X/P, u256 for C wei). */
  max?: bigint;
}

export function checkAmount(text: string, rules: AmountRules): Check<bigint> {
  if (text.trim() === '') return fail('Enter an amount');
  let value: bigint;
  try {
    value = parseAmount(text, rules.denomination, rules.max ?? UINT64_MAX);
  } catch (e) {
    return fail(sentence((e as Error).message));
  }
  if (value === 0n) return fail('Enter an amount above zero');
  const { spendable, fee } = rules;
  if (spendable !== undefined) {
    const show = (v: bigint) => formatValue(v, rules.denomination, rules.symbol);
    if (value > spendable) return fail(`More than you can spend: ${show(spendable)}`);
    if (fee !== undefined && value + fee > spendable) {
      const room = spendable > fee ? spendable - fee : 0n;
      return fail(`With the fee of ${show(fee)} this is more than you can spend; at most ${show(room)}`);
    }
  }
  return { ok: true, value };
}

// ---- addresses ----

/** What an address field takes: a bech32 address of X or P, C-bech32, or a C-Chain 0x address. */
export type AddressKind = 'X' | 'P' | 'C-bech32' | 'C-evm';

const BECH32_CHAIN = /^([A-Za-z0-9]+)-/;

const NO_KEY = 'No one can ever spend from this address (a burn address or a built-in contract): anything sent to it is lost for good';

const TYPO = 'This address has a typo or is incomplete: check it character by character';

function needed(kind: AddressKind): string {
  if (kind === 'C-evm') return 'a C-Chain 0x address';
  if (kind === 'C-bech32') return 'a C-Chain bech32 (C-…) address';
  return `${withArticle(kind)} address`;
}

/** Checks an address for `kind` on the network `hrp`; names the wrong chain or network. */
export function checkAddress(text: string, kind: AddressKind, hrp: string): Check<string> {
  const trimmed = text.trim();
  if (trimmed === '') return fail('Enter an address');
  if (kind === 'C-evm') {
    const prefix = BECH32_CHAIN.exec(trimmed);
    if (prefix) {
      const chain = prefix[1]!.toUpperCase();
      const what = chain === 'C' ? 'a C-Chain bech32 address (it only receives cross-chain moves)' : `${withArticle(chain)} address`;
      return fail(`This is ${what}; ${needed(kind)} is needed here`);
    }
    let value: string;
    try {
      value = formatEvmAddress(parseEvmAddress(trimmed));
    } catch (e) {
      return fail(sentence((e as Error).message));
    }
    return noKeyAddress(value) ? fail(NO_KEY) : { ok: true, value };
  }
  if (/^0x/i.test(trimmed)) return fail(`This is a C-Chain 0x address; ${needed(kind)} is needed here`);
  const chain = kind === 'C-bech32' ? 'C' : kind;
  // The chain letter is worded in either case ("x-…" is an X-Chain address); only a capital is valid.
  const address = trimmed.replace(BECH32_CHAIN, (p) => p.toUpperCase());
  try {
    parseAddressFor(address, chain, hrp);
  } catch (e) {
    const message = (e as Error).message;
    // A failed bech32 decode (checksum, a character bech32 lacks, too short or long) is a typo; the decoder's words help nobody.
    if (/^(not a valid bech32|bech32 data|an address holds)/.test(message)) return fail(TYPO);
    // Core words it "a X-Chain"; fix the article and start with a capital.
    return fail(sentence(message.replace(/\ba X-Chain\b/g, 'an X-Chain')));
  }
  if (address !== trimmed) return fail(`Write the chain letter as a capital: ${chain}-…`);
  return noKeyAddress(trimmed) ? fail(NO_KEY) : { ok: true, value: trimmed };
}

// ---- passwords ----

/** The vault refuses shorter passwords (counted in code points). */
export const MIN_PASSWORD_LENGTH = 8;

export interface Strength {
  /** 0 too short, 1 weak, 2 fair, 3 good, 4 strong. */
  score: 0 | 1 | 2 | 3 | 4;
  label: 'Too short' | 'Weak' | 'Fair' | 'Good' | 'Strong';
  hint?: string;
}

// A few of the most used passwords and words people reach for in a wallet: enough to catch the
// obvious, without shipping a dictionary.
const COMMON = new Set([
  'password', 'passw0rd', 'qwerty', 'qwertyuiop', 'asdfgh', 'iloveyou', 'letmein', 'welcome', 'admin',
  'monkey', 'dragon', 'sunshine', 'football', 'baseball', 'princess', 'master', 'shadow', 'superman',
  'trustno', 'changeme', 'secret', 'avalanche', 'avax', 'wallet', 'bitcoin', 'ethereum', 'crypto', 'abc',
]);

const RUNS = ['abcdefghijklmnopqrstuvwxyz', '01234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'];

/** Longest stretch of the password that walks along the alphabet, digits or a keyboard row. */
function longestRun(lower: string): number {
  let best = 1;
  let current = 1;
  for (let i = 1; i < lower.length; i++) {
    const pair = lower[i - 1]! + lower[i]!;
    const reversed = lower[i]! + lower[i - 1]!;
    const step = RUNS.some((r) => r.includes(pair) || r.includes(reversed));
    current = step ? current + 1 : 1;
    best = Math.max(best, current);
  }
  return best;
}

const LABELS: Strength['label'][] = ['Too short', 'Weak', 'Fair', 'Good', 'Strong'];

function strength(score: Strength['score'], hint?: string): Strength {
  return hint === undefined ? { score, label: LABELS[score]! } : { score, label: LABELS[score]!, hint };
}

/** A small heuristic: length, kinds of characters, and the obvious patterns. */
export function passwordStrength(password: string): Strength {
  const chars = [...password.normalize('NFC')];
  if (chars.length < MIN_PASSWORD_LENGTH) return strength(0, `Use at least ${MIN_PASSWORD_LENGTH} characters`);
  const lower = password.toLowerCase();
  const letters = lower.replace(/[^a-z]/g, '');
  if (COMMON.has(lower) || COMMON.has(letters)) return strength(1, 'This is one of the most common passwords');
  if (new Set(chars).size <= 3) return strength(1, 'Avoid repeating the same few characters');
  if (longestRun(lower) * 2 >= chars.length) return strength(1, 'Avoid runs like "abcd", "1234" or "qwerty"');
  const kinds = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length;
  let score = 1;
  if (chars.length >= 12) score++;
  if (chars.length >= 16) score++;
  if (kinds >= 3) score++;
  if (kinds === 4 || chars.length >= 20) score++;
  const capped = Math.min(score, 4) as Strength['score'];
  return capped < 2 ? strength(capped, 'Make it longer, or mix upper case, digits and symbols') : strength(capped);
}

/** What is wrong with a password's confirmation, if anything. */
export function confirmError(password: string, confirm: string): string | undefined {
  return confirm === password ? undefined : confirm === '' ? 'Confirm your password' : 'The two passwords do not match';
}

/** Checks a new password and its confirmation; the strength must be at least "Fair". */
export function checkNewPassword(password: string, confirm: string): Check<string> {
  const s = passwordStrength(password);
  if (s.score === 0) return fail(s.hint!);
  if (s.score < 2) return fail(`Choose a stronger password: ${s.hint!.toLowerCase()}`);
  const mismatch = confirmError(password, confirm);
  return mismatch ? fail(mismatch) : { ok: true, value: password };
}

// ---- recovery phrases ----


/** BIP-39's phrase lengths, all of which the wallet restores (it creates 12 or 24). */
const PHRASE_LENGTHS = [12, 15, 18, 21, 24];

/** Shape only: 12 to 24 words (a multiple of 3) of letters. The word list and checksum are checked by the wallet. */
export function checkPhrase(text: string): Check<string> {
  const words = phraseWords(text);
  if (words.length === 0) return fail('Enter your recovery phrase');
  const odd = words.findIndex((w) => !/^[a-z]+$/.test(w));
  if (odd >= 0) {
    // A letter outside a–z (é, ñ, かな…): a phrase in another language, which the wallet does not read.
    const foreign = /[\p{L}\p{M}]/u.test(words[odd]!.replace(/[a-z]/g, ''));
    return fail(foreign ? `Word ${odd + 1} is not in English: the wallet reads English recovery phrases only` : `Word ${odd + 1} has characters other than letters`);
  }
  if (!PHRASE_LENGTHS.includes(words.length)) return fail(`A recovery phrase has 12, 15, 18, 21 or 24 words; this one has ${words.length}`);
  return { ok: true, value: words.join(' ') };
}

// ---- private keys ----

export function checkPrivateKey(text: string): Check<string> {
  const trimmed = text.trim();
  if (trimmed === '') return fail('Paste the private key');
  if (/^PrivateKey-[1-9A-HJ-NP-Za-km-z]+$/.test(trimmed) || /^(0x)?[0-9a-fA-F]{64}$/i.test(trimmed)) return { ok: true, value: trimmed };
  return fail('A private key is PrivateKey-… or 64 hex digits');
}

// ---- names, memos, assets ----

/**
 * Account and network names: the background's own rule (its length counts as it does: an emoji is
 * 2). One of `taken` (the other accounts' or networks' names, as `kind` says: each must be told
 * apart) is refused.
 */
export function checkName(text: string, what = 'a name', taken: readonly string[] = [], kind: 'account' | 'network' = 'account'): Check<string> {
  if (text.trim() === '') return fail(sentence(`enter ${what}`));
  const same = taken.find((t) => sameDisplayName(t, text));
  if (same !== undefined) return fail(`Another ${kind} is named “${same}”: choose another name`);
  try {
    return { ok: true, value: displayName(text, 'name') };
  } catch (e) {
    return fail(sentence((e as Error).message.replace(/^name: /, '')));
  }
}

export const MAX_MEMO_BYTES = 256;

export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

export function checkMemo(text: string): Check<string> {
  const n = utf8Length(text);
  if (n > MAX_MEMO_BYTES) return fail(`A memo holds at most ${MAX_MEMO_BYTES} bytes; this one is ${n}`);
  return { ok: true, value: text };
}

/** The X-Chain's rules for a new asset's name, symbol and denomination. */
export function checkAssetName(name: string): Check<string> {
  if (name.length < 1 || name.length > 128) return fail('A name has 1 to 128 characters');
  if (!/^[A-Za-z0-9 ]+$/.test(name)) return fail('A name uses only letters, digits and spaces');
  if (name.trim() !== name) return fail('A name cannot start or end with a space');
  return { ok: true, value: name };
}

export function checkSymbol(symbol: string): Check<string> {
  if (!/^[A-Z]{1,4}$/.test(symbol)) return fail('A symbol is 1 to 4 capital letters A–Z');
  return { ok: true, value: symbol };
}

export function checkDenomination(text: string): Check<number> {
  if (!/^\d{1,2}$/.test(text.trim()) || Number(text) > 32) return fail('Decimal places: a whole number from 0 to 32');
  return { ok: true, value: Number(text) };
}

export function checkWholeNumber(text: string, min: number, max: number, what: string): Check<number> {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed) || Number(trimmed) < min || Number(trimmed) > max) return fail(`${sentence(what)}: a whole number from ${min} to ${max}`);
  return { ok: true, value: Number(trimmed) };
}

// ---- NFT payloads ----

export type PayloadKind = 'text' | 'json' | 'url';
export const MAX_NFT_PAYLOAD_BYTES = 1024;

const JSON_STRING = /"(?:[^"\\]|\\.)*"/g;
const STRING_OR_SPACES = new RegExp(`${JSON_STRING.source}|[ \\t\\n\\r]+`, 'g');

/**
 * Valid JSON with only the spaces between its tokens taken out (null if not JSON). Never parsed and
 * re-written: that would round big numbers, drop repeated keys and reorder numeric ones.
 */
export function compactJson(text: string): string | null {
  try {
    JSON.parse(text);
  } catch {
    return null;
  }
  return text.replace(STRING_OR_SPACES, (m) => (m[0] === '"' ? m : ''));
}

/**
 * A JSON payload as shown: indented, its \u escapes read, when parsing keeps all it says; else its
 * compact text, as written.
 */
export function jsonShown(text: string): string {
  const parsed: unknown = JSON.parse(text);
  const compact = compactJson(text)!;
  const escapesRead = compact.replace(JSON_STRING, (s) => JSON.stringify(JSON.parse(s)));
  return JSON.stringify(parsed) === escapesRead ? JSON.stringify(parsed, null, 2) : compact;
}

/** The payload as hex bytes: UTF-8 of the text, of compact JSON, or of an http(s) URL. */
export function encodePayload(kind: PayloadKind, text: string): Check<string> {
  let body = text;
  if (text.trim() === '') return fail('Enter the payload');
  // A lone surrogate (half a character) would be signed as U+FFFD, not as shown.
  if (/\p{Cs}/u.test(text)) return fail('This text has a broken character');
  if (kind === 'json') {
    const compact = compactJson(text);
    if (compact === null) return fail('This is not valid JSON');
    body = compact;
  } else if (kind === 'url') {
    let url: URL;
    try {
      url = new URL(text.trim());
    } catch {
      return fail('This is not a valid URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return fail('Only http:// and https:// links');
    body = url.href;
  }
  const bytes = new TextEncoder().encode(body);
  if (bytes.length > MAX_NFT_PAYLOAD_BYTES) return fail(`A payload holds at most ${MAX_NFT_PAYLOAD_BYTES} bytes; this one is ${bytes.length}`);
  return { ok: true, value: toHex(bytes) };
}

/** What a stored payload holds, for display: a link, JSON, text, or (anything else) its hex bytes. */
export function decodePayload(hex: string): { kind: PayloadKind | 'bytes'; text: string } {
  const bytes = fromHex(hex);
  let text: string;
  try {
    // A leading BOM kept: dropped, it would hide bytes from the check below.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { kind: 'bytes', text: hex };
  }
  // Control characters (other than line breaks and tabs) would hide what the payload says.
  if (text === '' || [...text].some((c) => (c < ' ' && c !== '\n' && c !== '\r' && c !== '\t') || c === '\u007f')) return { kind: 'bytes', text: hex };
  if (/^https?:\/\/\S+$/.test(text) && encodePayload('url', text).ok) return { kind: 'url', text };
  if (/^[[{]/.test(text) && encodePayload('json', text).ok) return { kind: 'json', text };
  return { kind: 'text', text };
}
