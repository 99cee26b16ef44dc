// The wallet service when a send and a balance refresh overlap (either one first), and a restore
// over a wallet whose move is under way.
import { describe, expect, it, vi } from 'vitest';
import { oneAtATime } from '../../src/background/storage.js';
import { generateMnemonic } from '../../src/core/keys.js';
import type { BalancesView } from '../../src/shared/messages.js';
import { AVAX, avaxOf, freshWallet } from './fixture.js';
import { holdNext, lockAsked } from './held-calls.js';
import { fundedWallet, PASSWORD } from './wallet-fixture.js';
import { approved, spendable } from './wallet-service-kit.js';
import { refusedRestore } from '../unit/wallet-service-test-kit.js';

/** A fetch for the wallet that runs `hook.run` once, before the first call of `method` goes to the node. */
function onceBefore(method: string): { run?: () => Promise<unknown>; fetch: typeof fetch } {
  const hook: { run?: () => Promise<unknown>; fetch: typeof fetch } = {
    fetch: async (input, init) => {
      const run = hook.run;
      if (run && typeof init?.body === 'string' && init.body.includes(`"${method}"`)) {
        hook.run = undefined;
        await run();
      }
      return fetch(input, init);
    },
  };
  return hook;
}

describe('a send and a balance refresh that overlap', () => {
  it('the send keeps what a refresh saved while it waited for its tx', async () => {
    const whileWaiting = onceBefore('avm.getTxStatus');
    const { wallet, ctx, avax } = await fundedWallet({ x: 10n * AVAX }, { fetch: whileWaiting.fetch });
    const before = await wallet.balances.balancesGet({});
    let refreshed: BalancesView | undefined;
    whileWaiting.run = async () => {
      refreshed = await wallet.balances.balancesRefresh();
    };
    const bob = await freshWallet();
    const sent = await wallet.sends.sendX({ assetID: avax, amount: AVAX.toString(), to: { addresses: [bob.engine.addresses('X')[0]!], threshold: 1 }, maxFee: ctx.xTxFee.toString() });
    expect(refreshed!.updatedAt).toBeGreaterThan(before.updatedAt);
    expect((await wallet.balances.balancesGet({})).updatedAt).toBe(refreshed!.updatedAt);
    expect((await wallet.balances.activityList()).items.filter((i) => i.txID === sent.txID)).toEqual([expect.objectContaining({ kind: 'send', status: 'accepted' })]);
  });
});

describe('a refresh and a send that overlap', () => {
  it('a refresh that started before a send finished keeps the send, not a "Received" for its change', async () => {
    // The refresh's first question to the node (the P-Chain height) waits until the send is done.
    const whileRefreshing = onceBefore('platform.getHeight');
    const { wallet, ctx, avax } = await fundedWallet({ x: 10n * AVAX }, { fetch: whileRefreshing.fetch });
    const bob = await freshWallet();
    let sent: { txID: string } | undefined;
    whileRefreshing.run = async () => {
      sent = await wallet.sends.sendX({ assetID: avax, amount: AVAX.toString(), to: { addresses: [bob.engine.addresses('X')[0]!], threshold: 1 }, maxFee: ctx.xTxFee.toString() });
    };
    const refreshed = await wallet.balances.balancesRefresh();
    expect(sent).toBeDefined();
    // The refresh saw the node after the send: its balance, and the send as the send, once.
    expect(spendable(refreshed, 'X', avax)).toBe(10n * AVAX - AVAX - ctx.xTxFee);
    expect((await wallet.balances.activityList()).items.filter((i) => i.txID === sent!.txID)).toEqual([expect.objectContaining({ kind: 'send', status: 'accepted', amount: AVAX.toString() })]);
    expect((await wallet.balances.balancesGet({})).updatedAt).toBe(refreshed.updatedAt);
  });
});

