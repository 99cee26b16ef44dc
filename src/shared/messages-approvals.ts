// The approval window's part of the protocol (messages.ts): what a pending site request shows —
// a tx described and its impact on the wallet, a message, an EVM call decoded and simulated, a
// chain to add — and the connected sites the popup lists.
import type { TxView } from '../core/describe.js';
import type { ImpactWarning, OwnAddress, TxImpact } from '../core/tx-impact.js';
import type { Amount, ChainName } from './messages.js';
import type { EvmCallInsight, PermitView, WatchAssetSummary } from './token-messages.js';

/** How the approval window names an asset: verified is true only for the network's own AVAX. */
export interface ApprovalAssetInfo {
  symbol: string;
  denomination: number;
  verified: boolean;
}

/** What a site asks for, as the approval window shows it. */
export type ApprovalSummary =
  | {
      kind: 'connect';
      /** The account the site will see, and its addresses. */
      accountName: string;
      accounts: string[];
    }
  | {
      kind: 'sign-message';
      /** 'personal': EIP-191 with the EVM key; 'avalanche': the Avalanche signed-message format with an X/P key. */
      format: 'personal' | 'avalanche';
      encoding: 'text' | 'hex';
      message: string;
      /** The message's exact bytes (0x hex), whatever `message` shows. */
      bytesHex: string;
      /** The 32-byte hash the key signs (0x hex): EIP-191 or the Avalanche format over the bytes. */
      digestHex: string;
      signer: string;
      /** A Sign-In with Ethereum message (EIP-4361) for another site than the one asking. */
      signInElsewhere?: true;
    }
  | {
      kind: 'sign-typed-data';
      signer: string;
      primaryType: string;
      /** JSON of the EIP-712 domain and message, as the site sent them (pretty-printed). */
      domainJson: string;
      messageJson: string;
      /** JSON of the type definitions: with the domain and message, all that the signature covers. */
      typesJson: string;
      /** The domain's chain ID, when it names one. */
      chainId?: string;
      /** On a chain a site added: its RPC URL's host (what `permit` says of the token and the spender is that node's word). */
      rpcHost?: string;
      /** An allowance the signature grants (EIP-2612, Permit2), decoded. */
      permit?: PermitView;
      /** Some text held characters that hide or reorder what it says; the JSON shows them as \u escapes. */
      hiddenCharacters?: true;
    }
  | {
      kind: 'tx';
      chain: ChainName;
      /** 'send': issued when the wallet's signatures complete it; 'sign': handed back signed. */
      action: 'sign' | 'send';
      /** True when the wallet's signatures complete the tx (else it goes back partially signed). */
      complete: boolean;
      /** The exact unsigned bytes that would be signed. */
      unsignedHex: string;
      /** Decoded from those bytes (src/core/describe.ts). */
      view: TxView;
      /** Every asset ID in the view; an ID missing here is shown by ID only. */
      assets: Record<string, ApprovalAssetInfo>;
      /** What it does to this wallet: whose each owner is, per asset what leaves and comes back, warnings. */
      impact: TxImpact;
      /** True when none of the account's keys signs anything in it: approving signs nothing. */
      signsNothing?: true;
    }
  | ({
      kind: 'evm-tx';
      /** The chain's name and EVM chain ID (decimal). */
      chainName: string;
      chainId: string;
      /** For a chain a site added: its RPC URL's host (its name is only that site's claim). */
      rpcHost?: string;
      symbol: string;
      from: string;
      /** '' for a contract creation. */
      to: string;
      valueWei: Amount;
      /** Call data, 0x hex. */
      data: string;
      nonce: Amount;
      /** The nonce the site asked for, when the wallet chose another (on Avalanche's C-Chain it always chooses). */
      siteNonce?: Amount;
      /** On a chain a site added: the site's nonce is one a tx of the account already took (it replaces that one if still waiting, or is refused). */
      replacesWaiting?: true;
      /** On a chain a site added: the next nonce, when the site's is above it (the tx waits until those between are used). */
      nextNonce?: Amount;
      gasLimit: Amount;
      maxFeePerGas: Amount;
      /** The fee cap the site asked for, when the wallet used its own (one under the C-Chain's base fee would wait). */
      siteMaxFeePerGas?: Amount;
      maxPriorityFeePerGas: Amount;
      /** Gas the call is estimated to use (eth_estimateGas); absent when the node could not estimate it. */
      estimatedGasUse?: Amount;
      /** Gas the tx is expected to be charged: at least half the limit under Helicon (chargedGas). */
      expectedGas: Amount;
      /** The node's base fee bound now (wei per gas): with the tip, what a unit of gas is likely to cost. */
      baseFeePerGas: Amount;
      /** The tx without its signature (EIP-1559: 0x02 ‖ RLP), 0x hex: its keccak-256 is what is signed. */
      unsignedHex: string;
      /** Of `to`: the wallet's own address (which account), or the warnings (a first payment, a look-alike). */
      recipient?: { yours?: OwnAddress; warnings: ImpactWarning[] };
    } & EvmCallInsight)
  | {
      kind: 'switch-chain';
      /** 'site': only the asking site's chain changes; 'wallet': the wallet's network (and every site that follows it). */
      scope: 'site' | 'wallet';
      fromName: string;
      toName: string;
      chainId: string;
      /** For a chain a site added: its RPC URL's host (its name is only a site's claim). */
      rpcHost?: string;
      /** For a chain another site added: that site's host (it chose the RPC node). */
      addedBy?: string;
      /** Asked right after the site added the chain: adding did not switch. */
      afterAdd?: boolean;
    }
  | {
      kind: 'add-chain';
      chainId: string;
      rpcUrl: string;
      rpcHost: string;
      /** The site's name for the chain, cleaned of hidden characters and cut short (chain-name.ts). */
      chainName: string;
      /** Hidden characters were removed from the site's name, or it was cut short. */
      nameAltered: boolean;
      /** A known chain the name reads like, though this is another chain ID. */
      looksLike?: { name: string; chainId: string };
      /** The name its well-known chain ID goes by, when the site's name does not read as it. */
      knownAs?: string;
      symbol: string;
      decimals: number;
      explorerUrl?: string;
    }
  | WatchAssetSummary;

/** A site the user connected (and the accounts it may see), or one that switched to a chain of its own. */
export interface SiteView {
  origin: string;
  accounts: { id: string; name: string; cAddress: string }[];
  /** Absent: not connected (the site only switched chain). */
  connectedAt?: number;
  /** The added chain this site sees; absent: the selected network's C-Chain. */
  chain?: { chainId: string; name: string };
}

/** An EVM-only chain a site added (EVM features only: no X/P). */
export interface AddedChainView {
  chainId: string;
  name: string;
  rpcUrl: string;
  symbol: string;
  decimals: number;
  explorerUrl?: string;
  /** How many sites see this chain instead of the selected network's C-Chain. */
  usedBy: number;
}

/** A request waiting for the user's decision. */
export interface ApprovalView {
  id: string;
  origin: string;
  frameOrigin?: string;
  method: string;
  createdAt: number;
  summary: ApprovalSummary;
}
