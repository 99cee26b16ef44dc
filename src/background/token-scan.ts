// The account's token history from the chain's event logs on the user's own node: Transfer (ERC-20
// and ERC-721), TransferSingle / TransferBatch (ERC-1155) to or from it, and the Approval /
// ApprovalForAll it emitted (and Permit2's Approval / Permit naming it as owner). Read in bounded
// block ranges (nodes limit eth_getLogs: public ones commonly to 2048 blocks), newest first, a
// bounded number of ranges per refresh, and remembered per network and account
// (`xpc.tokenscan.<network>.<account>`) so each refresh reads only what it has not read yet.
// docs/tokens.md.
import { addressTopic } from '../core/evm-abi.js';
import { AnswerTooLargeError, RpcError, WalletError } from '../core/errors.js';
import {
  APPROVAL_FOR_ALL_TOPIC,
  APPROVAL_TOPIC,
  PERMIT2_TOPICS,
  type TokenMove,
  tokenMovesOf,
  TRANSFER_BATCH_TOPIC,
  TRANSFER_SINGLE_TOPIC,
  TRANSFER_TOPIC,
} from '../core/evm-simulate.js';
import { AbiReader } from '../core/evm-abi.js';
import { formatEvmAddress, parseEvmAddress } from '../core/evm-address.js';
import type { EthApi, EthLog, LogFilter } from '../core/node/eth.js';
import type { ApprovalKind, LogScanView, TokenStandard } from '../shared/messages.js';
import { PERMIT2_ADDRESS } from '../core/evm-calls.js';
import { tokenScanKey } from './account-cache.js';
import { mapLimited } from './map-limited.js';
import { oneAtATime, type StorageArea } from './storage.js';

/** Blocks per eth_getLogs at first; halved (down to MIN_RANGE) when the node refuses a range. */
export const LOG_RANGE = 2048n;
const MIN_RANGE = 16n;
/** Ranges read per refresh: the rest of an old chain is read by later refreshes. */
export const RANGES_PER_REFRESH = 24;
const MAX_TRANSFERS = 500;
const MAX_APPROVALS = 500;
/**
 * Records kept per contract the account has not listed, per kind (transfers, approvals). Any
 * contract can emit Transfer or Approval logs naming the account: one contract's spam must not push
 * out the records of others. A listed contract's logs are its own (a log's address is the contract
 * that emitted it), so they are kept first and not capped per contract.
 */
export const PER_UNLISTED_CONTRACT = 16;

export interface ScannedTransfer {
  txHash: string;
  logIndex: number;
  blockNumber: string;
  token: string;
  standard: TokenStandard;
  from: string;
  to: string;
  amount: string;
  tokenId?: string;
  /** Its block's time (ms), once read; a time past the moment it was read is not kept. */
  time?: number;
}

/** The latest Approval / ApprovalForAll the account emitted for one token and spender (Permit2's, for one it keeps). */
export interface ScannedApproval {
  token: string;
  spender: string;
  kind: ApprovalKind;
  blockNumber: string;
  logIndex: number;
  txHash: string;
}

export interface ScanState {
  /** Blocks read, inclusive; toBlock < fromBlock: none yet. */
  fromBlock: string;
  toBlock: string;
  /** The node's latest executed block at the last refresh: blocks past toBlock up to it are not read yet. */
  head?: string;
  updatedAt: number;
  error?: string;
  /** With `error`: its code (WalletError), so the popup can put it in words. */
  errorCode?: string;
  transfers: ScannedTransfer[];
  approvals: ScannedApproval[];
  /** Some transfers or approvals read were not kept (too many from unlisted contracts, or in all). */
  cut?: boolean;
  /** Ranges of MIN_RANGE blocks not read: the logs naming the account there were more than an answer the wallet reads (a flood). The last 8. */
  skipped?: string[];
}


const emptyState = (): ScanState => ({ fromBlock: '1', toBlock: '0', updatedAt: 0, transfers: [], approvals: [] });

export function scanView(s: ScanState): LogScanView {
  const read = BigInt(s.toBlock) >= BigInt(s.fromBlock);
  // Read back to block 0 is not complete while newer blocks wait (more came than one refresh reads).
  const behind = read && s.head !== undefined && BigInt(s.toBlock) < BigInt(s.head);
  return { fromBlock: read ? s.fromBlock : '0', toBlock: read ? s.toBlock : '0', complete: read && s.fromBlock === '0' && !behind, ...(behind ? { behind } : {}), updatedAt: s.updatedAt, ...(s.error ? { error: s.error, errorCode: s.errorCode } : {}), ...(s.cut ? { cut: true } : {}), ...(s.skipped ? { flooded: true } : {}) };
}

