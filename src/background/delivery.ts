// How every signed tx leaves the wallet, the wallet's own and the ones sites asked for: checked
// against refused sends on its chain (src/background/refused.ts), written to the outbox and to
// Activity before the node sees it, sent once, and followed to a decision its inputs (or, on the
// C-Chain, its nonce) confirm. No answer, lost answer or lie from the node turns into a second payment.
import { type Bytes, fromHex, toHex } from '../core/bytes.js';
import type { UnsignedTx } from '../core/codec/types.js';
import { isEvmHash, type Issued, type WalletEngine } from '../core/engine.js';
import { nodeWords, WalletError } from '../core/errors.js';
import type { SelectableInput } from '../core/external-tx.js';
import { avaxBurned } from '../core/fees.js';
import { type ChainAlias, CHAIN_OF_VM } from '../core/node.js';
import { LAST_CHANGE_INDEX } from '../core/scan.js';
import { decodeChainTx } from '../core/tx-fate.js';
import type { BuiltTx } from '../core/tx/built.js';
import { evmTxNonce } from '../core/tx/c.js';
import type { ActivityItem } from '../shared/messages.js';
import { type AccountCache, addActivity, decideItem } from './account-cache.js';
import type { AccountContext, AccountEngines } from './account-engines.js';
import { isMovesExport, keptInTheWay, nextTakesItsPlace, type Outbox, type OutboxEntry, outboxEntry, spendsOwnFunds, waitingEntry } from './outbox.js';
import { LINE_WAITS, NonceLine } from './nonce-line.js';
import { sendOnce } from './outbox-send.js';
import { evmFeeCharged } from './evm-fee.js';
import { checkNotMoving, conflictsOf, exportSpends, replacedByTx, settleRefused, spendsOf, successors, withSuccessorsAsked } from './refused.js';
import type { Preset } from './services/networks.js';
import { tellKeptExport, type TransferRecord } from './transfer-journal.js';

/** A site's request acted on after the wallet was switched to another network than the one it was approved on. */
export const switchedSinceApproval = (): WalletError => new WalletError('stale-approval', 'the wallet was switched to another network since this was approved; nothing was sent: ask again');

type Target = Pick<AccountContext, 'engine' | 'preset' | 'account'>;
/** `selectable`: of a site's X/P tx, the inputs a send could select too (OutboxEntry.selectable). */
type Signed = { chain: ChainAlias; txID: string; signedBytes: Bytes; selectable?: readonly SelectableInput[] };

export class Delivery {
  /** The account's C-Chain nonce line, which its EVM sends and C-Chain exports take turns in. */
  readonly nonceLine: NonceLine;

  constructor(
    private readonly engines: AccountEngines,
    private readonly log?: (line: string) => void,
  ) {
    this.nonceLine = new NonceLine(engines);
  }

  private get caches() {
    return this.engines.caches;
  }

  /**
   * Signs, issues, waits, and records the tx in the activity list; bumps the change address. A tx
   * whose fee is above `maxFee` (nAVAX, what the user approved) is refused before it is signed.
   * `ctx`: the account and network the tx was built with (the caller's one read of the selection),
   * so a switch while it was built never sends it from, or records it under, another.
   * Returns with the status the node's answer left it in ('accepted', or 'pending' if undecided).
   * `signed`: run with the tx ID before anything is sent (its failure sends nothing).
   */
  async issue(ctx: AccountContext, kind: ActivityItem['kind'], built: BuiltTx, maxFee: string, extra: Partial<ActivityItem> = {}, signed?: (txID: string) => Promise<void>): Promise<Issued & { status: ActivityItem['status'] }> {
    if (built.fee > BigInt(maxFee)) throw new WalletError('fee-above-approved', `the fee of ${built.fee} nAVAX is above the approved maximum of ${maxFee} nAVAX`);
    const { engine, account, cache } = ctx;
    const chain = CHAIN_OF_VM[built.tx.vm];
    const { replaced, races } = await this.beforeSending(ctx, chain, built.tx);
    const issued = engine.sign(built);
    await signed?.(issued.txID);
    const item: ActivityItem = { txID: issued.txID, chain: issued.chain, kind, status: 'pending', fee: issued.fee.toString(), createdAt: Date.now(), ...extra, ...races };
    // The address indices this engine used (scanned, and the change address if it got funds: the
    // next one is fresh up to LAST_CHANGE_INDEX, within a restore's reach).
    const indices = { receiveNext: cache.receiveNext, changeNext: cache.changeNext + (account.kind === 'hd' && cache.changeNext < LAST_CHANGE_INDEX && usesChange(built, engine) ? 1 : 0) };
    const done = await this.deliver(ctx, issued, item, indices, true, replaced);
    // 'pending' when the node has not decided within the wait (the refreshes follow it from the outbox).
    return { ...issued, status: done.status };
  }

