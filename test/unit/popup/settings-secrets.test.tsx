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

function world(reveal: () => unknown = () => ({ mnemonic: PHRASE })) {
  const imported = { ...ACCOUNT, id: 'imp', name: 'Imported', kind: 'imported' as const };
  delete (imported as { index?: number }).index;
  const bg = fakeBackground({
    'networks.list': () => ({ networks: [NETWORK], selectedId: NETWORK.id }),
    'accounts.list': () => ({ accounts: [imported], selectedId: imported.id }),
    'sites.list': () => ({ sites: [], chains: [] }),
    'wallet.revealMnemonic': reveal as () => { mnemonic: string },
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

  it('an answer that comes after the section was closed is not shown, and a typed password goes with the closing', async () => {
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const bg = world(async () => {
      await slow;
      return { mnemonic: PHRASE };
    });
    const details = section('Recovery phrase');
    details.open = true;
    fireEvent.input(within(details).getByLabelText('Password'), { target: { value: 'pw' } });
    fireEvent.click(within(details).getByRole('button', { name: 'Show recovery phrase' }));
    // Closed while the password is checked (a slow key derivation): the words must not land in it.
    details.open = false;
    await new Promise((r) => setTimeout(r, 20));
    release();
    await vi.waitFor(() => expect(bg.callsOf('wallet.revealMnemonic')).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 20));
    expect(document.body.textContent).not.toContain('gamma');

    // A password typed and left: closing forgets it, so reopening cannot show the words in one click.
    details.open = true;
    fireEvent.input(within(details).getByLabelText('Password'), { target: { value: 'left behind' } });
    details.open = false;
    await new Promise((r) => setTimeout(r, 20));
    details.open = true;
    expect((within(details).getByLabelText('Password') as HTMLInputElement).value).toBe('');
    expect((within(details).getByRole('button', { name: 'Show recovery phrase' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
