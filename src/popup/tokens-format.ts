// How the popup words C-Chain tokens: the background's checks on a token's own name and symbol,
// token amounts in the token's units, transfers, allowances and EVM tx replacements. Pure, so the
// words are tested apart from the screens (test/unit/popup/tokens-format.test.ts).
import { UNLIMITED_ALLOWANCE } from '../core/amount.js';
import type { Check } from './checks.js';
import { formatValue, shortenId, tokenSymbol } from './format.js';
import type { AllowanceView, TokenChecks, TokenStandard, TokenTransferView, TokenView } from '../shared/messages.js';

/** What the background found in a token's words, one sentence each; empty when nothing. */
export function tokenFlags(checks: TokenChecks): string[] {
  const flags: string[] = [];
  if (checks.posesAsNative) flags.push('Its name or symbol reads as AVAX, the chain\'s own coin: it is not AVAX.');
  if (checks.looksLike) flags.push(`Its symbol reads like ${checks.looksLike.symbol}, another token in your list (at ${shortenId(checks.looksLike.address)}): a look-alike.`);
  if (checks.otherScripts) flags.push('Its name or symbol uses letters of other scripts, which can imitate familiar ones.');
  if (checks.altered) flags.push('Its name or symbol had hidden characters or was too long: shown cleaned and cut short.');
  return flags;
}

/** What the standard is, in words. */
export function standardLabel(standard: TokenStandard): string {
  return standard === 'erc20' ? 'ERC-20 token' : standard === 'erc721' ? 'ERC-721 NFTs' : 'ERC-1155 tokens';
}

/** A token's symbol to name amounts with; an unlisted one is named by its address. */
export function unitName(symbol: string, address: string): string {
  return tokenSymbol(symbol, address) || `units of ${shortenId(address)}`;
}

/** The balance line of a token row, exact: ERC-20 in its units, ERC-721 a count, ERC-1155 per ID (none here). */
export function tokenBalanceText(t: TokenView): string {
  if (t.balanceError) return `Balance not read: ${t.balanceError}`;
  if (t.balance === undefined) return t.standard === 'erc1155' ? 'Held per token ID: see the NFTs' : '—';
  if (t.standard === 'erc20') return formatValue(t.balance, t.decimals, unitName(t.symbol, t.address));
  const n = BigInt(t.balance);
  return `${n} NFT${n === 1n ? '' : 's'}`;
}

/** One transfer: which way, how much, and with whom. */
export function transferLine(t: TokenTransferView): { title: string; amount: string; counterparty: string } {
  const title = t.direction === 'in' ? 'Received' : t.direction === 'out' ? 'Sent' : 'Sent to yourself';
  const name = unitName(t.symbol, t.token);
  let amount: string;
  if (t.standard === 'erc721') amount = `NFT #${t.tokenId ?? '?'} of ${name}`;
  else if (t.standard === 'erc1155') amount = `${t.amount ?? '?'} of NFT #${t.tokenId ?? '?'} of ${name}`;
  else amount = formatValue(t.amount ?? '0', t.decimals, name);
  const counterparty = t.direction === 'in' ? (/^0x0{40}$/i.test(t.from) ? 'Minted (from no one)' : `From ${t.from}`) : `To ${t.to}`;
  return { title, amount, counterparty };
}

/** What a spender may take, in words. */
export function allowanceText(a: AllowanceView): string {
  if (a.unknown) return `${unitName(a.symbol, a.token)}: could not be checked now`;
  if (a.kind === 'operator') return `Every NFT of ${unitName(a.symbol, a.token)}, now and later`;
  if (a.unlimited) return `Unlimited ${unitName(a.symbol, a.token)}`;
  return formatValue(a.amount ?? '0', a.decimals, unitName(a.symbol, a.token));
}

/** Who the spender is, as far as the wallet can know. */
export function spenderNote(a: AllowanceView): string {
  return a.spenderIsContract ? 'A contract' : 'An ordinary account: whoever holds its key can take these tokens at any time';
}


/** What a waiting token call does, in words ('Sends 5 TUSD to 0x…'); undefined when it is no token call. */
export function tokenCallText(tx: {
  kind: string;
  token?: { address: string; symbol: string; decimals: number; standard: TokenStandard; tokenId?: string };
  amount?: string;
  counterparty?: string;
  increase?: true;
  unlimited?: true;
}): string | undefined {
  if (!tx.token || !tx.counterparty) return undefined;
  const name = unitName(tx.token.symbol, tx.token.address);
  let what: string;
  if (tx.token.tokenId !== undefined) what = `${tx.token.standard === 'erc1155' && tx.amount !== undefined ? `${tx.amount} × ` : ''}NFT #${tx.token.tokenId} of ${name}`;
  // An approval naming neither an amount nor an NFT: setApprovalForAll, every NFT of the contract.
  else if (tx.amount === undefined) what = tx.kind === 'approve' ? `every NFT of ${name}, now and later` : name;
  else what = tx.unlimited || BigInt(tx.amount) >= UNLIMITED_ALLOWANCE ? `an unlimited amount of ${name}` : formatValue(tx.amount, tx.token.decimals, name);
  if (tx.kind === 'send') return `Sends ${what} to ${tx.counterparty}`;
  if (tx.kind === 'approve') return tx.increase ? `Lets ${tx.counterparty} take ${what} more than it may already` : `Lets ${tx.counterparty} take ${what}`;
  if (tx.kind === 'revoke') return `Takes back what ${tx.counterparty} may take of ${name}`;
  return undefined;
}

/** What a speed-up or a cancel does, in words. */
export function replaceOutcome(action: 'speed-up' | 'cancel'): string {
  return action === 'speed-up'
    ? 'The same transaction again, with a higher fee, so the network takes it sooner. Only one of the two can run.'
    : 'Sends 0 AVAX to yourself in its place, with a higher fee: if it goes through first, the original never runs. Only one of the two can run.';
}

/** An NFT's token ID as typed: a whole number, 0 to 2^256 − 1. */
export function checkTokenId(text: string): Check<bigint> {
  const t = text.trim();
  if (t === '') return { ok: false, error: 'Enter the token ID' };
  if (!/^\d+$/.test(t)) return { ok: false, error: 'A token ID is a whole number (digits only)' };
  const v = BigInt(t);
  if (v >= 1n << 256n) return { ok: false, error: 'That token ID is too large' };
  return { ok: true, value: v };
}
