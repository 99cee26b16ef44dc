// A tx run on the user's own node before the user approves it (no third party): debug_traceCall
// with the call tracer where the node serves it, else eth_call. From the trace: what the account's
// native balance and tokens do (value moves between call frames, Transfer / TransferSingle /
// TransferBatch events of frames that did not revert) and which contracts it runs. docs/tokens.md.
import { AbiReader, decodeTextResult, selectorOf, topicOf } from './evm-abi.js';
import { formatEvmAddress, parseEvmAddress } from './evm-address.js';
import { PERMIT2_ADDRESS } from './evm-calls.js';
import { RpcError } from './errors.js';
import type { EthApi } from './node/eth.js';

export const TRANSFER_TOPIC = topicOf('Transfer(address,address,uint256)');
export const APPROVAL_TOPIC = topicOf('Approval(address,address,uint256)');
export const APPROVAL_FOR_ALL_TOPIC = topicOf('ApprovalForAll(address,address,bool)');
export const TRANSFER_SINGLE_TOPIC = topicOf('TransferSingle(address,address,address,uint256,uint256)');
export const TRANSFER_BATCH_TOPIC = topicOf('TransferBatch(address,address,address,uint256[],uint256[])');
// Permit2's allowances (owner, token, spender indexed; the amount first in the data), set by its approve or an on-chain permit.
export const PERMIT2_TOPICS = [topicOf('Approval(address,address,address,uint160,uint48)'), topicOf('Permit(address,address,address,uint160,uint48,uint48)')];
const ERROR_STRING = selectorOf('Error(string)');

/** The EVM reverted the call (code 3 with its data, or the node's "execution reverted"): the contract's answer, not a failure of the node. */
export const isRevert = (e: unknown): boolean => e instanceof RpcError && (e.rpcCode === 3 || /revert/i.test(e.rpcMessage));

/** One token movement read from an event log. ERC-721: `tokenId`, amount 1; ERC-20: no tokenId. */
export interface TokenMove {
  token: string;
  from: string;
  to: string;
  amount: bigint;
  tokenId?: bigint;
  standard: 'erc20' | 'erc721' | 'erc1155';
}

const lower = (a: string): string => a.toLowerCase();

function topicAddress(topic: string): string {
  return new AbiReader(topic).address(0);
}

function uintArray(r: AbiReader, i: number): bigint[] {
  const at = Number(r.uint(i)) / 32;
  const n = Number(r.uint(at));
  if (n > 256) throw new Error('too many IDs in one event');
  return Array.from({ length: n }, (_, k) => r.uint(at + 1 + k));
}

/** The token movements an event log records (Transfer of ERC-20 or ERC-721, ERC-1155 single and batch); [] for any other log. */
export function tokenMovesOf(log: { address: string; topics: readonly string[]; data: string }): TokenMove[] {
  try {
    const t = log.topics.map(lower);
    const token = formatEvmAddress(parseEvmAddress(log.address));
    if (t[0] === TRANSFER_TOPIC && t.length === 3) {
      return [{ token, from: topicAddress(t[1]!), to: topicAddress(t[2]!), amount: new AbiReader(log.data).uint(0), standard: 'erc20' }];
    }
    if (t[0] === TRANSFER_TOPIC && t.length === 4) {
      return [{ token, from: topicAddress(t[1]!), to: topicAddress(t[2]!), amount: 1n, tokenId: BigInt(t[3]!), standard: 'erc721' }];
    }
    if ((t[0] === TRANSFER_SINGLE_TOPIC || t[0] === TRANSFER_BATCH_TOPIC) && t.length === 4) {
      const from = topicAddress(t[2]!);
      const to = topicAddress(t[3]!);
      const r = new AbiReader(log.data);
      if (t[0] === TRANSFER_SINGLE_TOPIC) return [{ token, from, to, tokenId: r.uint(0), amount: r.uint(1), standard: 'erc1155' }];
      const ids = uintArray(r, 0);
      const values = uintArray(r, 1);
      if (ids.length !== values.length) return [];
      return ids.map((id, k) => ({ token, from, to, tokenId: id, amount: values[k]!, standard: 'erc1155' as const }));
    }
  } catch {
    // A log that does not decode as the standard says is not a movement the wallet can count.
  }
  return [];
}

