// What the parts of the site provider share: the wallet view they act through, who asked, the
// requests and the payloads approvals hold, how an error is answered to a page, and the base of
// its request handlers (SiteHandler).
import { type Bytes, toHex } from '../core/bytes.js';
import type { ImpactWarning, OwnAddress } from '../core/tx-impact.js';
import type { UnsignedTx, Utxo } from '../core/codec/types.js';
import type { WalletEngine } from '../core/engine.js';
import type { SelectableInput } from '../core/external-tx.js';
import { CodecError, FormatError, InsufficientFundsError, NetworkMismatchError, NodeIdentityError, NodeUnreachableError, RpcError, TimeoutError, ValidationError, WalletError } from '../core/errors.js';
import type { KeyPair } from '../core/keys.js';
import type { TypedDataInput } from '../core/message.js';
import type { TokenMetadata } from '../core/tokens.js';
import type { ChainAlias } from '../core/node.js';
import type { EvmTxRequest } from '../core/tx/c.js';
import type { EthApi } from '../core/node/eth.js';
import type { InsightContext } from './evm-views.js';
import type { AccountView, ActivityItem, ApprovalSummary, ChainName, NetworkView } from '../shared/messages.js';
import { type ProviderErrorInfo, ProviderErrorCode as Code } from '../shared/provider-protocol.js';
import { ApprovalPendingError, ApprovalQueueFullError, ApprovalTooLargeError, type ApprovalQueue } from './approvals.js';
import { InvalidParamsError } from './provider-params.js';
import type { Session } from './session.js';
import type { SiteConnection } from './site-connection.js';
import type { SiteGate } from './site-gate.js';
import type { SiteStake } from './site-stakes.js';
import type { AddedChain, SiteStore } from './sites.js';
import type { StorageArea } from './storage.js';

/** What the provider asks of the wallet's services (wired in src/background/services/index.ts). */
export interface SiteWallet {
  siteNetwork(): Promise<{ network: NetworkView; evmChainId: bigint }>;
  siteNetworks(): Promise<{ id: string; name: string; evmChainId?: bigint }[]>;
  networksSelect(p: { id: string }): Promise<unknown>;
  accountsList(): Promise<{ accounts: AccountView[]; selectedId: string | null }>;
  /** Runs `use` with the account's EVM secret key; the key does not outlive the call. */
  withEvmSecret<T>(accountId: string, use: (secret: Bytes) => T): Promise<T>;
  /** Runs `use` with the account's first X/P key. */
  withXpKey<T>(accountId: string, use: (key: KeyPair) => T): Promise<T>;
  /** An engine for one account on the selected network (its keys stay inside it), and that network's ID (a site's X/P tx is held to it). */
  siteEngine(accountId: string): Promise<{ engine: WalletEngine; networkId: string }>;
  evmNonceFor(accountId: string): Promise<bigint>;
  checkSiteSigning(accountId: string, chain: ChainAlias, signedBytes: Bytes, networkId: string, txID?: string): Promise<void>;
  /** `networkId`: the network the approval was shown for; on another, nothing is sent. `beforeSending` (X/P txs): run once it is sure to go out (on the network it goes to), before it does. */
  sendSiteTx(accountId: string, signed: { chain: ChainAlias; txID: string; signedBytes: Bytes; selectable?: readonly SelectableInput[] }, item: ActivityItem, networkId?: string, beforeSending?: (networkId: string) => Promise<void>): Promise<void>;
  /** A site's stake, in the account's stake book (pending) before it is sent, as the wallet's own are; one already there is kept. */
  recordSiteStake(accountId: string, networkId: string, stake: NonNullable<SiteStake['record']> & { txID: string }): Promise<void>;
  approvalSummaryForTx(accountId: string, ext: { tx: UnsignedTx; spent: readonly Utxo[]; unsignedBytes?: Bytes }): Promise<Omit<Extract<ApprovalSummary, { kind: 'tx' }>, 'action' | 'complete' | 'signsNothing'>>;
  /** What an EVM tx's approval says of its recipient (the wallet's own, a first payment, a look-alike). */
  recipientOf(accountId: string, address: string): Promise<{ yours?: OwnAddress; warnings: ImpactWarning[] }>;

