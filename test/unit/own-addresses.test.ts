// The wallet's addresses as a site's approval labels them: every account's X/P address, C-Chain
// address and its atomic owner, and the acting account's used X/P addresses.
import { describe, expect, it } from 'vitest';
import { ownAddressesOf } from '../../src/background/services/approvals.js';
import { addressKey } from '../../src/core/tx-impact.js';
import type { AccountView } from '../../src/shared/messages.js';

const A_X = 'X-local1aaaaqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq7h4x';
const A_ATOMIC = 'C-local1atomicqqqqqqqqqqqqqqqqqqqqqqqqqqqq4f6g';
const A_USED = 'X-local1usedqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq2k9z';

function account(id: string, name: string, xBody: string, cBech32Body: string, cAddress: string): AccountView {
  return { id, name, kind: 'hd', xAddress: `X-${xBody}`, pAddress: `P-${xBody}`, cAddress, cBech32Address: `C-${cBech32Body}` };
}

describe("the wallet's addresses in a site's approval", () => {
  it("an account's X/P address keeps its entry though another account's atomic owner, listed first, is the same key", () => {
    const first = account('a1', 'Account 1', A_X.slice(2), A_ATOMIC.slice(2), '0x1111111111111111111111111111111111111111');
    // Account 2 holds, as its X/P key, Account 1's EVM key: an import refuses that, but stored state may hold it.
    const second = account('a2', 'Account 2', A_ATOMIC.slice(2), A_ATOMIC.slice(2), '0x1111111111111111111111111111111111111111');
    const own = ownAddressesOf([first, second], 'a1', [A_USED]);
    expect(own.get(addressKey(A_ATOMIC))).toEqual({ account: 'Account 2', role: 'X/P address', address: second.xAddress, accountId: 'a2' });
    // First wins otherwise: the shared C-Chain address stays Account 1's.
    expect(own.get(addressKey(first.cAddress))).toMatchObject({ account: 'Account 1', role: 'C-Chain address' });
    expect(own.get(addressKey(A_USED))).toEqual({ account: 'Account 1', role: 'another X/P address of this account', address: A_USED, accountId: 'a1' });
  });

  it("an imported key's X/P address and atomic owner are one key: it stays an X/P address, read on every chain (its change comes back)", () => {
    const imported = { ...account('i1', 'Imported', A_X.slice(2), A_X.slice(2), '0x2222222222222222222222222222222222222222'), kind: 'imported' as const };
    expect(ownAddressesOf([imported], 'i1', []).get(addressKey(A_X))).toEqual({ account: 'Imported', role: 'X/P address', address: imported.xAddress, accountId: 'i1' });
  });

  it("an atomic owner no X/P address shares is read on the C-Chain only", () => {
    const first = account('a1', 'Account 1', A_X.slice(2), A_ATOMIC.slice(2), '0x1111111111111111111111111111111111111111');
    expect(ownAddressesOf([first], 'a1', []).get(addressKey(A_ATOMIC))).toMatchObject({ role: "C-Chain address's atomic owner", cOnly: true });
  });
});
