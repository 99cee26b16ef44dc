// @vitest-environment happy-dom
// A tx that never ran because another of the account's took its place says which kind of place:
// an EVM tx its nonce (a speed-up or cancel), an X/P tx its funds (a later send spending them too).
import { cleanup, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { Activity } from '../../../src/popup/screens/Activity.js';
import type { ActivityItem } from '../../../src/shared/messages.js';
import { fakeBackground, renderWith } from './fake-background.js';
import { balances } from './fixtures.js';

afterEach(cleanup);

const X_LOST = 'TxLost1111111111111111111111111111111111111111111';
const item = (extra: Partial<ActivityItem> & Pick<ActivityItem, 'txID' | 'chain'>): ActivityItem => ({ kind: 'send', status: 'failed', amount: '1000000000', fee: '1000000', createdAt: 2, ...extra });

describe('a tx another of the account took the place of, in Activity', () => {
  it('X: the lost send says another transaction spent its funds, and the one that ran names it', async () => {
    const items = [item({ txID: 'TxWon', chain: 'X', status: 'accepted', replaces: X_LOST, createdAt: 3 }), item({ txID: X_LOST, chain: 'X', replaced: true })];
    renderWith(fakeBackground({ 'activity.list': () => ({ items }) }), <Activity balances={balances()} listKey="net:a" />);
    const [won, lost] = await screen.findAllByTestId('activity-item');
    expect(lost!.textContent).toContain('Never ran: another of your transactions spending the same funds took its place');
    expect(lost!.textContent).not.toContain('nonce');
    expect(won!.textContent).toContain(`Spends the same funds as ${X_LOST}: only one of the two can run`);
  });

  it('C: the lost EVM tx says a speed-up or cancel with its nonce took its place', async () => {
    const items = [item({ txID: `0x${'12'.repeat(32)}`, chain: 'C', replaced: true })];
    renderWith(fakeBackground({ 'activity.list': () => ({ items }) }), <Activity balances={balances()} listKey="net:a" />);
    const [lost] = await screen.findAllByTestId('activity-item');
    expect(lost!.textContent).toContain('Never ran: a speed-up or cancel with the same nonce took its place');
  });
});
