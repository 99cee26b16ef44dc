// The outbox's C-Chain EVM txs against a scripted node: a tx is never given up by age while its
// nonce is unused, and a refused speed-up or cancel settles once a tx at its nonce ran.
import { describe, expect, it } from 'vitest';
import { Outbox, type OutboxEntry, outboxEntry } from '../../src/background/outbox.js';
import { sendOnce } from '../../src/background/outbox-send.js';
import { type Settled, settleOutbox } from '../../src/background/outbox-settle.js';
import { conflictsOf, settleRefused, withSuccessorsAsked } from '../../src/background/refused.js';
import { memoryStores } from '../../src/background/storage.js';
import { fromHex, toHex } from '../../src/core/bytes.js';
import { WalletEngine } from '../../src/core/engine.js';
import { RpcError } from '../../src/core/errors.js';
import type { NodeClient } from '../../src/core/node.js';
import { buildCExport, signEvmTx } from '../../src/core/tx/c.js';
import { makeOwners } from '../../src/core/tx/context.js';
import type { ActivityItem } from '../../src/shared/messages.js';
import { pTx } from './outbox-test-kit.js';
import { ctx, ewoq, second, utxo } from './pvm-test-kit.js';

/** What the node shows of the account: nonces used, txs that ran (a receipt of success), txs in its pool; `down`: no answer. */
interface EvmScript {
  used: bigint;
  ran: string[];
  held: string[];
  down?: boolean;
}

function evmEngine(s: EvmScript): WalletEngine {
  const up = <T>(v: T) => (s.down ? Promise.reject(new Error('node unreachable')) : Promise.resolve(v));
  const node = {
    eth: {
      getTransactionCount: () => up(s.used),
      getTransactionReceipt: (h: string) => up(s.ran.includes(h) ? { status: 1n, from: engine.evmAddress } : null),
      ethCall: (_m: string, [h]: [string]) => up(s.held.includes(h) ? { hash: h } : null),
      // Every send is refused (a speed-up the node will not take: "insufficient funds for queued cost").
      sendRawTransaction: () => Promise.reject(new RpcError('eth_sendRawTransaction', -32000, 'insufficient funds for gas * price + value')),
    },
  };
  const engine = new WalletEngine(node as unknown as NodeClient, ctx, { xp: [ewoq], evm: second, change: ewoq.shortId }, { evmChainId: 43112n });
  return engine;
}

/** The account's EVM tx at `nonce` (its fee cap tells a speed-up or a cancel from the original). */
function evmEntry(nonce: bigint, maxFeePerGas: bigint, item: Partial<ActivityItem> = {}): OutboxEntry {
  const signed = signEvmTx({ chainId: 43112n, nonce, to: '0x' + '11'.repeat(20), value: 1n, gasLimit: 21_000n, maxFeePerGas, maxPriorityFeePerGas: 1n }, second.secret);
  return outboxEntry('C', signed.hash, fromHex(signed.rawTx.slice(2)), { txID: signed.hash, chain: 'C', kind: 'send', status: 'pending', createdAt: 1, ...item });
}

const outbox = () => new Outbox(memoryStores().local, 'outbox');
const ids = async (o: Outbox) => (await o.list()).map((e) => e.txID);

async function settle(engine: WalletEngine, o: Outbox, successor: (txID: string) => 'accepted' | undefined = () => undefined): Promise<ReadonlyMap<string, Settled>> {
  let settled: ReadonlyMap<string, Settled> = new Map();
  await settleOutbox(engine, o, async (s) => void (settled = s), successor);
  return settled;
}