/** The four queries that find every log concerning `account` in a range (ERC-1155 puts from and to one topic later). */
function filtersFor(account: string): LogFilter['topics'][] {
  const me = addressTopic(account);
  return [
    [[TRANSFER_TOPIC, APPROVAL_TOPIC, APPROVAL_FOR_ALL_TOPIC, ...PERMIT2_TOPICS], me],
    [TRANSFER_TOPIC, null, me],
    [[TRANSFER_SINGLE_TOPIC, TRANSFER_BATCH_TOPIC], null, me],
    [[TRANSFER_SINGLE_TOPIC, TRANSFER_BATCH_TOPIC], null, null, me],
  ];
}

/** All logs concerning the account in [from, to], each once. */
async function logsIn(eth: EthApi, account: string, from: bigint, to: bigint): Promise<EthLog[]> {
  const batches = await Promise.all(filtersFor(account).map((topics) => eth.getLogs({ fromBlock: from, toBlock: to, topics })));
  const seen = new Map<string, EthLog>();
  for (const l of batches.flat()) seen.set(`${l.transactionHash}:${l.logIndex}`, l);
  return [...seen.values()];
}

function approvalOf(l: EthLog, account: string): ScannedApproval | undefined {
  const t = l.topics.map((x) => x.toLowerCase());
  // Permit2's (owner, token, spender): only Permit2's own, any contract can emit the same event.
  const permit2 = t.length === 4 && PERMIT2_TOPICS.includes(t[0]!) && l.address.toLowerCase() === PERMIT2_ADDRESS.toLowerCase();
  // ERC-721's Approval names one token (a fourth topic): cleared by its next transfer, not kept.
  if (!permit2 && (t.length !== 3 || (t[0] !== APPROVAL_TOPIC && t[0] !== APPROVAL_FOR_ALL_TOPIC))) return undefined;
  try {
    const owner = new AbiReader(t[1]!).address(0);
    if (owner.toLowerCase() !== account.toLowerCase()) return undefined;
    const spender = new AbiReader(t[permit2 ? 3 : 2]!).address(0);
    const token = permit2 ? new AbiReader(t[2]!).address(0) : formatEvmAddress(parseEvmAddress(l.address));
    return { token, spender, kind: permit2 ? 'permit2' : t[0] === APPROVAL_TOPIC ? 'allowance' : 'operator', blockNumber: l.blockNumber.toString(), logIndex: Number(l.logIndex), txHash: l.transactionHash };
  } catch {
    return undefined;
  }
}

function transferOf(l: EthLog, m: TokenMove): ScannedTransfer {
  return {
    txHash: l.transactionHash,
    logIndex: Number(l.logIndex),
    blockNumber: l.blockNumber.toString(),
    token: m.token,
    standard: m.standard,
    from: m.from,
    to: m.to,
    amount: m.amount.toString(),
    ...(m.tokenId !== undefined ? { tokenId: m.tokenId.toString() } : {}),
  };
}

const newerFirst = (a: { blockNumber: string; logIndex: number }, b: { blockNumber: string; logIndex: number }): number => {
  const d = BigInt(b.blockNumber) - BigInt(a.blockNumber);
  return d !== 0n ? (d > 0n ? 1 : -1) : b.logIndex - a.logIndex;
};

/**
 * The records kept: listed contracts' first, then at most PER_UNLISTED_CONTRACT of each unlisted
 * contract, `max` in all; and whether any was dropped. Unlisted contracts share the room in turns
 * (each one's newest, then each one's second…): spam contracts emitting many records each cannot
 * push out a real contract's one, short of outnumbering the room by contracts.
 */
function bounded<T extends { token: string; blockNumber: string; logIndex: number }>(items: T[], listed: ReadonlySet<string>, max: number): { kept: T[]; cut: boolean } {
  const perContract = new Map<string, number>();
  const mine: T[] = [];
  const others: { item: T; turn: number }[] = [];
  for (const item of [...items].sort(newerFirst)) {
    const token = item.token.toLowerCase();
    if (listed.has(token)) mine.push(item);
    else {
      const turn = (perContract.get(token) ?? 0) + 1;
      perContract.set(token, turn);
      if (turn <= PER_UNLISTED_CONTRACT) others.push({ item, turn });
    }
  }
  // Stable: within a turn, newest first.
  const inTurns = others.sort((a, b) => a.turn - b.turn).map((o) => o.item);
  const kept = [...mine, ...inTurns].slice(0, max).sort(newerFirst);
  return { kept, cut: kept.length < items.length };
}

