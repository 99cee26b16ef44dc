// The one typed protocol between extension pages (popup, approval window) and the background.
// Extension messaging is JSON: amounts cross as decimal strings (`Amount`), bytes as hex, IDs as
// CB58. Every request is validated in the background before it reaches the wallet service.
import type { StakingRequests, UnixSeconds } from './messages-staking.js';
import type { ApprovalView, SiteView, AddedChainView } from './messages-approvals.js';
import type { ActivityToken, TokenRequests } from './token-messages.js';
import type { AssetRequests } from './messages-assets.js';
import type { TransferRequests } from './messages-transfers.js';

export type * from './messages-approvals.js';
export type * from './messages-assets.js';
export type * from './messages-staking.js';
export type * from './messages-transfers.js';
export type * from './token-messages.js';

/** A non-negative integer in base units, as a decimal string. */
export type Amount = string;
export type ChainName = 'X' | 'P' | 'C';

export interface OwnerSet {
  /** Bech32 addresses of the chain the output is on (X-… or P-…). */
  addresses: string[];
  threshold: number;
  /** Unix seconds; '0' for none. */
  locktime?: Amount;
}

export interface WalletStatus {
  vault: 'none' | 'locked' | 'unlocked';
  network: NetworkView;
  account: AccountView | null;
  idleLockMinutes: number | 'never';
}

export interface AccountView {
  id: string;
  name: string;
  kind: 'hd' | 'imported';
  /** HD account index (m/44'/9000'/index'); absent for imported keys. */
  index?: number;
  xAddress: string;
  pAddress: string;
  /** EVM address (EIP-55). */
  cAddress: string;
  /** C-bech32 address owning atomic UTXOs sent to this account's C-Chain account. */
  cBech32Address: string;
}

export interface NetworkView {
  id: string;
  kind: 'mainnet' | 'fuji' | 'local' | 'custom';
  name: string;
  url: string;
  atomicNamespace: string;
  /** Bech32 prefix of the network's addresses ('avax', 'fuji', 'local', …); '' while not yet known. */
  hrp: string;
  /** Block explorer base URL, where the network has one. */
  explorerUrl?: string;
}

export interface AssetBalanceView {
  chain: ChainName;
  assetID: string;
  name: string;
  symbol: string;
  denomination: number;
  /** True only for the network's own AVAX asset ID. */
  verified: boolean;
  spendable: Amount;
  locked: Amount;
  lockedStakeable: Amount;
  /**
   * The part of the three above that no transaction proves (the network's genesis funds, staking
   * rewards, or what a node made up): counted, never called verified.
   */
  unproven: Amount;
  /**
   * The part of `spendable` another key can also spend alone (an output shared 1-of-2 with a key
   * not the account's): the account's only until that key moves it. Absent when none.
   */
  shared?: Amount;
  /** The same for `locked` and `lockedStakeable`: another key can take it once it unlocks. Absent when none. */
  sharedLocked?: Amount;
  /**
   * P-Chain AVAX only: what the account's own stakes lock (not in the three above: a staked output
   * is no UTXO until it comes back), each with when it comes back; null while an auto-renewed
   * validation keeps renewing. From the stakes the wallet knows (staking.mine).
   */
  staked?: { amount: Amount; unlocksAt: UnixSeconds | null }[];
}

export interface WaitingFundsView {
  from: ChainName;
  to: ChainName;
  amount: Amount;
  utxoCount: number;
}

export interface BalancesView {
  /** Milliseconds since epoch of the snapshot; 0 when never fetched. */
  updatedAt: number;
  refreshing: boolean;
  /** The last refresh's failure (node unreachable, …), if the snapshot is older than it. */
  error?: string;
  /** Its WalletError code ('node-unreachable', 'timeout', …), for the popup's plain words. */
  errorCode?: string;
  /** Since when refreshes have been failing (the first failure after the last success). */
  failingSince?: number;
  /** While `refreshing`: when that refresh started, so a node that hangs can be called slow. */
  refreshStartedAt?: number;
  balances: AssetBalanceView[];
  waiting: WaitingFundsView[];
  /** nAVAX between chains: exported by moves under way, not imported yet (in no chain's balance). */
  moving?: Amount;
  /** What the node sent that the wallet could not check and left out of these balances, in words. */
  warnings?: string[];
  /** `networkId:accountId` of the snapshot (balances.get): a popup that still shows another drops it. */
  of?: string;
}

/** What Activity no longer lists, to keep its size: per group, the time (ms) of the newest item dropped. */
export interface ActivityTrimmed {
  /** Funds received (the newest 500 are kept). */
  received?: number;
  /** The wallet's own transactions (the newest 5,000 are kept). */
  own?: number;
  /** Never held: AVAX received on the C-Chain up to this time may be missing (blocks the wallet left unread: core/evm-incoming.ts). */
  cReceived?: number;
}

