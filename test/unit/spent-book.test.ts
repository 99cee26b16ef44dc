import { describe, expect, it } from 'vitest';
import { SPENT_KEPT, SpentBook } from '../../src/background/spent-book.js';
import { memoryStores } from '../../src/background/storage.js';

const KEY = 'xpc.spent.local.a';

describe('the spent book', () => {
  it('knows a note at once, and every engine opened after it knows it too, with what other engines noted meanwhile; forgets a tx taken back', async () => {
    const { local } = memoryStores();
    const [a, b] = await Promise.all([SpentBook.open(local, KEY), SpentBook.open(local, KEY)]);
    a.note('t1', ['t1', 'u1:0']);
    b.note('t2', ['t2', 'u2:1']);
    expect(a.spenderOf('u1:0')).toBe('t1');
    expect(a.spenderOf('u2:1')).toBeUndefined();
    const later = await SpentBook.open(local, KEY);
    expect([later.spenderOf('u1:0'), later.spenderOf('u2:1'), later.spenderOf('t2'), later.spenderOf('u3:0')]).toEqual(['t1', 't2', 't2', undefined]);
    // A contradicted acceptance taken back: all it was noted to spend, here and in storage; the others stay.
    later.forget('t2');
    expect([later.spenderOf('u2:1'), later.spenderOf('t2'), later.spenderOf('u1:0')]).toEqual([undefined, undefined, 't1']);
    const again = await SpentBook.open(local, KEY);
    expect([again.spenderOf('u2:1'), again.spenderOf('t2'), again.spenderOf('u1:0')]).toEqual([undefined, undefined, 't1']);
  });

  it('keeps the newest SPENT_KEPT, reads a damaged record as empty, and forgets all on clear', async () => {
    const { local } = memoryStores();
    const book = await SpentBook.open(local, KEY);
    book.note('old', ['u0:0']);
    book.note('new', Array.from({ length: SPENT_KEPT }, (_, i) => `u${i + 1}:0`));
    const reopened = await SpentBook.open(local, KEY);
    expect(reopened.spenderOf('u0:0')).toBeUndefined();
    expect(reopened.spenderOf(`u${SPENT_KEPT}:0`)).toBe('new');
    await reopened.clear();
    expect(reopened.spenderOf('u1:0')).toBeUndefined();
    expect((await SpentBook.open(local, KEY)).spenderOf('u1:0')).toBeUndefined();
    await local.set({ [KEY]: { 'u1:0': 'x' } });
    expect((await SpentBook.open(local, KEY)).spenderOf('u1:0')).toBeUndefined();
    await local.set({ [KEY]: [['u1:0', 'x'], ['u2:0', 7], 'junk'] });
    const partly = await SpentBook.open(local, KEY);
    expect([partly.spenderOf('u1:0'), partly.spenderOf('u2:0')]).toEqual(['x', undefined]);
  });
});
