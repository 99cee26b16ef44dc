// The tokens.* and evm.* part of the message protocol (messages.ts re-exports it): C-Chain tokens,
// decoded calls, simulations and EVM tx replacement, as the popup and the approval window see them
// (docs/tokens.md). Kept apart so messages.ts stays one readable file.
import type { ImpactWarning, OwnAddress } from '../core/tx-impact.js';
import type { ActivityItem, Amount } from './messages.js';

export type TokenStandard = 'erc20' | 'erc721' | 'erc1155';

/** A token named in an Activity item. */
export interface ActivityToken {
  address: string;
  symbol: string;
  decimals: number;
  standard: TokenStandard;
  /** An NFT's ID (decimal). */
  tokenId?: Amount;
}

/** What the wallet makes of a token's name and symbol: the contract's own words, never trusted as they are. */
export interface TokenChecks {
  /** Hidden characters (bidi, zero-width, control) were removed from the name or symbol, or it was cut short. */
  altered: boolean;
  /** The name or symbol reads as the chain's own coin (AVAX, past case, separators and look-alike letters): it is not. */
  posesAsNative: boolean;
  /** The symbol reads as another listed token's (that one's address and symbol). */
  looksLike?: { address: string; symbol: string };
  /** The name or symbol has letters outside ASCII (other scripts, small capitals, accents): said, as no list of look-alikes is complete. */
  otherScripts?: true;
}

/** A token contract as the wallet shows it. */
export interface TokenView {
  /** EIP-55 address: the token's identity (its name and symbol are only what it says of itself). */
  address: string;
  standard: TokenStandard;
  /** Cleaned of hidden characters and cut short (background/chain-name.ts shownName). */
  name: string;
  symbol: string;
  /** ERC-20 decimals; 0 for NFTs. */
  decimals: number;
  checks: TokenChecks;
  /** 'wallet': the user added it here; else the origin of the site whose wallet_watchAsset the user approved. */
  addedBy: string;
  /** ERC-20: base units; ERC-721: how many tokens the account holds; ERC-1155: absent (per ID, tokens.nfts). */
  balance?: Amount;
  /** Why the balance could not be read, in words. */
  balanceError?: string;
}

/** A token transfer that concerns the account, read from the chain's Transfer logs. */
export interface TokenTransferView {
  txHash: string;
  logIndex: number;
  blockNumber: Amount;
  token: string;
  /** Listed tokens: their checked symbol and decimals; an unlisted token: '' and 0 (shown by address). */
  symbol: string;
  decimals: number;
  standard: TokenStandard;
  listed: boolean;
  /** 'self': from the account to itself. */
  direction: 'in' | 'out' | 'self';
  from: string;
  to: string;
  /** ERC-20 and ERC-1155 amounts, base units. */
  amount?: Amount;
  /** ERC-721 and ERC-1155 token IDs. */
  tokenId?: Amount;
  /** Its block's time (ms); absent until the background has read it. */
  time?: number;
}

/** How far the chain's logs were read for the account (scans run in bounded block ranges). */
export interface LogScanView {
  /** Blocks read, inclusive. */
  fromBlock: Amount;
  toBlock: Amount;
  /** The whole chain was read: from block 0 up to the node's latest block at the last refresh. */
  complete: boolean;
  /** Blocks newer than toBlock are still to be read (more came than one refresh reads). */
  behind?: boolean;
  updatedAt: number;
  /** Why the last scan stopped early: the node's or the core's own words (shown behind Details). */
  error?: string;
  /** With `error`: its code (as WalletError names it; absent when none), for the popup's plain words. */
  errorCode?: string;
  /** Some transfers or approvals found were not kept (too many from contracts not in the token list): the lists may miss some. */
  cut?: boolean;
  /** Some blocks held more logs naming the account than an answer the wallet reads (a flood): passed by, so the lists may miss what they hold. */
  flooded?: true;
}

/** A right to take the account's tokens: an ERC-20 allowance, an NFT operator, or an allowance kept by Permit2. */
export type ApprovalKind = 'allowance' | 'operator' | 'permit2';