export interface ActivityItem {
  txID: string;
  chain: ChainName;
  /**
   * Staking: the wallet's own delegation, validation, change of an auto-renewed validator; a reward
   * paid to the account ('staking-reward': txID the chain's reward tx, amount as the node paid it).
   * 'deploy', 'call', 'approve', 'revoke': C-Chain EVM txs (docs/tokens.md).
   */
  kind:
    | 'send'
    | 'receive'
    | 'create-asset'
    | 'mint'
    | 'nft-mint'
    | 'nft-transfer'
    | 'export'
    | 'import'
    | 'delegate'
    | 'validate'
    | 'staking-config'
    | 'staking-reward'
    | 'deploy'
    | 'call'
    | 'approve'
    | 'revoke';
  status: 'pending' | 'accepted' | 'failed';
  assetID?: string;
  amount?: Amount;
  /**
   * What the tx cost: nAVAX burned for X, P and atomic txs; wei actually paid (gas used × effective
   * gas price) for a C-Chain EVM send (chain 'C', a 0x hash).
   */
  fee?: Amount;
  memo?: string;
  /** Funds received: the addresses whose keys signed the tx that sent them (none for a reward). */
  from?: string[];
  /** Unix seconds from which the wallet never sends it again (a change to an auto-renewed validator, near the cycle end it was reviewed for). */
  sendBefore?: number;
  /** Who it went to (sends, mints, NFT transfers): the address, or the addresses of a multisig owner set. */
  to?: string;
  /** A cross-chain export's destination, an import's source. */
  otherChain?: ChainName;
  /** Staking items: the validator's NodeID. */
  nodeID?: string;
  /**
   * Pending, and the node's answer to the send was lost or unclear: the wallet is asking it
   * whether the tx went through (and re-sends the same tx, never a new one).
   */
  checking?: boolean;
  /**
   * Pending and checking because its acceptance was taken back: the node had shown it accepted,
   * then listed its funds again (reopenContradicted in src/background/settle-activity.ts). Until
   * decided its funds count as spendable only: never as staked too.
   */
  takenBack?: true;
  /** When the tx happened (ms): for funds received, its block's time when the node showed it. */
  createdAt: number;
  /** Funds received whose block was not found: `createdAt` is when the wallet first saw them. */
  timeIsDiscovery?: boolean;
  /** Funds received: the part of `amount` another key can also spend alone (AssetBalanceView.shared). */
  shared?: Amount;
  /**
   * Funds received from a tx only the account's own keys signed, made outside this list (another
   * wallet with the same phrase or key, or another network entry): the change of a send, an import
   * (of funds anyone may have exported to the account), a stake coming back.
   */
  ownKeys?: true;
  /** A send to the account's own address(es): only its fee left the account. */
  toSelf?: true;
  /** An asset the wallet created: its name and symbol. */
  created?: { name: string; symbol: string };
  /** An NFT the wallet minted: the SHA-256 of its payload (hex), which tells one mint of a family from another. */
  payloadHash?: string;
  /** A C-Chain token send, approval or revoke: the token (amount is then in its units). */
  token?: ActivityToken;
  /** An approval that adds `amount` to what the spender may take already (increaseAllowance). */
  increase?: true;
  /** An approval the wallet judged unlimited when it was made (at least the token's supply, or Permit2's maximum). */
  unlimited?: true;
  /** activity.list only, never stored: the asset's symbol and decimals, from its creating tx. */
  assetInfo?: { symbol: string; denomination: number };
  /** A contract deployment: the address the contract is created at (from the sender and nonce). */
  contract?: string;
  /** A speed-up or cancel: the tx hash it takes the place of (same nonce); an X/P send: the undecided one whose funds it spends too. */
  replaces?: string;
  /** Never ran: another tx of the account with its nonce (a speed-up or cancel, or the tx one of those replaced), or spending its funds (X/P), did. */
  replaced?: true;
}

/** What `send.estimate` is asked about: the same params as send.x / send.p / send.c, with the chain. */
export type SendEstimateParams =
  | { chain: 'X'; assetID: string; amount: Amount; to: OwnerSet; memo?: string }
  | { chain: 'P'; amount: Amount; to: OwnerSet }
  | { chain: 'C'; to: string; amountWei: Amount };

export interface SendEstimate {
  /**
   * X/P: nAVAX the send would burn (built exactly as the send builds it, not signed). C: wei, the
   * most the send can cost (gas limit × max fee per gas: 21000 gas, or the node's estimate for a
   * contract recipient); usually less is paid.
   */
  fee: Amount;
  /** The largest amount of the asset a send can carry after its fee (base units; wei on C). */
  maxAmount: Amount;
  /** X/P: the asset's UTXOs do not all fit one tx, so `maxAmount` is less than all of it. */
  maxOneTx?: true;
  /** C: the gas limit the fee is for (more than 21000 when the recipient is a contract). */
  gasLimit?: Amount;
}

