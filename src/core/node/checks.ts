// Shape guards and checks shared by the API modules: IDs, hex, times, UTXO pages, receipts,
// blocks; a tx ID checked against the bytes it names; owners as the P-Chain API gives them.
import { sha256 } from '@noble/hashes/sha2.js';
import { type Bytes, compareBytes } from '../bytes.js';
import { cb58Encode, fromApiHex, parseAddress, parseId } from '../encoding.js';
import { NodeResponseError, NodeUnreachableError, TimeoutError } from '../errors.js';
import type { OutputOwners } from '../codec/types.js';
import { type Guard, g, shapeError } from '../rpc.js';
import { type BlockTag, type EthBlock, type EthReceipt, type IndexContainer, type UtxoPage } from './types.js';

export const cb58Id: Guard<string> = (value, path) => {
  const s = g.string(value, path);
  try {
    parseId(s);
  } catch {
    throw shapeError(path, 'a CB58 32-byte ID', value);
  }
  return s;
};

export const apiHex: Guard<Bytes> = (value, path) => {
  const s = g.string(value, path);
  try {
    return fromApiHex(s);
  } catch (e) {
    throw new NodeResponseError(`${path}: ${(e as Error).message}`);
  }
};

export const rfc3339: Guard<string> = (value, path) => {
  const s = g.string(value, path);
  if (Number.isNaN(Date.parse(s))) throw shapeError(path, 'an RFC 3339 time', value);
  return s;
};

export const stringMap: Guard<Record<string, string>> = (value, path) => {
  const rec = g.record(value, path);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(rec)) out[k] = g.string(v, `${path}.${k}`);
  return out;
};

export const utxoIndexGuard = g.object({ address: g.string, utxo: g.string });

/** An array of strings, taken as it is: no per-item path text unless an item is wrong (a page has 1,024). */
const stringArray: Guard<string[]> = (value, path) => {
  if (!Array.isArray(value)) throw shapeError(path, 'an array', value);
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') g.string(value[i], `${path}[${i}]`);
  return value as string[];
};

export const utxoPageGuard: Guard<UtxoPage> = (value, path) => {
  const page = g.object({
    numFetched: g.uintNumber,
    utxos: stringArray,
    endIndex: utxoIndexGuard,
  })(value, path);
  if (page.numFetched !== page.utxos.length) {
    throw new NodeResponseError(`${path}: numFetched is ${page.numFetched} but ${page.utxos.length} UTXOs were sent`);
  }
  return page;
};

export const ethAddress = g.data(20);
export const ethHash = g.data(32);

export const receiptGuard: Guard<EthReceipt> = (value, path) => {
  const raw = g.record(value, path);
  const r = g.object({
    transactionHash: ethHash,
    blockHash: ethHash,
    blockNumber: g.quantity,
    status: g.quantity,
    gasUsed: g.quantity,
    effectiveGasPrice: g.optional(g.quantity),
    from: ethAddress,
    to: g.nullable(ethAddress),
    contractAddress: g.optional(ethAddress),
  })(raw, path);
  if (r.status !== 0n && r.status !== 1n) throw shapeError(`${path}.status`, '0x0 or 0x1', raw['status']);
  const out: EthReceipt = {
    transactionHash: r.transactionHash,
    blockHash: r.blockHash,
    blockNumber: r.blockNumber,
    status: r.status,
    gasUsed: r.gasUsed,
    from: r.from,
    to: r.to,
    contractAddress: r.contractAddress ?? null,
    raw,
  };
  if (r.effectiveGasPrice !== undefined) out.effectiveGasPrice = r.effectiveGasPrice;
  return out;
};

export const blockGuard: Guard<EthBlock> = (value, path) => {
  const raw = g.record(value, path);
  const b = g.object({
    number: g.quantity,
    hash: ethHash,
    parentHash: ethHash,
    timestamp: g.quantity,
    baseFeePerGas: g.optional(g.quantity),
    gasLimit: g.quantity,
    gasUsed: g.quantity,
    transactions: g.array(g.unknown),
  })(raw, path);
  const out: EthBlock = {
    number: b.number,
    hash: b.hash,
    parentHash: b.parentHash,
    timestamp: b.timestamp,
    gasLimit: b.gasLimit,
    gasUsed: b.gasUsed,
    transactions: b.transactions,
    raw,
  };
  if (b.baseFeePerGas !== undefined) out.baseFeePerGas = b.baseFeePerGas;
  return out;
};

export const containerGuard: Guard<IndexContainer> = (value, path) => {
  const c = g.object({ id: cb58Id, bytes: apiHex, timestamp: rfc3339, index: g.uint })(value, path);
  return c;
};

// ---- helpers ----

export function checkTxId(method: string, bytes: Bytes, returned: string): string {
  const expected = cb58Encode(sha256(bytes));
  if (returned !== expected) {
    throw new NodeResponseError(`${method}: node reported tx ID ${returned}, but the submitted bytes hash to ${expected}`);
  }
  return returned;
}

/** Owners as the P-Chain API gives them (P- addresses), checked to be a valid owner set. */
export function ownersFromApi(method: string, addresses: string[], threshold: bigint, locktime: bigint): OutputOwners {
  let shortIds: Bytes[];
  try {
    shortIds = addresses.map((a) => parseAddress(a).bytes).sort(compareBytes);
  } catch {
    throw shapeError(`${method} owner addresses`, 'P-Chain addresses', addresses);
  }
  if (threshold > BigInt(shortIds.length) || (threshold === 0n && shortIds.length > 0)) throw shapeError(`${method} owner threshold`, `1 to ${shortIds.length}`, threshold);
  if (shortIds.some((a, i) => i > 0 && compareBytes(shortIds[i - 1]!, a) === 0)) throw shapeError(`${method} owner addresses`, 'distinct addresses', addresses);
  return { locktime, threshold: Number(threshold), addresses: shortIds };
}

export function checkFetchedTx(method: string, txID: string, bytes: Bytes): Bytes {
  if (cb58Encode(sha256(bytes)) !== txID) {
    throw new NodeResponseError(`${method}: the bytes the node returned do not hash to ${txID}`);
  }
  return bytes;
}

export function blockTag(tag: BlockTag): string {
  return typeof tag === 'bigint' ? '0x' + tag.toString(16) : tag;
}

export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + (path.startsWith('/') ? path : '/' + path);
}

/** The transient failures a poller rides out. */
export function isTransient(e: unknown): boolean {
  return e instanceof NodeUnreachableError || e instanceof TimeoutError;
}
