// Every failure the popup can show, in a sentence a person understands. The background's own
// words stay as the detail (one click away): they may hold base units, asset IDs, RPC method names
// or the node's URL, none of which belongs in the main text.

export interface PlainError {
  /** The sentence shown. */
  text: string;
  /** What the background said, for whoever wants it; absent when the sentence is that already. */
  detail?: string;
}

/** What the user sees when the background refuses a fee above the one they reviewed (every flow with a fee). */
export const FEE_WENT_UP = 'The network fee went up since you reviewed it. Nothing was sent: review it again.';

/** AVAX short for the fee of something else (the background's field 'fee'): the amount is not what is short. */
export const FEE_NOT_COVERED = 'The network fee is paid in AVAX, and your AVAX on this chain does not cover it.';

/** The node's failures: the wallet did not get a trustworthy answer. Nothing was signed by them. */
const NODE: Record<string, string> = {
  'node-unreachable': "The node can't be reached. Check that it is running and that its address in Settings is right.",
  timeout: 'The node took too long to answer. It may be busy or stuck; try again in a moment.',
  'node-response': 'The node sent an answer the wallet could not check, so the wallet did not believe it.',
  codec: 'The node sent data the wallet could not read, so the wallet did not believe it.',
  format: 'Something the wallet received was not in the form it expects, so it was not used.',
  'network-mismatch': 'The node is not the network the wallet is set to, so the wallet did not use it.',
  'node-behind': 'The node is behind: it shows an older state of the chains than it did before, so the wallet kept the newer balances.',
  // The node's refusal in its own words: any words a node writes stay in the detail (a lying one could write "move your funds to …").
  rpc: 'The node turned the request down.',
};

/** Failures whose background message carries numbers or IDs: a fixed sentence, the rest as detail. */
const WORDED: Record<string, string> = {
  'insufficient-funds': 'Not enough funds for this amount and its network fee.',
  'tx-too-large': 'This needs more pieces of your balance than fit in one transaction. Send less, or move funds to yourself first to merge them.',
  'fee-above-approved': FEE_WENT_UP,
  'storage-corrupt': "The wallet's saved data could not be read. Nothing was changed.",
  'token-call-failed': "The token contract did not answer as a token does, so the wallet did not use what it said.",
  'scan-limit': 'This account has more addresses than the wallet looks through; some funds may not show.',
};

/**
 * Staking refusals: the background's sentence is written for people (what was asked, what is
 * allowed) and is shown as it is; these stand in only if one ever carries an internal.
 */
const STAKING: Record<string, string> = {
  'staking-rule': "This stake breaks one of the network's staking rules, so nothing was signed.",
  'no-validator': 'No validator can take this delegation now: try a smaller amount or an earlier end, or choose one from the list.',
};

/** Sentence case: background and core messages start in lower case. */
export function sentence(text: string): string {
  return text.length === 0 ? text : text[0]!.toUpperCase() + text.slice(1);
}

/** Base units, long IDs, hex, URLs and RPC method names: what a sentence for people must not carry. */
const INTERNALS = /https?:\/\/(?=\S)|\b[1-9A-HJ-NP-Za-km-z]{40,}\b|\b0x[0-9a-fA-F]{16,}\b|\b\d{13,}\b|\b(avm|platform|avax|eth|info|health)\.[a-zA-Z]+\b|\beth_[a-zA-Z]+\b/i;

/** True when `text` holds something only the detail may show. */
export function hasInternals(text: string): boolean {
  return INTERNALS.test(text);
}

/**
 * The sentence with its internals taken out: a parenthesis that holds one goes whole ("(2fom…,
 * 0xab…)", the node's words quoted with their method and code), a method's name and an RPC code go,
 * a URL becomes "a web address", an ID standing alone goes. What is left may still hold one (a
 * base-unit amount): the caller checks.
 */
export function withoutInternals(text: string): string {
  return text
    .replace(/\s*\((?:[^()]|\([^()]*\))*\)/g, (group) => (INTERNALS.test(group) ? '' : group))
    .replace(/\b(?:(?:avm|platform|avax|eth|info|health)\.[a-zA-Z]+|eth_[a-zA-Z]+): |\s*\(code -?\d+\)/gi, '')
    .replace(/https?:\/\/\S+/gi, 'a web address')
    .replace(/\s*\b(?:[1-9A-HJ-NP-Za-km-z]{40,}|0x[0-9a-fA-F]{16,})\b/g, '')
    .replace(/\s+([,.;:])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

/**
 * The sentence for a failure with this code and background message. Validation messages name
 * their field first ("to.addresses[0]: …"); the form shows the field, so it is dropped here.
 */
export function plainError(code: string, message: string, field?: string): PlainError {
  // A node's message can be any length: past this, cleaning it would only hold up the popup.
  const said = sentence(message.slice(0, 2_000).replace(/^\w[\w.[\]]*: /, ''));
  // The node's words quoted in the background's own sentence (core nodeWords) stay in the detail only.
  const ours = said.replace(/ ?\[node: [^\]]*\]/g, '');
  // AVAX short for the fee of something else (another asset's send, an asset created or minted).
  if (code === 'insufficient-funds' && field === 'fee') return { text: FEE_NOT_COVERED, detail: said };
  // An import (or a move's import) whose fee is more than what waits: the fee would take it all.
  if (code === 'insufficient-funds' && /import fee/.test(message)) return { text: 'The amount does not cover the import fee: nothing would arrive.', detail: said };
  // A damaged record that names itself and says how to clear it (src/background/account-engines.ts).
  if (code === 'storage-corrupt' && / in Settings /.test(said) && !hasInternals(said)) return { text: said };
  const fixed = NODE[code] ?? WORDED[code];
  if (fixed) return { text: fixed, detail: said };
  const staking = STAKING[code];
  if (staking) return hasInternals(said) ? { text: staking, detail: said } : { text: said };
  if (code === 'unreachable') return { text: 'The wallet background is not answering. Close and reopen the popup.' };
  // The background's own sentences (refusals, "went through after all", validation, lock) are
  // written for people: kept, with any ID or URL in them moved to the detail. Only one that still
  // carries an internal after that (a base-unit amount) gives way to a general sentence.
  if (!hasInternals(ours)) return ours === said ? { text: said } : { text: ours, detail: said };
  const cleaned = withoutInternals(ours);
  return { text: hasInternals(cleaned) || cleaned === '' ? 'The wallet could not do this.' : sentence(cleaned), detail: said };
}
