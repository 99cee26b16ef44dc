// The cross-chain moves' part of the protocol (messages.ts re-exports it): the transfers.* requests and their views.
import type { Amount, ChainName, WaitingFundsView } from './messages.js';

/**
 * One import "Import now" would make, built as it would be signed: of funds no move is bringing in,
 * or (`moveID`) a move's own, left waiting because its import costs more than was approved then.
 */
export interface WaitingImportView {
  from: ChainName;
  to: ChainName;
  /** nAVAX of AVAX taken out of atomic memory, before the fee (which it pays). */
  amount: Amount;
  fee: Amount;
  /** It also brings in assets other than AVAX (X-Chain only). */
  otherAssets: boolean;
  moveID?: string;
}

/** A completed move's note when an import not its own took its exported funds (proven by its own imports' spent inputs): they are not lost. */
export const IMPORTED_ELSEWHERE = 'its funds were imported by another import, not its own';
/**
 * A completed move's note when its funds, seen in atomic memory once, stayed gone ten minutes with
 * no import of its own journaled (a failed move's kept export that ran after all: "Import now" could
 * take them while it was failed). Not proven: a node can hide them, and then they still wait there.
 */
export const FUNDS_NO_LONGER_SHOWN = 'its funds no longer show in atomic memory, and none of its own imports took them';

export interface TransferView {
  id: string;
  from: ChainName;
  to: ChainName;
  amount: Amount;
  /** When it was journaled (ms). */
  createdAt: number;
  state: 'pending' | 'export-signed' | 'export-accepted' | 'import-signed' | 'completed' | 'failed';
  exportTxID?: string;
  importTxIDs: string[];
  exportFee?: Amount;
  importFee?: Amount;
  /**
   * A failed move's X/P export the node took and then called failed: 'kept' in the way of the next
   * send or move on its chain (they take its place); 'unclear', its funds are gone unexplained, so
   * it may have gone through.
   */
  exportKept?: 'kept' | 'unclear';
  error?: string;
  /**
   * The last run of this move stopped on a failure (the node unreachable, …) and it waits for the
   * next run (the background retries every minute): why, as a WalletError code and message, and since when.
   */
  paused?: { code: string; message: string; since: number };
}

/** The transfers.* requests: their params and results (WalletRequests takes them in). */
export interface TransferRequests {
  /** `maxFee` (nAVAX): the most the export and import fees together may cost, as the user approved. */
  /** `maxFee`: the most the export and imports may cost together; `maxExportFee`: the most the export alone may (what the review showed). */
  'transfers.start': { params: { from: ChainName; to: ChainName; amount: Amount; maxFee: Amount; maxExportFee?: Amount }; result: TransferView };
  /**
   * nAVAX: the export's exact fee, the import's fee for one UTXO of `amount`, and the largest amount
   * the export can carry after its fee. Nothing is signed or issued.
   */
  'transfers.estimate': {
    params: { from: ChainName; to: ChainName; amount: Amount };
    /** `maxOneTx`: the UTXOs do not all fit one export, so `maxAmount` is less than all there is. */
    result: { exportFee: Amount; importFee: Amount; maxAmount: Amount; maxOneTx?: true };
  };
  'transfers.list': { params: Record<string, never>; result: { transfers: TransferView[] } };
  /** What "Import now" would import, and its fees: built, nothing signed. `tooSmall`: waiting funds that cannot pay their own import. */
  'transfers.estimateImportWaiting': { params: Record<string, never>; result: { planID: string; imports: WaitingImportView[]; fee: Amount; tooSmall: WaitingFundsView[] } };
  /**
   * Imports exactly what the review `planID` listed (its fees, at most `maxFee` together). `failed`:
   * imports not made (what they spend changed since the review; a move's is looked at again later).
   */
  'transfers.importWaiting': { params: { planID: string; maxFee: Amount }; result: { txIDs: string[]; failed: number; unconfirmed?: number } };
}
