// @vitest-environment happy-dom
// Settings → Network, adding a node: what is wrong with its address is said under the field as the
// user types (the background refuses the same), and a node the background turned away keeps its
// reason one click away.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Settings } from '../../../src/popup/screens/Settings.js';
import { fakeBackground, Refuse, renderWith } from './fake-background.js';
import { ACCOUNT, NETWORK, UNLOCKED } from './fixtures.js';
import { g, JsonRpcEndpoint } from '../../../src/core/rpc.js';
import type { WalletError } from '../../../src/core/errors.js';

afterEach(cleanup);

const FUJI = { ...NETWORK, id: 'fuji', kind: 'fuji' as const, name: 'Fuji testnet', hrp: 'fuji', url: 'https://node.example.org' };

/** What a node still bootstrapping answers a chain's API (avalanchego: HTTP 503, plain text), as the wallet reports it. */
async function bootstrappingFailure(): Promise<{ code: string; message: string }> {
  const fetch = async () => new Response('API call rejected because chain is not done bootstrapping\n', { status: 503 });
  const e = await new JsonRpcEndpoint('https://node.example.org/ext/bc/X', { fetch }).call('avm.getAssetDescription', {}, g.unknown).then(
    () => expect.unreachable(),
    (e: WalletError) => e,
  );
  return { code: e.code, message: e.message };
}

