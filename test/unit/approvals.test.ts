import { describe, expect, it } from 'vitest';
import {
  ApprovalPendingError,
  ApprovalQueue,
  ApprovalQueueFullError,
  MAX_PENDING_APPROVALS,
  UnknownApprovalError,
} from '../../src/background/approvals.js';
import { memoryStores } from '../../src/background/storage.js';

const request = (origin: string, method = 'eth_sendTransaction') => ({ origin, method, params: { to: '0x00' }, summary: { text: 'send' } });

describe('the pending-approval queue', () => {
  it('wakes the waiter with the user decision and forgets the request', async () => {
    const queue = new ApprovalQueue(memoryStores().session);
    const entry = await queue.add(request('https://a.example'));
    const decision = queue.waitFor(entry.id);
    await queue.decide(entry.id, true);
    await expect(decision).resolves.toBe(true);
    expect(await queue.list()).toEqual([]);
    await expect(queue.decide(entry.id, false)).rejects.toBeInstanceOf(UnknownApprovalError);
  });

  it('allows one pending request per origin and method, and caps the queue', async () => {
    const queue = new ApprovalQueue(memoryStores().session);
    await queue.add(request('https://a.example'));
    await expect(queue.add(request('https://a.example'))).rejects.toBeInstanceOf(ApprovalPendingError);
    await queue.add(request('https://a.example', 'personal_sign'));
    await queue.add(request('https://b.example'));
    for (let i = (await queue.list()).length; i < MAX_PENDING_APPROVALS; i++) await queue.add(request(`https://${i}.example`));
    await expect(queue.add(request('https://late.example'))).rejects.toBeInstanceOf(ApprovalQueueFullError);
  });

  it('survives a worker restart: the pending request is still there, and a decision made there is seen', async () => {
    const stores = memoryStores();
    const before = new ApprovalQueue(stores.session);
    const entry = await before.add({ ...request('https://top.example'), frameOrigin: 'https://frame.example' });
    const after = new ApprovalQueue(stores.session);
    expect(await after.list()).toEqual([entry]);
    await after.decide(entry.id, false);
    // The restarted worker answering the original request finds the decision already made.
    await expect(new ApprovalQueue(stores.session).waitFor(entry.id)).resolves.toBe(false);
  });

  it('rejectAll answers every waiter with a rejection', async () => {
    const queue = new ApprovalQueue(memoryStores().session);
    const a = await queue.add(request('https://a.example'));
    const b = await queue.add(request('https://b.example'));
    const waits = [queue.waitFor(a.id), queue.waitFor(b.id)];
    await queue.rejectAll();
    await expect(Promise.all(waits)).resolves.toEqual([false, false]);
  });

  it('rejectAll(before) leaves a request that arrived after the window last looked, and says which it rejected', async () => {
    let now = 100;
    const queue = new ApprovalQueue(memoryStores().session, () => now);
    const seen = await queue.add(request('https://a.example'));
    now = 200;
    const late = await queue.add(request('https://b.example'));
    expect((await queue.rejectAll(150)).map((p) => p.id)).toEqual([seen.id]);
    await expect(queue.waitFor(seen.id)).resolves.toBe(false);
    expect((await queue.list()).map((p) => p.id)).toEqual([late.id]);
  });
});
