// What a refresh makes of the outbox (src/background/outbox.ts): each undecided send asked about,
// decided ones out, lost ones sent again as the same bytes, old ones given up, refused ones kept
// until they ran or a rival took their place.
import { fromHex } from '../core/bytes.js';
import { isEvmHash, pClock, type TxFate, type WalletEngine } from '../core/engine.js';
import { evmNonceOf, exportNonces, isMovesExport, keptInTheWay, keptWhenRefused, nonceReader, type Outbox, rivalsOf, type Successor, watchedNow } from './outbox.js';

/**
 * An undecided entry is given up after a week: its activity item stays (an X/P entry stays too,
 * voided). Never an EVM one whose nonce is unused: the node may hold it, and only it (or its
 * speed-up or cancel) can take that nonce.
 */
const EXPIRY_MS = 7 * 24 * 3600_000;

/**
 * accepted / failed: decided, out of the outbox (a refused tx that ran stays, marked, until the
 * next send is told); unclear: what it spends is gone, but not proven how (a refused one is listed
 * as such; one only watched is not settled so: watchedOnly in src/background/outbox.ts);
 * replaced: a refused tx whose inputs (nonce) its successor spent, that successor accepted: out of
 * the outbox, never listed; or an undecided one whose rival (an accepted tx of the wallet spending
 * one of its inputs, or its nonce) proves it can never run: listed failed.
 */
export type Settled = 'accepted' | 'failed' | 'unclear' | 'replaced';

/**
 * Asks the node about every undecided send: decided ones leave the outbox; a tx the node does not
 * know while what it spends is still unspent (a swallowed send) is sent again, as the same bytes;
 * one whose inputs are gone without proof of acceptance is 'unclear' (never "failed": it may have
 * gone through). Each entry is looked at on its own: one the node cannot answer for does not hold
 * up the others. `record` saves the decisions before decided entries leave the outbox. Entries
 * older than a week are given up (their activity items stay), but an EVM one whose nonce is
 * unused. Refused ones (voided, see src/background/refused.ts), and X/P ones that failed or are
 * given up (voided then), stay until they ran or an accepted rival (rivalsOf: a `successor`, the
 * tx it replaces, one at its nonce) spent what they spend (while it is a move still under way, one
 * whose funds are gone is not listed yet). One only watched (watchedOnly) is listed only once
 * it ran, never as unclear, and goes, unlisted, a week after it was signed unless it ran.
 */
