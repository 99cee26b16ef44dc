// Cross-chain moves (transfers.*): started, estimated, listed, resumed after a restart, and the
// import of funds waiting in atomic memory. The journal and the runner that never strand funds are
// in transfer-journal.ts and transfer-runner.ts; this service opens them for the selected account, and
// resumes every account's on every network (each with its own engine) while the wallet is unlocked.
import { WEI_PER_NAVAX } from '../../core/amount.js';
import type { WalletEngine } from '../../core/engine.js';
import { TimeoutError, WalletError } from '../../core/errors.js';
import { cb58Encode } from '../../core/encoding.js';
import type { ChainAlias } from '../../core/node.js';
import { buildPExport } from '../../core/tx/p.js';
import { buildXExport } from '../../core/tx/x.js';
import type { RequestParams as P, TransferView } from '../../shared/messages.js';
import type { AccountContext, AccountEngines } from '../account-engines.js';
import type { Delivery } from '../delivery.js';
import { avaxOutput, largestAmount, oneTxOnly, pSpendFees } from '../max-amount.js';
import type { Session } from '../session.js';
import type { StorageArea } from '../storage.js';
import { TransferJournal, type TransferRecord } from '../transfer-journal.js';
import { type RunnerHooks, TransferRunner, USERS_TO_CHANGE } from '../transfer-runner.js';
import { importPlan, type ImportPlan, journalReviewedImport, planFee, planView } from '../waiting-imports.js';
import { networkIdsOf, newId } from '../settings.js';
import { VaultLockedError } from '../vault.js';

/** How long a reviewed "Import now" plan may be confirmed. */
const REVIEW_TTL_MS = 10 * 60_000;

export class TransfersService {
  #resuming: Promise<void> | null = null;
  /** Reviewed "Import now" plans by ID, until confirmed or too old (memory only: a restarted background asks for a new review). */
  readonly #reviewed = new Map<string, { at: number; presetId: string; accountId: string; plan: ImportPlan }>();
  /** Transfer runs under way (started moves, resumed journals): a restore stops them and waits. */
  readonly #runs = new Set<Promise<unknown>>();
  #stopped = false;
  /** Moves a run is advancing now (resumeAll leaves them to it), by ID. */
  readonly #running = new Set<string>();
  /** Why each move's last run stopped, until a run gets further (shown as "paused"). */
  readonly #paused = new Map<string, { code: string; message: string; since: number }>();

  constructor(
    private readonly engines: AccountEngines,
    private readonly session: Session,
    private readonly local: StorageArea,
    private readonly log?: (line: string) => void,
    private readonly delivery?: Delivery,
  ) {}

  /** The account's journal on the chains the network entry named serves (AccountEngines.journal). */
  async journal(networkId: string, accountId: string): Promise<TransferJournal> {
    return this.engines.journal((await this.engines.selected(accountId, networkId)).preset, accountId);
  }

  /** The runner of the selected account on the selected network, or of the account and network named. */
  private async runner(accountId?: string, networkId?: string): Promise<AccountContext & { runner: TransferRunner; journal: TransferJournal }> {
    const ctx = await this.engines.open(accountId, networkId);
    const { engine, preset, account } = ctx;
    const journal = await this.engines.journal(preset, account.id);
    // A move once journaled is the user's (a restore counts it): a stop after that pauses it, from its first run.
    const checkpoint = (point: string): void => void (point === 'journaled' || this.checkNotStopped());
    const stopped = (record: TransferRecord, error: unknown): void => this.notePaused(record.id, error);
    const delivery = this.delivery;
    const evmLine = delivery ? <T>(run: () => Promise<T>) => delivery.nonceLine.inNonceLine(account.id, run, preset.id) : undefined;
    const exportSigned: RunnerHooks['exportSigned'] = delivery ? (signed) => delivery.beforeExport(preset.id, account.id, signed) : undefined;
    const exportFailed: RunnerHooks['exportFailed'] = delivery ? (kept) => delivery.keepFailedExport(preset.id, account.id, kept) : undefined;
    const exportJournaled: RunnerHooks['exportJournaled'] = delivery ? (txID) => delivery.exportJournaled(preset.id, account.id, txID) : undefined;
    const hooks: RunnerHooks = { checkpoint, stopped, ...(evmLine ? { evmLine } : {}), ...(exportSigned ? { exportSigned, exportFailed, exportJournaled } : {}) };
    return { ...ctx, runner: new TransferRunner(engine, journal, hooks), journal };
  }

