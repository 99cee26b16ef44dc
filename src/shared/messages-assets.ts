// The X-Chain asset studio's part of the protocol (messages.ts re-exports it): the assets.* requests and their views.
import type { Amount, OwnerSet } from './messages.js';

export interface NftView {
  /** `<txID>:<outputIndex>`, what assets.transferNft takes. */
  utxoID: string;
  assetID: string;
  groupID: number;
  payloadHex: string;
  name: string;
  symbol: string;
  /** Unix seconds: still time-locked until then (it cannot be sent before); absent when it can be sent now. */
  lockedUntil?: number;
  /** Another key can also send it alone (a stranger in a 1-of-2): it is the wallet's only until that key moves it. */
  shared?: true;
}

export interface MintRightView {
  assetID: string;
  /** The mint right's UTXO: the one a mint with it spends (passed back as the mint's `utxoID`). */
  utxoID: string;
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

/** The assets.* requests: their params and results (WalletRequests takes them in). */
export interface AssetRequests {
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
  'assets.mint': { params: { assetID: string; utxoID: string; amount: Amount; to: OwnerSet; maxFee: Amount }; result: { txID: string; fee: Amount } };
  /** payload as hex (the UI turns text/JSON/URL into bytes). */
  'assets.mintNft': { params: { assetID: string; utxoID: string; groupID: number; payloadHex: string; to: OwnerSet[]; maxFee: Amount }; result: { txID: string; fee: Amount } };
  'assets.transferNft': { params: { utxoID: string; to: OwnerSet; maxFee: Amount }; result: { txID: string; fee: Amount } };
  /** The NFTs on the X-Chain this wallet can send. */
  'assets.listNfts': { params: Record<string, never>; result: { nfts: NftView[] } };
  /** The mint rights (variable-cap and NFT groups) on the X-Chain this wallet can sign for. */
  'assets.mintRights': { params: Record<string, never>; result: { rights: MintRightView[] } };
}