export async function settleOutbox(
  engine: WalletEngine,
  outbox: Outbox,
  record: (settled: ReadonlyMap<string, Settled>) => Promise<void>,
  successor: (txID: string) => Successor,
): Promise<void> {
  const settled = new Map<string, Settled>();
  const expired: string[] = [];
  const ran: string[] = [];
  const surfaced: string[] = [];
  /** Entries that failed or are given up and stay, voided (keptWhenRefused, keptInTheWay); and those voided already. */
  const voidable = new Set<string>();
  const kept = new Set<string>();
  /** Refused ones that ran and stay: until the next send is told, or (a move's export) for this refresh. */
  const ranKept = new Set<string>();
  /** Refused ones the node holds (what they spend unspent, their nonce unused): no rival can have run. */
  const held = new Set<string>();
  for (const entry of await outbox.list()) {
    if (entry.voided) kept.add(entry.txID);
    // A site's C-Chain export: later txs of the line wait behind its nonce, and nothing replaces it
    // (no speed-up or cancel), so it is sent again for as long as it takes.
    const exporting = !isEvmHash(entry.txID) && entry.chain === 'C' && exportNonces(entry.signedHex, engine.evmAddress).length > 0;
    let fate: TxFate | undefined;
    try {
      // A taken-back one is asked anew: another engine's spent book may still note it as run.
      fate = await engine.txFate(entry.chain, entry.txID, fromHex(entry.signedHex), entry.takenBack);
      // Past its sendBefore: never sent again, so one the node does not know did not run (failed).
      // By the chain's time too, read then: a computer's clock behind it would send a change after its cycle ended.
      const late = fate === 'not-seen' && entry.item.sendBefore !== undefined && Number((await pClock(engine)).now) >= entry.item.sendBefore;
      if (entry.voided) {
        // One only watched (a site's tx no send can take the place of; not one taken back, which
        // Activity had listed as run) is let go a week after it was signed, unless it ran.
        const watched = watchedNow(entry);
        if (watched && fate !== 'accepted' && !entry.ran && Date.now() - entry.createdAt > EXPIRY_MS) expired.push(entry.txID);
        // Kept until it ran or its successor did; never sent again, and (but one only watched)
        // never given up by age. A failure is recorded (its item, if listed, says so) and changes nothing here.
        if (fate === 'failed' || late) settled.set(entry.txID, 'failed');
        else if (fate === 'accepted' && !isEvmHash(entry.txID) && entry.replacedBy !== undefined && successor(entry.replacedBy) === 'accepted') {
          // An X/P one whose place an accepted tx of the wallet took never ran, though the node says so (see settleRefused).
          settled.set(entry.txID, 'replaced');
        } else if (fate === 'accepted') {
          // Asked about again below, against rivals decided in this pass.
          settled.set(entry.txID, 'accepted');
          if (entry.takenBack) continue;
          if (!entry.ran) ran.push(entry.txID);
          // A send (a site's export too) stays until the next send is told (settleRefused); a move's
          // export (no site's record: Delivery.keepFailedExport) is told to its move (keptExportSeen).
          if (!entry.ran || !isMovesExport(entry)) ranKept.add(entry.txID);
        } else if (fate === 'inputs-spent' && entry.replacedBy !== undefined && successor(entry.replacedBy) === 'accepted') {
          settled.set(entry.txID, 'replaced');
        } else if (fate === 'inputs-spent' && entry.replacedBy !== undefined && successor(entry.replacedBy) === 'moving') {
          // Spent by the move's export (accepted before its journal says so), or by something the
          // node does not show (then the export fails): decided once the move is.
        } else if (watched) {
          // Only a run is news of it: what it spends gone without proof it ran (the site's retry,
          // signed elsewhere; or a node behind on its status) or held by the node, it is watched on
          // quietly, never "may have gone through", until its week ends.
        } else if (fate === 'inputs-spent' || fate === 'processing') {
          if (fate === 'processing') held.add(entry.txID);
          settled.set(entry.txID, 'unclear');
          if (!entry.surfaced) surfaced.push(entry.txID);
        }
        continue;
      }
      if (fate === 'accepted' || fate === 'failed') {
        settled.set(entry.txID, fate);
        if (fate === 'failed' && keptWhenRefused(entry)) voidable.add(entry.txID);
        continue;
      }
      if (fate === 'inputs-spent') settled.set(entry.txID, 'unclear');
      if (late) {
        // Lost, and never sent again: it did not run. Failed, and kept voided (keptWhenRefused) so
        // that the next send takes its place, or (one only watched) is told if it runs: anyone
        // holding its bytes could still send them.
        if (keptWhenRefused(entry)) voidable.add(entry.txID);
        settled.set(entry.txID, 'failed');
      }
      // Counted under the outbox's lock: an entry a send has just given up is not sent again.
      if (fate === 'not-seen' && !late && (await outbox.countResend(entry.txID, exporting))) {
        await engine.submit(entry.chain, fromHex(entry.signedHex), entry.txID).catch(() => undefined);
      }
    } catch {
      // The node could not answer for this one now: the next refresh asks again.
    }
    // An EVM tx or a C-Chain export only once its nonce is used (inputs-spent): until then it holds
    // that nonce, and the account's later C-Chain txs wait behind it (one whose nonce cannot be
    // read, damaged, holds none).
    const holdsNonce = isEvmHash(entry.txID) ? evmNonceOf(entry) !== undefined : exporting;
    if (!entry.voided && Date.now() - entry.createdAt > EXPIRY_MS && (fate === 'inputs-spent' || !holdsNonce)) {
      expired.push(entry.txID);
      try {
        if (keptInTheWay(entry)) voidable.add(entry.txID);
      } catch {
        // One that cannot be read (damaged) is given up as any other: it holds up no refresh.
      }
    }
  }
  // A speed-up or cancel and the tx it replaces share a nonce: once one of them ran, the other
  // (its nonce used, no receipt) is "replaced", never unclear. So is every other EVM tx of the
  // account at that nonce (a speed-up and a cancel both pressed on the original, or a refused
  // one: voided), and an X/P tx whose funds a later one spent too (racedBy in
  // src/background/refused.ts) once either ran.
  const entries = await outbox.list();
  const nonceOf = nonceReader();
  // So is a refused or taken-back X/P one the node calls accepted while a rival ran (see settleRefused).
  for (const e of entries) {
    const contested = e.voided && !isEvmHash(e.txID) && settled.get(e.txID) === 'accepted';
    if (!contested && (settled.get(e.txID) !== 'unclear' || held.has(e.txID))) continue;
    if (!rivalsOf(e, entries, nonceOf).some((r) => (r !== e.txID && settled.get(r) === 'accepted') || successor(r) === 'accepted')) continue;
    settled.set(e.txID, 'replaced');
    ranKept.delete(e.txID);
    if (ran.includes(e.txID)) ran.splice(ran.indexOf(e.txID), 1);
  }
  // Voided before Activity says failed: the next send conflicts with it from then on. What was
  // decided is recorded before the entries go: a worker that dies in between asks again.
  for (const txID of voidable) await outbox.update(txID, (e) => ({ ...e, voided: true }));
  await record(settled);
  for (const txID of ran) await outbox.update(txID, (e) => ({ ...e, ran: true }));
  for (const txID of surfaced) await outbox.update(txID, (e) => ({ ...e, surfaced: true }));
  for (const [txID, s] of settled) {
    // A failed one stays if voided (now or before); a refused one that ran stays (ranKept).
    if ((s === 'failed' && (voidable.has(txID) || kept.has(txID))) || ranKept.has(txID)) continue;
    if (s === 'accepted' || s === 'failed' || s === 'replaced') await outbox.remove(txID);
  }
  for (const txID of expired) if (!voidable.has(txID)) await outbox.remove(txID);
}
