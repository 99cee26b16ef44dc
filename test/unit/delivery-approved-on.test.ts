// A site's X/P tx is checked and sent only on the network it was approved on: the wallet switched
// since, the signing check and the send refuse it before anything of it is kept or sent.
import { describe, expect, it } from 'vitest';
import { Delivery } from '../../src/background/delivery.js';

describe("a site's X/P tx after the wallet switched networks", () => {
  it('is refused at the signing check and at the send, with nothing opened past the selected network', async () => {
    const opened: string[] = [];
    // The wallet is now on Fuji; the tx was approved on the Local network.
    const engines = { open: async (accountId: string) => (opened.push(accountId), { preset: { id: 'fuji' }, account: { id: accountId }, engine: {} }) };
    const delivery = new Delivery(engines as never);
    const signed = { chain: 'P' as const, txID: 'tx', signedBytes: new Uint8Array([1]) };
    const switched = { code: 'stale-approval', message: 'the wallet was switched to another network since this was approved; nothing was sent: ask again' };
    await expect(delivery.checkSiteSigning('acc', 'P', signed.signedBytes, 'local')).rejects.toMatchObject(switched);
    await expect(delivery.sendSiteTx('acc', signed, { txID: 'tx', chain: 'P', kind: 'send', status: 'pending', createdAt: 1 }, 'local')).rejects.toMatchObject(switched);
    expect(opened).toEqual(['acc', 'acc']);
  });
});