  // ---- C-Chain tokens (#21; docs/tokens.md) ----
  /** What decoded calls, permits and simulations need (background/evm-views.ts) for this account, site and chain. */
  evmInsight(accountId: string, requester: string, eth: EthApi, chain: { avalanche: boolean; symbol: string; key: string }): Promise<InsightContext>;
  /** Counts a call of `address` the user approved for this site on this chain (chainKeyOf; CounterpartyView.siteCalls). */
  noteSiteCall(requester: string, chain: string, address: string): Promise<void>;
  /**
   * Lists the token at `address` on the selected network, added by the site `origin` (approved by
   * the user): as `shown` (what the approval showed, read from the node then), else read now.
   */
  watchToken(accountId: string, origin: string, address: string, shown?: TokenMetadata): Promise<void>;
}

/** Who asked: the top-level page's origin and, for a request from a frame, the frame's. */
export interface Site {
  origin: string;
  frameOrigin?: string;
}

/** An EIP-1193 error: a code from ProviderErrorCode and a message a developer can act on. */
export class ProviderError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** A site without a permission: the one answer, locked or not, wherever it is found out. */
export const notConnectedError = (): ProviderError => new ProviderError(Code.unauthorized, 'this site is not connected to XPC Wallet; call eth_requestAccounts first');

export const MAX_MESSAGE_BYTES = 64 * 1024;
export const MAX_CALL_DATA_BYTES = 128 * 1024;

/** The chain sites see: the selected Avalanche network's C-Chain, or an EVM-only chain a site added. */
export type ActiveChain =
  | { kind: 'avalanche'; chainId: bigint; name: string; networkId: string; rpcUrl: string; symbol: string }
  | { kind: 'evm'; chainId: bigint; name: string; rpcUrl: string; symbol: string; added: AddedChain };

/** What an approved request acts on; stored with the approval so a restarted worker can act. */
export type Payload =
  | { kind: 'connect'; accountId: string }
  | { kind: 'personal-sign'; accountId: string; messageHex: string }
  /** `chain`: the chain the approval was shown for (chainKeyOf), when what is signed names one. */
  | { kind: 'typed-data'; accountId: string; typed: TypedDataInput; chain?: string }
  | { kind: 'avalanche-message'; accountId: string; messageHex: string }
  /**
   * `item`: how the tx is listed in Activity (a deployment, a token send, an approval…); `requester`: whose calls it counts;
   * `nonceOf`: on a chain a site added, the address whose next nonce the tx takes (the wallet's choice, or the site's the same).
   */
  | { kind: 'evm-tx'; accountId: string; rpcUrl: string; activity: boolean; tx: Record<keyof EvmTxRequest, string>; item?: Partial<ActivityItem>; requester?: string; chain?: string; nonceOf?: string }
  /** `token`: the token as the approval showed it (absent in approvals of an older version). */
  | { kind: 'watch-asset'; accountId: string; address: string; chain?: string; token?: TokenMetadata }
  /**
   * `shown`: the fingerprint of what the approval showed as spent and authorized (spentFingerprint);
   * `signsNothing`: the approval said approving signs nothing; `cycleEnd`: a change of an
   * auto-renewed validator's, the end of the cycle it was approved in. All are held to after approval.
   */
  | { kind: 'site-tx'; accountId: string; networkId: string; chain: ChainName; txHex: string; action: 'sign' | 'send'; shown: string; signsNothing: boolean; cycleEnd?: number | undefined }
  /** `networkId`: the wallet's network to select; `followed`: the wallet's network the site was asked to follow again (still it when approved). */
  | { kind: 'switch-chain'; networkId?: string; addedChainId?: string; followed?: string }
  | { kind: 'add-chain'; chain: AddedChain };

/** The payload of one kind of request. */
export type PayloadOf<K extends Payload['kind']> = Extract<Payload, { kind: K }>;

