// Moves between chains against the real node: a transfer killed at every step completes exactly once,
// refused or costlier steps stop it unsigned, and a move finishes after a restart, through another
// entry for the same node, or once unlocked. Fees that rose since the review: transfers-fees.test.ts.
import { describe, expect, inject, it, vi } from 'vitest';
import { entryJournalKey } from '../../src/background/account-cache.js';
import { TransferJournal, type TransferRecord } from '../../src/background/transfer-journal.js';
import { TransferRunner } from '../../src/background/transfer-runner.js';
import { memoryStores } from '../../src/background/storage.js';
import type { WalletEngine } from '../../src/core/engine.js';
import { parseAddress } from '../../src/core/encoding.js';
import { generateMnemonic } from '../../src/core/keys.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { AVAX, avaxOf, engineOf, freshWallet, genesisEngine, localNetwork, type TestWallet, WEI_PER_NAVAX } from './fixture.js';
import { moveUntilDone } from './lying-node.js';
import { fundedWallet, PASSWORD, startBackground } from './wallet-fixture.js';
import { IMPORTED_ELSEWHERE } from '../../src/shared/messages-transfers.js';

type Chain = 'X' | 'P' | 'C';

class Crash extends Error {}

async function balanceOf(engine: WalletEngine, chain: Chain): Promise<bigint> {
  return chain === 'C' ? (await engine.cBalanceWei()) / WEI_PER_NAVAX : avaxOf(engine, chain);
}

/** A new engine object over the same keys: what a restarted service worker would build. */
async function restartedEngine(w: TestWallet): Promise<WalletEngine> {
  return engineOf(await localNetwork(), { xp: [...w.receive, ...w.change], evm: w.evm, change: w.change[0]!.shortId });
}

const CRASH_POINTS = ['journaled', 'export-signed', 'export-sent', 'export-accepted', 'import-signed', 'import-sent', 'import-accepted'];

async function crashAndResume(w: TestWallet, from: Chain, to: Chain, amount: bigint, point: string): Promise<TransferRecord> {
  const stores = memoryStores();
  const key = 'transfers:local:0';
  const before = { from: await balanceOf(w.engine, from), to: await balanceOf(w.engine, to) };

  const crashing = new TransferRunner(w.engine, new TransferJournal(stores.local, key), {
    checkpoint(p) {
      if (p === point) throw new Crash(`worker killed at ${p}`);
    },
  });
  await expect(crashing.start(from, to, amount)).rejects.toBeInstanceOf(Crash);

  // Everything in memory is gone; only storage survives.
  const resumed = await new TransferRunner(await restartedEngine(w), new TransferJournal(stores.local, key)).resumeAll();
  expect(resumed).toHaveLength(1);
  const record = resumed[0]!;
  expect(record.state).toBe('completed');
  expect(record.export?.accepted).toBe(true);
  expect(record.imports.filter((i) => i.accepted)).toHaveLength(1);

  // Exactly once: the source paid amount + one export fee, the destination got amount − one import fee.
  const importFee = BigInt(record.imports[0]!.fee);
  expect(await balanceOf(w.engine, from)).toBe(before.from - amount - BigInt(record.export!.fee));
  expect(await balanceOf(w.engine, to)).toBe(before.to + amount - importFee);
  expect(await w.engine.atomicSpendable(to, from)).toHaveLength(0);
  // Running the journal again changes nothing.
  expect(await new TransferRunner(w.engine, new TransferJournal(stores.local, key)).resumeAll()).toHaveLength(0);
  return record;
}

