// @vitest-environment happy-dom
// The content script's relay when the background does not answer: what it sends again (a stopped
// worker, the back/forward cache), and what it answers the page at once instead.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_ATTEMPTS, MAX_QUICK_FAILURES, QUICK_FAILURE_MS, RESTORE_GRACE_MS } from '../../src/content/relay.js';
import { INPAGE_TARGET } from '../../src/shared/provider-protocol.js';
import { ok, pageShow, setup, stopRelays } from './content-relay-test-kit.js';

const CHANNEL_CLOSED =
  'A listener indicated an asynchronous response by returning true, but the message channel closed before a response was received';
const NO_RECEIVER = 'Could not establish connection. Receiving end does not exist.';
/** Chrome (123 on) closes a page's message channels when the page goes into the back/forward cache. */
const BFCACHE = 'The page keeping the extension port is moved into back/forward cache, so the message channel is closed.';

afterEach(stopRelays);

describe('a stopped background', () => {
  it('takes no answer at all (a message no listener answered) as a stopped worker and sends again', async () => {
    let calls = 0;
    const t = setup(async () => (++calls === 1 ? undefined : { ok: true, result: '0xa868' }));
    t.request('u', 'eth_chainId');
    expect(await t.answerTo('u')).toEqual({ ok: true, result: '0xa868' });
    expect(t.sendMessage).toHaveBeenCalledTimes(2);
  });

  it.each([
    ['the worker stopped', CHANNEL_CLOSED],
    ['the page went into the back/forward cache', BFCACHE],
  ])('sends the same message again after the channel closed (%s), and answers with the result', async (_why, lost) => {
    let calls = 0;
    const t = setup(async () => {
      calls++;
      if (calls === 1) throw new Error(lost);
      return { ok: true, result: ['0xaaa'] };
    });
    t.request('p', 'eth_requestAccounts');

    expect(await t.answerTo('p')).toEqual({ ok: true, result: ['0xaaa'] });
    expect(t.sendMessage).toHaveBeenCalledTimes(2);
    const [first, second] = t.sendMessage.mock.calls.map(([m]) => m);
    expect(second).toEqual(first);
    expect(second?.requestId).toBe('rid-1');
    expect(t.deps.sleep).toHaveBeenCalledTimes(1);
    expect(t.toPage.some((m) => m.event === 'disconnect')).toBe(false);
  });

  it('sends a request still on its way again, shortly after the page is back from the back/forward cache (Chrome: the first send never settles)', async () => {
    let calls = 0;
    const t = setup(async () => {
      calls++;
      // Chrome closed the channel when the page left: that send hears nothing, ever.
      if (calls === 1) return new Promise<never>(() => undefined);
      return { ok: true, result: '0xsigned' };
    });
    t.request('p', 'personal_sign', ['0x68690a', '0xaaa']);
    await vi.waitFor(() => expect(t.sendMessage).toHaveBeenCalledOnce());
    // A pageshow that is not a return from the cache (the first load), or that the page made
    // itself, sends nothing again.
    t.win.dispatchEvent(pageShow({ persisted: false, trusted: true }));
    t.win.dispatchEvent(pageShow({ persisted: true, trusted: false }));
    await new Promise((r) => setTimeout(r, 20));
    expect(t.sendMessage).toHaveBeenCalledOnce();
    expect(t.deps.sleep).not.toHaveBeenCalled();

    t.win.dispatchEvent(pageShow({ persisted: true, trusted: true }));
    expect(await t.answerTo('p')).toEqual({ ok: true, result: '0xsigned' });
    const [first, second] = t.sendMessage.mock.calls.map(([m]) => m);
    expect(second).toEqual(first);
    expect(second?.requestId).toBe('rid-1');
    // The grace for an answer still on its way, and no back-off: nothing failed.
    expect(t.deps.sleep.mock.calls).toEqual([[RESTORE_GRACE_MS]]);
    expect(t.toPage.filter((m) => m.id === 'p')).toHaveLength(1);
  });

  it('takes an answer that arrives within the grace after the return, and sends nothing again (Firefox keeps the channel)', async () => {
    let answer!: (reply: unknown) => void;
    const t = setup(() => new Promise((resolve) => (answer = resolve)));
    // The grace ends only when the test says so.
    let graceOver!: () => void;
    t.deps.sleep.mockImplementation(() => new Promise<void>((resolve) => (graceOver = resolve)));
    t.request('p', 'eth_getFilterChanges', ['0x1']);
    await vi.waitFor(() => expect(t.sendMessage).toHaveBeenCalledOnce());
    t.win.dispatchEvent(pageShow({ persisted: true, trusted: true }));
    await vi.waitFor(() => expect(t.deps.sleep).toHaveBeenCalledWith(RESTORE_GRACE_MS));
    answer({ ok: true, result: ['0xlog'] });
    expect(await t.answerTo('p')).toEqual({ ok: true, result: ['0xlog'] });
    graceOver();
    await new Promise((r) => setTimeout(r, 20));
    expect(t.sendMessage).toHaveBeenCalledOnce();
    expect(t.toPage.filter((m) => m.id === 'p')).toHaveLength(1);
  });

  it(`returns from the back/forward cache do not count towards the ${MAX_ATTEMPTS} failed sends: the request still waits for its approval`, async () => {
    let calls = 0;
    const t = setup(async () => {
      calls++;
      if (calls <= MAX_ATTEMPTS + 5) return new Promise<never>(() => undefined);
      return { ok: true, result: '0xsigned' };
    });
    t.request('p', 'personal_sign', ['0x68690a', '0xaaa']);
    for (let trip = 1; trip <= MAX_ATTEMPTS + 5; trip++) {
      await vi.waitFor(() => expect(t.sendMessage).toHaveBeenCalledTimes(trip));
      t.win.dispatchEvent(pageShow({ persisted: true, trusted: true }));
    }
    expect(await t.answerTo('p')).toEqual({ ok: true, result: '0xsigned' });
    expect(t.sendMessage).toHaveBeenCalledTimes(MAX_ATTEMPTS + 6);
  });

  it(`a channel closed for the back/forward cache is no failed attempt, however often (${MAX_ATTEMPTS + 5} in a row)`, async () => {
    let calls = 0;
    const t = setup(async () => {
      calls++;
      if (calls <= MAX_ATTEMPTS + 5) throw new Error(BFCACHE);
      return { ok: true, result: '0xsigned' };
    });
    t.request('p', 'personal_sign', ['0x68690a', '0xaaa']);
    expect(await t.answerTo('p')).toEqual({ ok: true, result: '0xsigned' });
    expect(t.sendMessage).toHaveBeenCalledTimes(MAX_ATTEMPTS + 6);
    expect(new Set(t.sendMessage.mock.calls.map(([m]) => m.requestId))).toEqual(new Set(['rid-1']));
  });

  it('a return from the back/forward cache concerns only the requests then on their way: none before, none after', async () => {
    const t = setup(ok('0xa868'));
    for (let i = 0; i < 30; i++) t.request(`before-${i}`, 'eth_chainId');
    for (let i = 0; i < 30; i++) expect(await t.answerTo(`before-${i}`)).toEqual({ ok: true, result: '0xa868' });
    // Answered sends keep no trigger behind them (so none piles up over a page's life).
    t.win.dispatchEvent(pageShow({ persisted: true, trusted: true }));
    expect(t.deps.sleep).not.toHaveBeenCalled();
    t.request('later', 'eth_chainId');
    expect(await t.answerTo('later')).toEqual({ ok: true, result: '0xa868' });
    expect(t.sendMessage).toHaveBeenCalledTimes(31);
    expect(t.deps.sleep).not.toHaveBeenCalled();
  });

  it('answers 4900 after repeated quick failures, without disconnecting the page', async () => {
    let fail = true;
    const t = setup(async () => {
      if (fail) throw new Error(NO_RECEIVER);
      return { ok: true, result: '0x1' };
    });
    t.request('p', 'eth_chainId');

    expect((await t.answerTo('p')).error?.code).toBe(4900);
    expect(t.sendMessage).toHaveBeenCalledTimes(MAX_QUICK_FAILURES);
    expect(new Set(t.sendMessage.mock.calls.map(([m]) => m.requestId))).toEqual(new Set(['rid-1']));
    // Backing off: each wait longer than the one before.
    const waits = t.deps.sleep.mock.calls.map(([ms]) => ms);
    expect(waits).toHaveLength(MAX_QUICK_FAILURES - 1);
    waits.slice(1).forEach((ms, i) => expect(ms).toBeGreaterThan(waits[i]!));

    // The extension is still there: the next request is tried again.
    fail = false;
    t.request('q', 'eth_chainId');
    expect(await t.answerTo('q')).toEqual({ ok: true, result: '0x1' });
    expect(t.toPage.some((m) => m.event === 'disconnect')).toBe(false);
  });

  it('does not count a failure after a long wait (an approval) as a quick one', async () => {
    let calls = 0;
    const t = setup(async () => {
      calls++;
      if (calls === 5) t.clock.now += QUICK_FAILURE_MS + 1_000; // the user looked at the approval for a while
      if (calls < 10) throw new Error(CHANNEL_CLOSED);
      return { ok: true, result: '0xsigned' };
    });
    t.request('p', 'eth_sendTransaction', [{}]);

    // 4 quick failures, a slow one (resets the count), 4 quick ones, then the answer.
    expect(await t.answerTo('p')).toEqual({ ok: true, result: '0xsigned' });
    expect(t.sendMessage).toHaveBeenCalledTimes(10);
  });

  it('answers -32603 at once, sending once, when sendMessage fails for another reason than a stopped worker', async () => {
    for (const reason of ['Could not serialize message.', 'DataCloneError: The object could not be cloned.', 'Error: An unexpected error occurred']) {
      const t = setup(() => Promise.reject(new Error(reason)));
      t.request('p', 'eth_chainId');
      expect((await t.answerTo('p')).error?.code, reason).toBe(-32603);
      expect(t.sendMessage).toHaveBeenCalledTimes(1);
      expect(t.toPage.some((m) => m.event === 'disconnect')).toBe(false);
    }
  });

  it(`gives up after ${MAX_ATTEMPTS} sends even when every failure is slow (a worker that dies on this request each time)`, async () => {
    const t = setup(async () => {
      t.clock.now += QUICK_FAILURE_MS + 1;
      throw new Error(CHANNEL_CLOSED);
    });
    t.request('p', 'eth_call', [{}]);
    expect((await t.answerTo('p')).error?.code).toBe(4900);
    expect(t.sendMessage).toHaveBeenCalledTimes(MAX_ATTEMPTS);
  });

  it('answers 4900 and tells the page it is disconnected when the extension context is gone', async () => {
    const t = setup(async () => {
      throw new Error('Extension context invalidated.');
    });
    t.request('p', 'eth_chainId');
    expect((await t.answerTo('p')).error?.code).toBe(4900);
    await vi.waitFor(() => expect(t.toPage).toContainEqual({ target: INPAGE_TARGET, event: 'disconnect' }));
    expect(t.sendMessage).toHaveBeenCalledTimes(1);

    // Later requests are answered at once, and the page is told only once.
    t.request('q', 'eth_chainId');
    expect((await t.answerTo('q')).error?.code).toBe(4900);
    expect(t.sendMessage).toHaveBeenCalledTimes(1);
    expect(t.toPage.filter((m) => m.event === 'disconnect')).toHaveLength(1);
  });

  it('treats a failure with runtime.id gone as a lost context, whatever the message says', async () => {
    const t = setup(() => Promise.reject(new Error(NO_RECEIVER)));
    t.deps.isContextValid.mockReturnValue(false);
    t.request('p', 'eth_chainId');
    expect((await t.answerTo('p')).error?.code).toBe(4900);
    await vi.waitFor(() => expect(t.toPage.some((m) => m.event === 'disconnect')).toBe(true));
    expect(t.sendMessage).toHaveBeenCalledTimes(1);
    expect(t.deps.sleep).not.toHaveBeenCalled();
  });

  it('handles a sendMessage that throws instead of rejecting', async () => {
    const t = setup(() => {
      throw new Error('Extension context invalidated.');
    });
    t.request('p', 'eth_chainId');
    expect((await t.answerTo('p')).error?.code).toBe(4900);
  });
});
