// Cross-chain transfers that never strand funds. A move is an export on one chain and an import on
// the other; between the two the funds sit in atomic memory. The runner advances a move one step
// at a time, journaling each (transfer-journal.ts) before its effect can happen, so a worker killed
// at any point resumes from the journal: it re-sends the same bytes (same tx ID, so never a second
// export), asks the node what became of them, and finishes the import exactly once.
import { toHex, fromHex } from '../core/bytes.js';
import { utxoId } from '../core/codec/ids.js';
import { cb58Encode } from '../core/encoding.js';
import type { WalletEngine } from '../core/engine.js';
import { differentChains } from '../core/engine-moves.js';
import { checkPositive, nodeWords, TimeoutError, WalletError } from '../core/errors.js';
import type { ChainAlias } from '../core/node.js';
import type { ActivityItem } from '../shared/messages.js';
import { oneAtATime } from './storage.js';
import { type JournaledTx, type TransferJournal, type TransferRecord, transferActivity, withImportsRebuilt } from './transfer-journal.js';
import { FUNDS_NO_LONGER_SHOWN, IMPORTED_ELSEWHERE } from '../shared/messages-transfers.js';

const MAX_IMPORT_ATTEMPTS = 5;
/** How long an accepted export's funds may be missing from atomic memory (a node behind on it) before the move says another import may have taken them. */
const FUNDS_GONE_MS = 10 * 60_000;
/** Errors that leave a transfer journaled as it was, to be run again later. */
const WAITS_ITS_TURN: ReadonlySet<string> = new Set(['fee-above-approved', 'tx-processing', 'evm-tx-in-flight', 'funds-not-shown']);
/** Why an export cannot be built that no wait changes: the move fails with nothing sent. */
export const USERS_TO_CHANGE: ReadonlySet<string> = new Set(['insufficient-funds', 'validation', 'tx-too-large']);
/** Why Delivery.beforeExport stops an export before it is sent. */
const IN_THE_WAY: ReadonlySet<string> = new Set(['refused-send-in-the-way', 'earlier-send-went-through', 'earlier-send-unclear']);
/** After the node refuses a send, how long it may still turn out accepted (a resend racing the first). */
const REFUSED_GRACE_MS = 10_000;

export interface RunnerHooks {
  /** Called after every journal write and after every send; a test may throw here to play a crash. */
  checkpoint?(point: string, record: TransferRecord): void | Promise<void>;
  /** A run of `record` in resumeAll stopped on `error`; it is run again later. */
  stopped?(record: TransferRecord, error: unknown): void;
  /**
   * A move's export, signed, before it is journaled (so before it can reach the node): stops it
   * (WalletError, see IN_THE_WAY) or marks the refused sends it takes the place of (Delivery.beforeExport).
   */
  exportSigned?(signed: { chain: ChainAlias; txID: string; signedBytes: Uint8Array }): Promise<void>;
  /** A move's export is journaled: a failed move's export kept in the way that is the same tx is this move's now (Delivery.exportJournaled). */
  exportJournaled?(txID: string): Promise<void>;
  /**
   * A move's X/P export the node took and then called failed: its word only, so the export is kept
   * (voided) for the next send on its chain to spend one of its inputs; at most one of the two runs
   * (Delivery.keepFailedExport); whether it was kept. Throws if it cannot be kept: the move is then
   * not marked failed.
   */
  exportFailed?(kept: { chain: ChainAlias; txID: string; signedBytes: Uint8Array; item: ActivityItem }): Promise<boolean>;
  /**
   * Runs the signing of a C-Chain export in the account's one EVM nonce line (NonceLine.inNonceLine):
   * its nonce is one the wallet's EVM sends also take, so the two are never chosen at once.
   */
  evmLine?<T>(run: () => Promise<T>): Promise<T>;
}

export class TransferRunner {
  constructor(
    private readonly engine: WalletEngine,
    private readonly journal: TransferJournal,
    private readonly hooks: RunnerHooks = {},
  ) {}

  /** Journals a new move, then runs it to the end. `maxFee`: see {@link begin}. */
  async start(from: ChainAlias, to: ChainAlias, amount: bigint, maxFee?: bigint, maxExportFee?: bigint): Promise<TransferRecord> {
    return this.run(await this.begin(from, to, amount, maxFee, maxExportFee));
  }