/** An allowance or operator right the account gave, as its Approval / ApprovalForAll logs (Permit2's Approval / Permit) say, confirmed on chain now. */
export interface AllowanceView {
  token: string;
  /** The token's checked symbol when listed; else '' (shown by address). */
  symbol: string;
  decimals: number;
  standard: TokenStandard;
  /** 'allowance': ERC-20 approve; 'operator': setApprovalForAll (every NFT of the contract); 'permit2': an allowance Permit2 keeps (taken through it). */
  kind: ApprovalKind;
  spender: string;
  /** ERC-20: what the spender may still take now (allowance()), base units. */
  amount?: Amount;
  /** The chain could not be asked now (the read failed): still listed, and revocable, but neither amount nor right is confirmed. */
  unknown?: true;
  /** The allowance is (nearly) the whole uint256 range (uint160, Permit2's): no limit. */
  unlimited: boolean;
  /** Permit2's: when it ends (seconds). */
  expiration?: Amount;
  /** The spender has code; false: an ordinary account, whoever holds its key can take the tokens. */
  spenderIsContract: boolean;
  /** The tx of the latest Approval log for this pair. */
  txHash: string;
}

/** Fees of an EVM tx the wallet builds, in wei (per gas for the rates). */
export interface EvmFeeQuote {
  gasLimit: Amount;
  maxFeePerGas: Amount;
  maxPriorityFeePerGas: Amount;
  /** gasLimit × maxFeePerGas: the most it can cost, what confirming approves. */
  maxFee: Amount;
  /** What it likely costs: the gas Helicon charges (at least half the limit) × (base fee bound + tip). */
  likelyFee: Amount;
}

/** What the account's native coin and tokens do if the tx runs now, from the user's own node. */
export interface SimulationView {
  /**
   * 'trace': debug_traceCall with the call tracer (every value move and event); 'call': only
   * eth_call (whether it reverts: balance changes unknown); 'none': the node could not run it.
   */
  method: 'trace' | 'call' | 'none';
  /** It would revert: the reason the contract gives, or '' when it gives none. */
  reverted?: string;
  /** Per asset, the account's change: signed decimal in base units (wei for 'native'). */
  changes: SimulatedChange[];
  /** Rights over the account's tokens the tx gives or takes back (Approval / ApprovalForAll events it emits). */
  approvals?: SimulatedAllowance[];
  /** The trace was too large to follow in full: the changes are those found so far, not all. */
  partial?: boolean;
  /** Every contract the tx runs code of, in order of first touch. */
  touched: string[];
  /** Why the node could not trace or run it, in the node's own words (cleaned, 120 characters): shown under Details only. */
  nodeSaid?: string;
}

/** A right the tx gives `spender` over the account's tokens; symbol '' when the token is not listed. */
export interface SimulatedAllowance {
  token: string;
  symbol: string;
  decimals: number;
  spender: string;
  /** ERC-20: the new allowance ('0' takes it back). */
  amount?: Amount;
  unlimited?: boolean;
  /** ERC-721: one token. */
  tokenId?: Amount;
  /** ApprovalForAll: every NFT of the contract (true), or that right taken back (false). */
  all?: boolean;
  /** Permit2's allowance of the token, not the token's own. */
  permit2?: true;
}

export interface SimulatedChange {
  /** 'native' or the token contract's address. */
  asset: string;
  standard?: TokenStandard;
  /** Listed tokens and the native coin: symbol and decimals (a flagged token's symbol with its address); unlisted tokens: '' and 0. */
  symbol: string;
  decimals: number;
  /** Signed decimal: negative leaves the account. */
  delta: string;
  tokenId?: Amount;
}