/** The right over `owner`'s tokens an Approval / ApprovalForAll log gives, or undefined (another log, another owner). */
export function allowanceChangeOf(log: { address: string; topics: readonly string[]; data: string }, owner: string): AllowanceChange | undefined {
  try {
    const t = log.topics.map(lower);
    if (t.length < 3 || lower(topicAddress(t[1]!)) !== lower(owner)) return undefined;
    const token = formatEvmAddress(parseEvmAddress(log.address));
    if (PERMIT2_TOPICS.includes(t[0]!) && t.length === 4 && lower(token) === lower(PERMIT2_ADDRESS)) return { token: topicAddress(t[2]!), spender: topicAddress(t[3]!), amount: new AbiReader(log.data).uint(0), permit2: true };
    const spender = topicAddress(t[2]!);
    if (t[0] === APPROVAL_FOR_ALL_TOPIC && t.length === 3) return { token, spender, all: new AbiReader(log.data).bool(0) };
    if (t[0] === APPROVAL_TOPIC && t.length === 3) return { token, spender, amount: new AbiReader(log.data).uint(0) };
    if (t[0] === APPROVAL_TOPIC && t.length === 4) return { token, spender, tokenId: BigInt(t[3]!) };
  } catch {
    // Not the standard's shape: not a right the wallet can name.
  }
  return undefined;
}

/** The reason a revert's data gives (Error(string)); '' when it gives none the wallet can read. */
export function revertReason(data: unknown): string {
  if (typeof data !== 'string' || !data.toLowerCase().startsWith(ERROR_STRING)) return '';
  try {
    return decodeTextResult(`0x${data.slice(10)}`);
  } catch {
    return '';
  }
}

/** A change to the account: native coin in wei, or a token (per ID for NFTs). */
export interface BalanceChange {
  asset: 'native' | string;
  standard?: TokenMove['standard'];
  tokenId?: bigint;
  delta: bigint;
}

/**
 * A right over the account's tokens the tx would give (an Approval or ApprovalForAll event with the
 * account as owner): ERC-20 `amount`, ERC-721 one `tokenId`, or every NFT of the contract (`all`).
 * The last event per token, spender (and ID) counts; an amount of 0 or `all: false` takes a right back.
 */
export interface AllowanceChange {
  token: string;
  spender: string;
  amount?: bigint;
  tokenId?: bigint;
  all?: boolean;
  /** Permit2's allowance of `token` (its amounts are uint160). */
  permit2?: true;
}

export interface Simulation {
  method: 'trace' | 'call' | 'none';
  /** Present when it would revert: the reason, or ''. */
  reverted?: string;
  changes: BalanceChange[];
  /** Rights over the account's tokens the tx gives or takes back (absent: none). */
  approvals?: AllowanceChange[];
  /** readTrace's `other` address: the tokens it receives (a send's recipient). */
  other?: BalanceChange[];
  /** The trace was too large to follow in full: `changes` and `approvals` are those found so far. */
  partial?: boolean;
  touched: string[];
  /** Why the node could not trace (or run) the call, in its own words: never the wallet's. */
  nodeSaid?: string;
}

interface Frame {
  type?: unknown;
  from?: unknown;
  to?: unknown;
  value?: unknown;
  input?: unknown;
  output?: unknown;
  error?: unknown;
  calls?: unknown;
  logs?: unknown;
}

const MAX_FRAMES = 10_000;

/**
 * The account's balance changes and the contracts touched, from a callTracer trace. Frames that
 * reverted (and everything under them) change nothing. With `other`: the tokens that address receives
 * too. Throws on a trace that is not one.
 */
