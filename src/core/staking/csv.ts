// A CSV of rewards and activity, for a spreadsheet or a tax tool: one line per item, dates in ISO
// 8601 (UTC), amounts as exact decimals of the asset's unit (never floats), fees in AVAX. Fields are
// quoted per RFC 4180 where needed, and a field a spreadsheet would run as a formula is defused.
import { formatAmount } from '../amount.js';

export interface CsvRow {
  /** Milliseconds since the epoch. */
  time: number;
  txID: string;
  kind: string;
  /** In the asset's base units (nAVAX, wei, …), with its denomination. */
  amount?: bigint;
  denomination: number;
  /** The asset's symbol, or its ID when the wallet does not know it. */
  asset: string;
  /** nAVAX (X, P, atomic) or wei (C-Chain EVM): with `feeDenomination`. */
  fee?: bigint;
  feeDenomination?: number;
}

export const CSV_HEADER = 'date,txID,kind,amount,asset,fee';

/** A field as RFC 4180 wants it; one a spreadsheet would take for a formula starts with a quote mark. */
export function csvField(value: string): string {
  const defused = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(defused) ? `"${defused.replace(/"/g, '""')}"` : defused;
}

/** The CSV text: the header, then one line per row in the order given, CRLF line ends (RFC 4180). */
export function csvOf(rows: readonly CsvRow[]): string {
  const lines = [CSV_HEADER];
  for (const r of rows) {
    const amount = r.amount === undefined ? '' : formatAmount(r.amount, r.denomination);
    const fee = r.fee === undefined ? '' : formatAmount(r.fee, r.feeDenomination ?? 9);
    // A time no date can show (a node's word, kept from before it was checked) leaves the field empty.
    const date = new Date(r.time);
    lines.push([Number.isNaN(date.getTime()) ? '' : date.toISOString(), r.txID, r.kind, amount, r.asset, fee].map(csvField).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}