/** The address a call hands tokens or rights to, and what the wallet knows of it. */
export interface CounterpartyView {
  address: string;
  /** One of the wallet's accounts. */
  yours?: OwnAddress;
  /** It has code. false: an ordinary account (an allowance to one is a classic theft). Absent: the node did not say. */
  isContract?: boolean;
  /** How many txs of this site that called this address the user approved (0: none). */
  siteCalls: number;
  /** A first payment, a look-alike of one of the wallet's addresses (as for any EVM recipient). */
  warnings: ImpactWarning[];
  /** Those checks (or the count of this site's calls) could not be made: the node or storage failed. */
  checksFailed?: boolean;
}

/** A token as an approval names it: read from the contract on the user's node. */
export interface ApprovalTokenView {
  address: string;
  standard: TokenStandard;
  name: string;
  symbol: string;
  decimals: number;
  checks: TokenChecks;
  /** The user has listed it (with these same words). */
  listed: boolean;
}

/** A contract call decoded from its data (core/evm-calls.ts), in the token's units. */
export interface TokenCallView {
  kind: 'transfer' | 'transferFrom' | 'safeTransferFrom' | 'approve' | 'increaseAllowance' | 'setApprovalForAll';
  /** The called contract read as a token; absent when it does not answer as one (then amounts are base units). */
  token?: ApprovalTokenView;
  /** No token: the node failed to answer for the contract (not the contract's own answer). */
  unread?: true;
  from?: string;
  /** Who receives tokens (transfers). */
  recipient?: CounterpartyView;
  /** Who gets the right to take tokens (approve, increaseAllowance, setApprovalForAll). */
  spender?: CounterpartyView;
  amount?: Amount;
  tokenId?: Amount;
  /** setApprovalForAll: true grants every NFT of the contract, false takes that back. */
  approved?: boolean;
  /** An allowance with no practical limit (≥ 2^255, the usual "max uint256"; Permit2's ≥ 2^159). */
  unlimited?: boolean;
  /** Permit2's approve (a call to Permit2, `token` the one it names): until when it lasts, Unix seconds. */
  expiration?: Amount;
}

/** A typed-data signature that grants an allowance (EIP-2612 Permit, Permit2). */
export interface PermitView {
  kind: 'eip2612' | 'permit2-allowance' | 'permit2-transfer';
  spender: CounterpartyView;
  grants: { token: string; tokenView?: ApprovalTokenView; amount: Amount; unlimited: boolean; expiration?: Amount }[];
  /** The signature is good until then (Unix seconds). */
  deadline: Amount;
  /** The contract that checks the signature. */
  verifier: string;
}

/** The EVM txs of the account the node has not decided on (the outbox), each one that can be sped up or cancelled. */
export interface PendingEvmTxView {
  txHash: string;
  nonce: Amount;
  /** '' for a contract deployment. */
  to: string;
  valueWei: Amount;
  gasLimit: Amount;
  maxFeePerGas: Amount;
  maxPriorityFeePerGas: Amount;
  createdAt: number;
  kind: ActivityItem['kind'];
  /** A token send, approval or revoke: its token, amount (in the token's units) and recipient or spender, as Activity has them. */
  token?: ActivityToken;
  amount?: Amount;
  counterparty?: string;
  /** An approval that adds `amount` to what the spender may take already. */
  increase?: true;
  unlimited?: true;
}

/** A token send: `amount` for ERC-20 (and ERC-1155), `tokenId` for NFTs. */
export interface TokenSendParams {
  address: string;
  to: string;
  amount?: Amount;
  tokenId?: Amount;
}

/** What an EVM tx's approval adds to its raw fields (background/evm-views.ts). */
export interface EvmCallInsight {
  /** A token operation decoded from `data` (transfer, approve, setApprovalForAll, …). */
  call?: TokenCallView;
  /** A contract deployment (no `to`): the init code's size and keccak-256, and the address it will have. */
  deploy?: { codeBytes: number; codeHash: string; contractAddress: string };
  /** The tx run on the user's node before approval: what it does to the account's balances. */
  simulation?: SimulationView;
}

/** wallet_watchAsset (EIP-747): list a token, named by what its contract says. */
export interface WatchAssetSummary {
  kind: 'watch-asset';
  token: ApprovalTokenView;
  /** What the site called it, when that differs from what the contract says (cleaned). */
  siteSymbol?: string;
  siteDecimals?: number;
  /** The site sent an image: it is not fetched or shown. */
  imageIgnored: boolean;
}