describe('an EVM tx undecided for a week', () => {
  it('stays while its nonce is unused (held, forgotten by the node, or the node unreachable): still offered for speed-up or cancel, its nonce still the wallet\'s', async () => {
    const o = outbox();
    const stuck = { ...evmEntry(5n, 10n), createdAt: 0 };
    await o.put(stuck);
    const node: EvmScript = { used: 5n, ran: [], held: [stuck.txID] };
    const engine = evmEngine(node);
    await settle(engine, o);
    expect(await ids(o)).toEqual([stuck.txID]);
    node.held = [];
    await settle(engine, o);
    node.down = true;
    await settle(engine, o);
    expect(await ids(o)).toEqual([stuck.txID]);
  });

  it("and so does a C-Chain export a site had the wallet send, whose nonce is unused: the account's later C-Chain txs wait behind it, and it is sent again however often it was", async () => {
    const o = outbox();
    const engine = evmEngine({ used: 5n, ran: [], held: [] });
    const built = buildCExport({ ctx, from: second.evmAddress, nonce: 5n, balanceWei: 10n ** 20n, destination: 'X', amount: 1_000_000n, to: makeOwners([ewoq.shortId]), baseFeeWei: 25n * 10n ** 9n });
    const signed = engine.sign(built);
    // Lost long ago, and sent again more times than any other tx is.
    const entry = { ...outboxEntry('C', signed.txID, signed.signedBytes, { txID: signed.txID, chain: 'C', kind: 'export', status: 'pending', createdAt: 1 }), createdAt: 0, resends: 50 };
    await o.put(entry);
    // Never executed (the node knows nothing of it), and the node cannot take it again now.
    let sentAgain = 0;
    (engine.node as unknown as { atomic: unknown }).atomic = { findExecutedAtomicTx: () => Promise.resolve(null), issueTx: () => (sentAgain++, Promise.reject(new Error('mempool full'))) };
    await settle(engine, o);
    expect(await ids(o)).toEqual([entry.txID]);
    // Nothing can replace it: it is sent again at each look, for as long as it takes.
    expect(sentAgain).toBe(1);
    await settle(engine, o);
    expect(sentAgain).toBe(2);
  });

  it('is given up once its nonce is used without a receipt of its own (unclear, as before)', async () => {
    const o = outbox();
    const stuck = { ...evmEntry(5n, 10n), createdAt: 0 };
    await o.put(stuck);
    expect((await settle(evmEngine({ used: 6n, ran: [], held: [] }), o)).get(stuck.txID)).toBe('unclear');
    expect(await ids(o)).toEqual([]);
  });
});

describe('a refused speed-up or cancel', () => {
  /** Tx A stuck at nonce 5, and its speed-up S the node refused (kept voided, A marked replaced by it). */
  async function refusedSpeedUp() {
    const o = outbox();
    const a = evmEntry(5n, 10n);
    const s = evmEntry(5n, 20n, { replaces: a.txID });
    await o.put(a);
    await o.put(s, [a.txID]);
    const node: EvmScript = { used: 5n, ran: [], held: [a.txID] };
    const engine = evmEngine(node);
    const refusal = await sendOnce(engine, o, s, 20).catch((e: unknown) => e);
    return { o, a, s, node, engine, refusal };
  }

  it('is told as refused with the original still waiting, not as taken over by the next send', async () => {
    const { o, s, refusal } = await refusedSpeedUp();
    expect(refusal).toMatchObject({ code: 'tx-refused', message: expect.stringMatching(/insufficient funds.*nothing was paid, and the transaction it was to replace still waits$/) });
    expect((await o.list()).find((e) => e.txID === s.txID)?.voided).toBe(true);
  });

  it('while the original waits, it is in no send\'s way (the next send takes the nonce after; that nonce runs once); a refused send whose nonce nothing holds still is', async () => {
    const { o, engine } = await refusedSpeedUp();
    const settle = () => settleRefused(engine, o, 'C', true, async () => undefined, () => undefined);
    await expect(settle()).resolves.toEqual([]);
    const alone = { ...evmEntry(6n, 10n), voided: true };
    await o.put(alone);
    expect((await settle()).map((e) => e.txID)).toEqual([alone.txID]);
  });

  it('once the original ran: a refresh settles it as replaced and drops it, never "may have gone through"', async () => {
    const { o, a, s, node, engine } = await refusedSpeedUp();
    Object.assign(node, { used: 6n, ran: [a.txID], held: [] });
    const settled = await settle(engine, o);
    expect([settled.get(a.txID), settled.get(s.txID)]).toEqual(['accepted', 'replaced']);
    expect(await o.list()).toEqual([]);
  });

  it('once the original ran, known only from Activity (it left the outbox before): replaced', async () => {
    const { o, a, s, node, engine } = await refusedSpeedUp();
    await o.remove(a.txID);
    Object.assign(node, { used: 6n, ran: [a.txID], held: [] });
    expect((await settle(engine, o, (id) => (id === a.txID ? 'accepted' : undefined))).get(s.txID)).toBe('replaced');
    expect(await o.list()).toEqual([]);
  });

  it('once a cancel of the original ran, before any refresh: the next send is not stopped, nothing is listed, and it leaves', async () => {
    const { o, a, s, node, engine } = await refusedSpeedUp();
    const cancel = evmEntry(5n, 30n, { replaces: a.txID });
    await o.put(cancel, [a.txID]);
    Object.assign(node, { used: 6n, ran: [cancel.txID], held: [] });
    const listed: ActivityItem[] = [];
    const successor = await withSuccessorsAsked(engine, await o.list(), () => undefined);
    await expect(settleRefused(engine, o, 'C', true, async (i) => void listed.push(i), successor)).resolves.toEqual([]);
    expect(listed).toEqual([]);
    expect(await ids(o)).toEqual([a.txID, cancel.txID]);
    // The refresh then settles the pair.
    const settled = await settle(engine, o);
    expect([settled.get(a.txID), settled.get(cancel.txID), settled.has(s.txID)]).toEqual(['replaced', 'accepted', false]);
    expect(await o.list()).toEqual([]);
  });

  it('whose nonce is used with no rival known to have run stays unclear (it may have run): the next send is stopped once', async () => {
    const { o, s, node, engine } = await refusedSpeedUp();
    Object.assign(node, { used: 6n, ran: [], held: [] });
    const successor = await withSuccessorsAsked(engine, await o.list(), () => undefined);
    await expect(settleRefused(engine, o, 'C', true, async () => undefined, successor)).rejects.toMatchObject({ code: 'earlier-send-unclear' });
    expect((await settle(engine, o)).get(s.txID)).toBe('unclear');
    expect(await ids(o)).toContain(s.txID);
  });

  it('held by the node (its nonce unused): a receipt claimed for the original does not settle it (no rival can have run)', async () => {
    const { o, a, s, node, engine } = await refusedSpeedUp();
    // A lie: a receipt of success for the original while the nonce is unused and the node holds the speed-up.
    Object.assign(node, { used: 5n, ran: [a.txID], held: [s.txID] });
    const successor = await withSuccessorsAsked(engine, await o.list(), () => undefined);
    const settled = new Map<string, Settled>();
    await settleOutbox(engine, o, async (x) => void x.forEach((v, k) => settled.set(k, v)), successor);
    expect(settled.get(s.txID)).toBe('unclear');
    expect(await ids(o)).toContain(s.txID);
  });
});

