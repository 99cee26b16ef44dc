// The one typed protocol between extension pages (popup, approval window) and the background.
// Extension messaging is JSON: amounts cross as decimal strings (`Amount`), bytes as hex, IDs as
// CB58. Every request is validated in the background before it reaches the wallet service.
import type { TxView } from '../core/describe.js';
import type { ImpactWarning, OwnAddress, TxImpact } from '../core/tx-impact.js';

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
  /** What the node sent that the wallet could not check and left out of these balances, in words. */
  warnings?: string[];
}

export interface ActivityItem {
  txID: string;
  chain: ChainName;
  /** 'deploy', 'call', 'approve', 'revoke': C-Chain EVM txs (docs/tokens.md). */
  kind: 'send' | 'receive' | 'create-asset' | 'mint' | 'nft-mint' | 'nft-transfer' | 'export' | 'import' | 'deploy' | 'call' | 'approve' | 'revoke';
  status: 'pending' | 'accepted' | 'failed';
  assetID?: string;
  amount?: Amount;
  /**
   * What the tx cost: nAVAX burned for X, P and atomic txs; wei actually paid (gas used × effective
   * gas price) for a C-Chain EVM send (chain 'C', a 0x hash).
   */
  fee?: Amount;
  memo?: string;
  /** Who it went to (sends, mints, NFT transfers): the address, or the addresses of a multisig owner set. */
  to?: string;
  /** A cross-chain export's destination, an import's source. */
  otherChain?: ChainName;
  /**
   * Pending, and the node's answer to the send was lost or unclear: the wallet is asking it
   * whether the tx went through (and re-sends the same tx, never a new one).
   */
  checking?: boolean;
  createdAt: number;
  /** A C-Chain token send, approval or revoke: the token (amount is then in its units). */
  token?: ActivityToken;
  /** A contract deployment: the address the contract is created at (from the sender and nonce). */
  contract?: string;
  /** A speed-up or cancel: the tx hash it takes the place of (same nonce). */
  replaces?: string;
  /** Never ran: another tx of the account with its nonce (a speed-up or cancel, or the tx one of those replaced) did. */
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
   * most the send can cost (21000 gas × max fee per gas); usually less is paid.
   */
  fee: Amount;
  /** The largest amount of the asset a send can carry after its fee (base units; wei on C). */
  maxAmount: Amount;
}

export interface NftView {
  /** `<txID>:<outputIndex>`, what assets.transferNft takes. */
  utxoID: string;
  assetID: string;
  groupID: number;
  payloadHex: string;
  name: string;
  symbol: string;
}

export interface MintRightView {
  assetID: string;
  name: string;
  symbol: string;
  denomination: number;
  kind: 'variable' | 'nft';
  /** The NFT group this right mints (kind 'nft' only). */
  groupID?: number;
  /** Signatures the minter set needs, and its X-Chain addresses. */
  threshold: number;
  addresses: string[];
}

export interface TransferView {
  id: string;
  from: ChainName;
  to: ChainName;
  amount: Amount;
  state: 'pending' | 'export-signed' | 'export-accepted' | 'import-signed' | 'completed' | 'failed';
  exportTxID?: string;
  importTxIDs: string[];
  exportFee?: Amount;
  importFee?: Amount;
  error?: string;
  /**
   * The last run of this move stopped on a failure (the node unreachable, …) and it waits for the
   * next run (the background retries every minute): why, as a WalletError code and message, and since when.
   */
  paused?: { code: string; message: string; since: number };
}

/** How the approval window names an asset: verified is true only for the network's own AVAX. */
export interface ApprovalAssetInfo {
  symbol: string;
  denomination: number;
  verified: boolean;
}

// ---- C-Chain tokens, decoded calls, simulation, EVM tx replacement (#21; docs/tokens.md) ----

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
}

/** How far the chain's logs were read for the account (scans run in bounded block ranges). */
export interface LogScanView {
  /** Blocks read, inclusive. */
  fromBlock: Amount;
  toBlock: Amount;
  /** The whole chain up to toBlock was read (fromBlock is 0). */
  complete: boolean;
  updatedAt: number;
  /** Why the last scan stopped early, in words. */
  error?: string;
}

/** An allowance or operator right the account gave, as its Approval / ApprovalForAll logs say, confirmed on chain now. */
export interface AllowanceView {
  token: string;
  /** The token's checked symbol when listed; else '' (shown by address). */
  symbol: string;
  decimals: number;
  standard: TokenStandard;
  /** 'allowance': ERC-20 approve; 'operator': setApprovalForAll (every NFT of the contract). */
  kind: 'allowance' | 'operator';
  spender: string;
  /** ERC-20: what the spender may still take now (allowance()), base units. */
  amount?: Amount;
  /** The allowance is (nearly) the whole uint256 range: no limit. */
  unlimited: boolean;
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
  /** Every contract the tx runs code of, in order of first touch. */
  touched: string[];
  /** Why the simulation is incomplete or missing, in words. */
  note?: string;
}