  /**
   * Sends a signed tx so that no answer, lost answer or lie ever turns into a second payment: the
   * signed bytes go to the outbox and the pending item to Activity before anything reaches the
   * node; then it is sent once (sendOnce) and followed to a decision its inputs (or, on the
   * C-Chain, its nonce) confirm. Throws 'tx-refused' (nothing listed) or 'tx-failed'.
   */
  async deliver(
    { engine, preset, account }: Target,
    signed: Signed,
    item: ActivityItem,
    indices: { receiveNext: number; changeNext: number } = { receiveNext: 0, changeNext: 0 },
    follow = true,
    replaces: readonly string[] = [],
  ): Promise<ActivityItem> {
    const record = (c: AccountCache): void => {
      const known = c.activity.find((a) => a.txID === item.txID);
      // A refresh meanwhile may already know the outcome; a timed-out wait must not undo it.
      if (known) {
        if (item.fee !== undefined) known.fee = item.fee;
        decideItem(known, item.status === 'pending' ? known.status : item.status, item.checking);
      } else addActivity(c, { ...item });
      c.receiveNext = Math.max(c.receiveNext, indices.receiveNext);
      c.changeNext = Math.max(c.changeNext, indices.changeNext);
    };
    // Before anything can reach the node: the signed bytes (kept until the node decides, so an
    // unclear answer never leads to a new tx), then the pending item and the change index.
    const outbox = await this.engines.outbox(preset, account.id);
    const entry = outboxEntry(signed.chain, signed.txID, signed.signedBytes, item, signed.selectable);
    // With it, the refused sends it takes the place of are marked, in the same write. Signed before
    // a lock (a site's tx can wait its turn), it is not written, nor sent: a restore's count of the
    // sends in its way, made once locked, is the last word.
    await outbox.put(entry, replaces, () => this.engines.keyring.assertUnlocked());
    await this.caches.update(preset.id, account.id, record);
    let sent: 'sent' | 'checking';
    try {
      sent = await sendOnce(engine, outbox, entry);
    } catch (e) {
      // A refusal with everything it spends unspent: nothing happened, so nothing is listed.
      if (e instanceof WalletError && e.code === 'tx-refused') await this.caches.update(preset.id, account.id, (c) => void (c.activity = c.activity.filter((a) => a.txID !== item.txID)));
      throw e;
    }
    if (sent === 'checking') {
      item.checking = true;
      await this.caches.update(preset.id, account.id, record);
      return item;
    }
    // Not followed here: the refreshes settle it from the outbox.
    if (!follow) return item;
    const outcome = await engine.node.waitForTx(signed.chain, signed.txID, engine.waitOptions).catch(() => null);
    // The node's word is checked against what the tx spends: a failure stands only while that is
    // unspent, an acceptance only once it is spent.
    const fate = outcome === null ? undefined : await engine.txFate(signed.chain, signed.txID, signed.signedBytes).catch(() => undefined);
    let inTheWay = false;
    if (fate === 'accepted' || fate === 'failed') {
      item.status = fate;
      // A failure is the node's word only: an X/P one stays, voided, for the next send to take its place.
      inTheWay = fate === 'failed' && keptInTheWay(entry);
      if (inTheWay) await outbox.update(signed.txID, (e) => ({ ...e, voided: true }));
      else await outbox.remove(signed.txID);
      // An EVM tx's fee is what its receipt charged, not the most it could have.
      if (outcome?.receipt && item.fee !== undefined) item.fee = (await evmFeeCharged(engine, signed.txID, outcome.receipt, BigInt(item.fee))).toString();
    } else if (fate === 'inputs-spent') item.checking = true;
    await this.caches.update(preset.id, account.id, record);
    if (item.status === 'failed') {
      const next = inTheWay ? `; nothing was paid, and ${nextTakesItsPlace(signed.chain)}` : '';
      throw new WalletError('tx-failed', `the ${signed.chain}-Chain did not accept the transaction ${nodeWords(outcome?.reason ?? outcome?.status ?? '')}${next}`);
    }
    return item;
  }