export interface ProviderDeps {
  wallet: SiteWallet;
  session: Session;
  approvals: ApprovalQueue;
  sites: SiteStore;
  /** storage.session: the request log. */
  sessionArea: StorageArea;
  /** False while no wallet is set up (no vault): nothing could unlock it for a site. */
  walletExists?(): Promise<boolean>;
  /** Opens (or focuses) the approval window. */
  openApprovalWindow(): Promise<void>;
  /** Tells every page with our provider that chain, accounts or lock state may have changed. */
  notifyPages(): void;
  fetch?: typeof fetch;
  log?: (line: string) => void;
  now?: () => number;
}

/** One request of a site, as it arrived. */
export interface Call {
  /** The relay's request ID scoped to `site` (provider.ts requestKeyOf). */
  requestId: string;
  method: string;
  params: unknown;
  site: Site;
}

/** How a message to sign is shown: as text or hex, and always as its exact bytes. */
export function messageShown(message: { bytes: Uint8Array; encoding: 'text' | 'hex'; shown: string }) {
  return { encoding: message.encoding, message: message.shown, bytesHex: `0x${toHex(message.bytes)}` };
}

/** Data a site may be given: JSON of 16 KB at most (nested too deep to write is none). */
function small(data: unknown): boolean {
  try {
    return data !== undefined && JSON.stringify(data).length <= 16_384;
  } catch {
    return false;
  }
}

/** A thrown error as the page gets it: an EIP-1193 code and words that give away no node URL. */
export function providerErrorInfo(e: unknown, method: string, log?: (line: string) => void): ProviderErrorInfo {
  if (e instanceof ProviderError) return { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) };
  if (e instanceof InvalidParamsError || e instanceof ValidationError) {
    const field = (e as ValidationError).field;
    return { code: Code.invalidParams, message: e.message, ...(field ? { data: { field } } : {}) };
  }
  if (e instanceof CodecError || e instanceof FormatError) return { code: Code.invalidParams, message: `the transaction bytes cannot be decoded: ${e.message}` };
  if (e instanceof ApprovalPendingError || e instanceof ApprovalQueueFullError) return { code: Code.resourceUnavailable, message: e.message };
  if (e instanceof ApprovalTooLargeError) return { code: Code.invalidParams, message: e.message };
  // Fixed text: the node's URL stays in the wallet (see below).
  if (e instanceof NodeIdentityError) return { code: Code.chainDisconnected, message: "the wallet's node is not the network the wallet is set to" };
  if (e instanceof NetworkMismatchError) return { code: Code.chainDisconnected, message: e.message };
  // Cut to what a site needs (a revert's data is far smaller): a node's answer of megabytes, kept
  // in the request log, would fill storage.session and stop every site's approvals.
  if (e instanceof RpcError) return { code: e.rpcCode, message: e.rpcMessage.slice(0, 1000), ...(small(e.data) ? { data: e.data } : {}) };
  // Fixed text: the node's URL (which may hold an API key) and its answers stay in the wallet.
  if (e instanceof NodeUnreachableError || e instanceof TimeoutError) return { code: Code.chainDisconnected, message: 'the wallet cannot reach its node' };
  // Fixed text: what is damaged in the wallet's storage (and the account it names) stays in the wallet.
  if (e instanceof WalletError && e.code === 'storage-corrupt') return { code: Code.internal, message: "the wallet's storage is damaged, so it stopped: open the wallet", data: { reason: e.code } };
  // A node's words can be in it too (NodeResponseError).
  if (e instanceof InsufficientFundsError || e instanceof WalletError) return { code: Code.internal, message: e.message.slice(0, 1000), data: { reason: e.code } };
  log?.(`site request ${method} failed: ${e instanceof Error ? e.name : typeof e}`);
  return { code: Code.internal, message: 'the wallet could not handle this request; nothing was signed or sent' };
}

/** A group of site requests' handler (site-avalanche, site-chains, site-evm, site-tokens): the wallet, the approval gate, the site's connection. */
export class SiteHandler {
  constructor(
    protected readonly deps: ProviderDeps,
    protected readonly gate: SiteGate,
    protected readonly conn: SiteConnection,
  ) {}
}