describe('a cross-chain transfer killed at every step completes exactly once', () => {
  for (const point of CRASH_POINTS) {
    it(`P → X, worker killed at "${point}"`, async () => {
      const w = await freshWallet({ p: 5n * AVAX });
      await crashAndResume(w, 'P', 'X', 2n * AVAX, point);
    });
  }

  for (const point of CRASH_POINTS) {
    it(`X → C, worker killed at "${point}"`, async () => {
      const w = await freshWallet({ x: 5n * AVAX });
      await crashAndResume(w, 'X', 'C', 2n * AVAX, point);
    });
  }

  it('an export the node refuses leaves the funds where they were and marks the transfer failed', async () => {
    const w = await freshWallet({ x: 3n * AVAX });
    const stores = memoryStores();
    const journal = new TransferJournal(stores.local, 'transfers:local:0');
    // Sign the export, then spend its inputs elsewhere before it is sent.
    const runner = new TransferRunner(w.engine, journal, {
      async checkpoint(p) {
        if (p === 'export-signed') {
          const { ctx } = await localNetwork();
          await w.engine.issueAndWait(await w.engine.buildXSend([{ assetID: ctx.avaxAssetID, amount: 1n * AVAX, owners: w.me }]));
        }
      },
    });
    const record = await runner.start('X', 'P', 1n * AVAX);
    expect(record.state).toBe('failed');
    expect(record.error).toBeTruthy();
    expect(await avaxOf(w.engine, 'P')).toBe(0n);
  });

  it('an import whose fee would take the move above the approved fees is not signed: the funds wait in atomic memory', async () => {
    const w = await freshWallet({ x: 3n * AVAX });
    const { ctx } = await localNetwork();
    const journal = new TransferJournal(memoryStores().local, 'transfers:local:0');
    const runner = new TransferRunner(w.engine, journal);
    // Exactly the export's fee: the export goes, the import (which costs more) does not.
    const refusal = await runner.start('X', 'P', 1n * AVAX, ctx.xTxFee).catch((e: unknown) => e);
    expect(refusal).toMatchObject({ code: 'fee-above-approved' });
    expect((refusal as Error).message).toContain(ctx.xTxFee.toString());
    const [record] = await journal.list();
    expect(record).toMatchObject({ state: 'export-accepted', imports: [], maxFee: ctx.xTxFee.toString() });
    expect(await avaxOf(w.engine, 'P')).toBe(0n);
    expect(await w.engine.buildImports('P', 'X')).toHaveLength(1);
    // A resume leaves it waiting rather than failing the others.
    expect(await runner.resumeAll()).toMatchObject([{ state: 'export-accepted' }]);
  });

  it('a move whose exported funds another import took ends, saying so, instead of waiting for ever', async () => {
    const w = await freshWallet({ x: 3n * AVAX });
    const journal = new TransferJournal(memoryStores().local, 'transfers:local:0');
    let otherFee = 0n;
    // Its import journaled, the same funds are imported first by another tx (another owner, so another ID).
    const runner = new TransferRunner(w.engine, journal, {
      async checkpoint(p) {
        if (p !== 'import-signed') return;
        const other = await engineOf(await localNetwork(), { xp: [...w.receive, ...w.change], evm: w.evm, change: w.receive[0]!.shortId });
        const [built] = await other.buildImports('P', 'X');
        otherFee = (await other.issueAndWait(built!)).fee;
      },
    });
    // Gone from atomic memory is at first only the node's listing: the move waits.
    await expect(runner.start('X', 'P', 1n * AVAX)).rejects.toMatchObject({ code: 'tx-processing' });
    expect((await journal.list())[0]).toMatchObject({ state: 'export-accepted', missingSince: expect.any(Number) });
    // Still gone ten minutes on: another import took them.
    const clock = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 10 * 60_000 + 1);
    try {
      const [record] = await runner.resumeAll();
      expect(record).toMatchObject({ state: 'completed', error: IMPORTED_ELSEWHERE, imports: [{ accepted: false }] });
    } finally {
      clock.mockRestore();
    }
    expect(await journal.unfinished()).toEqual([]);
    expect(await avaxOf(w.engine, 'P')).toBe(1n * AVAX - otherFee);
  });

  it('an import costlier than the import fee reviewed waits unsigned, though the export came out cheaper than reviewed', async () => {
    const w = await freshWallet({ x: 3n * AVAX });
    const { ctx } = await localNetwork();
    const journal = new TransferJournal(memoryStores().local, 'transfers:local:0');
    // Reviewed: the export at 1,000 nAVAX above what it costs, the import at 1 nAVAX below.
    const importFee = await w.engine.estimateImportFee('P', 'X', 1n * AVAX);
    const reviewedExport = ctx.xTxFee + 1_000n;
    const refusal = await new TransferRunner(w.engine, journal).start('X', 'P', 1n * AVAX, reviewedExport + importFee - 1n, reviewedExport).catch((e: unknown) => e);
    expect(refusal).toMatchObject({ code: 'fee-above-approved' });
    expect(await journal.list()).toMatchObject([{ state: 'export-accepted', imports: [] }]);
    expect(await avaxOf(w.engine, 'P')).toBe(0n);
  });

  it('a move more than the balance can carry fails at once with nothing sent, not tried again every minute', async () => {
    const w = await freshWallet({ x: 3n * AVAX });
    const journal = new TransferJournal(memoryStores().local, 'transfers:local:0');
    const record = await new TransferRunner(w.engine, journal).start('X', 'P', 3n * AVAX);
    expect(record).toMatchObject({ state: 'failed', error: expect.stringMatching(/^insufficient funds/) });
    expect(record.export).toBeUndefined();
    expect(await journal.unfinished()).toEqual([]);
    expect(await avaxOf(w.engine, 'X')).toBe(3n * AVAX);
  });

  it('an export above the approved fee is refused unsigned: the move fails and nothing moves', async () => {
    const w = await freshWallet({ x: 3n * AVAX });
    const { ctx } = await localNetwork();
    const runner = new TransferRunner(w.engine, new TransferJournal(memoryStores().local, 'transfers:local:0'));
    const record = await runner.start('X', 'P', 1n * AVAX, ctx.xTxFee - 1n);
    expect(record.state).toBe('failed');
    expect(record.export).toBeUndefined();
    expect(record.error).toContain(`${ctx.xTxFee} nAVAX`);
    expect(await avaxOf(w.engine, 'X')).toBe(3n * AVAX);
  });
});