export function readTrace(trace: unknown, account: string, other?: string): Simulation {
  const me = lower(account);
  const them = lower(other ?? '-');
  const changes = new Map<string, BalanceChange>();
  const theirs = new Map<string, BalanceChange>();
  const add = (key: string, c: Omit<BalanceChange, 'delta'>, delta: bigint, to = changes): void => {
    const known = to.get(key) ?? { ...c, delta: 0n };
    known.delta += delta;
    to.set(key, known);
  };
  const touched: string[] = [];
  const root = trace as Frame;
  if (typeof root !== 'object' || root === null || typeof root.from !== 'string') throw new Error('not a call trace');
  if (root.error !== undefined) return { method: 'trace', reverted: revertReason(root.output), changes: [], touched: [] };
  const approvals = new Map<string, AllowanceChange>();
  const stack: Frame[] = [root];
  let seen = 0;
  let partial = false;
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (++seen > MAX_FRAMES) {
      partial = true;
      break;
    }
    if (f.error !== undefined) continue;
    const type = typeof f.type === 'string' ? f.type.toUpperCase() : '';
    const from = typeof f.from === 'string' ? lower(f.from) : '';
    const to = typeof f.to === 'string' ? lower(f.to) : '';
    const value = typeof f.value === 'string' && /^0x[0-9a-fA-F]+$/.test(f.value) ? BigInt(f.value) : 0n;
    // DELEGATECALL and STATICCALL move no value; CALLCODE keeps it with the caller.
    if (value > 0n && type !== 'DELEGATECALL' && type !== 'STATICCALL' && type !== 'CALLCODE' && from !== to) {
      if (from === me) add('native', { asset: 'native' }, -value);
      if (to === me) add('native', { asset: 'native' }, value);
    }
    const runsCode = type.startsWith('CREATE') || (typeof f.input === 'string' && f.input.length > 2);
    if (to !== '' && runsCode && !touched.includes(to)) touched.push(to);
    if (Array.isArray(f.logs)) {
      for (const log of f.logs as { address?: unknown; topics?: unknown; data?: unknown }[]) {
        if (typeof log.address !== 'string' || !Array.isArray(log.topics) || typeof log.data !== 'string') continue;
        for (const m of tokenMovesOf({ address: log.address, topics: log.topics as string[], data: log.data })) {
          const key = `${lower(m.token)}:${m.tokenId ?? ''}`;
          const c = { asset: m.token, standard: m.standard, ...(m.tokenId !== undefined ? { tokenId: m.tokenId } : {}) };
          if (lower(m.from) === me) add(key, c, -m.amount);
          if (lower(m.to) === me) add(key, c, m.amount);
          if (lower(m.to) === them) add(key, c, m.amount, theirs);
        }
        const right = allowanceChangeOf({ address: log.address, topics: log.topics as string[], data: log.data }, me);
        if (right) approvals.set(`${right.permit2 ? 'permit2:' : ''}${lower(right.token)}:${lower(right.spender)}:${right.all !== undefined ? 'all' : (right.tokenId ?? '')}`, right);
      }
    }
    // Children in call order (the stack pops the last pushed first).
    if (Array.isArray(f.calls)) for (let i = f.calls.length - 1; i >= 0; i--) stack.push(f.calls[i] as Frame);
  }
  return {
    method: 'trace',
    changes: [...changes.values()].filter((c) => c.delta !== 0n),
    ...(approvals.size > 0 ? { approvals: [...approvals.values()] } : {}),
    ...(other ? { other: [...theirs.values()] } : {}),
    touched: touched.map((a) => formatEvmAddress(parseEvmAddress(a))),
    ...(partial ? { partial: true } : {}),
  };
}

export interface SimulatedTx {
  from: string;
  to?: string;
  value: bigint;
  data: string;
  gasLimit: bigint;
  /** The tx's own fees, sent so the node runs it at the price it will pay (a contract may read it). */
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
}

const hexQ = (n: bigint): string => `0x${n.toString(16)}`;

/**
 * Runs the tx on the node in its latest executed state. The trace when the node serves
 * debug_traceCall; else eth_call (it says only whether the tx reverts); else 'none'. The tx's own
 * fees are sent (the node checks the account can pay them); the fee itself is not in the native
 * change (the approval shows it apart). `other`: see readTrace.
 */
export async function simulateTx(eth: EthApi, tx: SimulatedTx, other?: string): Promise<Simulation> {
  const call = {
    from: tx.from,
    ...(tx.to ? { to: tx.to } : {}),
    value: hexQ(tx.value),
    data: tx.data,
    gas: hexQ(tx.gasLimit),
    ...(tx.maxFeePerGas !== undefined ? { maxFeePerGas: hexQ(tx.maxFeePerGas), maxPriorityFeePerGas: hexQ(tx.maxPriorityFeePerGas ?? 0n) } : {}),
  };
  let traceFailure: string;
  try {
    return readTrace(await eth.traceCall(call), tx.from, other);
  } catch (e) {
    if (!(e instanceof RpcError) && !(e instanceof Error && e.message === 'not a call trace')) throw e;
    traceFailure = e instanceof RpcError ? e.rpcMessage : '';
  }
  // Its answer not a trace: nothing the node said to quote.
  const nodeSaid = traceFailure === '' ? undefined : traceFailure;
  try {
    await eth.call(call);
    return { method: 'call', changes: [], touched: [], ...(nodeSaid ? { nodeSaid } : {}) };
  } catch (e) {
    if (!(e instanceof RpcError)) throw e;
    // A revert is code 3 with its data; anything else means the node could not run it.
    if (isRevert(e)) return { method: 'call', reverted: revertReason(e.data), changes: [], touched: [], ...(nodeSaid ? { nodeSaid } : {}) };
    return { method: 'none', changes: [], touched: [], nodeSaid: e.rpcMessage };
  }
}
