// @vitest-environment happy-dom
// The whole popup (App) hiding assets: the list kept through the background for the next popup,
// and a hide not saved (refused, a network switched elsewhere, a list that could not be read) said.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { Refuse } from './fake-background.js';
import { avax, balances, FAKE_ID, NETWORK, UNLOCKED } from './fixtures.js';
import { start } from './app-test-kit.js';

afterEach(cleanup);

describe('App', () => {
  it('keeps hidden assets through the background, so they stay hidden in the next popup', async () => {
    let stored = [FAKE_ID];
    const view = balances({ balances: [avax('X', '1'), { ...avax('X', '5'), assetID: FAKE_ID, symbol: 'GLD', name: 'Gold', verified: false }, avax('P', '0'), avax('C', '0')] });
    const bg = start({
      'wallet.status': () => UNLOCKED,
      'balances.get': () => view,
      'settings.getHiddenAssets': () => ({ assetIDs: stored }),
      'settings.setHiddenAssets': ({ assetIDs }) => {
        stored = assetIDs;
        return { ok: true as const };
      },
    });
    expect(await screen.findByText('1 hidden asset ·')).toBeTruthy();
    expect(screen.queryByTestId(`asset-X-${FAKE_ID}`)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    fireEvent.click(within(screen.getByTestId(`asset-X-${FAKE_ID}`)).getByRole('button', { name: /^Unhide / }));
    await waitFor(() => expect(bg.callsOf('settings.setHiddenAssets')).toEqual([{ assetIDs: [], networkId: 'local' }]));
    expect(bg.callsOf('settings.getHiddenAssets')).toEqual([{ networkId: 'local' }]);
    fireEvent.click(within(screen.getByTestId(`asset-X-${FAKE_ID}`)).getByRole('button', { name: /^Hide / }));
    await waitFor(() => expect(stored).toEqual([FAKE_ID]));

    cleanup();
    start({ 'wallet.status': () => UNLOCKED, 'balances.get': () => view, 'settings.getHiddenAssets': () => ({ assetIDs: stored }) });
    expect(await screen.findByText('1 hidden asset ·')).toBeTruthy();
  });

  it('says when a hidden asset could not be saved, and keeps it hidden on screen', async () => {
    const view = balances({ balances: [avax('X', '1'), { ...avax('X', '5'), assetID: FAKE_ID, verified: false }, avax('P', '0'), avax('C', '0')] });
    start({
      'wallet.status': () => UNLOCKED,
      'balances.get': () => view,
      'settings.setHiddenAssets': () => {
        throw new Refuse({ code: 'internal', message: 'something went wrong in the wallet background; nothing was signed or sent' });
      },
    });
    fireEvent.click(within(await screen.findByTestId(`asset-X-${FAKE_ID}`)).getByRole('button', { name: /^Hide / }));
    expect((await screen.findByRole('alert')).textContent).toBe('Not saved: Something went wrong in the wallet background; nothing was signed or sent');
    expect(screen.queryByTestId(`asset-X-${FAKE_ID}`)).toBeNull();
  });

  it('a hide refused because another window switched the network says so, and the words go once the popup follows the switch', async () => {
    const fuji = { ...NETWORK, id: 'fuji', name: 'Fuji' };
    let network = NETWORK;
    const view = balances({ balances: [avax('X', '1'), { ...avax('X', '5'), assetID: FAKE_ID, verified: false }, avax('P', '0'), avax('C', '0')] });
    const bg = start({
      'wallet.status': () => ({ ...UNLOCKED, network }),
      'networks.list': () => ({ networks: [NETWORK, fuji], selectedId: network.id }),
      'balances.get': () => view,
      'settings.setHiddenAssets': () => {
        throw new Refuse({ code: 'selection-changed', message: 'the network was switched in another window' });
      },
    });
    fireEvent.click(within(await screen.findByTestId(`asset-X-${FAKE_ID}`)).getByRole('button', { name: /^Hide / }));
    expect((await screen.findByRole('alert')).textContent).toBe('Not saved: The network was switched in another window');
    expect(bg.callsOf('settings.setHiddenAssets')).toEqual([{ assetIDs: [FAKE_ID], networkId: 'local' }]);
    network = fuji;
    window.dispatchEvent(new Event('focus'));
    await waitFor(() => expect(bg.callsOf('settings.getHiddenAssets')).toContainEqual({ networkId: 'fuji' }));
    await waitFor(() => expect(screen.queryByText('Not saved: The network was switched in another window')).toBeNull());
  });

  it('saves no hide when the stored list could not be read, so it cannot drop what the list holds', async () => {
    const view = balances({ balances: [avax('X', '1'), { ...avax('X', '5'), assetID: FAKE_ID, verified: false }, avax('P', '0'), avax('C', '0')] });
    const bg = start({
      'wallet.status': () => UNLOCKED,
      'balances.get': () => view,
      'settings.getHiddenAssets': () => {
        throw new Refuse({ code: 'storage-corrupt', message: 'the wallet settings in storage are unreadable' });
      },
    });
    fireEvent.click(within(await screen.findByTestId(`asset-X-${FAKE_ID}`)).getByRole('button', { name: /^Hide / }));
    await waitFor(() => expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain('Not saved: the list of hidden assets could not be read, so changing it could lose what it holds'));
    expect(bg.callsOf('settings.setHiddenAssets')).toEqual([]);
    expect(screen.getByTestId(`asset-X-${FAKE_ID}`)).toBeTruthy();
  });
});
