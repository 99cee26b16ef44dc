// Funds sent to the account on X and P, as Activity lists them, against the real node: only what
// the account's own keys can spend is news of money received.
import { describe, expect, it } from 'vitest';
import { parseAddress } from '../../src/core/encoding.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { AVAX, freshKey } from './fixture.js';
import { fundedWallet } from './wallet-fixture.js';

describe('funds received on X', () => {
  it('an output the account cannot spend alone (2-of-2 with a stranger) is neither a balance nor "Received"', async () => {
    const { wallet, account, ctx, avax, genesis } = await fundedWallet({ x: AVAX });
    const mine = parseAddress(account.xAddress).bytes;
    const shared = await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 1000n * AVAX, owners: makeOwners([mine, freshKey().shortId], 2) }]));
    const plain = await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 2n * AVAX, owners: makeOwners([mine]) }]));
    const view = await wallet.balances.balancesRefresh();
    expect(view.balances.find((b) => b.chain === 'X' && b.assetID === avax)).toMatchObject({ spendable: (3n * AVAX).toString(), locked: '0' });
    const received = (await wallet.balances.activityList()).items.filter((i) => i.kind === 'receive');
    expect(received.find((i) => i.txID === plain.txID)).toMatchObject({ amount: (2n * AVAX).toString() });
    expect(received.find((i) => i.txID === shared.txID)).toBeUndefined();
  });
});
