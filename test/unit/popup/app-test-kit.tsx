// The whole popup (App) started over a fake background that answers the requests every screen
// makes on opening (one account on the Local network, default balances), with `handlers` on top.
import { render } from '@testing-library/preact';
import { App } from '../../../src/popup/app.js';
import { fakeBackground, type Handlers } from './fake-background.js';
import { ACCOUNT, balances, NETWORK } from './fixtures.js';

export function start(handlers: Handlers) {
  const bg = fakeBackground({
    'balances.get': () => balances(),
    'accounts.list': () => ({ accounts: [ACCOUNT], selectedId: ACCOUNT.id }),
    'activity.list': () => ({ items: [] }),
    'networks.list': () => ({ networks: [NETWORK], selectedId: NETWORK.id }),
    'settings.getHiddenAssets': () => ({ assetIDs: [] }),
    ...handlers,
  });
  render(<App send={bg.send} />);
  return bg;
}