describe("a refused EVM tx whose nonce an atomic export took (Delivery.beforeExport, sendSiteTx marked it replaced by the export)", () => {
  it("stays in the next send's way, the move under way or not, the export a site's in the outbox too: the EVM pool can still run it, and the export then fails on its nonce", async () => {
    const o = outbox();
    const refused = { ...evmEntry(5n, 10n), voided: true, replacedBy: 'EXPORT' };
    await o.put(refused);
    const engine = evmEngine({ used: 5n, ran: [], held: [] });
    const settle = (moving: boolean) => settleRefused(engine, o, 'C', true, async () => undefined, (id) => (moving && id === 'EXPORT' ? 'moving' : undefined));
    for (const moving of [true, false]) expect((await settle(moving)).map((e) => e.txID)).toEqual([refused.txID]);
    // A site's C-Chain export at its nonce, undecided in the outbox.
    const built = buildCExport({ ctx, from: second.evmAddress, nonce: 5n, balanceWei: 10n ** 20n, destination: 'X', amount: 1_000_000n, to: makeOwners([ewoq.shortId]), baseFeeWei: 25n * 10n ** 9n });
    const signed = engine.sign(built);
    await o.put(outboxEntry('C', signed.txID, signed.signedBytes, { txID: signed.txID, chain: 'C', kind: 'export', status: 'pending', createdAt: 1 }));
    await o.markReplaced([refused.txID], signed.txID);
    expect((await settle(false)).map((e) => e.txID)).toEqual([refused.txID]);
  });

  it('held by the node: listed once as "may have gone through", and after that still in the way (the next send takes the nonce after the export\'s)', async () => {
    const o = outbox();
    const refused = { ...evmEntry(5n, 10n), voided: true, replacedBy: 'EXPORT' };
    await o.put(refused);
    const engine = evmEngine({ used: 5n, ran: [], held: [refused.txID] });
    const settle = () => settleRefused(engine, o, 'C', true, async () => undefined, (id) => (id === 'EXPORT' ? 'moving' : undefined));
    await expect(settle()).rejects.toMatchObject({ code: 'earlier-send-unclear' });
    expect((await settle()).map((e) => e.txID)).toEqual([refused.txID]);
    expect(() => conflictsOf([refused], 'C', { nonce: 6n })).toThrow(/could still go through/);
  });
});