describe('moves resumed by a restarted worker', () => {
  it("finish an account's move while another account is selected", async () => {
    const { wallet, stores, account } = await fundedWallet({ x: 3n * AVAX });
    const networkId = (await wallet.networks.networksList()).selectedId;
    // The move is journaled (begin signs nothing), then the worker dies before it runs; the user selects another account.
    const journal = await wallet.transfers.journal(networkId, account.id);
    const record = await new TransferRunner(null as unknown as WalletEngine, journal).begin('X', 'P', 1n * AVAX);
    const other = await wallet.accounts.accountsAdd({ name: 'Other' });
    await wallet.accounts.accountsSelect({ id: other.id });
    const restarted = (await startBackground(stores)).wallet;
    await restarted.transfers.resumeTransfers();
    expect(await journal.get(record.id)).toMatchObject({ state: 'completed', export: { accepted: true }, imports: [{ accepted: true }] });
  });
});

/** The Local network's address is the wallet's default; here it reaches the test node. */
const toTestNode = ((input: RequestInfo | URL, init?: RequestInit) => fetch(String(input).replace('http://127.0.0.1:9650', inject('nodeUrl')), init)) as typeof fetch;

/** A new wallet on the Local network entry (reaching the test node), its first account funded with 3 AVAX on X and refreshed. */
async function onLocalEntry() {
  const { ctx } = await localNetwork();
  const stores = memoryStores();
  const { wallet } = await startBackground(stores, { fetch: toTestNode });
  await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
  const account = (await wallet.networks.networksSelect({ id: 'local' })).account!;
  const genesis = await genesisEngine();
  await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 3n * AVAX, owners: makeOwners([parseAddress(account.xAddress).bytes]) }]));
  await wallet.balances.balancesRefresh();
  return { stores, wallet, account, genesis };
}

