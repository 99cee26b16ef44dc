// A site's tx approved while the wallet's C-Chain line was busy, and the wallet locked before its
// turn came: nothing goes out once locked (a restore's last count of the sends in its way relies on it).
import { describe, expect, it } from 'vitest';
import { memoryStores } from '../../src/background/storage.js';
import { holdNext } from './held-calls.js';
import { approveAll, call, fundedAccount, ok, siteBackground } from './provider-site.js';

describe('a site tx waiting for the C-Chain line when the wallet is locked', () => {
  it('is refused as locked at its turn, never sent', async () => {
    // Once armed, the wallet's next receipt question waits (its own C send keeps the line) until released.
    const atReceipt = holdNext('eth_getTransactionReceipt', { armed: false });
    const bg = await siteBackground(memoryStores(), approveAll(), Date.now, atReceipt.fetch);
    const account = await fundedAccount(bg);
    expect(await ok(bg, 'eth_requestAccounts')).toEqual([account.cAddress]);
    const to = `0x${'22'.repeat(20)}`;
    const est = await bg.wallet.sends.sendEstimate({ chain: 'C', to, amountWei: '1' });
    atReceipt.arm();
    const ownSend = bg.wallet.sends.sendC({ to, amountWei: '1', maxFeeWei: est.fee });
    await atReceipt.held;
    const pending = () => ok(bg, 'eth_getTransactionCount', [account.cAddress, 'pending']);
    const nonceBefore = await pending();
    // Approved and signed, it is handed on to be sent: it waits for the line the wallet's own send holds.
    const handedOn = new Promise<void>((handed) => {
      const send = bg.wallet.site.sendSiteTx;
      bg.wallet.site.sendSiteTx = (...args) => (handed(), send(...args));
    });
    const siteTx = call(bg, 'eth_sendTransaction', [{ from: account.cAddress, to, value: '0x1' }]);
    await handedOn;
    // Past its account's checks (no node call before the line): now it waits its turn.
    await new Promise((r) => setTimeout(r, 200));
    await bg.session.lock();
    atReceipt.release();
    await ownSend;
    const answer = await siteTx;
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.error.message).toMatch(/locked/);
    // The node never saw it: no nonce past the wallet's own send.
    expect(await pending()).toBe(nonceBefore);
  });
});
