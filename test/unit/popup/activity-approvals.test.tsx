// @vitest-environment happy-dom
// A site's approval in Activity: an unlimited allowance is said in words (its 78-digit number only
// under Details), a revoke (the background lists an approve of 0 as one) is said so, and the other side of an approval is the spender.
import { cleanup, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { Activity } from '../../../src/popup/screens/Activity.js';
import type { ActivityItem } from '../../../src/shared/messages.js';
import { fakeBackground, renderWith } from './fake-background.js';
import { balances } from './fixtures.js';

afterEach(cleanup);

const TOKEN = '0x1CB79692b8F9aB9B9E1d1d4D1B8E1a3Fb1DC7A47';
const SPENDER = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const MAX = ((1n << 256n) - 1n).toString();

const approve = (n: string, amount: string): ActivityItem => ({
  txID: `0x${n.repeat(64)}`,
  chain: 'C',
  kind: 'approve',
  status: 'accepted',
  amount,
  to: SPENDER,
  token: { address: TOKEN, symbol: 'TUSD', decimals: 6, standard: 'erc20' },
  createdAt: 1,
});

describe('approvals in Activity', () => {
  it('an unlimited allowance reads "Unlimited TUSD", exact under Details; a limited one in token units; a revoke is said so; the spender is named so', async () => {
    const bg = fakeBackground({ 'activity.list': () => ({ items: [approve('a', MAX), approve('b', '2500000'), { ...approve('c', '0'), kind: 'revoke' as const }, { ...approve('d', '1000000'), increase: true as const }, approve('e', '0'), { ...approve('f', '0'), increase: true as const }] }) });
    renderWith(bg, <Activity balances={balances()} listKey="net:a" />);
    const rows = await screen.findAllByTestId('activity-item');
    expect(rows[0]!.querySelector('.tx-mid .amount')!.textContent).toBe('Unlimited TUSD');
    expect(rows[0]!.querySelector('.tx-details dd .amount')!.textContent).toBe('Unlimited TUSD (exactly 115,792,089,237,316,195,423,570,985,008,687,907,853,269,984,665,640,564,039,457,584,007,913,129.639935 TUSD)');
    expect(rows[0]!.querySelector('strong')!.textContent).toBe('Approved a spender');
    expect(rows[1]!.querySelector('.tx-mid .amount')!.textContent).toBe('2.5 TUSD');
    expect(rows[3]!.querySelector('.tx-mid .amount')!.textContent).toBe('1 TUSD more');
    expect(rows[2]!.querySelector('strong')!.textContent).toBe('Revoked an approval');
    // An approve of 0 recorded by an older version is the revoke it was; an increase of 0 is no revoke.
    expect(rows[4]!.querySelector('strong')!.textContent).toBe('Revoked an approval');
    expect(rows[5]!.querySelector('strong')!.textContent).toBe('Approved a spender');
    for (const row of rows) expect(within(row).getByTitle(SPENDER).textContent).toMatch(/^Spender 0x8db97C7c/);
  });

  it("a token whose symbol reads as AVAX is named by its contract too: a send of it never reads as one of AVAX", async () => {
    const fake = { txID: `0x${'f'.repeat(64)}`, chain: 'C' as const, kind: 'send' as const, status: 'accepted' as const, amount: '5000000000000000000', to: SPENDER, token: { address: TOKEN, symbol: 'AVAX', decimals: 18, standard: 'erc20' as const }, createdAt: 1 };
    renderWith(fakeBackground({ 'activity.list': () => ({ items: [fake, { ...fake, txID: `0x${'e'.repeat(64)}`, token: { ...fake.token, symbol: 'TUSD' } }] }) }), <Activity balances={balances()} listKey="net:a" />);
    const rows = await screen.findAllByTestId('activity-item');
    expect(rows[0]!.querySelector('.tx-mid .amount')!.textContent).toBe(`5 AVAX (${TOKEN.slice(0, 10)}…${TOKEN.slice(-6)})`);
    expect(rows[1]!.querySelector('.tx-mid .amount')!.textContent).toBe('5 TUSD');
  });

  it('an operator approval over every NFT recorded with an amount of 0 (an older version took the AVAX value) is no revoke', async () => {
    const operator = { ...approve('a', '0'), token: { address: TOKEN, symbol: 'PUNK', decimals: 0, standard: 'erc721' as const } };
    renderWith(fakeBackground({ 'activity.list': () => ({ items: [operator] }) }), <Activity balances={balances()} listKey="net:a" />);
    const [row] = await screen.findAllByTestId('activity-item');
    expect(row!.querySelector('strong')!.textContent).toBe('Approved a spender');
  });

  it("an allowance judged unlimited when made (Permit2's maximum, or the token's whole supply) reads \"Unlimited\", not as its 49-digit number", async () => {
    const permit2Max = ((1n << 160n) - 1n).toString();
    const bg = fakeBackground({ 'activity.list': () => ({ items: [{ ...approve('a', permit2Max), unlimited: true as const }, approve('b', permit2Max)] }) });
    renderWith(bg, <Activity balances={balances()} listKey="net:a" />);
    const rows = await screen.findAllByTestId('activity-item');
    expect(rows[0]!.querySelector('.tx-mid .amount')!.textContent).toBe('Unlimited TUSD');
    expect(rows[0]!.querySelector('.tx-details dd .amount')!.textContent).toBe('Unlimited TUSD (exactly 1,461,501,637,330,902,918,203,684,832,716,283,019,655,932.542975 TUSD)');
    // Not flagged when made: its number, as any other allowance.
    expect(rows[1]!.querySelector('.tx-mid .amount')!.textContent).toBe('1,461,501,637,330,902,918,203,684,832,716,283,019,655,932.542975 TUSD');
  });
});