function world(addCustom: () => Promise<never> = () => expect.unreachable(), more: Parameters<typeof fakeBackground>[0] = {}) {
  const bg = fakeBackground({
    ...more,
    'networks.list': () => ({ networks: [NETWORK, FUJI], selectedId: NETWORK.id }),
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
    for (const bare of ['127.0.0.1:9650', 'localhost:9650', 'node.example.org']) {
      type('Node URL', bare);
      expect(errorOf('Node URL')).toBe('Start it with https://, or http:// for a node on this machine');
      expect(add.disabled).toBe(true);
    }
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

  it('refuses, as it is typed, a name another network has (in other letters too), and sends nothing', async () => {
    const bg = world();
    const add = screen.getByRole('button', { name: 'Add network' }) as HTMLButtonElement;
    type('Node URL', 'https://node.example.org');
    type('Name', 'FUJI  Testnet');
    await waitFor(() => expect(errorOf('Name')).toBe('Another network is named “Fuji testnet”: choose another name'));
    expect(add.disabled).toBe(true);
    fireEvent.submit(add.form!);
    type('Name', 'Fuji at home');
    expect(errorOf('Name')).toBe('');
    expect(add.disabled).toBe(false);
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

describe('Settings: a node still bootstrapping', () => {
  it('is said to be catching up, not unreachable, when switching to it and when its health is checked', async () => {
    const failure = await bootstrappingFailure();
    expect(failure.code).toBe('node-unreachable');
    const bg = world(undefined, {
      'networks.select': () => {
        throw new Refuse(failure);
      },
      'networks.health': () => ({ healthy: false, checks: [], passed: 0, error: failure.message, errorCode: failure.code }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Use: Fuji testnet' }));
    const alert = await screen.findByRole('alert');
    expect(alert.querySelector('p')?.textContent).toMatch(/^The node is still catching up with the network \(bootstrapping\)/);
    expect(alert.textContent).not.toMatch(/can't be reached/);
    fireEvent.click(screen.getByRole('button', { name: 'Check health of Fuji testnet' }));
    const line = await screen.findByText(/^Not healthy: The node is still catching up/);
    expect(line.textContent).not.toMatch(/can't be reached/);
    expect(bg.callsOf('networks.select')).toEqual([{ id: 'fuji' }]);
  });
});

describe('Settings: a node added, by keyboard', () => {
  it('keeps focus on Add network while the node is checked, then says it was added and takes focus there (not dropped to the page)', async () => {
    let answer: (() => void) | undefined;
    const mine = { ...NETWORK, id: 'custom-1', kind: 'custom' as const, name: 'My node', url: 'https://node.example.org' };
    const bg = world(async () => {
      await new Promise<void>((r) => (answer = r));
      return mine as never;
    });
    type('Name', 'My node');
    type('Node URL', 'https://node.example.org');
    const add = screen.getByRole('button', { name: 'Add network' }) as HTMLButtonElement;
    add.focus();
    fireEvent.click(add);
    await screen.findByText('Checking the node before adding it…');
    expect(add.disabled).toBe(false);
    expect(add.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(add);
    fireEvent.click(add);
    answer!();
    const said = await screen.findByText(/^Added My node\./);
    await waitFor(() => expect(document.activeElement).toBe(said));
    expect(bg.callsOf('networks.addCustom')).toHaveLength(1);
  });
});

describe('Settings: removing a network with sends not settled', () => {
  it('asks first, and removes it only on "Remove anyway"', async () => {
    const mine = { ...NETWORK, id: 'mine', name: 'My node', kind: 'custom' as const, url: 'https://node.example.org' };
    let networks = [NETWORK, mine];
    let answer: (() => void) | undefined;
    const bg = fakeBackground({
      'networks.list': () => ({ networks, selectedId: NETWORK.id }),
      'accounts.list': () => ({ accounts: [ACCOUNT], selectedId: ACCOUNT.id }),
      'sites.list': () => ({ sites: [], chains: [] }),
      'networks.remove': async (p: { id: string; confirmLoss?: boolean }) => {
        if (!p.confirmLoss) throw new Refuse({ code: 'network-has-sends', message: '1 transaction(s) on this network are not decided yet, or were refused but could still go through; removing it forgets them, and a send made after adding it again would not be kept from paying twice. Remove it anyway?' });
        await new Promise<void>((r) => (answer = r));
        networks = [NETWORK];
        return { ok: true as const };
      },
    });
    renderWith(bg, <Settings status={UNLOCKED} onStatus={vi.fn()} />);
    (screen.getByText('Network', { selector: 'summary' }).parentElement as HTMLDetailsElement).open = true;
    fireEvent.click(await screen.findByRole('button', { name: 'Remove My node' }));
    expect((await screen.findByRole('alert')).textContent).toContain('would not be kept from paying twice');
    fireEvent.click(await screen.findByRole('button', { name: 'Remove My node anyway' }));
    // The wait is named for what it is (it said "Checking the node before switching…").
    expect(await screen.findByText('Removing the network…')).toBeTruthy();
    // A click meanwhile sends no second removal, and the button keeps the keyboard.
    const again = screen.getByRole('button', { name: 'Remove My node' });
    expect(again.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(again);
    expect(bg.callsOf('networks.remove')).toHaveLength(2);
    answer!();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Remove My node' })).toBeNull());
    expect(bg.callsOf('networks.remove')).toEqual([{ id: 'mine' }, { id: 'mine', confirmLoss: true }]);
  });
});

describe('Settings: the health of a node that now serves another network', () => {
  it('is "Not usable", with the reason in words and the node\'s story behind Details', async () => {
    const said = 'the node at https://node.example.org is not Fuji testnet: its C-Chain EVM chain ID is 43114, expected 43113';
    world(undefined, { 'networks.health': () => ({ healthy: false, checks: [], passed: 0, error: said, errorCode: 'network-mismatch' }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Check health of Fuji testnet' }));
    const line = await screen.findByText(/^Not usable: The node is not the network the wallet is set to/);
    expect(line.querySelector('details')?.textContent).toContain('expected 43113');
  });
});

describe('Settings: failing health checks', () => {
  it('a node failing only other checks is not said to be catching up', async () => {
    world(undefined, { 'networks.health': () => ({ healthy: false, checks: ['network'], passed: 5 }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Check health of Fuji testnet' }));
    expect(await screen.findByText('Not healthy (failing checks: network)')).toBeTruthy();
  });
});

describe('Settings: the network list unreadable', () => {
  it('says so above the network in use, instead of showing it alone as if the others were gone', async () => {
    const bg = fakeBackground({
      'networks.list': () => {
        throw new Refuse({ code: 'storage-corrupt', message: 'the wallet settings in storage are unreadable' });
      },
      'accounts.list': () => ({ accounts: [ACCOUNT], selectedId: ACCOUNT.id }),
      'sites.list': () => ({ sites: [], chains: [] }),
    });
    renderWith(bg, <Settings status={UNLOCKED} onStatus={vi.fn()} />);
    (screen.getByText('Network', { selector: 'summary' }).parentElement as HTMLDetailsElement).open = true;
    expect(await screen.findByText("The list of networks could not be read: The wallet's saved data could not be read. Nothing was changed.")).toBeTruthy();
    expect(screen.getByRole('button', { name: `In use: ${NETWORK.name}` })).toBeTruthy();
  });
});