  // ---- C-Chain EVM nonces ----

  /**
   * The wallet's own C-Chain EVM tx (a send, a token send, a revoke): its nonce from the account's
   * one nonce line (evmNonce over the outbox, under the EVM lock), its fees quoted now and refused
   * unsigned above `maxFeeWei`, then delivered and followed as every send. `fee`: wei paid.
   * `opened`: the account and network the caller built the call on (a token's call data), so a
   * network switched meanwhile never signs it for another chain.
   */
  async sendEvm(tx: { to: string; valueWei: bigint; data?: string }, maxFeeWei: bigint, item: Omit<ActivityItem, 'txID' | 'chain' | 'status' | 'createdAt'>, opened?: AccountContext): Promise<{ txHash: string; fee: string }> {
    const ctx = opened ?? (await this.engines.open());
    return this.nonceLine.withEvmLock(ctx.account.id, async () => {
      const live = await this.settleRefusedHere(ctx, 'C', true);
      const own = await this.nonceLine.ownEvmNonces(ctx);
      const signed = await ctx.engine.signC(tx.to, tx.valueWei, tx.data, { maxFeeWei, own });
      const replaced = conflictsOf(live, 'C', { nonce: evmTxNonce(signed.signedBytes) });
      // Listed with the most it can cost until its receipt says what it did.
      const full: ActivityItem = { ...item, txID: signed.txID, chain: 'C', status: 'pending', fee: signed.maxFeeWei.toString(), createdAt: Date.now() };
      // To the account's own address (the recipient, for a token send): only the fee leaves.
      if (item.kind === 'send' && item.to?.toLowerCase() === ctx.engine.evmAddress.toLowerCase()) full.toSelf = true;
      const done = await this.deliver(ctx, { chain: 'C', ...signed }, full, undefined, true, replaced);
      return { txHash: signed.txID, fee: done.fee! };
    });
  }

  /**
   * Sends `signed`, which takes the place of the pending EVM tx `replaces` (same nonce, higher
   * fees: a speed-up or a cancel), under the EVM lock. Both stay in the outbox, each marked with
   * the other, until one runs; the other is then "replaced" (src/background/outbox-settle.ts). Not followed here.
   */
  async sendReplacement(ctx: AccountContext, replaces: string, build: (old: OutboxEntry) => Promise<{ signed: Signed; item: ActivityItem }>): Promise<string> {
    return this.nonceLine.withEvmLock(ctx.account.id, async () => {
      const outbox = await this.engines.outbox(ctx.preset, ctx.account.id);
      const old = waitingEntry((await outbox.list()).filter((e) => !e.voided), replaces);
      const fate = await ctx.engine.txFate('C', old.txID, fromHex(old.signedHex));
      if (fate === 'accepted' || fate === 'inputs-spent') throw new WalletError('not-pending', 'that transaction has already gone through (or another one took its place); nothing was sent');
      const { signed, item } = await build(old);
      if (evmTxNonce(signed.signedBytes) !== evmTxNonce(fromHex(old.signedHex))) throw new Error('a replacement must keep the nonce');
      await this.deliver(ctx, signed, { ...item, replaces: old.txID }, undefined, false, [old.txID]);
      return signed.txID;
    });
  }

