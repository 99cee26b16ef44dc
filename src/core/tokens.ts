// Token contracts on the C-Chain (ERC-20, ERC-721, ERC-1155), read with eth_call on the user's own
// node: what standard a contract follows, its name, symbol and decimals (untrusted text, cleaned
// and checked by the background), balances, allowances and operators; and the call data of the
// wallet's own token txs (send, revoke). docs/tokens.md.
import { AbiReader, decodeTextResult, encodeCall } from './evm-abi.js';
import { parseEvmAddress } from './evm-address.js';
import { FormatError, RpcError, WalletError } from './errors.js';
import { PERMIT2_ADDRESS } from './evm-calls.js';
import { isRevert } from './evm-simulate.js';
import type { EthApi } from './node/eth.js';
import type { BlockTag } from './node/types.js';

export type TokenStandard = 'erc20' | 'erc721' | 'erc1155';

/** What a contract says of itself. `name` and `symbol` are its own words: never trusted as they are. */
export interface TokenMetadata {
  address: string;
  standard: TokenStandard;
  name: string;
  symbol: string;
  /** ERC-20's decimals; 0 for NFTs. */
  decimals: number;
}

/** ERC-165 interface IDs. */
export const INTERFACE_ERC721 = '0x80ac58cd';
export const INTERFACE_ERC1155 = '0xd9b67a26';
const INTERFACE_INVALID = '0xffffffff';
/** uint256's largest value: what "unlimited" allowances are set to. */
export const MAX_UINT256 = (1n << 256n) - 1n;
/** Above this, decimals make no sense for a currency (and would make amounts unreadable). */
export const MAX_TOKEN_DECIMALS = 36;

/** The EVM's own errors for a call that stopped (old compilers hit an invalid opcode, not a revert, for a missing function). */
const VM_ERROR = /^(invalid opcode|invalid jump destination|out of gas|stack underflow|stack limit reached|write protection|return data out of bounds|max call depth exceeded)/i;

/** The contract's own run failed (a revert, an EVM error): its answer, unlike a node that failed to answer (rate limit, timeout). */
const contractFailed = (e: unknown): boolean => isRevert(e) || (e instanceof RpcError && VM_ERROR.test(e.rpcMessage));

/**
 * eth_call of `data` on `token`; undefined when the contract reverts or answers nothing (it does
 * not have that function). Any other failure (the node unreachable, a rate limit, …) is thrown.
 */
export async function tryCall(eth: EthApi, token: string, data: string, tag: BlockTag = 'latest'): Promise<string | undefined> {
  try {
    const out = await eth.call({ to: token, data }, tag);
    return out === '0x' ? undefined : out;
  } catch (e) {
    if (contractFailed(e)) return undefined;
    throw e;
  }
}

/** A call whose answer is at least one word; a revert, no answer or a shorter one is 'token-call-failed' (the contract's doing, not the node's). */
async function callWord(eth: EthApi, token: string, data: string, what: string, tag: BlockTag = 'latest'): Promise<AbiReader> {
  const out = await tryCall(eth, token, data, tag);
  const r = out === undefined ? undefined : new AbiReader(out);
  if (r === undefined || r.words < 1) throw new WalletError('token-call-failed', `the token contract did not answer ${what}`);
  return r;
}

async function supports(eth: EthApi, token: string, interfaceId: string): Promise<boolean> {
  const out = await tryCall(eth, token, encodeCall('supportsInterface(bytes4)', BigInt(interfaceId) << 224n));
  if (out === undefined) return false;
  try {
    return new AbiReader(out).bool(0);
  } catch {
    return false;
  }
}

async function text(eth: EthApi, token: string, signature: string): Promise<string | undefined> {
  const out = await tryCall(eth, token, encodeCall(signature));
  if (out === undefined) return undefined;
  try {
    return decodeTextResult(out);
  } catch {
    return undefined;
  }
}

/**
 * Which token standard the contract at `address` follows, and its metadata. ERC-721 and ERC-1155
 * by ERC-165 (a contract that claims every interface, 0xffffffff included, claims none); ERC-20
 * when decimals(), totalSupply() and balanceOf() all answer. No contract, or none of these:
 * WalletError 'not-a-token'.
 */
export async function readTokenMetadata(eth: EthApi, address: string): Promise<TokenMetadata> {
  parseEvmAddress(address);
  if ((await eth.getCode(address)) === '0x') throw new WalletError('not-a-token', 'there is no contract at this address on this chain');
  const [is721, is1155, claimsAll] = await Promise.all([supports(eth, address, INTERFACE_ERC721), supports(eth, address, INTERFACE_ERC1155), supports(eth, address, INTERFACE_INVALID)]);
  const [name, symbol] = await Promise.all([text(eth, address, 'name()'), text(eth, address, 'symbol()')]);
  if (!claimsAll && (is721 || is1155)) {
    return { address, standard: is721 ? 'erc721' : 'erc1155', name: name ?? '', symbol: symbol ?? '', decimals: 0 };
  }
  const [decimals, supply, balance] = await Promise.all([
    tryCall(eth, address, encodeCall('decimals()')),
    tryCall(eth, address, encodeCall('totalSupply()')),
    tryCall(eth, address, encodeCall('balanceOf(address)', address)),
  ]);
  if (decimals === undefined || supply === undefined || balance === undefined) {
    throw new WalletError('not-a-token', 'the contract at this address is not an ERC-20, ERC-721 or ERC-1155 token');
  }
  // An answer shorter than a word is no number of decimals: the contract does not answer as an ERC-20 does.
  const words = new AbiReader(decimals);
  if (words.words < 1) throw new WalletError('not-a-token', 'the contract at this address does not answer as an ERC-20 token does: it gives no number of decimals');
  const d = words.uint(0);
  // ERC-20's decimals are a uint8: a larger word is said as impossible, not as a 78-digit number.
  if (d > BigInt(MAX_TOKEN_DECIMALS)) throw new WalletError('not-a-token', `the contract says its token has ${d > 255n ? 'an impossible number of' : d} decimals; the wallet supports at most ${MAX_TOKEN_DECIMALS}`);
  return { address, standard: 'erc20', name: name ?? '', symbol: symbol ?? '', decimals: Number(d) };
}