  /**
   * Journals a new move without running it (the caller runs it, e.g. without waiting). `maxFee`
   * (nAVAX) bounds the export and import fees together: nothing costlier is ever signed.
   */
  async begin(from: ChainAlias, to: ChainAlias, amount: bigint, maxFee?: bigint, maxExportFee?: bigint, allowed?: () => void): Promise<TransferRecord> {
    differentChains(from, to);
    checkPositive(amount);
    if (maxFee !== undefined && maxFee < 0n) throw new WalletError('validation', 'a maximum fee cannot be negative');
    // The export alone within the whole: else it could pay more than the total approved, leaving the import a negative cap.
    if (maxExportFee !== undefined && (maxExportFee < 0n || maxFee === undefined || maxExportFee > maxFee)) {
      throw new WalletError('validation', 'the fee approved for the export cannot be more than the fees approved in all');
    }
    const now = Date.now();
    const record: TransferRecord = {
      id: toHex(crypto.getRandomValues(new Uint8Array(12))),
      from,
      to,
      amount: amount.toString(),
      state: 'pending',
      imports: [],
      importAttempts: 0,
      ...(maxFee !== undefined ? { maxFee: maxFee.toString() } : {}),
      ...(maxExportFee !== undefined ? { maxExportFee: maxExportFee.toString() } : {}),
      createdAt: now,
      updatedAt: now,
    };
    await this.save(record, 'journaled', allowed);
    return record;
  }

  /**
   * Finishes every transfer the journal holds unfinished (on worker start, unlock, or a timer).
   * Each runs on its own: one that is stuck (a node error, an import refused five times) does not
   * hold up the others; the first such error is thrown once all have had their turn.
   */
  async resumeAll(claim: (id: string) => boolean = () => true, release: (id: string) => void = () => undefined): Promise<TransferRecord[]> {
    const out: TransferRecord[] = [];
    let stuck: unknown;
    for (const { id } of await this.journal.unfinished()) {
      // A move another run is advancing right now is left to it: two runs of one move would sign
      // two exports or two imports. Claimed, it is read again: the list above may be stale by now.
      if (!claim(id)) continue;
      const r = await this.journal.get(id).catch(() => undefined);
      try {
        if (!r || r.state === 'completed' || r.state === 'failed') continue;
        out.push(await this.run(r));
      } catch (e) {
        this.hooks.stopped?.(r!, e);
        // An import refused for its fee waits (unsigned) in atomic memory, a tx the node still
        // processes and an export waiting for an EVM tx of the account to execute are looked at
        // again later: none of them is an error.
        if (!(e instanceof WalletError && WAITS_ITS_TURN.has(e.code))) stuck ??= e;
        out.push(r!);
      } finally {
        release(id);
      }
    }
    if (stuck !== undefined) throw stuck;
    return out;
  }

  private async save(record: TransferRecord, point: string, allowed?: () => void): Promise<void> {
    record.updatedAt = Date.now();
    await this.journal.put(record, allowed);
    await this.hooks.checkpoint?.(point, record);
  }

  /** Advances a journaled transfer until it is completed or failed. */
  async run(record: TransferRecord): Promise<TransferRecord> {
    for (;;) {
      switch (record.state) {
        case 'pending':
        case 'export-signed':
          // One move's export at a time per journal and source chain, signed and decided: two built
          // at once take the same funds, the node refuses the second, and that one would then read
          // "may have gone through" for good.
          await oneAtATime(`${this.journal.key} export ${record.from}`, async () => {
            // One left undecided by its run (still processing when its wait ended) may spend the same funds.
            if (record.state === 'pending' && (await this.journal.unfinished()).some((r) => r.from === record.from && r.state === 'export-signed')) {
              throw new WalletError('tx-processing', `transfer ${record.id}: another ${record.from}-Chain export is not decided yet`);
            }
            while (record.state === 'pending' || record.state === 'export-signed') await (record.state === 'pending' ? this.signExport(record) : this.sendExport(record));
          });
          break;
        case 'export-accepted':
          await this.signImports(record);
          break;
        case 'import-signed':
          await this.sendImports(record);
          break;
        case 'completed':
        case 'failed':
          return record;
      }
    }
  }

