// Signed sends the node has not yet decided on. A send's signed bytes are kept here from before
// they are sent until the node accepts or rejects them, so an answer lost on the way (an error
// from a load balancer that forwarded the tx anyway, a timeout, a node that swallowed it) never
// turns into a second payment: the wallet asks about the tx ID it signed, and what it sends again
// is the same bytes — the same tx, which can be accepted at most once.
import { fromHex, toHex } from '../core/bytes.js';
import type { WalletEngine } from '../core/engine.js';
import { NodeUnreachableError, TimeoutError, WalletError } from '../core/errors.js';
import type { ChainAlias } from '../core/node.js';
import type { StorageArea } from './storage.js';

export interface OutboxEntry {
  chain: ChainAlias;
  txID: string;
  signedHex: string;
  createdAt: number;
  /** How often the same bytes were sent again after the node did not know them. */
  resends: number;
}

/** At most this many resends of a tx the node keeps forgetting; it then stays "checking". */
const MAX_RESENDS = 20;
/** After an error from issueTx, how long the node gets to show it has the tx after all. */
export const ISSUE_ERROR_GRACE_MS = 10_000;

/** The undecided sends of one account on one network, in one storage key. */
export class Outbox {
  constructor(
    private readonly area: StorageArea,
    readonly key: string,
  ) {}

  async list(): Promise<OutboxEntry[]> {
    const value = (await this.area.get([this.key]))[this.key];
    if (value === undefined) return [];
    if (!Array.isArray(value)) throw new WalletError('storage-corrupt', `the outbox ${this.key} is not a list`);
    return value as OutboxEntry[];
  }

  async put(entry: OutboxEntry): Promise<void> {
    const others = (await this.list()).filter((e) => e.txID !== entry.txID);
    await this.area.set({ [this.key]: [...others, entry] });
  }

  async remove(txID: string): Promise<void> {
    const all = await this.list();
    const rest = all.filter((e) => e.txID !== txID);
    if (rest.length !== all.length) await this.area.set({ [this.key]: rest });
  }
}

export function outboxEntry(chain: ChainAlias, txID: string, signedBytes: Uint8Array): OutboxEntry {
  return { chain, txID, signedHex: toHex(signedBytes), createdAt: Date.now(), resends: 0 };
}

/**
 * Sends an outbox entry. An error from the node is not taken at its word: the node is asked about
 * the tx for `graceMs`. 'sent': the node has it (or what it spends is gone: something took it, so
 * it is followed, never replaced). 'checking': the node could not be asked; the entry stays and a
 * later refresh looks again. A refusal with nothing of the tx anywhere and its inputs unspent is
 * a real refusal: the entry is removed and WalletError 'tx-refused' thrown (nothing was paid).
 */
export async function sendOnce(engine: WalletEngine, outbox: Outbox, entry: OutboxEntry, graceMs = ISSUE_ERROR_GRACE_MS): Promise<'sent' | 'checking'> {
  const bytes = fromHex(entry.signedHex);
  let refusal: unknown;
  try {
    await engine.submit(entry.chain, bytes, entry.txID);
    return 'sent';
  } catch (e) {
    refusal = e;
  }
  const deadline = Date.now() + graceMs;
  for (;;) {
    let fate: Awaited<ReturnType<WalletEngine['txFate']>> | undefined;
    try {
      fate = await engine.txFate(entry.chain, entry.txID, bytes);
    } catch (e) {
      if (!(e instanceof NodeUnreachableError || e instanceof TimeoutError)) throw e;
    }
    if (fate === 'failed') break;
    if (fate !== undefined && fate !== 'not-seen') return 'sent';
    // A C-Chain atomic tx is "not found" until executed, and the node takes a resend of one it
    // already holds without error: a resend that goes through is the proof it was not refused.
    if (fate === 'not-seen' && entry.chain === 'C' && (await engine.submit(entry.chain, bytes, entry.txID).then(() => true, () => false))) return 'sent';
    if (Date.now() >= deadline) {
      if (fate === undefined) return 'checking';
      break;
    }
    await new Promise((r) => setTimeout(r, Math.min(500, Math.max(1, deadline - Date.now()))));
  }
  await outbox.remove(entry.txID);
  const why = refusal instanceof Error ? refusal.message : String(refusal);
  throw new WalletError('tx-refused', `the ${entry.chain}-Chain node refused the transaction and has no trace of it: ${why}`);
}

export type Settled = 'accepted' | 'failed';

/**
 * Asks the node about every undecided send: decided ones leave the outbox and are returned; a tx
 * the node does not know while what it spends is still unspent (a swallowed send) is sent again,
 * as the same bytes. Each entry is looked at on its own: one the node cannot answer for does not
 * hold up the others.
 */
export async function settleOutbox(engine: WalletEngine, outbox: Outbox): Promise<Map<string, Settled>> {
  const settled = new Map<string, Settled>();
  for (const entry of await outbox.list()) {
    try {
      const fate = await engine.txFate(entry.chain, entry.txID, fromHex(entry.signedHex));
      if (fate === 'accepted' || fate === 'failed' || fate === 'inputs-spent') {
        settled.set(entry.txID, fate === 'accepted' ? 'accepted' : 'failed');
        await outbox.remove(entry.txID);
      } else if (fate === 'not-seen' && entry.resends < MAX_RESENDS) {
        await outbox.put({ ...entry, resends: entry.resends + 1 });
        await engine.submit(entry.chain, fromHex(entry.signedHex), entry.txID).catch(() => undefined);
      }
    } catch {
      // The node could not answer for this one now: the next refresh asks again.
    }
  }
  return settled;
}
