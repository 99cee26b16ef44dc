// Resuming moves, against the scripted engine: several at once, and on every account and network
// at worker start and on the minute alarm.
import { describe, expect, it } from 'vitest';
import { memoryStores, type StorageArea } from '../../src/background/storage.js';
import { TransferJournal } from '../../src/background/transfer-journal.js';
import { TransferRunner } from '../../src/background/transfer-runner.js';
import type { WalletEngine } from '../../src/core/engine.js';
import { journalKey } from '../../src/background/account-cache.js';
import { TransfersService } from '../../src/background/services/transfers.js';
import { NodeUnreachableError, WalletError } from '../../src/core/errors.js';
import { ScriptedChains } from './transfers-fixtures.js';

describe('resuming several transfers', () => {
  it('one that is stuck does not hold up the others: all run, then the first error is thrown', async () => {
    const chains = new ScriptedChains();
    const journal = new TransferJournal(memoryStores().local, 'transfers:test');
    const runner = new TransferRunner(chains.engine(), journal);
    const stuck = await runner.begin('P', 'X', 5_000n);
    const fine = await runner.begin('X', 'P', 7_000n);
    const engine = chains.engine();
    const build = engine.buildExport.bind(engine);
    // The node errors on every attempt to build the first move's export (its chain is P).
    (engine as unknown as { buildExport: WalletEngine['buildExport'] }).buildExport = async (from, to, amount) => {
      if (from === 'P') throw new WalletError('node-response', 'the node answered nonsense');
      return build(from, to, amount);
    };
    await expect(new TransferRunner(engine, journal).resumeAll()).rejects.toThrow('the node answered nonsense');
    const after = await journal.list();
    expect(after.find((r) => r.id === fine.id)).toMatchObject({ state: 'completed' });
    expect(after.find((r) => r.id === stuck.id)).toMatchObject({ state: 'pending' });
  });
});