function absorb(s: ScanState, logs: EthLog[], account: string, listed: ReadonlySet<string>): void {
  const me = account.toLowerCase();
  const known = new Set(s.transfers.map((t) => `${t.txHash}:${t.logIndex}`));
  for (const l of logs) {
    const approval = approvalOf(l, account);
    if (approval) {
      const at = s.approvals.findIndex((a) => a.token.toLowerCase() === approval.token.toLowerCase() && a.spender === approval.spender && a.kind === approval.kind);
      if (at < 0) s.approvals.push(approval);
      else if (newerFirst(approval, s.approvals[at]!) < 0) s.approvals[at] = approval;
      continue;
    }
    tokenMovesOf(l).forEach((m, k) => {
      // A transfer of 0 moves nothing, and anyone can emit one from the account (ERC-20 transferFrom
      // of 0 needs no allowance) to a look-alike address to poison its history: never kept.
      if ((m.from.toLowerCase() !== me && m.to.toLowerCase() !== me) || m.amount === 0n) return;
      const t = transferOf(l, m);
      // A batch's moves share one log: told apart by their place in it, as stored (a block read
      // again must find each one known).
      const logIndex = k > 0 ? t.logIndex + k / 1000 : t.logIndex;
      const id = `${t.txHash}:${logIndex}`;
      if (known.has(id)) return;
      known.add(id);
      s.transfers.push(k > 0 ? { ...t, logIndex } : t);
    });
  }
  const transfers = bounded(s.transfers, listed, MAX_TRANSFERS);
  const approvals = bounded(s.approvals, listed, MAX_APPROVALS);
  s.transfers = transfers.kept;
  s.approvals = approvals.kept;
  if (transfers.cut || approvals.cut) s.cut = true;
}

/** How nodes refuse a range for the number of its logs, not its width ("query returned more than 10000 results", "Log response size exceeded"). */
const TOO_MANY_LOGS = /more than \d+ (results|logs)|response size (exceeded|limit)|too many (results|logs)/i;

/** Block times read per refresh (one eth_getBlockByNumber each, 8 in flight): the rest are dated by later refreshes. */
const DATED_PER_REFRESH = 64;

/** Dates the kept transfers not dated yet, newest first; a block the node does not give stays undated. */
async function date(s: ScanState, eth: EthApi): Promise<void> {
  const blocks = [...new Set(s.transfers.filter((t) => t.time === undefined).map((t) => t.blockNumber))].slice(0, DATED_PER_REFRESH);
  const times = new Map<string, number>();
  await mapLimited(blocks, 8, async (n) => {
    try {
      const ms = Number((await eth.getBlockByNumber(BigInt(n)))?.timestamp ?? 0n) * 1000;
      if (ms > 0 && ms <= Date.now()) times.set(n, ms);
    } catch {
      // Undated for now: a later refresh asks again.
    }
  });
  for (const t of s.transfers) if (t.time === undefined && times.has(t.blockNumber)) t.time = times.get(t.blockNumber)!;
}

export class TokenScanner {
  constructor(private readonly local: StorageArea) {}

  async get(networkId: string, accountId: string): Promise<ScanState> {
    const key = tokenScanKey(networkId, accountId);
    return ((await this.local.get([key]))[key] as ScanState | undefined) ?? emptyState();
  }

