// A node that lies: a fetch for the wallet that forwards to the real test node and tampers with
// chosen JSON-RPC methods, as a proxy, a load balancer or a compromised host in front of it could.
// Each lie decides per call what the wallet gets; `forward()` sends the call on to the real node.
import { sha256 } from '@noble/hashes/sha2.js';
import { fromHex } from '../../src/core/bytes.js';
import { decodeUtxo, encodeUtxo, type Utxo, type Vm } from '../../src/core/codec/index.js';
import { cb58Encode, fromApiHex, toApiHex } from '../../src/core/encoding.js';
import type { Wallet } from '../../src/background/services/index.js';
import type { TransferView } from '../../src/shared/messages.js';

export interface RpcCall {
  method: string;
  params: unknown;
}

/** A JSON-RPC response body: what the real node answered, or a made-up one. */
export type RpcBody = { jsonrpc: '2.0'; id: unknown; result?: unknown; error?: { code: number; message: string } };

export type Lie = (call: RpcCall, forward: () => Promise<RpcBody>, signal?: AbortSignal) => Promise<RpcBody>;

/** A node that takes the request and never answers: only the wallet's own deadline ends the wait. */
export const hang: Lie = (_call, _forward, signal) =>
  new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason as Error)));

export interface LyingNode {
  fetch: typeof fetch;
  /** Lies by JSON-RPC method; set, replace or delete them between steps. */
  lies: Map<string, Lie>;
  /** Every method the wallet called, in order. */
  calls: string[];
}

export function lyingNode(): LyingNode {
  const lies = new Map<string, Lie>();
  const calls: string[] = [];
  const lying: typeof fetch = async (input, init) => {
    if (typeof init?.body !== 'string') return fetch(input, init);
    const request = JSON.parse(init.body) as { id: unknown; method: string; params: unknown };
    calls.push(request.method);
    const lie = lies.get(request.method);
    if (!lie) return fetch(input, init);
    const forward = async (): Promise<RpcBody> => (await (await fetch(input, init)).json()) as RpcBody;
    const body = await lie({ method: request.method, params: request.params }, forward, init.signal ?? undefined);
    return new Response(JSON.stringify({ ...body, id: request.id }), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetch: lying, lies, calls };
}

/** The ID of the tx an issueTx call carries (hex with a 4-byte checksum, as the wallet sends it). */
export function txIdOfIssue(call: RpcCall): string {
  const hex = (call.params as { tx: string }).tx.replace(/^0x/, '');
  return cb58Encode(sha256(fromHex(hex.slice(0, -8))));
}

export function rpcError(message: string): RpcBody {
  return { jsonrpc: '2.0', id: null, error: { code: -32000, message } };
}

export function rpcResult(result: unknown): RpcBody {
  return { jsonrpc: '2.0', id: null, result };
}

/**
 * A lie about a chain's UTXOs that stays consistent: each page's UTXOs are decoded, passed to
 * `rewrite` (which returns the UTXOs to send instead) and re-encoded with valid checksums; the
 * page's count follows. Atomic reads (with a source chain) pass through untouched.
 */
export function rewriteUtxos(vm: Vm, rewrite: (utxos: Utxo[]) => Utxo[]): Lie {
  return async (call, forward) => {
    const body = await forward();
    if ((call.params as { sourceChain?: string }).sourceChain || !body.result) return body;
    const result = body.result as { utxos: string[]; numFetched: string };
    const utxos = rewrite(result.utxos.map((hex) => decodeUtxo(fromApiHex(hex), vm))).map((u) => toApiHex(encodeUtxo(u, vm)));
    return { ...body, result: { ...result, utxos, numFetched: String(utxos.length) } };
  };
}

/** The activity status of `txID` after refreshing until it is no longer pending (or 20 s passed). */
export async function refreshUntilDecided(wallet: Pick<Wallet, 'balances'>, txID: string): Promise<string | undefined> {
  const status = async () => (await wallet.balances.activityList()).items.find((i) => i.txID === txID)?.status;
  const deadline = Date.now() + 20_000;
  while ((await status()) === 'pending' && Date.now() < deadline) {
    await wallet.balances.balancesRefresh();
    await new Promise((r) => setTimeout(r, 300));
  }
  return status();
}

/**
 * Starts a move of `amount` nAVAX with the fees its estimate gives and waits (30 s at most,
 * running it again when it pauses) until it completed or failed; returns its last state.
 */
export async function moveUntilDone(wallet: Pick<Wallet, 'transfers'>, from: 'X' | 'P' | 'C', to: 'X' | 'P' | 'C', amount: bigint): Promise<string> {
  const est = await wallet.transfers.transfersEstimate({ from, to, amount: amount.toString() });
  const move = await wallet.transfers.transfersStart({ from, to, amount: amount.toString(), maxFee: (BigInt(est.exportFee) + BigInt(est.importFee)).toString() });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const view = (await wallet.transfers.transfersList()).transfers.find((t) => t.id === move.id)!;
    if (view.state === 'completed' || view.state === 'failed' || Date.now() > deadline) return view.state;
    if (view.paused) await wallet.transfers.resumeTransfers().catch(() => undefined);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The move `id` once `done` says it got where it should (polled for up to 30 s). */
export async function transferUntil(wallet: Pick<Wallet, 'transfers'>, id: string, done: (t: TransferView) => boolean): Promise<TransferView> {
  for (let i = 0; i < 300; i++) {
    const t = (await wallet.transfers.transfersList()).transfers.find((x) => x.id === id)!;
    if (done(t)) return t;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`transfer ${id} did not get there`);
}