/** ERC-20 balance, or the number of ERC-721 tokens owned. */
export async function tokenBalance(eth: EthApi, token: string, owner: string, tag: BlockTag = 'latest'): Promise<bigint> {
  return (await callWord(eth, token, encodeCall('balanceOf(address)', owner), 'balanceOf', tag)).uint(0);
}

/** ERC-1155 balance of one token ID. */
export async function tokenBalanceOfId(eth: EthApi, token: string, owner: string, id: bigint): Promise<bigint> {
  return (await callWord(eth, token, encodeCall('balanceOf(address,uint256)', owner, id), 'balanceOf')).uint(0);
}

export async function totalSupplyOf(eth: EthApi, token: string): Promise<bigint> {
  return (await callWord(eth, token, encodeCall('totalSupply()'), 'totalSupply')).uint(0);
}

export async function allowanceOf(eth: EthApi, token: string, owner: string, spender: string): Promise<bigint> {
  return (await callWord(eth, token, encodeCall('allowance(address,address)', owner, spender), 'allowance')).uint(0);
}

/** The allowance Permit2 keeps for `spender` of `token`, and its end (seconds): it gives nothing after that. */
export async function permit2AllowanceOf(eth: EthApi, owner: string, token: string, spender: string): Promise<{ amount: bigint; expiration: bigint }> {
  const r = await callWord(eth, PERMIT2_ADDRESS, encodeCall('allowance(address,address,address)', owner, token, spender), 'allowance');
  return { amount: r.uint(0), expiration: r.uint(1) };
}

export async function isApprovedForAll(eth: EthApi, token: string, owner: string, operator: string): Promise<boolean> {
  return (await callWord(eth, token, encodeCall('isApprovedForAll(address,address)', owner, operator), 'isApprovedForAll')).bool(0);
}

/**
 * The owner of an ERC-721 token; undefined when it has none (the call reverts or fails in the EVM:
 * burned, never minted). Any other failure is thrown: a node that did not answer must not read as
 * "not yours".
 */
export async function ownerOf(eth: EthApi, token: string, id: bigint): Promise<string | undefined> {
  try {
    const out = await eth.call({ to: token, data: encodeCall('ownerOf(uint256)', id) });
    return out === '0x' ? undefined : new AbiReader(out).address(0);
  } catch (e) {
    if (contractFailed(e)) return undefined;
    throw e;
  }
}

/** An NFT's metadata URI (ERC-721 tokenURI, ERC-1155 uri with its {id} filled in); undefined when it has none. */
export async function nftUri(eth: EthApi, token: string, standard: TokenStandard, id: bigint): Promise<string | undefined> {
  const out = await tryCall(eth, token, standard === 'erc1155' ? encodeCall('uri(uint256)', id) : encodeCall('tokenURI(uint256)', id));
  if (out === undefined) return undefined;
  try {
    const uri = decodeTextResult(out, 8192);
    return standard === 'erc1155' ? uri.replaceAll('{id}', id.toString(16).padStart(64, '0')) : uri;
  } catch (e) {
    if (e instanceof FormatError) return undefined;
    throw e;
  }
}

// ---- call data of the wallet's own token txs ----

/** A send of `amount` (ERC-20), of token `tokenId` (ERC-721), or of `amount` of `tokenId` (ERC-1155). */
export function tokenSendData(standard: TokenStandard, from: string, to: string, p: { amount?: bigint; tokenId?: bigint }): string {
  if (standard === 'erc20') {
    if (p.amount === undefined) throw new WalletError('validation', 'an ERC-20 send needs an amount');
    return encodeCall('transfer(address,uint256)', to, p.amount);
  }
  if (p.tokenId === undefined) throw new WalletError('validation', 'an NFT send needs a token ID');
  if (standard === 'erc721') return encodeCall('safeTransferFrom(address,address,uint256)', from, to, p.tokenId);
  return encodeCall('safeTransferFrom(address,address,uint256,uint256,bytes)', from, to, p.tokenId, p.amount ?? 1n, new Uint8Array(0));
}

/**
 * The tx that takes back an allowance (approve to 0), an operator's right over every NFT
 * (setApprovalForAll false), or an allowance Permit2 keeps (its approve to 0, sent to Permit2).
 */
export function revokeCall(kind: 'allowance' | 'operator' | 'permit2', token: string, spender: string): { to: string; data: string } {
  if (kind === 'permit2') return { to: PERMIT2_ADDRESS, data: encodeCall('approve(address,address,uint160,uint48)', token, spender, 0n, 0n) };
  return { to: token, data: kind === 'allowance' ? encodeCall('approve(address,uint256)', spender, 0n) : encodeCall('setApprovalForAll(address,bool)', spender, false) };
}