  private async signExport(record: TransferRecord): Promise<void> {
    if (record.from === 'C' && this.hooks.evmLine) return this.hooks.evmLine(() => this.signExportNow(record));
    return this.signExportNow(record);
  }

  /** Nothing is signed, so nothing moved: the move simply fails, saying why. */
  private async refuseExport(record: TransferRecord, why: string): Promise<void> {
    record.error = why;
    record.state = 'failed';
    await this.save(record, 'export-refused');
  }

  private async signExportNow(record: TransferRecord): Promise<void> {
    let built;
    try {
      // Within the reviewed export fee when the C-Chain's rose a little since (older records: as built).
      built = await this.engine.buildExport(record.from, record.to, BigInt(record.amount), record.maxExportFee !== undefined ? BigInt(record.maxExportFee) : undefined);
    } catch (e) {
      // A reason only the user can change (not enough funds for it and its fee, …) is the move's
      // end, not something to try every minute for ever.
      if (e instanceof WalletError && USERS_TO_CHANGE.has(e.code)) return this.refuseExport(record, e.message);
      throw e;
    }
    const approved = record.maxExportFee ?? record.maxFee;
    if (approved !== undefined && built.fee > BigInt(approved)) return this.refuseExport(record, `the export's fee of ${built.fee} nAVAX is above the approved maximum of ${approved} nAVAX`);
    const signed = this.engine.sign(built);
    try {
      await this.hooks.exportSigned?.(signed);
    } catch (e) {
      // A refused or kept tx this export does not take the place of, or one that ran (or may have):
      // nothing is sent, so nothing moved (Delivery.beforeExport).
      if (e instanceof WalletError && IN_THE_WAY.has(e.code)) return this.refuseExport(record, e.message);
      throw e;
    }
    const spends = built.spent.map(utxoId);
    record.export = { chain: signed.chain, txID: signed.txID, signedHex: toHex(signed.signedBytes), fee: signed.fee.toString(), accepted: false, ...(spends.length > 0 ? { spends } : {}) };
    record.state = 'export-signed';
    await this.save(record, 'export-signed');
  }

  /** Sends (or re-sends) the journaled bytes and waits; the same bytes always mean the same tx. */
  private async sendTx(tx: JournaledTx, record: TransferRecord, point: string): Promise<'accepted' | 'failed'> {
    const signedBytes = fromHex(tx.signedHex);
    // The node's "accepted" (even with the tx's bytes: it may have them from this wallet) stands only
    // once what the tx spends is gone (txFate), as for a send.
    if ((await this.engine.txState(tx.chain, tx.txID)) === 'accepted' && (await this.engine.txFate(tx.chain, tx.txID, signedBytes)) === 'accepted') return 'accepted';
    let refusal: string | undefined;
    try {
      await this.engine.submit(tx.chain, signedBytes, tx.txID);
    } catch (e) {
      // Refused: a resend of a tx that is already processing or accepted is refused too, so only
      // the node's final word on this tx ID decides.
      refusal = nodeWords((e as Error).message);
    }
    if (refusal === undefined) await this.hooks.checkpoint?.(point, record);
    // An atomic C-Chain tx is never refused for good by the node's word (Helicon: "not found"
    // until executed), so its wait ends in a judgement of its inputs, not in a timeout.
    const judgedByInputs = tx.chain === 'C';
    const outcome = await this.engine.node
      .waitForTx(tx.chain, tx.txID, refusal ? { timeoutMs: REFUSED_GRACE_MS } : this.engine.waitOptions)
      .catch((e: unknown) => {
        if ((refusal || judgedByInputs) && e instanceof TimeoutError) return undefined;
        throw e;
      });
    // Accepted, not in time, refused, or called failed by the node: none of it is believed before
    // it is checked against what the tx spends and creates (WalletEngine.txFate). A refusal can be
    // the node turning away a resend of a tx it still processes (a first send that reached it
    // before the worker died); a "failed" can come from a node that forwarded it all the same.
    const fate = await this.engine.txFate(tx.chain, tx.txID, signedBytes);
    if (fate === 'accepted') return 'accepted';
    // An import paying less than the C-Chain's base fee of now would wait for it to fall: it is
    // built again at the fee of now instead (signImports; within the fee approved, else it waits for "Import now").
    if (fate === 'not-seen' && judgedByInputs && record.imports.includes(tx) && (await this.engine.atomicUnderpays(signedBytes, BigInt(tx.fee)))) {
      record.error = `${tx.txID} pays less than the C-Chain's base fee of now`;
      record.underpaid = true;
      return 'failed';
    }
    // A C-Chain export whose nonce is passed with nothing of it found: another tx took the nonce, or
    // the node (a lagging one behind a load balancer, or a lying one) does not show it yet. Failed at
    // once, a move that went through would say nothing left, and a retry export twice: it waits.
    const unseen = fate === 'inputs-spent' && judgedByInputs && tx === record.export && Date.now() - (record.missingSince ??= Date.now()) < FUNDS_GONE_MS;
    if (fate === 'processing' || (fate === 'not-seen' && judgedByInputs) || unseen) {
      // Not executed yet (what it spends unspent: it may wait for the base fee to fall to what it pays), or unseen.
      record.error = judgedByInputs ? `the C-Chain does not show ${tx.txID} yet: it may still go through` : `the ${tx.chain}-Chain is still processing ${tx.txID}`;
      await this.save(record, `${point}-processing`);
      throw new WalletError('tx-processing', `transfer ${record.id}: ${record.error}; it is looked at again later`);
    }
    // Spent by something else: a move's export and import are the only spenders of what they
    // spend, and what an accepted one created would be there (its UTXOs, its exported funds).
    record.error =
      fate === 'inputs-spent'
        ? `${tx.txID} can never be accepted: what it spends was spent by another transaction`
        : (refusal ?? nodeWords(`${outcome?.status}${outcome?.reason ? `: ${outcome.reason}` : ''}`));
    return 'failed';
  }