describe('restore over a wallet with a move under way', () => {
  /** Starting again from a key over the funded phrase wallet. */
  const KEY_RESTORE = { password: 'a new password', privateKey: '0x' + '77'.repeat(32), name: 'Key' };
  /** Asked once, refused with what it drops (the phrase; `unfinishedTransfers` moves): the Confirm of that, as the popup sends it. */
  const confirmedRestore = async (wallet: Awaited<ReturnType<typeof fundedWallet>>['wallet'], unfinishedTransfers: number) => {
    const shown = await refusedRestore(wallet.accounts.walletRestore(KEY_RESTORE));
    expect(shown).toMatchObject({ phraseAccounts: 1, unfinishedTransfers });
    return { ...KEY_RESTORE, confirmLoss: shown.names };
  };

  it('stops the move before replacing the vault: nothing of the old account is journaled afterwards', async () => {
    const { wallet, stores } = await fundedWallet({ x: 10n * AVAX });
    const est = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    await wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: AVAX.toString(), maxFee: approved(est) });
    const journals = () => stores.local.keys().filter((k) => k.startsWith('xpc.transfers.'));
    expect(journals()).toHaveLength(1);
    const restore = { password: PASSWORD, mnemonic: generateMnemonic(12) };
    const shown = await refusedRestore(wallet.accounts.walletRestore(restore));
    expect(shown).toMatchObject({ importedKeys: 0, unfinishedTransfers: 1 });
    await wallet.accounts.walletRestore({ ...restore, confirmLoss: shown.names });
    // Long enough for the move to have finished had it kept running.
    await new Promise((r) => setTimeout(r, 4_000));
    expect(journals()).toEqual([]);
  });

  it('locks before it waits for the move to stop: a send from another window meanwhile is refused, not signed with the old vault', async () => {
    // The move's run waits at its import, so the restore waits for it.
    const atImport = holdNext('platform.issueTx');
    const { wallet, ctx, avax } = await fundedWallet({ x: 10n * AVAX }, { fetch: atImport.fetch });
    const est = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    await wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: AVAX.toString(), maxFee: approved(est) });
    await atImport.held;
    const restoring = wallet.accounts.walletRestore(await confirmedRestore(wallet, 1));
    await vi.waitFor(async () => expect((await wallet.accounts.walletStatus()).vault).toBe('locked'), { timeout: 10_000, interval: 50 });
    const bob = await freshWallet();
    const send = { assetID: avax, amount: AVAX.toString(), to: { addresses: [bob.engine.addresses('X')[0]!], threshold: 1 }, maxFee: ctx.xTxFee.toString() };
    await expect(wallet.sends.sendX(send)).rejects.toMatchObject({ code: 'vault-locked' });
    atImport.release();
    expect((await restoring).vault).toBe('unlocked');
    expect((await wallet.accounts.accountsList()).accounts.map((a) => a.name)).toEqual(['Key']);
    // Nothing reached Bob: the send was never signed.
    expect(await avaxOf(bob.engine, 'X')).toBe(0n);
  });

  it('while its lock waits its turn, a move is refused, and a send that went out meanwhile is counted once locked: asked about, not dropped', async () => {
    // The send's first status question waits: it stays undecided.
    const atStatus = holdNext('avm.getTxStatus');
    const { wallet, session, stores, ctx, avax } = await fundedWallet({ x: 10n * AVAX }, { fetch: atStatus.fetch });
    const est = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    const confirmed = await confirmedRestore(wallet, 0);
    // Another session task (a password check, say) holds the session's queue, so the lock waits behind it.
    let releaseQueue!: () => void;
    const queueHeld = new Promise<void>((r) => (releaseQueue = r));
    const write = stores.session.set.bind(stores.session);
    stores.session.set = async (items) => {
      stores.session.set = write;
      await queueHeld;
      return write(items);
    };
    void session.touch(Date.now() + 60_000);
    const locking = lockAsked(session);
    const restoring = wallet.accounts.walletRestore(confirmed);
    await locking;
    await expect(wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: AVAX.toString(), maxFee: approved(est) })).rejects.toMatchObject({ code: 'transfers-stopped' });
    const bob = await freshWallet();
    const sending = wallet.sends.sendX({ assetID: avax, amount: AVAX.toString(), to: { addresses: [bob.engine.addresses('X')[0]!], threshold: 1 }, maxFee: ctx.xTxFee.toString() });
    await atStatus.held;
    releaseQueue();
    // The refused move was never journaled: only the send is more than agreed.
    const again = await refusedRestore(restoring);
    expect(again).toMatchObject({ undecidedSends: 1, unfinishedTransfers: 0 });
    expect((await wallet.accounts.walletStatus()).vault).toBe('locked');
    atStatus.release();
    await sending;
    // Confirmed with the send counted, it goes through.
    expect((await wallet.accounts.walletRestore({ ...KEY_RESTORE, confirmLoss: again.names })).vault).toBe('unlocked');
    expect((await wallet.accounts.accountsList()).accounts.map((a) => a.name)).toEqual(['Key']);
  });

  it('a move whose journal write waits its turn while a restore stops moves is never journaled: refused, and the restore drops nothing unsaid', async () => {
    // Once armed, the wallet's next UTXO question (the move's export, built at its start) waits until released.
    const atUtxos = holdNext('avm.getUTXOs', { armed: false });
    const { wallet, session, account } = await fundedWallet({ x: 10n * AVAX }, { fetch: atUtxos.fetch });
    const est = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    const journal = await wallet.transfers.journal((await wallet.accounts.walletStatus()).network.id, account.id);
    const confirmed = await confirmedRestore(wallet, 0);
    atUtxos.arm();
    const starting = wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: AVAX.toString(), maxFee: approved(est), maxExportFee: est.exportFee });
    await atUtxos.held;
    // Another write of the journal (a move's run, say) holds it; the start's own write will wait behind it.
    let releaseJournal!: () => void;
    void oneAtATime(journal.key, () => new Promise<void>((r) => (releaseJournal = r)));
    atUtxos.release();
    await new Promise((r) => setTimeout(r, 300));
    const locking = lockAsked(session);
    const restoring = wallet.accounts.walletRestore(confirmed);
    await locking;
    releaseJournal();
    await expect(starting).rejects.toMatchObject({ code: 'transfers-stopped' });
    // Told it was stopped, it was: nothing journaled for the restore to drop (or to ask about).
    expect((await restoring).vault).toBe('unlocked');
  });
});