export interface SimulatedChange {
  /** 'native' or the token contract's address. */
  asset: string;
  standard?: TokenStandard;
  /** Listed tokens and the native coin: symbol and decimals; unlisted tokens: '' and 0. */
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
  /** It has code. false: an ordinary account (an allowance to one is a classic theft). */
  isContract: boolean;
  /** How many txs of this site that called this address the user approved (0: none). */
  siteCalls: number;
  /** A first payment, a look-alike of one of the wallet's addresses (as for any EVM recipient). */
  warnings: ImpactWarning[];
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
  from?: string;
  /** Who receives tokens (transfers). */
  recipient?: CounterpartyView;
  /** Who gets the right to take tokens (approve, increaseAllowance, setApprovalForAll). */
  spender?: CounterpartyView;
  amount?: Amount;
  tokenId?: Amount;
  /** setApprovalForAll: true grants every NFT of the contract, false takes that back. */
  approved?: boolean;
  /** An allowance with no practical limit (≥ 2^255, the usual "max uint256"). */
  unlimited?: boolean;
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
}

/** A token send: `amount` for ERC-20 (and ERC-1155), `tokenId` for NFTs. */
export interface TokenSendParams {
  address: string;
  to: string;
  amount?: Amount;
  tokenId?: Amount;
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
      /** An allowance the signature grants (EIP-2612, Permit2), decoded. */
      permit?: PermitView;
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
  | {
      kind: 'evm-tx';
      /** The chain's name and EVM chain ID (decimal). */
      chainName: string;
      chainId: string;
      symbol: string;
      from: string;
      /** '' for a contract creation. */
      to: string;
      valueWei: Amount;
      /** Call data, 0x hex. */
      data: string;
      nonce: Amount;
      gasLimit: Amount;
      maxFeePerGas: Amount;
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
      /** A token operation decoded from `data` (transfer, approve, setApprovalForAll, …). */
      call?: TokenCallView;
      /** A contract deployment (no `to`): the init code's size and keccak-256, and the address it will have. */
      deploy?: { codeBytes: number; codeHash: string; contractAddress: string };
      /** The tx run on the user's node before approval: what it does to the account's balances. */
      simulation?: SimulationView;
    }
  | {
      kind: 'switch-chain';
      /** 'site': only the asking site's chain changes; 'wallet': the wallet's network (and every site that follows it). */
      scope: 'site' | 'wallet';
      fromName: string;
      toName: string;
      chainId: string;
      /** For a chain a site added: its RPC URL's host (its name is only a site's claim). */
      rpcHost?: string;
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
      symbol: string;
      decimals: number;
      explorerUrl?: string;
    }
  | {
      /** wallet_watchAsset (EIP-747): list a token, named by what its contract says. */
      kind: 'watch-asset';
      token: ApprovalTokenView;
      /** What the site called it, when that differs from what the contract says (cleaned). */
      siteSymbol?: string;
      siteDecimals?: number;
      /** The site sent an image: it is not fetched or shown. */
      imageIgnored: boolean;
    };

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

/** Every request: its params and its result. */
export interface WalletRequests {
  'wallet.status': { params: Record<string, never>; result: WalletStatus };
  'wallet.generateMnemonic': { params: { words: 12 | 24 }; result: { mnemonic: string } };
  'wallet.create': { params: { password: string; mnemonic: string }; result: WalletStatus };
  /** Checks a recovery phrase (word list, checksum) before the password step; nothing is stored. */
  'wallet.checkPhrase': { params: { mnemonic: string }; result: { ok: true } };
  /**
   * Restore from a mnemonic: replaces any existing vault (the forgotten-password path). Refused with
   * RESTORE_WOULD_DROP (and `restoreLoss`) when that drops imported keys or unfinished transfers,
   * unless `confirmLoss` is true.
   */
  'wallet.restore': { params: { password: string; mnemonic: string; confirmLoss?: boolean }; result: WalletStatus };
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
  'accounts.remove': { params: { id: string }; result: { ok: true } };
  'accounts.select': { params: { id: string }; result: WalletStatus };

  'networks.list': { params: Record<string, never>; result: { networks: NetworkView[]; selectedId: string } };
  'networks.select': { params: { id: string }; result: WalletStatus };
  'networks.addCustom': { params: { name: string; url: string; atomicNamespace?: string }; result: NetworkView };
  'networks.remove': { params: { id: string }; result: { ok: true } };
  'networks.health': { params: { id: string }; result: { healthy: boolean; checks: string[]; error?: string } };

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