describe("an EVM tx's fate", () => {
  it('with a receipt of its own that came after the used nonce was read (it ran between the two reads): accepted, not still waiting (never offered to speed up or cancel)', async () => {
    const entry = evmEntry(5n, 10n);
    const node: EvmScript = { used: 5n, ran: [entry.txID], held: [] };
    const engine = evmEngine(node);
    const receipt = engine.node.eth.getTransactionReceipt.bind(engine.node.eth);
    engine.node.eth.getTransactionReceipt = (h: string) => ((node.used = 6n), receipt(h));
    expect(await engine.txFate('C', entry.txID, fromHex(entry.signedHex))).toBe('accepted');
  });
});

describe('the rivals of refused EVM txs at one nonce', () => {
  it('are asked about once each, however many refused txs they are rivals of', async () => {
    const o = outbox();
    const refused = Array.from({ length: 6 }, (_, i) => ({ ...evmEntry(5n, 10n + BigInt(i)), voided: true }));
    for (const e of refused) await o.put(e);
    const engine = evmEngine({ used: 6n, ran: [], held: [] });
    let asked = 0;
    const evmState = engine.evmState.bind(engine);
    engine.evmState = (h: string) => (asked++, evmState(h));
    await withSuccessorsAsked(engine, await o.list(), () => undefined);
    expect(asked).toBe(6);
  });
});

describe('an EVM entry damaged in storage', () => {
  it('holds no nonce: given up after a week like any other, never kept for its nonce', async () => {
    const o = outbox();
    const damaged = { ...evmEntry(5n, 10n), signedHex: 'zz', createdAt: 0 };
    await o.put(damaged);
    await settle(evmEngine({ used: 5n, ran: [], held: [] }), o);
    expect(await ids(o)).toEqual([]);
  });
});

