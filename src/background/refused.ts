// Sends the node refused. A refusal is only the node's word: a node that kept the signed tx can
// still let it go later. So a refused X, P or C-Chain EVM tx stays in the outbox, "voided": never
// sent again, and every later send on its chain conflicts with it while it could still run (an
// X/P send spends its inputs too; an EVM send takes its nonce), so at most one of the two ever
// runs. It leaves the outbox only once it ran (the next send is stopped once with that news) or a
// successor that spent what it spends was accepted. One whose funds are gone unexplained, or that
// the node now holds, is listed as "may have gone through" and stops the next send once.
import { fromHex } from '../core/bytes.js';
import { utxoId } from '../core/codec/ids.js';
import type { UnsignedTx } from '../core/codec/types.js';
import { isEvmHash, type WalletEngine } from '../core/engine.js';
import { WalletError } from '../core/errors.js';
import type { ChainAlias } from '../core/node.js';
import { evmTxNonce } from '../core/tx/c.js';
import { decodeChainTx } from '../core/tx-fate.js';
import type { ActivityItem } from '../shared/messages.js';
import type { Outbox, OutboxEntry } from './outbox.js';

/** The UTXOs an X/P tx spends, by ID. */
export function inputIds(tx: UnsignedTx): string[] {
  const ids: string[] = [];
  if ('inputs' in tx) ids.push(...tx.inputs.map(utxoId));
  if ('importedInputs' in tx) ids.push(...tx.importedInputs.map(utxoId));
  return ids;
}

/**
 * The inputs of the refused X/P txs: every selection takes those of its asset (EngineOptions.
 * spendFirst), so the next send shares an input with each. An entry that cannot be read (damaged
 * storage) is skipped and reported through `skip`.
 */
export function refusedInputs(entries: readonly OutboxEntry[], skip: (e: OutboxEntry, error: unknown) => void): Set<string> {
  const ids = new Set<string>();
  for (const e of entries) {
    if (!e.voided || isEvmHash(e.txID) || e.chain === 'C') continue;
    try {
      for (const id of inputIds(decodeChainTx(e.chain, fromHex(e.signedHex)))) ids.add(id);
    } catch (error) {
      skip(e, error);
    }
  }
  return ids;
}

const onChain = (e: OutboxEntry, chain: ChainAlias, evm: boolean): boolean => e.voided === true && e.chain === chain && isEvmHash(e.txID) === evm;

/**
 * Before a new send on `chain` (EVM ones when `evm`): what became of its refused txs. Lists what
 * it finds (`list`); stops the send ('earlier-send-went-through', 'earlier-send-unclear') when one
 * ran or may have; returns those that could still run, for the new send to conflict with.
 * `isAccepted`: whether a tx of this wallet is known accepted (a successor).
 */
export async function settleRefused(
  engine: WalletEngine,
  outbox: Outbox,
  chain: ChainAlias,
  evm: boolean,
  list: (item: ActivityItem) => Promise<void>,
  isAccepted: (txID: string) => boolean,
): Promise<OutboxEntry[]> {
  const ran: string[] = [];
  const unclear: string[] = [];
  const live: OutboxEntry[] = [];
  for (const e of await outbox.list()) {
    if (!onChain(e, chain, evm)) continue;
    const fate = e.ran ? 'accepted' : await engine.txFate(e.chain, e.txID, fromHex(e.signedHex));
    if (fate === 'accepted') {
      ran.push(e.txID);
      await list({ ...e.item, status: 'accepted' });
      await outbox.remove(e.txID);
    } else if (fate === 'inputs-spent' && e.replacedBy !== undefined && isAccepted(e.replacedBy)) {
      await outbox.remove(e.txID);
    } else if (fate === 'inputs-spent' || fate === 'processing') {
      if (e.surfaced) continue;
      unclear.push(e.txID);
      await list({ ...e.item, checking: true });
      await outbox.update(e.txID, (x) => ({ ...x, surfaced: true }));
    } else {
      live.push(e);
    }
  }
  if (ran.length > 0) {
    throw new WalletError('earlier-send-went-through', `a ${chain}-Chain send the node had refused went through after all (${ran.join(', ')}): nothing new was sent; look at Activity, then send again if you still mean to`);
  }
  if (unclear.length > 0) {
    throw new WalletError('earlier-send-unclear', `a ${chain}-Chain send the node had refused may have gone through after all (${unclear.join(', ')}): nothing new was sent; wait until Activity shows it decided`);
  }
  return live;
}

/**
 * The refused txs that could still run (`live`, from settleRefused) that a new tx replaces: each
 * must conflict with it (share an input; on the EVM, have its nonce), or nothing is signed.
 */
export function conflictsOf(live: readonly OutboxEntry[], chain: ChainAlias, tx: { inputs: readonly string[] } | { nonce: bigint }): string[] {
  return live.map((e) => {
    const conflicts =
      'nonce' in tx
        ? isEvmHash(e.txID) && evmTxNonce(fromHex(e.signedHex)) === tx.nonce
        : !isEvmHash(e.txID) && inputIds(decodeChainTx(chain, fromHex(e.signedHex))).some((id) => tx.inputs.includes(id));
    if (!conflicts) {
      throw new WalletError('refused-send-in-the-way', `a ${chain}-Chain send the node refused could still go through, and this one does not take its place (it spends none of the same funds): nothing was signed`);
    }
    return e.txID;
  });
}