/**
 * Every request: its params and its result (assets.*: messages-assets.ts; transfers.*:
 * messages-transfers.ts; staking.*: messages-staking.ts; tokens.* and evm.*: token-messages.ts).
 */
export interface WalletRequests extends AssetRequests, TransferRequests, StakingRequests, TokenRequests {
  'wallet.status': { params: Record<string, never>; result: WalletStatus };
  /** A popup opening: the status and, when unlocked, the cached balances, in one round trip (no refresh started). */
  'wallet.open': { params: Record<string, never>; result: { status: WalletStatus; balances: BalancesView | null } };
  'wallet.generateMnemonic': { params: { words: 12 | 24 }; result: { mnemonic: string } };
  'wallet.create': { params: { password: string; mnemonic: string }; result: WalletStatus };
  /** Checks a recovery phrase (word list, checksum) before the password step; nothing is stored. */
  'wallet.checkPhrase': { params: { mnemonic: string }; result: { ok: true } };
  /**
   * Restore from a mnemonic, or start again from one private key: replaces any existing vault (the
   * forgotten-password path). Refused with RESTORE_WOULD_DROP (and `restoreLoss`) when that drops
   * imported keys, the phrase, undecided sends or unfinished transfers, unless `confirmLoss` names
   * all of it (what the refusal showed: another window may have added to it since).
   */
  'wallet.restore': { params: RestoreParams; result: RestoreResult };
  /** Checks a private key (its form and checksum) before the password step; nothing is stored. */
  'wallet.checkKey': { params: { privateKey: string }; result: { ok: true } };
  'wallet.createFromKey': { params: { password: string; privateKey: string; name: string }; result: WalletStatus };
  'wallet.unlock': { params: { password: string }; result: WalletStatus };
  'wallet.lock': { params: Record<string, never>; result: WalletStatus };
  'wallet.changePassword': { params: { oldPassword: string; newPassword: string }; result: { ok: true } };
  'wallet.revealMnemonic': { params: { password: string }; result: { mnemonic: string } };
  'wallet.exportPrivateKey': { params: { password: string; accountId: string }; result: { privateKey: string } };
  'wallet.setIdleLock': { params: { minutes: number | 'never' }; result: { minutes: number | 'never'; warning?: string } };

  'accounts.list': { params: Record<string, never>; result: { accounts: AccountView[]; selectedId: string | null } };
  'accounts.add': { params: { name: string }; result: AccountView };
  'accounts.importKey': { params: { name: string; privateKey: string }; result: AccountView };
  'accounts.rename': { params: { id: string; name: string }; result: AccountView };
  /**
   * Removes an imported key's account and its key, the password asked again. Never the last account
   * nor one of the phrase's ('hd-account'); refused ('account-busy') while it has sends not decided
   * (or refused but able to go through) or moves not finished.
   */
  'accounts.remove': { params: { id: string; password: string }; result: { ok: true } };
  'accounts.select': { params: { id: string }; result: WalletStatus };

  'networks.list': { params: Record<string, never>; result: { networks: NetworkView[]; selectedId: string } };
  'networks.select': { params: { id: string }; result: WalletStatus };
  'networks.addCustom': { params: { name: string; url: string; atomicNamespace?: string }; result: NetworkView };
  'networks.remove': { params: { id: string; confirmLoss?: boolean }; result: { ok: true } };
  /** `checks`: the names of the checks that fail; `passed`: how many pass. */
  'networks.health': { params: { id: string }; result: { healthy: boolean; checks: string[]; passed: number; error?: string; errorCode?: string } };

  /** The last known snapshot at once (no network wait); `refresh` starts a refresh in the background. */
  'balances.get': { params: { refresh?: boolean }; result: BalancesView };
  'balances.refresh': { params: Record<string, never>; result: BalancesView };

  /** `maxFee` (nAVAX) is the most the user approved paying in fees: a costlier transaction is refused unsigned. */
  'send.x': {
    params: { assetID: string; amount: Amount; to: OwnerSet; memo?: string; maxFee: Amount };
    result: { txID: string; fee: Amount };
  };
  'send.p': { params: { amount: Amount; to: OwnerSet; maxFee: Amount }; result: { txID: string; fee: Amount } };
  /** Native AVAX on the C-Chain, in wei. */
  /** `fee` is the wei actually paid (gas used × effective gas price, from the receipt). */
  /** `maxFeeWei` is the most the transaction may cost in fees (gasLimit × maxFeePerGas), as approved. */
  'send.c': { params: { to: string; amountWei: Amount; maxFeeWei: Amount }; result: { txHash: string; fee: Amount } };
  /** The exact fee and the largest sendable amount, without signing or issuing anything. */
  'send.estimate': { params: SendEstimateParams; result: SendEstimate };

