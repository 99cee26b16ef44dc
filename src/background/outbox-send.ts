// Sending an outbox entry once (src/background/outbox.ts): an error from the node is not taken at
// its word, and a refusal is told with what takes the refused tx's place.
import { fromHex } from '../core/bytes.js';
import { isEvmHash, type TxFate, type WalletEngine } from '../core/engine.js';
import { nodeWords, WalletError } from '../core/errors.js';
import { keptInTheWay, nextTakesItsPlace, type Outbox, type OutboxEntry, watchedOnly } from './outbox.js';
import { whatTakesItsPlace } from './refused.js';

/** What a refusal of a tx kept only to be watched (watchedOnly in src/background/outbox.ts) says of what comes next. */
export const WATCHED_REFUSAL = 'No send of yours can take its place (none can spend what it spends): it could still go through, so do not pay the same again another way. If it does within a week, Activity shows it';

/** After an error from issueTx, how long the node gets to show it has the tx after all. */
export const ISSUE_ERROR_GRACE_MS = 10_000;

/**
 * Sends an outbox entry. An error from the node is not taken at its word: the tx's fate is asked
 * for `graceMs`. 'sent': the node has it, or what it spends is gone (it may have gone through, so
 * it is followed, never replaced). 'checking': no clear answer (the node unreachable, or answers
 * that do not hold up); the entry stays and a later refresh looks again. Only a tx the node does
 * not know, or calls failed, while everything it spends is still unspent is a refusal: WalletError
 * 'tx-refused' (nothing was paid). The entry is then kept, voided, so that the next send takes its
 * place (X, P, EVM: src/background/refused.ts); a site's tx that no send can take the place of
 * is kept only to be watched (watchedOnly); a refused import, which is neither, is removed.
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
  let fate: TxFate | undefined;
  for (;;) {
    fate = await engine.txFate(entry.chain, entry.txID, bytes).catch(() => undefined);
    if (fate === 'failed') break;
    if (fate !== undefined && fate !== 'not-seen') return 'sent';
    // A C-Chain atomic tx is "not found" until executed, and the node takes a resend of one it
    // already holds without error: a resend that goes through is the proof it was not refused.
    if (fate === 'not-seen' && entry.chain === 'C' && (await engine.submit(entry.chain, bytes, entry.txID).then(() => true, () => false))) return 'sent';
    if (Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, Math.min(500, Math.max(1, deadline - Date.now()))));
  }
  if (fate === undefined) return 'checking';
  const why = nodeWords(refusal instanceof Error ? refusal.message : String(refusal));
  if (isEvmHash(entry.txID) || keptInTheWay(entry)) {
    // Kept (src/background/refused.ts): the next send on this chain conflicts with it. A speed-up
    // or cancel (item.replaces) keeps its original's nonce: that one still waits, nothing takes its place.
    // An import (C-Chain atomic, or paid from what it imports) is not, nor a tx without fee
    // inputs (a network without fees): no send could take its place.
    const next = isEvmHash(entry.txID) ? (entry.item.replaces ? 'the transaction it was to replace still waits' : nextTakesItsPlace(entry.chain)) : whatTakesItsPlace(entry, engine.ctx.avaxAssetID);
    await outbox.voidEntry(entry);
    throw new WalletError('tx-refused', `the ${entry.chain}-Chain node refused the transaction ${why}; nothing was paid, and ${next}`);
  }
  if (watchedOnly(entry)) {
    // A site's tx spending only what no send of the user's can spend: kept, in nobody's way, and
    // watched, since whoever holds its bytes could still send them.
    await outbox.voidEntry(entry);
    throw new WalletError('tx-refused', `the ${entry.chain}-Chain node refused the transaction ${why}; nothing was paid. ${WATCHED_REFUSAL}`);
  }
  await outbox.remove(entry.txID);
  throw new WalletError('tx-refused', `the ${entry.chain}-Chain node refused the transaction ${why}, and nothing it spends was spent`);
}