export interface TokenRequests {
  // ---- tokens.* (C-Chain tokens of the selected account and network; docs/tokens.md) ----
  /** Reads a contract as a token (standard, name, symbol, decimals, checks, the account's balance) without listing it. */
  'tokens.inspect': { params: { address: string }; result: { token: TokenView; listed: boolean } };
  /** Lists a token on this network, with what its contract says now. Already listed: its entry, unchanged. */
  'tokens.add': { params: { address: string }; result: { token: TokenView } };
  /** Takes a token off the list (its transfers stay on chain; nothing is sent). */
  'tokens.remove': { params: { address: string }; result: { ok: true } };
  /** The listed tokens with the account's balances read now from the node (a token that fails says why). */
  'tokens.list': { params: Record<string, never>; result: { tokens: TokenView[] } };
  /** The account's token transfers from Transfer logs; `refresh` reads the blocks since the last scan (and older ones, a bounded part at a time). */
  'tokens.activity': { params: { refresh?: boolean }; result: { items: TokenTransferView[]; scan: LogScanView } };
  /** The NFTs of a listed ERC-721 / ERC-1155 contract the account holds now (IDs from its logs, confirmed by ownerOf / balanceOf). */
  'tokens.nfts': { params: { address: string }; result: { items: { tokenId: Amount; amount: Amount }[]; scan: LogScanView } };
  /**
   * An NFT's metadata URI, read from the contract (cleaned of hidden characters, as token names are), and what a data: URI
   * says (at most 64 KB; its text fields). Any other address is on another server: never loaded, `error` says so.
   */
  'tokens.nftMetadata': {
    params: { address: string; tokenId: Amount };
    result: { uri?: string; fetched?: { name?: string; description?: string; image?: string }; error?: string };
  };
  /** The fee and what the send does (simulated on the node), without signing anything. */
  /** `arrives`: ERC-20, what the recipient receives (base units), only when the node's full trace saw it differ from the amount (a token keeping a cut). */
  'tokens.estimateSend': { params: TokenSendParams; result: EvmFeeQuote & { simulation: SimulationView; arrives?: Amount } };
  /** `maxFeeWei`: the most the tx may cost in fees, as reviewed; a costlier one is refused unsigned. `fee`: wei paid (receipt). */
  'tokens.send': { params: TokenSendParams & { maxFeeWei: Amount }; result: { txHash: string; fee: Amount } };
  /** The account's live allowances and operator rights (from its Approval logs, each confirmed on chain now). */
  'tokens.allowances': { params: { refresh?: boolean }; result: { allowances: AllowanceView[]; scan: LogScanView } };
  'tokens.estimateRevoke': { params: { address: string; spender: string; kind: ApprovalKind }; result: EvmFeeQuote };
  /** approve(spender, 0) or setApprovalForAll(operator, false). */
  'tokens.revoke': { params: { address: string; spender: string; kind: ApprovalKind; maxFeeWei: Amount }; result: { txHash: string; fee: Amount } };

  // ---- evm.* (the account's C-Chain EVM txs not yet decided: speed up, cancel) ----
  'evm.pending': { params: Record<string, never>; result: { txs: PendingEvmTxView[] } };
  /**
   * A replacement at the same nonce with higher fees (at least +10% on both, and the node's current
   * price): 'speed-up' repeats the tx, 'cancel' sends 0 to the account itself. Nothing is signed.
   */
  'evm.estimateReplace': { params: { txHash: string; action: 'speed-up' | 'cancel' }; result: EvmFeeQuote & { replaces: PendingEvmTxView } };
  /** Signs and sends the replacement; `maxFeeWei` as reviewed. Whichever of the two the chain takes, the other never runs. */
  'evm.replace': { params: { txHash: string; action: 'speed-up' | 'cancel'; maxFeeWei: Amount }; result: { txHash: string } };
}
