// @vitest-environment happy-dom
// A send to the account's own address reads "Sent to yourself" in Activity (only its fee left);
// a send to anyone else reads "Sent". An asset the wallet created is named.
import { cleanup, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { Activity } from '../../../src/popup/screens/Activity.js';
import type { ActivityItem } from '../../../src/shared/messages.js';
import { fakeBackground, renderWith } from './fake-background.js';
import { balances } from './fixtures.js';

afterEach(cleanup);

const send = (n: string, extra: Partial<ActivityItem> = {}): ActivityItem => ({
  txID: `0x${n.repeat(64)}`,
  chain: 'C',
  kind: 'send',
  status: 'accepted',
  amount: '1000000000000000000',
  to: '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC',
  createdAt: 2,
  ...extra,
});

describe('a send to yourself in Activity', () => {
  it('reads "Sent to yourself"; one to another address reads "Sent"', async () => {
    const bg = fakeBackground({ 'activity.list': () => ({ items: [send('a', { toSelf: true }), send('b')] }) });
    renderWith(bg, <Activity balances={balances()} listKey="net:a" />);
    const rows = await screen.findAllByTestId('activity-item');
    expect(rows.map((r) => r.querySelector('strong')!.textContent)).toEqual(['Sent to yourself', 'Sent']);
  });
});

describe('an asset created in Activity', () => {
  it('reads "Created" with its name and symbol when the wallet made it; one a site had signed, "Created an asset"', async () => {
    const create = (n: string, extra: Partial<ActivityItem> = {}) => send(n, { chain: 'X', kind: 'create-asset', amount: undefined, to: undefined, ...extra });
    const bg = fakeBackground({ 'activity.list': () => ({ items: [create('c', { created: { name: 'Pictures', symbol: 'PIC' } }), create('d')] }) });
    renderWith(bg, <Activity balances={balances()} listKey="net:a" />);
    const rows = await screen.findAllByTestId('activity-item');
    expect(rows.map((r) => r.querySelector('strong')!.textContent)).toEqual(['Created Pictures (PIC)', 'Created an asset']);
  });
});