  /** Throws while a restore replaces the vault: nothing of the account about to go is written or sent. */
  private checkNotStopped(): void {
    if (this.#stopped) throw new WalletError('transfers-stopped', 'cross-chain transfers are stopped while the wallet is being replaced');
  }

  private notePaused(id: string, error: unknown): void {
    const code = error instanceof WalletError ? error.code : 'internal';
    this.#paused.set(id, { code, message: (error as Error).message, since: this.#paused.get(id)?.since ?? Date.now() });
  }

  /** Takes the move for one run; false when another run has it. */
  private claim(id: string): boolean {
    if (this.#running.has(id)) return false;
    this.#running.add(id);
    return true;
  }

  /** Runs one move to its end (or to where it must wait), known as running meanwhile. */
  private async runOne(runner: TransferRunner, record: TransferRecord): Promise<TransferRecord> {
    if (!this.claim(record.id)) return record;
    try {
      const done = await runner.run(record);
      this.#paused.delete(record.id);
      return done;
    } catch (e) {
      this.notePaused(record.id, e);
      throw e;
    } finally {
      this.#running.delete(record.id);
    }
  }

  /** Keeps `run` among the runs a restore waits for until it settles. */
  private track<T>(run: Promise<T>): Promise<T> {
    this.#runs.add(run);
    const done = (): void => void this.#runs.delete(run);
    run.then(done, done);
    return run;
  }

  /**
   * Runs `replace` (a restore replacing the vault) with every transfer stopped: `first` (the lock)
   * runs once none may start (it can wait its turn), then the runs under way are waited for (each
   * stops at its next step, and a resume pass runs no further move), so none writes the journal of
   * an account about to go while it is replaced.
   */
  async stoppedWhile<T>(first: () => Promise<unknown>, replace: () => Promise<T>): Promise<T> {
    this.#stopped = true;
    // Reviews of the account about to go are not confirmed afterwards.
    this.#reviewed.clear();
    try {
      await first();
      // Until none is left: a start waited for adds its run.
      while (this.#runs.size) await Promise.allSettled([...this.#runs]);
      return await replace();
    } finally {
      this.#stopped = false;
    }
  }

  /** The moves in these journals (storage keys) not finished, by ID; a journal that cannot be read is one, by its key (what it held is unknown). */
  async unfinishedIn(journalKeys: readonly string[]): Promise<string[]> {
    const ids = [];
    for (const key of journalKeys) ids.push(...(await new TransferJournal(this.local, key).unfinished().then((rs) => rs.map((r) => r.id), () => [key])));
    return ids;
  }

  private view(r: TransferRecord): TransferView {
    return transferView(r, this.#paused.get(r.id));
  }

  /** Journals the move and returns at once; the export and import run on (and resume after a restart). */
  async transfersStart(p: P<'transfers.start'>) {
    const { runner, engine } = await this.runner();
    const [from, to, amount] = [p.from as ChainAlias, p.to as ChainAlias, BigInt(p.amount)];
    // A fee risen since the review (a C-Chain one by more than the reviewed fee can still pay,
    // atomicFeeWithin), or a reason only the user can change (funds spent since), is said at
    // Confirm, nothing journaled, rather than shown later as a move that failed. Any other failure
    // to build (the node away) is the run's to handle, as before.
    const built = p.maxExportFee === undefined ? undefined : await engine.buildExport(from, to, amount, BigInt(p.maxExportFee)).catch((e: unknown) => {
      if (e instanceof WalletError && USERS_TO_CHANGE.has(e.code)) throw e;
    });
    if (built && built.fee > BigInt(p.maxExportFee!)) throw new WalletError('fee-above-approved', `the export's fee of ${built.fee} nAVAX is above the ${p.maxExportFee} nAVAX reviewed: nothing was journaled or signed`);
    // Once a restore stopped moves, nothing is journaled; a start under way is waited for.
    const record = await this.track(runner.begin(from, to, amount, BigInt(p.maxFee), p.maxExportFee !== undefined ? BigInt(p.maxExportFee) : undefined, () => this.checkNotStopped()));
    void this.track(this.runOne(runner, record)).catch((e: unknown) => this.log?.(`transfer ${record.id} paused: ${(e as Error).message}`));
    return this.view(record);
  }

  /**
   * The export's fee (built exactly as the transfer builds it, not signed), the import's fee for one
   * UTXO of `amount` on the destination chain, and the largest amount the export can carry.
   */
  async transfersEstimate(p: P<'transfers.estimate'>) {
    const { engine } = await this.engines.open();
    const from = p.from as ChainAlias;
    const to = p.to as ChainAlias;
    const amount = BigInt(p.amount);
    const exported = await engine.buildExport(from, to, amount);
    const [importFee, max] = await Promise.all([engine.estimateImportFee(to, from, amount), largestExport(engine, from, to, exported.fee)]);
    return { exportFee: exported.fee.toString(), importFee: importFee.toString(), maxAmount: max.amount.toString(), ...(max.oneTx ?? {}) };
  }

  async transfersList() {
    // From storage alone, not open(): a restarted worker asks the node for its identity, and its
    // moves must show while the node is down.
    if (!this.session.isUnlocked()) throw new VaultLockedError();
    const { preset, account } = await this.engines.selected();
    // Newest first: a step rewrites its record at the end of the stored list.
    const records = (await (await this.engines.journal(preset, account.id, true)).list()).sort((a, b) => b.createdAt - a.createdAt);
    return { transfers: records.map((r) => this.view(r)) };
  }

  /**
   * Finishes every journaled transfer (worker start, alarm): every account's, on every chains where
   * it has unfinished moves, each run by its own account's engine on an entry serving them, the
   * selected one first. One pass at a time: two passes over one journal would build two imports of
   * the same atomic UTXOs. An entry that cannot run them (its node down) leaves them to the next
   * entry for the same chains, and does not hold up the others; if none could, its error is thrown at the end.
   */
  resumeTransfers(): Promise<void> {
    if (!this.session.isUnlocked()) return Promise.resolve();
    this.#resuming ??= this.track(this.resumeEvery()).finally(() => {
      this.#resuming = null;
    });
    return this.#resuming;
  }

  private async resumeEvery(): Promise<void> {
    const { s } = await this.engines.selected();
    // The user's own nodes before the presets: a move begun on one is finished there while it answers.
    const entries = [s.selectedNetworkId, ...networkIdsOf(s, true).filter((id) => id !== s.selectedNetworkId)];
    // The errors of journals no entry could run yet (by key), or open at all (by account and entry).
    const stuck = new Map<string, unknown>();
    for (const { id: accountId } of s.accounts) {
      const ran = new Set<string>();
      for (const networkId of entries) {
        // An account or entry removed during the pass is skipped (its moves go with it, or wait for the next pass).
        const selected = await this.engines.selected(accountId, networkId).catch(() => undefined);
        if (!selected) continue;
        // One that cannot be opened (damaged storage) is said at the end, as a stuck one is.
        const journal = await this.engines.journal(selected.preset, accountId, true).catch((e: unknown) => void stuck.set(`${accountId}@${networkId}`, e));
        if (!journal || ran.has(journal.key)) continue;
        // Only journals with unfinished moves open an engine (and ask that network's node).
        if (!(await journal.unfinished().catch(() => [])).length) continue;
        // A restore under way ends the pass: no other account's engine is opened for it.
        this.checkNotStopped();
        try {
          const { runner, journal: opened } = await this.runner(accountId, networkId);
          const done = await runner.resumeAll(
            // Stopped by a restore: none of the pass's next moves is run (sent again) meanwhile.
            (m) => !this.#stopped && this.claim(m),
            (m) => this.#running.delete(m),
          );
          // Those that got through (or to a wait the journal records) are not paused any more.
          for (const r of done) if (r.state === 'completed' || r.state === 'failed') this.#paused.delete(r.id);
          for (const key of [journal.key, opened.key]) {
            ran.add(key);
            stuck.delete(key);
          }
        } catch (e) {
          if (!stuck.has(journal.key)) stuck.set(journal.key, e);
        }
      }
    }
    const [first] = stuck.values();
    if (stuck.size > 0) throw first;
  }

  /**
   * What "Import now" would import (src/background/waiting-imports.ts), built, nothing signed. The
   * plan is kept for its confirm (`planID`): what is signed is exactly what was reviewed.
   */
  async transfersEstimateImportWaiting() {
    const { engine, preset, account } = await this.engines.open();
    const plan = await importPlan(engine, await this.engines.journal(preset, account.id), (id) => !this.#running.has(id));
    const now = Date.now();
    for (const [id, r] of this.#reviewed) if (now - r.at > REVIEW_TTL_MS) this.#reviewed.delete(id);
    const planID = newId();
    this.#reviewed.set(planID, { at: now, presetId: preset.id, accountId: account.id, plan });
    return { ...planView(engine, plan), planID };
  }

  /**
   * Imports what the review `planID` listed, if its fees are at most `maxFee`: each move still
   * parked gets the import reviewed for it, signed and journaled before anything is sent, then
   * runs to its end; the funds no move exported are imported one tx at a time (one the node
   * refuses, because what it spends changed since the review, does not stop the others).
   */
  transfersImportWaiting(p: P<'transfers.importWaiting'>) {
    // A restore waits for all of it, as for a move's run.
    return this.track(this.importReviewed(p));
  }

  private async importReviewed(p: P<'transfers.importWaiting'>) {
    const reviewed = this.#reviewed.get(p.planID);
    this.#reviewed.delete(p.planID);
    const { runner, journal, ...ctx } = await this.runner();
    const { engine, preset, account } = ctx;
    if (!reviewed || Date.now() - reviewed.at > REVIEW_TTL_MS || reviewed.presetId !== preset.id || reviewed.accountId !== account.id) {
      throw new WalletError('review-expired', 'that review is out of date: nothing was signed; look at the funds waiting again');
    }
    const { plan } = reviewed;
    const fee = planFee(plan);
    if (fee > BigInt(p.maxFee)) throw new WalletError('fee-above-approved', `the imports cost ${fee} nAVAX in fees, above the ${p.maxFee} nAVAX approved: nothing was signed`);
    const taken: string[] = [];
    try {
      const moves: TransferRecord[] = [];
      for (const m of plan.moves) {
        this.checkNotStopped();
        if (!this.claim(m.record.id)) continue;
        taken.push(m.record.id);
        // Moved on since the review (its run signed an import): its own import brings it in.
        const record = await journal.get(m.record.id);
        if (record?.state !== 'export-accepted' || record.export?.txID !== m.record.export?.txID) continue;
        const signed = journalReviewedImport(engine, record, m.built);
        await journal.put(signed, () => this.checkNotStopped());
        moves.push(signed);
      }
      const txIDs: string[] = [];
      let failed = 0;
      let unconfirmed = 0;
      for (const i of plan.plain) {
        this.checkNotStopped();
        // As every tx of the wallet's own (Delivery.issue): in the outbox before it is sent, the
        // node's decision checked against what it spends and creates, followed by the refreshes.
        // What arrives: the AVAX it brings less its fee (other assets it brings show in the balances).
        const done = await this.delivery!.issue(ctx, 'import', i.built, p.maxFee, { assetID: cb58Encode(engine.ctx.avaxAssetID), amount: (i.avax - i.built.fee).toString() }).catch((e: unknown) => {
          failed += 1;
          this.log?.(`import of waiting funds not made: ${(e as Error).message}`);
        });
        if (done?.status === 'accepted') txIDs.push(done.txID);
        else if (done) unconfirmed += 1;
      }
      for (const record of moves) {
        this.checkNotStopped();
        try {
          const done = await this.track(runner.run(record));
          this.#paused.delete(record.id);
          if (done.state === 'completed') txIDs.push(...done.imports.filter((i) => i.accepted).map((i) => i.txID));
          else failed += 1;
        } catch (e) {
          // Left as its run leaves it (the Move list says why); the next run goes on from there.
          this.notePaused(record.id, e);
          // Its import sent and not decided yet is not one that "could not be made": it goes on by itself.
          if (e instanceof TimeoutError || (e instanceof WalletError && e.code === 'tx-processing')) unconfirmed += 1;
          else failed += 1;
        }
      }
      return { txIDs, failed, ...(unconfirmed > 0 ? { unconfirmed } : {}) };
    } finally {
      for (const id of taken) this.#running.delete(id);
    }
  }
}

function transferView(r: TransferRecord, paused?: TransferView['paused']): TransferView {
  const importFee = r.imports.reduce((s, i) => s + BigInt(i.fee), 0n);
  return {
    id: r.id,
    from: r.from,
    to: r.to,
    amount: r.amount,
    createdAt: r.createdAt,
    state: r.state,
    importTxIDs: r.imports.map((i) => i.txID),
    ...(r.export ? { exportTxID: r.export.txID, exportFee: r.export.fee } : {}),
    ...(r.state === 'failed' && r.export?.kept ? { exportKept: r.export.unclear ? ('unclear' as const) : ('kept' as const) } : {}),
    ...(r.imports.length ? { importFee: importFee.toString() } : {}),
    ...(r.error ? { error: r.error } : {}),
    ...(paused && r.state !== 'completed' && r.state !== 'failed' ? { paused } : {}),
  };
}

/**
 * The largest amount an export from `from` can carry after its fee (`cExportFee`: the C export's,
 * which no amount changes), and whether it is less than all there is for lack of room in one tx.
 */
async function largestExport(engine: WalletEngine, from: ChainAlias, to: ChainAlias, cExportFee: bigint): Promise<{ amount: bigint; oneTx?: { maxOneTx?: true } }> {
  const ctx = engine.ctx;
  const changeOwners = engine.changeOwners;
  // One owner address, as buildExport's; which one does not change the size or the fee.
  const owner = changeOwners;
  if (from === 'C') {
    const navax = (await engine.cBalanceWei()) / WEI_PER_NAVAX;
    return { amount: navax > cExportFee ? navax - cExportFee : 0n };
  }
  if (from === 'X') {
    const pool = await engine.spendable('X');
    const destination = to as 'P' | 'C';
    const amount = largestAmount({
      pool,
      assetID: ctx.avaxAssetID,
      feesFor: () => [ctx.xTxFee],
      build: (a) => buildXExport({ ctx, pool, changeOwners, destination, amount: a, to: owner }),
    });
    return { amount, oneTx: oneTxOnly(pool, ctx.avaxAssetID, amount + ctx.xTxFee) };
  }
  const [pool, feeCtx] = await Promise.all([engine.spendable('P'), engine.pFeeContext()]);
  const destination = to as 'X' | 'C';
  const exportedOutput = avaxOutput(ctx, owner);
  const build = (a: bigint) => buildPExport({ ctx, fee: feeCtx, pool, changeOwners, destination, amount: a, to: owner });
  const amount = largestAmount({ pool, assetID: ctx.avaxAssetID, feesFor: (inputs) => pSpendFees(ctx, feeCtx, 'ExportTx', inputs, exportedOutput, changeOwners), build });
  return { amount, oneTx: oneTxOnly(pool, ctx.avaxAssetID, amount + build(amount).fee) };
}