describe('an X/P tx the node no longer shows', () => {
  const pEntry = (txID: string, sendBefore?: number): OutboxEntry => ({
    chain: 'P',
    txID,
    signedHex: '00',
    item: { txID, chain: 'P', kind: 'staking-config', status: 'pending', createdAt: Date.now(), ...(sendBefore !== undefined ? { sendBefore } : {}) },
    createdAt: Date.now(),
    resends: 0,
  });
  /** The clocks an engine reads: this computer's, and the P-Chain's `chainAhead` seconds ahead of it. */
  const clocks = (chainAhead = 0) => ({ now: async (chain: string) => BigInt(Math.floor(Date.now() / 1000) + (chain === 'P' ? chainAhead : 0)) });

  it('is sent again, but never once past its sendBefore (a change to an auto-renewed validator the chain renewed since): then it did not run, and is failed, kept voided in the way of the next send', async () => {
    const o = outbox();
    const now = Math.floor(Date.now() / 1000);
    const late = pTx([utxo(5n)]);
    await o.put(pEntry('fresh', now + 600));
    await o.put({ ...pEntry(late.txID, now - 1), signedHex: toHex(late.bytes) });
    await o.put(pEntry('plain'));
    const sent: string[] = [];
    const engine = { ...clocks(), txFate: async () => 'not-seen', submit: async (_c: string, _b: Uint8Array, txID: string) => void sent.push(txID) } as unknown as WalletEngine;
    const settled = await settle(engine, o);
    expect(sent.sort()).toEqual(['fresh', 'plain']);
    expect([...settled]).toEqual([[late.txID, 'failed']]);
    expect((await o.list()).map((e) => [e.txID, e.voided === true])).toEqual([['fresh', false], [late.txID, true], ['plain', false]]);
    // Its bytes sent by someone else after all, it is told as having run, refresh after refresh,
    // and kept until the next send on its chain is stopped once with that news.
    const ran = { ...clocks(), txFate: async () => 'accepted' } as unknown as WalletEngine;
    expect((await settle(ran, o)).get(late.txID)).toBe('accepted');
    expect((await settle(ran, o)).get(late.txID)).toBe('accepted');
    expect((await o.list()).find((e) => e.txID === late.txID)).toMatchObject({ voided: true, ran: true });
    await expect(settleRefused(ran, o, 'P', false, async () => undefined, () => undefined)).rejects.toMatchObject({ code: 'earlier-send-went-through' });
    expect(await ids(o)).not.toContain(late.txID);
  });

  it("past its sendBefore by the chain's time, with this computer's clock behind it: never sent again, failed; while the chain's time cannot be read, left as it is", async () => {
    const o = outbox();
    const lost = pTx([utxo(5n)]);
    // Ten minutes ahead by this computer's clock, five minutes past by the chain's.
    await o.put({ ...pEntry(lost.txID, Math.floor(Date.now() / 1000) + 600), signedHex: toHex(lost.bytes) });
    const sent: string[] = [];
    const submit = async (_c: string, _b: Uint8Array, txID: string) => void sent.push(txID);
    const unreadable = (fate: string) => ({ now: async (chain: string) => (chain === 'P' ? Promise.reject(new Error('node unreachable')) : 0n), txFate: async () => fate, submit }) as unknown as WalletEngine;
    expect(await settle(unreadable('not-seen'), o)).toEqual(new Map());
    expect(sent).toEqual([]);
    const behind = { ...clocks(900), txFate: async () => 'not-seen', submit } as unknown as WalletEngine;
    expect([...(await settle(behind, o))]).toEqual([[lost.txID, 'failed']]);
    expect(sent).toEqual([]);
    expect((await o.list()).map((e) => [e.txID, e.voided])).toEqual([[lost.txID, true]]);
    // Its bytes sent by someone else after all: told as having run, whether or not the chain's time can be read.
    expect((await settle(unreadable('accepted'), o)).get(lost.txID)).toBe('accepted');
  });

  it("past its sendBefore by this computer's clock, with the chain's time behind it (an idle chain): never sent again, failed", async () => {
    const o = outbox();
    const lost = pTx([utxo(5n)]);
    await o.put({ ...pEntry(lost.txID, Math.floor(Date.now() / 1000) - 1), signedHex: toHex(lost.bytes) });
    const sent: string[] = [];
    const idle = { ...clocks(-3_600), txFate: async () => 'not-seen', submit: async (_c: string, _b: Uint8Array, txID: string) => void sent.push(txID) } as unknown as WalletEngine;
    expect([...(await settle(idle, o))]).toEqual([[lost.txID, 'failed']]);
    expect(sent).toEqual([]);
  });

  it('refused (voided), past its sendBefore, shown held once and then not known: failed, not "checking" for good', async () => {
    const o = outbox();
    const late = pTx([utxo(5n)]);
    await o.put({ ...pEntry(late.txID, Math.floor(Date.now() / 1000) - 1), signedHex: toHex(late.bytes), voided: true });
    const held = { ...clocks(), txFate: async () => 'processing' } as unknown as WalletEngine;
    expect((await settle(held, o)).get(late.txID)).toBe('unclear');
    const forgotten = { ...clocks(), txFate: async () => 'not-seen' } as unknown as WalletEngine;
    expect((await settle(forgotten, o)).get(late.txID)).toBe('failed');
    expect((await o.list()).map((e) => [e.txID, e.voided])).toEqual([[late.txID, true]]);
  });

  it('a week old and unreadable (damaged storage): given up, and no refresh is held up by it', async () => {
    const o = outbox();
    await o.put({ ...pEntry('damaged'), signedHex: 'zz', createdAt: 0 });
    const fine = pTx([utxo(7n)]);
    await o.put({ ...pEntry(fine.txID), signedHex: toHex(fine.bytes) });
    const engine = { txFate: async (_c: string, txID: string) => (txID === fine.txID ? 'accepted' : 'not-seen'), submit: async () => undefined } as unknown as WalletEngine;
    expect((await settle(engine, o)).get(fine.txID)).toBe('accepted');
    expect(await ids(o)).toEqual([]);
  });

  it('past its sendBefore but unreadable (damaged storage): left as it is, neither failed nor dropped', async () => {
    const o = outbox();
    await o.put(pEntry('damaged', Math.floor(Date.now() / 1000) - 1));
    const engine = { ...clocks(), txFate: async () => 'not-seen', submit: async () => undefined } as unknown as WalletEngine;
    expect(await settle(engine, o)).toEqual(new Map());
    expect(await ids(o)).toEqual(['damaged']);
  });
});
