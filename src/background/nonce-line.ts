// The account's one C-Chain nonce line: its EVM txs, the C-Chain exports sites have it send and
// those of its moves each take the next nonce of one EVM address, so they are signed one at a
// time (the lock) and an export only while no other tx of the line waits.
import { type EvmNonces, isEvmHash } from '../core/engine.js';
import { WalletError } from '../core/errors.js';
import type { AccountContext, AccountEngines } from './account-engines.js';
import { evmNonceOf, exportNonces, type OutboxEntry } from './outbox.js';

/** Why a C-Chain export waits its turn in the account's nonce line. */
export const LINE_WAITS = 'another C-Chain transaction of this account is still waiting to go through; ';

export class NonceLine {
  readonly #locks = new Map<string, Promise<unknown>>();

  constructor(private readonly engines: AccountEngines) {}

  /**
   * One C-Chain EVM send per account at a time, from choosing its nonce until it is in the outbox
   * (and, for the wallet's own sends, followed): two sends never take the same nonce.
   */
  withEvmLock<T>(accountId: string, run: () => Promise<T>): Promise<T> {
    const next = (this.#locks.get(accountId) ?? Promise.resolve()).then(run, run);
    this.#locks.set(accountId, next.catch(() => undefined));
    return next;
  }

  /**
   * The nonces of this account's C-Chain txs the node has not decided on: its EVM txs and the C-Chain
   * exports sites had it send, in the outbox (refused ones apart), and the C-Chain exports of its
   * cross-chain moves signed but not yet accepted (an export spends a nonce of the same line).
   */
  async ownEvmNonces({ preset, account, engine }: Pick<AccountContext, 'preset' | 'account' | 'engine'>): Promise<EvmNonces> {
    const entries = (await (await this.engines.outbox(preset, account.id)).list()).filter((e) => e.chain === 'C');
    // One that cannot be read (damaged storage) holds no nonce: it must not stop every C-Chain send.
    const nonceOf = (e: OutboxEntry) => (isEvmHash(e.txID) ? (evmNonceOf(e) ?? []) : exportNonces(e.signedHex, engine.evmAddress));
    const moves = await (await this.engines.journal(preset, account.id)).list();
    const exports = moves.flatMap((r) => (r.from !== 'C' || !r.export || r.export.accepted || r.state !== 'export-signed' ? [] : exportNonces(r.export.signedHex, engine.evmAddress)));
    return { live: [...entries.filter((e) => !e.voided).flatMap(nonceOf), ...exports], voided: entries.filter((e) => e.voided).flatMap(nonceOf) };
  }

  /**
   * True while a tx of the account's nonce line holds the nonce the chain uses next, the one an
   * export takes. Ones only above it wait on a gap (WalletEngine.evmNonce), which the export fills.
   */
  async lineWaits(ctx: AccountContext): Promise<boolean> {
    const used = await ctx.engine.node.eth.getTransactionCount(ctx.engine.evmAddress, 'latest');
    return (await this.ownEvmNonces(ctx)).live.includes(used);
  }

  /**
   * Runs `run` (a C-Chain export's signing) in the account's EVM nonce line: under the EVM lock,
   * and only while no other tx of the line waits (an export takes the last executed nonce, so one
   * signed past a waiting tx would take that tx's nonce). Otherwise 'evm-tx-in-flight': the move
   * waits its turn and is run again later. `networkId`: the move's network (a move resumes on one
   * that is not selected), else the selected one.
   */
  inNonceLine<T>(accountId: string, run: () => Promise<T>, networkId?: string): Promise<T> {
    return this.withEvmLock(accountId, async () => {
      if (await this.lineWaits(await this.engines.open(accountId, networkId))) {
        throw new WalletError('evm-tx-in-flight', `${LINE_WAITS}the export is signed once it has`);
      }
      return run();
    });
  }

  /** The nonce the account's next C-Chain EVM tx takes (WalletEngine.evmNonce, with the outbox). */
  async evmNonceFor(accountId: string): Promise<bigint> {
    const ctx = await this.engines.open(accountId);
    return ctx.engine.evmNonce(await this.ownEvmNonces(ctx));
  }
}
