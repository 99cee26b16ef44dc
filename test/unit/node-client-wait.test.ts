// NodeClient.waitForTx against a fake node: the statuses of each chain, proof by the tx bytes,
// timeouts, unreachable polls and abort.
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { fromHex } from '../../src/core/bytes.js';
import { cb58Encode, toApiHex } from '../../src/core/encoding.js';
import { AbortedError, RpcError, TimeoutError, ValidationError } from '../../src/core/errors.js';
import { client, fakeNode, type Route } from './node-client-fixtures.js';

describe('waitForTx', () => {
  const ID = cb58Encode(sha256(fromHex('01')));

  /** The tx itself, as a node that has it returns it: bytes that hash to ID. */
  const withTx =
    (status: Route): Route =>
    (c) =>
      c.method.endsWith('.getTx') ? { result: { tx: toApiHex(fromHex('01')), encoding: 'hex' } } : status(c);

  it('X: keeps polling through Unknown until Accepted, proven by the tx bytes', async () => {
    let n = 0;
    const { url, calls } = await fakeNode(withTx(() => ({ result: { status: ++n < 3 ? 'Unknown' : 'Accepted' } })));
    const r = await client(url).waitForTx('X', ID, { pollMs: 5, timeoutMs: 5000 });
    expect(r).toEqual({ chain: 'X', txID: ID, accepted: true, status: 'Accepted' });
    expect(calls.map((c) => c.method)).toEqual(['avm.getTxStatus', 'avm.getTxStatus', 'avm.getTxStatus', 'avm.getTx']);
  });

  it('X and P: an "accepted" without the tx bytes is not final; bytes of another tx are a lie', async () => {
    for (const [chain, status] of [['X', 'Accepted'], ['P', 'Committed']] as const) {
      const claim = await fakeNode((c) => (c.method.endsWith('.getTx') ? { error: { code: -32000, message: 'not found' } } : { result: { status } }));
      await expect(client(claim.url).waitForTx(chain, ID, { pollMs: 5, timeoutMs: 60 })).rejects.toThrow(/returns no bytes for it/);
      const lie = await fakeNode((c) => (c.method.endsWith('.getTx') ? { result: { tx: toApiHex(fromHex('02')), encoding: 'hex' } } : { result: { status } }));
      await expect(client(lie.url).waitForTx(chain, ID, { pollMs: 5 })).rejects.toThrow(/do not hash/);
    }
  });

  it('P: Committed is success; Dropped is a final failure with its reason', async () => {
    const ok = await fakeNode(withTx(() => ({ result: { status: 'Committed' } })));
    expect((await client(ok.url).waitForTx('P', ID, { pollMs: 5 })).accepted).toBe(true);
    const dropped = await fakeNode(() => ({ result: { status: 'Dropped', reason: 'insufficient funds' } }));
    expect(await client(dropped.url).waitForTx('P', ID, { pollMs: 5 })).toEqual({
      chain: 'P',
      txID: ID,
      accepted: false,
      status: 'Dropped',
      reason: 'insufficient funds',
    });
  });

  it('P: times out with the last status and reason in the message', async () => {
    const { url } = await fakeNode(() => ({ result: { status: 'Processing', reason: 'waiting for a block' } }));
    const err = await client(url).waitForTx('P', ID, { pollMs: 10, timeoutMs: 120 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as Error).message).toMatch(/Processing \(waiting for a block\)/);
  });

  it('rides out an unreachable poll, but not an RPC error', async () => {
    let n = 0;
    const flaky = await fakeNode(withTx(() => (++n === 1 ? { raw: 'garbage' } : { result: { status: 'Accepted' } })));
    expect((await client(flaky.url).waitForTx('X', ID, { pollMs: 5 })).accepted).toBe(true);
    const broken = await fakeNode(() => ({ error: { code: -32000, message: 'bad txID' } }));
    await expect(client(broken.url).waitForTx('X', ID, { pollMs: 5 })).rejects.toBeInstanceOf(RpcError);
  });

  it('C atomic (Helicon): accepted only when getAtomicTx returns the hash-checked tx with its height; "not found" is never failure', async () => {
    let polls = 0;
    let latest = 11;
    // Under async execution the node says "not found" until the block holding the tx executed; and
    // the latest state (what balances are read from) shows that block a moment later still.
    const acc = await fakeNode((call) => {
      if (call.method === 'eth_blockNumber') return { result: `0x${(latest++).toString(16)}` };
      return ++polls < 3 ? { error: { code: -32000, message: 'fetching tx: reading tx: not found' } } : { result: { tx: toApiHex(fromHex('01')), encoding: 'hex', blockHeight: '12' } };
    });
    const r = await client(acc.url).waitForTx('C', ID, { pollMs: 5 });
    expect(r).toMatchObject({ accepted: true, status: 'Accepted', blockHeight: 12n });
    expect(acc.calls.map((c) => c.method)).toEqual(['avax.getAtomicTx', 'avax.getAtomicTx', 'avax.getAtomicTx', 'eth_blockNumber', 'avax.getAtomicTx', 'eth_blockNumber']);

    // Found but without a height (pre-Helicon: accepted, not yet in state) is not final either.
    const noHeight = await fakeNode(() => ({ result: { tx: toApiHex(fromHex('01')), encoding: 'hex' } }));
    await expect(client(noHeight.url).waitForTx('C', ID, { pollMs: 5, timeoutMs: 50 })).rejects.toThrow(/not final.*not executed yet/);
    // Never found: a timeout naming what the node said, never a failure.
    const never = await fakeNode(() => ({ error: { code: -32000, message: 'fetching tx: reading tx: not found' } }));
    await expect(client(never.url).waitForTx('C', ID, { pollMs: 5, timeoutMs: 50 })).rejects.toBeInstanceOf(TimeoutError);
    // Bytes that do not hash to the ID are a lie, not an acceptance.
    const lie = await fakeNode(() => ({ result: { tx: toApiHex(fromHex('02')), encoding: 'hex', blockHeight: '12' } }));
    await expect(client(lie.url).waitForTx('C', ID, { pollMs: 5 })).rejects.toThrow(/do not hash/);
    // Any other RPC error is not "not found".
    const broken = await fakeNode(() => ({ error: { code: -32000, message: 'database closed' } }));
    await expect(client(broken.url).waitForTx('C', ID, { pollMs: 5 })).rejects.toBeInstanceOf(RpcError);
  });

  it('C EVM (0x hash): waits for a receipt and reads its status', async () => {
    const hash = '0x' + 'ab'.repeat(32);
    let n = 0;
    const receipt = {
      transactionHash: hash,
      blockHash: '0x' + '01'.repeat(32),
      blockNumber: '0x10',
      status: '0x0',
      gasUsed: '0x5208',
      effectiveGasPrice: '0x1',
      from: '0x' + '02'.repeat(20),
      to: '0x' + '03'.repeat(20),
      contractAddress: null,
    };
    const { url, calls } = await fakeNode((call) => (call.method === 'eth_blockNumber' ? { result: '0x10' } : { result: ++n < 2 ? null : receipt }));
    const r = await client(url).waitForTx('C', hash, { pollMs: 5 });
    expect(r).toMatchObject({ accepted: false, status: 'Reverted', blockHeight: 16n });
    expect(r.receipt?.gasUsed).toBe(21000n);
    // Final once the latest state (block 16 here) holds the receipt's block.
    expect(calls.map((c) => `${c.path} ${c.method}`)).toEqual(['/ext/bc/C/rpc eth_getTransactionReceipt', '/ext/bc/C/rpc eth_getTransactionReceipt', '/ext/bc/C/rpc eth_blockNumber']);
  });

  it('stops at once on abort', async () => {
    const { url } = await fakeNode(() => ({ result: { status: 'Unknown' } }));
    const c = new AbortController();
    const p = client(url).waitForTx('X', ID, { pollMs: 1000, timeoutMs: 60_000, signal: c.signal });
    setTimeout(() => c.abort(), 50);
    await expect(p).rejects.toBeInstanceOf(AbortedError);
  });

  it('refuses a malformed tx ID', async () => {
    await expect(client('http://127.0.0.1:1').waitForTx('X', 'nope')).rejects.toBeInstanceOf(ValidationError);
  });
});