describe('moves kept per chains, not per network entry', () => {
  it('a move made through one entry finishes through another for the same node: the first is removed without a question, and the move shows on both', async () => {
    const { wallet, stores, account } = await fundedWallet({ x: 3n * AVAX });
    const first = (await wallet.networks.networksList()).selectedId;
    // Journaled (begin signs nothing), then the worker dies before it runs.
    const record = await new TransferRunner(null as unknown as WalletEngine, await wallet.transfers.journal(first, account.id)).begin('X', 'P', 1n * AVAX);
    const second = await wallet.networks.networksAddCustom({ name: 'Test node again', url: inject('nodeUrl') });
    await wallet.networks.networksSelect({ id: second.id });
    // The second entry runs it: removing the first stops nothing, so nothing is asked.
    await wallet.networks.networksRemove({ id: first });
    const restarted = (await startBackground(stores)).wallet;
    await restarted.transfers.resumeTransfers();
    const [done] = (await restarted.transfers.transfersList()).transfers;
    expect(done).toMatchObject({ id: record.id, state: 'completed' });
    expect((await restarted.balances.activityList()).items.filter((i) => i.kind === 'export' || i.kind === 'import').map((i) => [i.txID, i.status])).toEqual([
      [done!.importTxIDs[0], 'accepted'],
      [done!.exportTxID, 'accepted'],
    ]);
  });

  /** A move made through the entry first selected after a second one for the same node was scanned: its export goes to a change address only the first had handed out; then the worker dies. */
  async function moveToANewChangeAddress() {
    const { wallet, stores, account, ctx, avax, genesis } = await fundedWallet({ x: 3n * AVAX });
    const first = (await wallet.networks.networksList()).selectedId;
    const second = await wallet.networks.networksAddCustom({ name: 'Test node again', url: inject('nodeUrl') });
    await wallet.networks.networksSelect({ id: second.id });
    await wallet.balances.balancesRefresh();
    await wallet.networks.networksSelect({ id: first });
    await wallet.sends.sendX({ assetID: avax, amount: (AVAX / 2n).toString(), to: { addresses: [genesis.addresses('X')[0]!], threshold: 1 }, maxFee: ctx.xTxFee.toString() });
    const crashing = new TransferRunner((await wallet.site.siteEngine(account.id)).engine, await wallet.transfers.journal(first, account.id), {
      checkpoint(p) {
        if (p === 'export-accepted') throw new Crash('worker killed');
      },
    });
    const record = await crashing.begin('X', 'P', AVAX);
    await expect(crashing.run(record)).rejects.toBeInstanceOf(Crash);
    await wallet.networks.networksSelect({ id: second.id });
    return { wallet, stores, record, first };
  }

  it('a move whose export went to a change address only its own entry had handed out finishes through the other entry, selected, which knows that address too', async () => {
    const { wallet, record } = await moveToANewChangeAddress();
    await wallet.transfers.resumeTransfers();
    expect((await wallet.transfers.transfersList()).transfers).toMatchObject([{ id: record.id, state: 'completed' }]);
  });

  it('… and once its own entry is removed, the other still knows the addresses it handed out', async () => {
    const { wallet, stores, record, first } = await moveToANewChangeAddress();
    await wallet.networks.networksRemove({ id: first });
    const restarted = (await startBackground(stores)).wallet;
    await restarted.transfers.resumeTransfers();
    expect((await restarted.transfers.transfersList()).transfers).toMatchObject([{ id: record.id, state: 'completed' }]);
  });

  it('… and through the Local network entry, after a worker restart (its node not yet asked who it is)', async () => {
    const { ctx, identity } = await localNetwork();
    const { stores, wallet, account, genesis } = await onLocalEntry();
    const second = await wallet.networks.networksAddCustom({ name: 'Test node', url: inject('nodeUrl') });
    await wallet.networks.networksSelect({ id: second.id });
    await wallet.balances.balancesRefresh();
    await wallet.networks.networksSelect({ id: 'local' });
    await wallet.sends.sendX({ assetID: identity.avaxAssetID, amount: (AVAX / 2n).toString(), to: { addresses: [genesis.addresses('X')[0]!], threshold: 1 }, maxFee: ctx.xTxFee.toString() });
    const crashing = new TransferRunner((await wallet.site.siteEngine(account.id)).engine, await wallet.transfers.journal('local', account.id), {
      checkpoint(p) {
        if (p === 'export-accepted') throw new Crash('worker killed');
      },
    });
    const record = await crashing.begin('X', 'P', AVAX);
    await expect(crashing.run(record)).rejects.toBeInstanceOf(Crash);
    await wallet.networks.networksSelect({ id: second.id });
    const restarted = (await startBackground(stores, { fetch: toTestNode })).wallet;
    await restarted.transfers.resumeTransfers();
    expect((await restarted.transfers.transfersList()).transfers).toMatchObject([{ id: record.id, state: 'completed' }]);
  });

  it('an entry removed while the Local network entry for its node was not yet asked who it is (a restarted worker) hands the Local entry its addresses: funds at a change address only it handed out still show there', async () => {
    const { ctx, identity } = await localNetwork();
    const { stores, wallet } = await onLocalEntry();
    const second = await wallet.networks.networksAddCustom({ name: 'Test node', url: inject('nodeUrl') });
    await wallet.networks.networksSelect({ id: second.id });
    await wallet.balances.balancesRefresh();
    // Two sends through the second entry: the second one's change goes to a change address the Local entry never handed out.
    const bob = await freshWallet();
    for (let i = 0; i < 2; i++) {
      await wallet.sends.sendX({ assetID: identity.avaxAssetID, amount: (AVAX / 2n).toString(), to: { addresses: [bob.engine.addresses('X')[0]!], threshold: 1 }, maxFee: ctx.xTxFee.toString() });
    }
    await wallet.networks.networksSelect({ id: 'local' });
    const restarted = (await startBackground(stores, { fetch: toTestNode })).wallet;
    await restarted.networks.networksRemove({ id: second.id });
    const x = (await restarted.balances.balancesRefresh()).balances.find((b) => b.chain === 'X' && b.assetID === identity.avaxAssetID);
    expect(x?.spendable).toBe((2n * AVAX - 2n * ctx.xTxFee).toString());
  });

  it('a move an older version journaled with the Local network entry is taken into its chains\' journal: listed while the node is down, before and after, and finished once it answers', async () => {
    const { stores, account } = await onLocalEntry();
    const down = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    const older = entryJournalKey('local', account.id);
    const record = await new TransferRunner(null as unknown as WalletEngine, new TransferJournal(stores.local, older)).begin('X', 'P', 1n * AVAX);
    for (let i = 0; i < 2; i++) {
      const offline = (await startBackground(stores, { fetch: down })).wallet;
      expect((await offline.transfers.transfersList()).transfers).toMatchObject([{ id: record.id, state: 'pending' }]);
      expect(stores.local.keys()).not.toContain(older);
    }
    const restarted = (await startBackground(stores, { fetch: toTestNode })).wallet;
    await restarted.transfers.resumeTransfers();
    expect((await restarted.transfers.transfersList()).transfers).toMatchObject([{ id: record.id, state: 'completed' }]);
  });
});

