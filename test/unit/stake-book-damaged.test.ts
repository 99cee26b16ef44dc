// A stake book with damaged records in storage (src/background/stake-book.ts list()): each is
// skipped, the good ones are read as before, and the next write leaves the damaged ones out.
import { describe, expect, it } from 'vitest';
import { StakeBook, stakedAmounts, type StakeRecord } from '../../src/background/stake-book.js';
import { memoryStores } from '../../src/background/storage.js';
import { rewardViews, myStakeView } from '../../src/background/staking-views.js';

const KEY = 'xpc.stakes.n.a';
const ME = 'P-custom18jma8ppw3nhx5r4ap8clazz0dps7rv5u9xde7p';
const NODE = 'NodeID-BqUj8Y8GtNthdgxRD3z9NKWy3ru3K338C';
const good: StakeRecord = {
  txID: '4uEw1KbnkyrNFZrqQ6812e79cZWEe6PNSzLeLdqyTdfPNT8c2',
  kind: 'delegation',
  nodeID: NODE,
  amount: '25000000000',
  state: 'active',
  start: 1000,
  end: 999_999,
  rewardOwner: { addresses: [ME], threshold: 1 },
  rewards: [{ txID: 'r1', kind: 'delegation', amount: '5', paidAt: 1, to: ME, yours: true }],
  byWallet: true,
  createdAt: 1,
};
const damaged: unknown[] = [
  null,
  7,
  'stake',
  {},
  { ...good, txID: 'no-rewards', rewards: undefined },
  { ...good, txID: 'no-owner', rewardOwner: undefined },
  { ...good, txID: 'owner-no-addresses', rewardOwner: {} },
  { ...good, txID: 'authority-no-addresses', authority: {} },
  { ...good, txID: 'fee-owner-no-addresses', delegationFeeOwner: { addresses: 'x' } },
  { ...good, txID: undefined },
  { ...good, txID: 'no-state', state: undefined },
  { ...good, txID: 'unknown-state', state: 'gone' },
  { ...good, txID: 'no-amount', amount: undefined },
  { ...good, txID: 'amount-not-a-number', amount: '1e3' },
  { ...good, txID: 'null-reward', rewards: [null] },
  { ...good, txID: 'reward-amount-not-a-number', rewards: [{ ...good.rewards[0], amount: 'five' }] },
];

async function damagedBook() {
  const { local } = memoryStores();
  await local.set({ [KEY]: { version: 1, stakes: [damaged[0], good, ...damaged.slice(1)] } });
  return { local, book: new StakeBook(local, KEY) };
}

describe('a stake book with damaged records', () => {
  it('lists the good record only, and balances, stake views and rewards read it', async () => {
    const { book } = await damagedBook();
    const stakes = await book.list();
    expect(stakes).toEqual([good]);
    expect(stakedAmounts(stakes, 2000, new Map())).toEqual([{ amount: '25000000000', unlocksAt: 999_999 }]);
    expect(stakes.map((s) => myStakeView(s, new Set([ME])).txID)).toEqual([good.txID]);
    expect(rewardViews(stakes).map((r) => r.txID)).toEqual(['r1']);
  });

  it('records a new stake, and the damaged records are gone from storage after that write', async () => {
    const { local, book } = await damagedBook();
    const added: StakeRecord = { ...good, txID: '2oGdUn5yVfo8xBCvLaBgAvKEMJgVMJZyGiS5mgpRkqDQA5BX1E', state: 'pending', rewards: [] };
    await book.put(added);
    expect(await book.list()).toEqual([added, good]);
    const stored = (await local.get([KEY]))[KEY] as { version: number; stakes: unknown[] };
    expect(stored).toEqual({ version: 1, stakes: [added, good] });
  });

  it('still refuses a book whose envelope cannot be read, and leaves it as it is', async () => {
    const { local } = memoryStores();
    await local.set({ [KEY]: { version: 1, stakes: 'x' } });
    const book = new StakeBook(local, KEY);
    await expect(book.list()).rejects.toMatchObject({ code: 'storage-corrupt' });
    await expect(book.put(good)).rejects.toMatchObject({ code: 'storage-corrupt' });
    expect((await local.get([KEY]))[KEY]).toEqual({ version: 1, stakes: 'x' });
  });
});
