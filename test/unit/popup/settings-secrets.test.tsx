// @vitest-environment happy-dom
// Settings → a secret shown behind the password (the recovery phrase, an imported key) is forgotten
// when its section is closed: a collapsed <details> keeps its content in the page (and the browser's
// find-in-page opens it again), so reopening it must ask for the password again.
import { cleanup, fireEvent, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Settings } from '../../../src/popup/screens/Settings.js';
import { fakeBackground, renderWith } from './fake-background.js';
import { ACCOUNT, NETWORK, UNLOCKED } from './fixtures.js';

afterEach(cleanup);

function section(name: string): HTMLDetailsElement {
  return screen.getByText(name, { selector: 'summary' }).parentElement as HTMLDetailsElement;
}

const PHRASE = 'alpha beta gamma';
const KEY = 'PrivateKey-secret-of-imported';

function world() {
  const imported = { ...ACCOUNT, id: 'imp', name: 'Imported', kind: 'imported' as const };
  delete (imported as { index?: number }).index;
  const bg = fakeBackground({
    'networks.list': () => ({ networks: [NETWORK], selectedId: NETWORK.id }),
    'accounts.list': () => ({ accounts: [imported], selectedId: imported.id }),
    'sites.list': () => ({ sites: [], chains: [] }),
    'wallet.revealMnemonic': () => ({ mnemonic: PHRASE }),
    'wallet.exportPrivateKey': () => ({ privateKey: KEY }),
  });
  renderWith(bg, <Settings status={{ ...UNLOCKED, account: imported }} onStatus={vi.fn()} />);
  return bg;
}

describe('Settings: a shown secret is forgotten when its section closes', () => {
  it('the recovery phrase: closing Recovery phrase removes the words; reopening asks for the password', async () => {
    const bg = world();
    const details = section('Recovery phrase');
    details.open = true;
    fireEvent.input(within(details).getByLabelText('Password'), { target: { value: 'pw' } });
    fireEvent.click(within(details).getByRole('button', { name: 'Show recovery phrase' }));
    expect((await screen.findByRole('list', { name: 'Recovery phrase' })).textContent).toContain('gamma');

    details.open = false;
    await vi.waitFor(() => expect(document.body.textContent).not.toContain('gamma'));
    details.open = true;
    expect(within(details).getByRole('button', { name: 'Show recovery phrase' })).toBeTruthy();
    expect(bg.callsOf('wallet.revealMnemonic')).toHaveLength(1);
  });

  it('an exported key: closing Export private key removes it; reopening asks for the password', async () => {
    world();
    const details = section('Export private key');
    details.open = true;
    fireEvent.input(within(details).getByLabelText('Password'), { target: { value: 'pw' } });
    fireEvent.click(within(details).getByRole('button', { name: 'Show private key of “Imported”' }));
    await screen.findByText(KEY);

    details.open = false;
    await vi.waitFor(() => expect(document.body.textContent).not.toContain(KEY));
    details.open = true;
    expect(within(details).getByRole('button', { name: 'Show private key of “Imported”' })).toBeTruthy();
  });
});