  /**
   * Reads what is new since the last scan (up to the node's latest executed block), then older
   * blocks, RANGES_PER_REFRESH ranges in all. A range the node refuses is halved; a failure ends
   * the scan where it got to, kept with its reason. One scan per account at a time.
   */
  refresh(networkId: string, accountId: string, eth: EthApi, account: string, listedTokens: readonly string[] = []): Promise<ScanState> {
    const key = tokenScanKey(networkId, accountId);
    const listed = new Set(listedTokens.map((a) => a.toLowerCase()));
    return oneAtATime(key, async () => {
      const s = await this.get(networkId, accountId);
      let head: bigint | undefined;
      try {
        head = await eth.blockNumber();
        // No block at the head given: a made-up head would mark blocks read before they exist.
        if (BigInt(s.toBlock) < head && !(await eth.getBlockByNumber(head))) throw new WalletError('node-response', `the node gave no block ${head}, its own latest`);
      } catch (e) {
        // Nothing is read and nothing is stored: what earlier scans found is shown, with why (and, behind, the head given).
        const error = e instanceof Error ? e.message.slice(0, 200) : 'the node could not give its latest block';
        return { ...s, ...(head !== undefined ? { head: head.toString() } : {}), error, errorCode: (e as WalletError | undefined)?.code };
      }
      s.head = head.toString();
      // Blocks past the head are not there yet (a head given before was a lie): read once they are.
      if (BigInt(s.toBlock) > head) s.toBlock = s.head;
      let range = LOG_RANGE;
      let budget = RANGES_PER_REFRESH;
      delete s.error;
      /** Reads [from, to], or a part of it at the end `keep` names when the node refuses the whole; the part read, or undefined. */
      const read = async (from: bigint, to: bigint, keep: 'from' | 'to'): Promise<[bigint, bigint] | undefined> => {
        for (;;) {
          try {
            absorb(s, await logsIn(eth, account, from, to), account, listed);
            return [from, to];
          } catch (e) {
            // More logs than an answer the wallet reads (someone flooding the account with events):
            // halved as a refused range is, and at the smallest, passed by (said: `flooded`) rather
            // than stopping every later scan there.
            const flooded = e instanceof AnswerTooLargeError || (e instanceof RpcError && TOO_MANY_LOGS.test(e.rpcMessage));
            if (flooded && to - from + 1n <= MIN_RANGE) {
              s.skipped = [...(s.skipped ?? []), `${from}-${to}`].slice(-8);
              return [from, to];
            }
            if (!(e instanceof RpcError || flooded) || to - from + 1n <= MIN_RANGE) {
              s.error = e instanceof Error ? e.message.slice(0, 200) : 'the node could not read the logs';
              s.errorCode = (e as WalletError | undefined)?.code;
              return undefined;
            }
            range = (to - from + 1n) / 2n;
            if (keep === 'from') to = from + range - 1n;
            else from = to - range + 1n;
          }
        }
      };
      if (BigInt(s.toBlock) < BigInt(s.fromBlock)) {
        s.fromBlock = (head + 1n).toString();
        s.toBlock = head.toString();
      }
      // New blocks first, oldest of them first, so what is kept always joins up with what was read.
      while (budget-- > 0 && BigInt(s.toBlock) < head) {
        const from = BigInt(s.toBlock) + 1n;
        const done = await read(from, from + range - 1n < head ? from + range - 1n : head, 'from');
        if (!done) break;
        s.toBlock = done[1].toString();
      }
      if (BigInt(s.fromBlock) > BigInt(s.toBlock)) s.fromBlock = (BigInt(s.toBlock) + 1n).toString();
      while (!s.error && budget-- > 0 && BigInt(s.fromBlock) > 0n) {
        const to = BigInt(s.fromBlock) - 1n;
        const done = await read(to - range + 1n > 0n ? to - range + 1n : 0n, to, 'to');
        if (!done) break;
        s.fromBlock = done[0].toString();
      }
      await date(s, eth);
      s.updatedAt = Date.now();
      await this.local.set({ [key]: s });
      return s;
    });
  }

  /**
   * Forgets approvals the chain confirms are 0 now (they list nothing and would take the place of
   * others): each only as it was read, so a newer approval a scan found meanwhile stays.
   */
  dropApprovals(networkId: string, accountId: string, gone: readonly Pick<ScannedApproval, 'token' | 'spender' | 'kind' | 'blockNumber' | 'logIndex'>[]): Promise<void> {
    if (gone.length === 0) return Promise.resolve();
    const key = tokenScanKey(networkId, accountId);
    const id = (a: Pick<ScannedApproval, 'token' | 'spender' | 'kind' | 'blockNumber' | 'logIndex'>): string => `${a.token.toLowerCase()}:${a.spender.toLowerCase()}:${a.kind}:${a.blockNumber}:${a.logIndex}`;
    const drop = new Set(gone.map(id));
    return oneAtATime(key, async () => {
      const s = await this.get(networkId, accountId);
      s.approvals = s.approvals.filter((a) => !drop.has(id(a)));
      await this.local.set({ [key]: s });
    });
  }
}