  /** The account's cross-chain moves (their journal). */
  private async moves(preset: Preset, accountId: string): Promise<TransferRecord[]> {
    return (await this.engines.journal(preset, accountId)).list();
  }

  // ---- refused sends ----

  /**
   * Before a move's export (src/background/transfer-runner.ts) can reach the node. From X or P, as
   * before a send: a refused or kept tx on its chain that ran, or may have, stops it; and it must
   * take the place of every export kept in the way (spend one of its inputs), or it is not sent, so
   * a retried move and the first can never both run (a node hiding those inputs from the selection
   * cannot get round it). A site's refused export counts too: a user who saw it refused may move
   * the funds themselves, and the two must not both run. Then the refused sends it conflicts with, and the
   * undecided ones whose funds it spends too, are marked replaced by it, so that once it is
   * accepted they are settled instead of showing as "may have gone through"; a failure there only loses that.
   */
  async beforeExport(presetId: string, accountId: string, signed: Signed): Promise<void> {
    const spends = exportSpends(signed.chain, signed.signedBytes);
    if (signed.chain !== 'C') {
      const live = await this.settleRefusedHere(await this.engines.open(accountId, presetId), signed.chain, false);
      conflictsOf(live.filter((e) => e.item.kind === 'export'), signed.chain, spends);
    }
    const outbox = await this.outboxOf(presetId, accountId);
    const entries = await outbox.list();
    try {
      const replaced = replacedByTx(entries, signed.chain, spends);
      if (replaced.length > 0) await outbox.markReplaced(replaced, signed.txID);
    } catch {
      // Damaged storage: the refused send stays unmarked, and is followed as before.
    }
  }

  /**
   * A retry built on the same funds can be the kept export itself (the same bytes): once the retry
   * has journaled it, it is no longer in the way of anything (TransferJournal.put drops the old move).
   */
  async exportJournaled(presetId: string, accountId: string, txID: string): Promise<void> {
    const outbox = await this.outboxOf(presetId, accountId);
    if ((await outbox.list()).some((e) => e.txID === txID)) await outbox.remove(txID);
  }

  private async outboxOf(presetId: string, accountId: string): Promise<Outbox> {
    return this.engines.outbox((await this.engines.selected(accountId, presetId)).preset, accountId);
  }

  /**
   * A move's X/P export the node took and then called failed (RunnerHooks.exportFailed): kept,
   * voided, as a refused send is, so the next send on its chain spends one of its inputs.
   */
  async keepFailedExport(presetId: string, accountId: string, kept: Signed & { item: ActivityItem }): Promise<boolean> {
    const entry = outboxEntry(kept.chain, kept.txID, kept.signedBytes, kept.item);
    if (!keptInTheWay(entry)) return false;
    await (await this.outboxOf(presetId, accountId)).put({ ...entry, voided: true });
    return true;
  }

  /** tellKeptExport, in the account's journal on `preset`'s chains. */
  keptExportSeen(preset: Preset, accountId: string, txID: string, fate: 'accepted' | 'unclear' | 'replaced'): Promise<void> {
    return tellKeptExport(this.engines.journal(preset, accountId), txID, fate, this.log);
  }