  /**
   * The X-Chain's fees (nAVAX), fixed per kind of tx by the network: an asset creation, and an
   * operation (a mint, an NFT mint or an NFT transfer). Exactly what the asset requests burn.
   */
  'assets.fees': { params: Record<string, never>; result: { createAsset: Amount; operation: Amount } };
  /** In every asset request, `maxFee` (nAVAX) is the most the user approved paying: a costlier tx is refused unsigned. */
  'assets.create': {
    params: {
      name: string;
      symbol: string;
      denomination: number;
      kind: 'fixed' | 'variable' | 'nft';
      holders?: { owners: OwnerSet; amount: Amount }[];
      minters?: OwnerSet[];
      maxFee: Amount;
    };
    result: { txID: string; assetID: string; fee: Amount };
  };
  'assets.mint': { params: { assetID: string; amount: Amount; to: OwnerSet; maxFee: Amount }; result: { txID: string; fee: Amount } };
  /** payload as hex (the UI turns text/JSON/URL into bytes). */
  'assets.mintNft': { params: { assetID: string; groupID: number; payloadHex: string; to: OwnerSet[]; maxFee: Amount }; result: { txID: string; fee: Amount } };
  'assets.transferNft': { params: { utxoID: string; to: OwnerSet; maxFee: Amount }; result: { txID: string; fee: Amount } };
  /** The NFTs on the X-Chain this wallet can send. */
  'assets.listNfts': { params: Record<string, never>; result: { nfts: NftView[] } };
  /** The mint rights (variable-cap and NFT groups) on the X-Chain this wallet can sign for. */
  'assets.mintRights': { params: Record<string, never>; result: { rights: MintRightView[] } };

  /** `maxFee` (nAVAX): the most the export and import fees together may cost, as the user approved. */
  /** `maxFee`: the most the export and imports may cost together; `maxExportFee`: the most the export alone may (what the review showed). */
  'transfers.start': { params: { from: ChainName; to: ChainName; amount: Amount; maxFee: Amount; maxExportFee?: Amount }; result: TransferView };
  /**
   * nAVAX: the export's exact fee, the import's fee for one UTXO of `amount`, and the largest amount
   * the export can carry after its fee. Nothing is signed or issued.
   */
  'transfers.estimate': {
    params: { from: ChainName; to: ChainName; amount: Amount };
    result: { exportFee: Amount; importFee: Amount; maxAmount: Amount };
  };
  'transfers.list': { params: Record<string, never>; result: { transfers: TransferView[] } };
  'transfers.importWaiting': { params: Record<string, never>; result: { txIDs: string[] } };

  'activity.list': { params: Record<string, never>; result: { items: ActivityItem[] } };

  /** Asset IDs the user hid from the balances, per network (storage.local). */
  'settings.getHiddenAssets': { params: Record<string, never>; result: { assetIDs: string[] } };
  'settings.setHiddenAssets': { params: { assetIDs: string[] }; result: { ok: true } };

  /** Sites connected to the wallet, and EVM chains sites added. */
  'sites.list': { params: Record<string, never>; result: { sites: SiteView[]; chains: AddedChainView[] } };
  'sites.revoke': { params: { origin: string }; result: { ok: true } };
  'sites.removeChain': { params: { chainId: string }; result: { ok: true } };
  /** The site sees the selected network's C-Chain again instead of a chain it switched to. */
  'sites.resetChain': { params: { origin: string }; result: { ok: true } };

  /** Site requests waiting for a decision, oldest first. */
  'approvals.list': { params: Record<string, never>; result: { approvals: ApprovalView[] } };
  'approvals.decide': { params: { id: string; approved: boolean }; result: { ok: true } };
  /** The sites waiting for an answer, also while locked: the unlock form names who is asking. */
  'approvals.waiting': { params: Record<string, never>; result: { sites: string[] } };

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
  'tokens.nfts': { params: { address: string }; result: { items: { tokenId: Amount; amount: Amount }[] } };
  /**
   * An NFT's metadata URI, read from the contract. Only with `fetch` (the user asked) is an https
   * URI's JSON fetched (at most 64 KB; its text fields returned, nothing else loaded).
   */
  'tokens.nftMetadata': {
    params: { address: string; tokenId: Amount; fetch: boolean };
    result: { uri?: string; fetched?: { name?: string; description?: string; image?: string }; error?: string };
  };
  /** The fee and what the send does (simulated on the node), without signing anything. */
  'tokens.estimateSend': { params: TokenSendParams; result: EvmFeeQuote & { simulation: SimulationView } };
  /** `maxFeeWei`: the most the tx may cost in fees, as reviewed; a costlier one is refused unsigned. `fee`: wei paid (receipt). */
  'tokens.send': { params: TokenSendParams & { maxFeeWei: Amount }; result: { txHash: string; fee: Amount } };
  /** The account's live allowances and operator rights (from its Approval logs, each confirmed on chain now). */
  'tokens.allowances': { params: { refresh?: boolean }; result: { allowances: AllowanceView[]; scan: LogScanView } };
  'tokens.estimateRevoke': { params: { address: string; spender: string; kind: 'allowance' | 'operator' }; result: EvmFeeQuote };
  /** approve(spender, 0) or setApprovalForAll(operator, false). */
  'tokens.revoke': { params: { address: string; spender: string; kind: 'allowance' | 'operator'; maxFeeWei: Amount }; result: { txHash: string; fee: Amount } };

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

/** What replacing the vault from a recovery phrase drops. */
export interface RestoreLoss {
  /** Accounts from imported private keys: the phrase does not hold them. */
  importedKeys: number;
  /** Cross-chain transfers neither completed nor failed (their journals go with the vault). */
  unfinishedTransfers: number;
}

export type ResponseMessage<T extends RequestType = RequestType> =
  | { ok: true; result: RequestResult<T> }
  | { ok: false; error: ErrorInfo };