  'activity.list': { params: Record<string, never>; result: { items: ActivityItem[]; trimmed?: ActivityTrimmed } };

  /** Asset IDs the user hid from the balances, per network (storage.local). */
  'settings.getHiddenAssets': { params: { networkId: string }; result: { assetIDs: string[] } };
  /** `networkId`: the network the list was shown for; another selected meanwhile refuses it ('selection-changed'). */
  'settings.setHiddenAssets': { params: { assetIDs: string[]; networkId: string }; result: { ok: true } };

  /** Sites connected to the wallet, and EVM chains sites added. */
  'sites.list': { params: Record<string, never>; result: { sites: SiteView[]; chains: AddedChainView[] } };
  'sites.revoke': { params: { origin: string }; result: { ok: true } };
  'sites.removeChain': { params: { chainId: string }; result: { ok: true } };
  /** The site sees the selected network's C-Chain again instead of a chain it switched to. */
  'sites.resetChain': { params: { origin: string }; result: { ok: true } };

  /** Site requests waiting for a decision, oldest first. */
  'approvals.list': { params: Record<string, never>; result: { approvals: ApprovalView[] } };
  /** `closing`: the window closes on the request (a "no" that holds its site off, as the close does). */
  'approvals.decide': { params: { id: string; approved: boolean; closing?: boolean }; result: { ok: true } };
  /** The sites waiting for an answer, also while locked: the unlock form names who is asking. */
  'approvals.waiting': { params: Record<string, never>; result: { sites: string[] } };
}

export type RequestType = keyof WalletRequests;
export type RequestParams<T extends RequestType> = WalletRequests[T]['params'];
export type RequestResult<T extends RequestType> = WalletRequests[T]['result'];

export interface RequestMessage<T extends RequestType = RequestType> {
  /** Marks our messages apart from anything else on the runtime channel. */
  channel: 'xpc-wallet';
  type: T;
  params: RequestParams<T>;
  /**
   * The account and network the user reviewed this request on: when either was switched since (in
   * another window, say), the background refuses it with 'selection-changed' and does nothing.
   */
  selection?: Selection;
}

export interface Selection {
  accountId: string;
  networkId: string;
}

export interface ErrorInfo {
  /** Stable machine-readable code: 'validation', 'wrong-password', 'locked', 'insufficient-funds', … */
  code: string;
  message: string;
  /** The offending field, for form errors. */
  field?: string;
  /** With RESTORE_WOULD_DROP: what the restore would have dropped. */
  restoreLoss?: RestoreLoss;
}

/** The error code of a restore refused because it would drop what the recovery phrase cannot bring back. */
export const RESTORE_WOULD_DROP = 'restore-would-drop';
/** The longest name in RestoreLoss.names: the background cuts each to it, and a Confirm's check takes no longer one. */
export const MAX_LOSS_NAME_LENGTH = 256;

/** The symbol of an asset no creating transaction names (a real one is A–Z only): its decimals are not known. */
export const UNKNOWN_ASSET_SYMBOL = '?';

export type RestoreParams = { password: string; confirmLoss?: string[] } & ({ mnemonic: string } | { privateKey: string; name: string });

export interface RestoreResult extends WalletStatus {
  /** The node could not be asked (in time) for the phrase's accounts after those restored. */
  accountsNotSearched?: true;
}

/** What replacing the vault from a recovery phrase (or a private key) drops. */
export interface RestoreLoss {
  /** Accounts from imported private keys: the phrase does not hold them. */
  importedKeys: number;
  /** Starting again from a private key, or another phrase, over a wallet with a recovery phrase: the phrase goes, with this many of its accounts listed (0: none listed now). */
  phraseAccounts?: number;
  /** With phraseAccounts, while locked: the wallet cannot tell whether the phrase typed is the one it holds (a vault from before it kept a tag of it). */
  phraseUnsure?: true;
  /** Cross-chain transfers neither completed nor failed (their journals go with the vault). */
  unfinishedTransfers: number;
  /** Sends not yet decided, or refused but able to go through (their outboxes go with the vault); absent when none. */
  undecidedSends?: number;
  /** The account list cannot be read, so what the restore drops is not known (the counts are what is). */
  unknown?: true;
  /** Each thing counted, by name (a key's, send's or move's ID; the phrase with its accounts): a Confirm holds for these only. */
  names: string[];
}

export type ResponseMessage<T extends RequestType = RequestType> =
  | { ok: true; result: RequestResult<T> }
  | { ok: false; error: ErrorInfo };