  /** settleRefused (src/background/refused.ts) for this account, listing what it finds. */
  async settleRefusedHere({ engine, preset, account }: Target, chain: ChainAlias, evm: boolean): Promise<OutboxEntry[]> {
    const { activity } = await this.caches.get(preset.id, account.id);
    const outbox = await this.engines.outbox(preset, account.id);
    const successor = await withSuccessorsAsked(engine, await outbox.list(), successors(activity, await this.moves(preset, account.id).catch(() => [])));
    const list = async (item: ActivityItem, e: OutboxEntry) => {
      // A failed move's kept export that ran, or may have: its move is told (TransferJournal.keptExportSeen).
      if (isMovesExport(e)) await this.keptExportSeen(preset, account.id, item.txID, item.status === 'accepted' ? 'accepted' : 'unclear');
      await this.caches.update(preset.id, account.id, (c) => {
        const known = c.activity.find((a) => a.txID === item.txID);
        if (!known) addActivity(c, item);
        // Decided (accepted), it is no longer being checked; found unclear, it is.
        else decideItem(known, item.status, item.checking);
      });
    };
    const replaced = async (e: OutboxEntry) => {
      if (isMovesExport(e)) await this.keptExportSeen(preset, account.id, e.txID, 'replaced');
      // One Activity lists (taken back, or refused and found "may have gone through"): its place taken, it never ran.
      await this.caches.update(preset.id, account.id, (c) => {
        const known = c.activity.find((a) => a.txID === e.txID && a.status === 'pending');
        if (known) decideItem(known, 'replaced');
      });
    };
    return settleRefused(engine, outbox, chain, evm, list, successor, replaced);
  }

  /**
   * Before an X/P (or C-atomic) tx is signed: what became of refused sends on its chain (one that
   * ran stops this one), and which of them it replaces (conflictsOf); none for an import (C-atomic,
   * or paid from what it imports), which spends none of its chain's own funds, so it can neither
   * take a refused send's place nor repeat one. With them, the undecided txs whose funds it spends
   * too (racedBy), and the refused or taken-back ones the node holds, are `replaced`: once one of the
   * two is accepted, the other reads failed, not "may have gone through". `races`: the item's
   * `replaces` (the first of those Activity lists), so the pair is settled
   * even after either left the outbox (a tx raced by several, or racing several, may stay unclear:
   * the careful side). A move's export spending the same funds, undecided, stops it (checkNotMoving).
   */
  private async beforeSending(ctx: Target, chain: ChainAlias, unsigned: UnsignedTx): Promise<{ replaced: string[]; races: Pick<ActivityItem, 'replaces'> }> {
    const tx = spendsOf(unsigned);
    checkNotMoving(await this.engines.journal(ctx.preset, ctx.account.id).then((j) => j.unfinished()).catch(() => []), tx);
    const live = spendsOwnFunds(unsigned) ? conflictsOf(await this.settleRefusedHere(ctx, chain, false), chain, tx) : [];
    // And every refused or taken-back one it spends an input of that the node holds (no longer
    // live): once either of the two is accepted, the other is decided, never left "being checked".
    const entries = await (await this.engines.outbox(ctx.preset, ctx.account.id)).list();
    const raced = replacedByTx(entries, chain, tx);
    // Named beside it in Activity: one Activity lists (undecided, or taken back), never a refused one.
    const listed = raced.filter((txID) => entries.some((e) => e.txID === txID && (!e.voided || e.takenBack)));
    return { replaced: [...new Set([...live, ...raced])], races: listed.length > 0 ? { replaces: listed[0] } : {} };
  }

  // ---- site txs (src/background/provider.ts) ----

  /**
   * Before the signed bytes of a site's X/P tx go back to the site (which may send them itself):
   * the checks a send of the wallet's own gets (a refused send that ran stops it; one that could
   * still run must be replaced by it). `txID`, once fully signed: the kept txs it replaces are
   * marked so (the site may send it itself), and decided once the node shows it ran.
   */
  async checkSiteSigning(accountId: string, chain: ChainAlias, signedBytes: Bytes, networkId: string, txID?: string): Promise<void> {
    if (chain === 'C') return;
    const ctx = await this.approvedOn(accountId, networkId);
    const { replaced } = await this.beforeSending(ctx, chain, decodeChainTx(chain, signedBytes));
    // A refused one signed again (the same bytes: signing is deterministic) is not marked its own
    // successor (Outbox.markReplaced): sent by the site, it is listed once it runs.
    if (txID !== undefined && replaced.length > 0) await (await this.engines.outbox(ctx.preset, ctx.account.id)).markReplaced(replaced, txID);
  }