describe('resuming moves (worker start, the minute alarm)', () => {
  const settings = (selected: string) => ({ accounts: [{ id: 'A' }, { id: 'B' }], selectedAccountId: selected, selectedNetworkId: 'net', customNetworks: [{ id: 'net' }, { id: 'other' }] });
  /** Engines over entries 'net' and 'other', each on chains of its own unless `chainsOf` names them; `down`: an entry whose node does not answer. */
  const enginesOver = (local: StorageArea, chains: ScriptedChains, s: ReturnType<typeof settings>, options: { chainsOf?: Record<string, string>; down?: string; opened?: string[] } = {}) => ({
    selected: async (accountId?: string, networkId?: string) => ({ s, preset: { id: networkId ?? s.selectedNetworkId }, account: { id: accountId ?? s.selectedAccountId } }),
    journal: async (preset: { id: string }, accountId: string) => new TransferJournal(local, journalKey(options.chainsOf?.[preset.id] ?? preset.id, accountId)),
    open: async (accountId?: string, networkId?: string) => {
      options.opened?.push(`${accountId}@${networkId}`);
      if (networkId === options.down) throw new NodeUnreachableError('http://127.0.0.1:9650', 'fetch failed');
      return { engine: chains.engine(), preset: { id: networkId }, account: { id: accountId } };
    },
  });

  it("runs every account's moves on every network, each with its own account's engine on its network, not only the selected one's", async () => {
    const chains = new ScriptedChains();
    const { local } = memoryStores();
    const a = await new TransferRunner(chains.engine(), new TransferJournal(local, journalKey('other', 'A'))).begin('X', 'P', 5_000n);
    const b = await new TransferRunner(chains.engine(), new TransferJournal(local, journalKey('net', 'B'))).begin('P', 'X', 6_000n);
    const opened: string[] = [];
    const service = new TransfersService(enginesOver(local, chains, settings('B'), { opened }) as never, { isUnlocked: () => true } as never, local);
    await service.resumeTransfers();
    expect(await new TransferJournal(local, journalKey('other', 'A')).get(a.id)).toMatchObject({ state: 'completed' });
    expect(await new TransferJournal(local, journalKey('net', 'B')).get(b.id)).toMatchObject({ state: 'completed' });
    // Only journals with unfinished moves open an engine (and ask their network's node).
    expect(opened.sort()).toEqual(['A@other', 'B@net']);
    await service.resumeTransfers();
    expect(opened).toHaveLength(2);
  });

  it('runs the moves of two entries for the same chains once, through the selected one; with its node down, through the other, and nothing is said stuck', async () => {
    const chains = new ScriptedChains();
    const { local } = memoryStores();
    const chainsOf = { net: 'same', other: 'same' };
    const move = async () => new TransferRunner(chains.engine(), new TransferJournal(local, journalKey('same', 'A'))).begin('X', 'P', 5_000n);
    const first = await move();
    const opened: string[] = [];
    await new TransfersService(enginesOver(local, chains, settings('A'), { chainsOf, opened }) as never, { isUnlocked: () => true } as never, local).resumeTransfers();
    expect(opened).toEqual(['A@net']);
    expect(await new TransferJournal(local, journalKey('same', 'A')).get(first.id)).toMatchObject({ state: 'completed' });

    const second = await move();
    opened.length = 0;
    await new TransfersService(enginesOver(local, chains, settings('A'), { chainsOf, opened, down: 'net' }) as never, { isUnlocked: () => true } as never, local).resumeTransfers();
    expect(opened).toEqual(['A@net', 'A@other']);
    expect(await new TransferJournal(local, journalKey('same', 'A')).get(second.id)).toMatchObject({ state: 'completed' });
  });

  it('an entry removed during the pass is skipped: the moves of the others still run, and nothing is said stuck', async () => {
    const chains = new ScriptedChains();
    const { local } = memoryStores();
    const b = await new TransferRunner(chains.engine(), new TransferJournal(local, journalKey('other', 'B'))).begin('P', 'X', 6_000n);
    const engines = enginesOver(local, chains, settings('A'));
    const gone = { ...engines, selected: async (accountId?: string, networkId?: string) => (networkId === 'net' ? Promise.reject(new Error('no network net')) : engines.selected(accountId, networkId)) };
    await new TransfersService(gone as never, { isUnlocked: () => true } as never, local).resumeTransfers();
    expect(await new TransferJournal(local, journalKey('other', 'B')).get(b.id)).toMatchObject({ state: 'completed' });
  });

  it('a journal that cannot be opened (damaged storage) holds up no other, and is said at the end', async () => {
    const chains = new ScriptedChains();
    const { local } = memoryStores();
    const b = await new TransferRunner(chains.engine(), new TransferJournal(local, journalKey('other', 'B'))).begin('P', 'X', 6_000n);
    const engines = enginesOver(local, chains, settings('A'));
    const damaged = { ...engines, journal: async (preset: { id: string }, accountId: string) => (preset.id === 'net' ? Promise.reject(new WalletError('storage-corrupt', 'the transfer journal is not a list')) : engines.journal(preset, accountId)) };
    await expect(new TransfersService(damaged as never, { isUnlocked: () => true } as never, local).resumeTransfers()).rejects.toMatchObject({ code: 'storage-corrupt' });
    expect(await new TransferJournal(local, journalKey('other', 'B')).get(b.id)).toMatchObject({ state: 'completed' });
  });

  it("signs a resumed C-Chain export in the nonce line of the move's own network, not the selected one's", async () => {
    const chains = new ScriptedChains();
    const { local } = memoryStores();
    const move = await new TransferRunner(chains.engine(), new TransferJournal(local, journalKey('other', 'A'))).begin('C', 'P', 5_000n);
    const lines: string[] = [];
    const delivery = {
      nonceLine: { inNonceLine: <T>(accountId: string, run: () => Promise<T>, networkId?: string) => (lines.push(`${accountId}@${networkId}`), run()) },
      beforeExport: async () => undefined,
      exportJournaled: async () => undefined,
    };
    await new TransfersService(enginesOver(local, chains, settings('A')) as never, { isUnlocked: () => true } as never, local, undefined, delivery as never).resumeTransfers();
    expect(await new TransferJournal(local, journalKey('other', 'A')).get(move.id)).toMatchObject({ state: 'completed' });
    expect(lines).toEqual(['A@other']);
  });

  it('one network whose node is down does not hold up the others; a locked wallet runs none', async () => {
    const chains = new ScriptedChains();
    const { local } = memoryStores();
    await new TransferRunner(chains.engine(), new TransferJournal(local, journalKey('net', 'A'))).begin('X', 'P', 5_000n);
    const b = await new TransferRunner(chains.engine(), new TransferJournal(local, journalKey('other', 'B'))).begin('P', 'X', 6_000n);
    let unlocked = false;
    const service = new TransfersService(enginesOver(local, chains, settings('A'), { down: 'net' }) as never, { isUnlocked: () => unlocked } as never, local);
    await service.resumeTransfers();
    expect(chains.sent).toEqual([]);
    unlocked = true;
    await expect(service.resumeTransfers()).rejects.toMatchObject({ code: 'node-unreachable' });
    expect(await new TransferJournal(local, journalKey('other', 'B')).get(b.id)).toMatchObject({ state: 'completed' });
  });
});
