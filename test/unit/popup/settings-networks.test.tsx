// @vitest-environment happy-dom
// Settings → Network, adding a node: what is wrong with its address is said under the field as the
// user types (the background refuses the same), and a node the background turned away keeps its
// reason one click away.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Settings } from '../../../src/popup/screens/Settings.js';
import { fakeBackground, Refuse, renderWith } from './fake-background.js';
import { ACCOUNT, NETWORK, UNLOCKED } from './fixtures.js';

afterEach(cleanup);

function world(addCustom: () => Promise<never> = () => expect.unreachable()) {
  const bg = fakeBackground({
    'networks.list': () => ({ networks: [NETWORK], selectedId: NETWORK.id }),
    'accounts.list': () => ({ accounts: [ACCOUNT], selectedId: ACCOUNT.id }),
    'sites.list': () => ({ sites: [], chains: [] }),
    'networks.addCustom': addCustom,
  });
  renderWith(bg, <Settings status={UNLOCKED} onStatus={vi.fn()} />);
  (screen.getByText('Network', { selector: 'summary' }).parentElement as HTMLDetailsElement).open = true;
  return bg;
}

const type = (label: string, value: string) => fireEvent.input(screen.getByLabelText(label), { target: { value } });
const errorOf = (label: string) => {
  const ids = screen.getByLabelText(label).getAttribute('aria-describedby') ?? '';
  return ids ? ids.split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join('') : '';
};

describe('Settings: adding a custom node', () => {
  it('says under the address why plain http to another machine, or a non-web address, is refused, and does not send it', async () => {
    const bg = world();
    const add = screen.getByRole('button', { name: 'Add network' }) as HTMLButtonElement;
    type('Name', 'My node');
    type('Node URL', 'http://node.example.org:9650');
    expect(errorOf('Node URL')).toBe('Must use https:// unless the node is on this machine (127.0.0.1, localhost, [::1])');
    expect(screen.getByLabelText('Node URL').getAttribute('aria-invalid')).toBe('true');
    expect(add.disabled).toBe(true);
    fireEvent.submit(add.form!);
    type('Node URL', 'ftp://node.example.org');
    expect(errorOf('Node URL')).toBe('Must start with http:// or https://');
    type('C-Chain atomic API namespace (optional)', 'avax/../x');
    expect(errorOf('C-Chain atomic API namespace (optional)')).toMatch(/^May hold only letters, digits/);
    type('C-Chain atomic API namespace (optional)', '');
    for (const ok of ['https://node.example.org', 'http://127.0.0.1:9650', 'http://localhost:9650']) {
      type('Node URL', ok);
      expect(errorOf('Node URL')).toBe('');
      expect(add.disabled).toBe(false);
    }
    expect(bg.callsOf('networks.addCustom')).toEqual([]);
  });

  it("a node the background turned away: the reason in words, and the node's own story behind Details", async () => {
    const said = "the node at https://node.example.org claims the C-Chain EVM chain ID 1, which is Ethereum's: a tx signed for it would be valid on Ethereum";
    let answer: (() => void) | undefined;
    const bg = world(async () => {
      await new Promise<void>((r) => (answer = r));
      throw new Refuse({ code: 'network-mismatch', message: said });
    });
    type('Name', 'My node');
    type('Node URL', 'https://node.example.org');
    fireEvent.click(screen.getByRole('button', { name: 'Add network' }));
    // What it is waiting for: the node's checks before adding (not "before switching").
    expect(await screen.findByText('Checking the node before adding it…')).toBeTruthy();
    answer!();
    const alert = await screen.findByRole('alert');
    expect(alert.querySelector('p')?.textContent).toBe('The node is not the network the wallet is set to, so the wallet did not use it.');
    fireEvent.click(screen.getByText(/^Details/));
    await waitFor(() => expect(alert.querySelector('details')?.textContent).toContain("which is Ethereum's"));
    expect(bg.callsOf('networks.addCustom')).toEqual([{ name: 'My node', url: 'https://node.example.org' }]);
  });
});