  /** The account on the selected network, when it is still `networkId` (the one a site's request was approved on). */
  private async approvedOn(accountId: string, networkId?: string): Promise<AccountContext> {
    const ctx = await this.engines.open(accountId);
    if (networkId !== undefined && ctx.preset.id !== networkId) throw switchedSinceApproval();
    return ctx;
  }

  /**
   * Sends a tx a site had approved exactly as the wallet sends its own (outbox first, the node's
   * answer checked, never a second tx for one approval); returns once sent, not once accepted.
   * `networkId`: the network it was approved on; on another (switched since), nothing is sent.
   */
  async sendSiteTx(accountId: string, signed: Signed, item: ActivityItem, networkId?: string, beforeSending?: (networkId: string) => Promise<void>): Promise<void> {
    const ctx = await this.approvedOn(accountId, networkId);
    if (!isEvmHash(signed.txID)) {
      const tx = decodeChainTx(signed.chain, signed.signedBytes);
      const send = async () => {
        const { replaced, races } = await this.beforeSending(ctx, signed.chain, tx);
        // Locked meanwhile: deliver would refuse it, so no stake is recorded for it either.
        this.engines.keyring.assertUnlocked();
        await beforeSending?.(ctx.preset.id);
        await this.deliver(ctx, signed, { ...item, ...races }, undefined, false, replaced);
      };
      if (tx.vm !== 'evm' || tx.kind !== 'ExportTx') return send();
      // A C-Chain export spends a nonce of the account's line: sent, as a move's, only while no other
      // tx of the line waits; and never one paying less than the fee of now, which would wait for
      // it to fall, every later C-Chain tx of the account queued behind it.
      return this.nonceLine.withEvmLock(accountId, async () => {
        // The same export again (the same bytes, approved twice) is that waiting tx itself: sent once more, as any.
        if (!(await (await this.engines.outbox(ctx.preset, accountId)).list()).some((e) => e.txID === signed.txID)) {
          if (await this.nonceLine.lineWaits(ctx)) throw new WalletError('evm-tx-in-flight', `${LINE_WAITS}nothing was sent: ask again once it has`);
          if (await ctx.engine.atomicUnderpays(signed.signedBytes, avaxBurned(tx, ctx.engine.ctx.avaxAssetID))) {
            throw new WalletError('fee-too-low', "this export pays less than the C-Chain's fee of now: it would wait, with every later C-Chain transaction of this account behind it; nothing was sent");
          }
        }
        // A refused tx at its nonce, as for a move's export: settled once it runs, not "may have gone through".
        await this.beforeExport(ctx.preset.id, accountId, signed);
        await send();
      });
    }
    await this.nonceLine.withEvmLock(accountId, async () => {
      const live = await this.settleRefusedHere(ctx, 'C', true);
      // The nonce was chosen when the site asked; a send since then took it (or refused one freed another).
      const nonce = evmTxNonce(signed.signedBytes);
      const now = await ctx.engine.evmNonce(await this.nonceLine.ownEvmNonces(ctx));
      if (nonce !== now) throw nonceTaken(nonce, now);
      const replaced = conflictsOf(live, 'C', { nonce });
      await this.deliver(ctx, signed, item, undefined, false, replaced);
    });
  }
}

/** A site's tx approved at the nonce that was the next one then (`nonce`), which another tx of the account took since (`now`: the next one now). */
export const nonceTaken = (nonce: bigint, now: bigint): WalletError =>
  new WalletError('stale-approval', `another transaction of this account went out since this one was approved (nonce ${nonce}, now ${now}); nothing was sent: ask again`);

/** True when the tx pays change to the engine's fresh change address (so the next send needs a new one). */
function usesChange(built: BuiltTx, engine: WalletEngine): boolean {
  if (built.tx.vm === 'evm') return false;
  const change = toHex(engine.changeOwners.addresses[0]!);
  return built.tx.outputs.some((o) => o.output.kind === 'TransferOutput' && o.output.owners.addresses.some((a) => toHex(a) === change));
}