  private async sendExport(record: TransferRecord): Promise<void> {
    const tx = record.export!;
    // Only once this move's export is journaled (here, so again after a crash): a failed move's kept
    // export that is the same tx is no longer in the way. Before, a crash would leave it out of the
    // way with no move holding it, and a retry on other funds could run beside it.
    await this.hooks.exportJournaled?.(tx.txID);
    const sent = await this.sendTx(tx, record, 'export-sent');
    // Its wait for a C-Chain export to show (sendTx) is over either way: never the import stage's.
    delete record.missingSince;
    if (sent === 'failed') {
      record.state = 'failed';
      const keep = this.hooks.exportFailed;
      if (keep) tx.kept = await keep({ chain: tx.chain, txID: tx.txID, signedBytes: fromHex(tx.signedHex), item: transferActivity(record, cb58Encode(this.engine.ctx.avaxAssetID))[0]! });
      await this.save(record, 'export-failed');
      return;
    }
    tx.accepted = true;
    delete record.error;
    record.state = 'export-accepted';
    await this.save(record, 'export-accepted');
  }

  private async signImports(record: TransferRecord): Promise<void> {
    // The import alone within the import fee reviewed (the total less the export fee reviewed):
    // an export that came out cheaper leaves it no more. Older records: the total less the export's.
    const cap = record.maxFee === undefined ? undefined : BigInt(record.maxFee) - BigInt(record.maxExportFee ?? record.export!.fee);
    // Only this export's own UTXOs: what else waits in atomic memory is not this move's.
    const built = await this.engine.buildImports(record.to, record.from, record.export!.txID, cap);
    if (built.length === 0) {
      // Nothing of the export is left: after an import was journaled, what it spends is gone. Its
      // fate tells whether it went through or another import took the funds (not lost: imported).
      // Each once: "Import now" at an unchanged fee of now signs the same bytes as the import it replaces.
      const tried = [...record.imports, ...(record.replaced ?? [])].filter((tx, i, all) => all.findIndex((t) => t.txID === tx.txID) === i);
      const fates = await Promise.all(tried.map((tx) => this.engine.txFate(tx.chain, tx.txID, fromHex(tx.signedHex))));
      const ours = fates.includes('accepted');
      // Gone unexplained is the node's listing only (one behind a load balancer, or a lying one, can
      // leave the funds out): another import is believed to have taken them once they stayed gone.
      // A failed move's kept export found to have run after all (its funds seen in atomic memory)
      // and none of its own imports: while the move was failed, "Import now" could take them as anyone's.
      const elsewhere = !ours && (fates.length > 0 ? fates.every((f) => f === 'inputs-spent') : record.export!.kept === true);
      if (elsewhere) record.missingSince ??= Date.now();
      if (ours || (elsewhere && Date.now() - record.missingSince! >= FUNDS_GONE_MS)) {
        delete record.missingSince;
        tried.forEach((tx, i) => (tx.accepted = fates[i] === 'accepted'));
        // The import the chain ran is the move's own, whichever of those it signed it was.
        if (ours) record.imports = tried.filter((tx) => tx.accepted);
        delete record.replaced;
        record.error = ours ? undefined : fates.length > 0 ? IMPORTED_ELSEWHERE : FUNDS_NO_LONGER_SHOWN;
        record.state = 'completed';
        await this.save(record, 'completed');
        return;
      }
      // Nothing of the export shows in atomic memory (not yet, or a node hiding it): a move is
      // done only when its import is accepted, so it waits and is looked at again later.
      record.error = `the exported funds do not show in the ${record.to}-Chain's atomic memory yet`;
      record.missingSince ??= Date.now();
      await this.save(record, 'import-waiting');
      // An empty read is never taken for an import made elsewhere (a node can hide UTXOs), but once
      // it has lasted, the move no longer says the chain will bring them by itself.
      const code = fates.length === 0 && Date.now() - record.missingSince >= FUNDS_GONE_MS ? 'funds-not-shown' : 'tx-processing';
      throw new WalletError(code, `transfer ${record.id}: ${record.error}; it is looked at again later`);
    }
    if (record.missingSince !== undefined) {
      // The funds show: a later empty read starts its own wait, whatever stops this import below.
      delete record.missingSince;
      await this.save(record, 'import-funds-shown');
    }
    const importFees = built.reduce((sum, b) => sum + b.fee, 0n);
    // One still waiting for the C-Chain's base fee to fall is replaced only by one paying more: of
    // two spending the same funds, the chain keeps the one paying more.
    const why =
      record.underpaid && importFees <= record.imports.reduce((sum, t) => sum + BigInt(t.fee), 0n)
        ? `its import waits for the C-Chain's base fee to fall, and one within the fee approved would pay no more`
        : cap !== undefined && importFees > cap
          ? `import fees of ${importFees} nAVAX are above the ${cap} nAVAX approved for them (of ${record.maxFee} nAVAX in all)`
          : undefined;
    if (why !== undefined) {
      // Left at 'export-accepted' for a later (one-click) import. An underpaid import is sent again
      // as it is: a node that restarted, or a full pool, may have lost it, and it can still go through.
      if (record.underpaid) for (const t of record.imports) await this.engine.submit(t.chain, fromHex(t.signedHex), t.txID).catch(() => undefined);
      throw new WalletError('fee-above-approved', `transfer ${record.id}: ${why}; the funds wait in atomic memory`);
    }
    delete record.underpaid;
    Object.assign(record, withImportsRebuilt(record, built.map((b) => {
      const s = this.engine.sign(b);
      return { chain: s.chain, txID: s.txID, signedHex: toHex(s.signedBytes), fee: s.fee.toString(), accepted: false };
    })));
    record.importAttempts += 1;
    record.state = 'import-signed';
    await this.save(record, 'import-signed');
  }

  private async sendImports(record: TransferRecord): Promise<void> {
    for (const tx of record.imports) {
      if (tx.accepted) continue;
      if ((await this.sendTx(tx, record, 'import-sent')) === 'accepted') {
        tx.accepted = true;
        await this.save(record, 'import-accepted');
        continue;
      }
      // Dropped or refused (fee rose, or the UTXOs were imported elsewhere): look at atomic memory
      // again and rebuild from what is still waiting there.
      // Judged failed (what it spends is unspent): back to 'export-accepted', where the next run
      // builds it again and "Import now" can take it with a fee the user reviews.
      record.state = 'export-accepted';
      await this.save(record, 'import-retry');
      if (record.importAttempts >= MAX_IMPORT_ATTEMPTS) {
        throw new WalletError('import-stuck', `the import of transfer ${record.id} failed ${record.importAttempts} times: ${record.error ?? 'unknown'}; the funds wait in atomic memory`);
      }
      return;
    }
    delete record.error;
    delete record.replaced;
    record.state = 'completed';
    await this.save(record, 'completed');
  }
}