describe('moves stopped by a lock', () => {
  it('go on as soon as the wallet is unlocked, not at the next alarm', async () => {
    const { wallet, account } = await fundedWallet({ x: 3n * AVAX });
    const journal = await wallet.transfers.journal((await wallet.networks.networksList()).selectedId, account.id);
    // Journaled (begin signs nothing), then the wallet locks before it runs.
    const record = await new TransferRunner(null as unknown as WalletEngine, journal).begin('X', 'P', 1n * AVAX);
    await wallet.accounts.walletLock();
    await wallet.accounts.walletUnlock({ password: PASSWORD });
    // Nothing else runs it here: no alarm, no Move screen.
    await expect.poll(async () => (await journal.get(record.id))?.state, { timeout: 30_000, interval: 200 }).toBe('completed');
  });
});

describe('moves after a worker restart while the node is down', () => {
  it('are still listed on the Move screen and in Activity, from storage alone', async () => {
    const { wallet, stores } = await fundedWallet({ x: 3n * AVAX });
    expect(await moveUntilDone(wallet, 'X', 'P', 1n * AVAX)).toBe('completed');
    const [move] = (await wallet.transfers.transfersList()).transfers;
    const down = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    const restarted = (await startBackground(stores, { fetch: down })).wallet;
    expect((await restarted.transfers.transfersList()).transfers).toEqual([move]);
    const activity = (await restarted.balances.activityList()).items.map((i) => i.txID);
    expect(activity).toEqual(expect.arrayContaining([move!.exportTxID, ...move!.importTxIDs]));
  });
});
