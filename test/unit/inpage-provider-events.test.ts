// @vitest-environment happy-dom
// The page's provider (src/inpage) against a fake content script: the state it reads, the events it
// emits (connect, chainChanged, accountsChanged, disconnect) and its event emitter.
import { describe, expect, it, vi } from 'vitest';
import { createXpcProvider, ProviderRpcError } from '../../src/inpage/provider.js';
import { STATE_METHOD, type ProviderResponse } from '../../src/shared/provider-protocol.js';
import { connected, fakeRelay, type Handler, makeWindow, rejection, settle, wallet } from './inpage-fixtures.js';

describe('state and events', () => {
  it('reads the state at start and emits connect once, with the chain ID', async () => {
    const win = makeWindow();
    const w = wallet({ chainId: '0xa869', accounts: ['0xaaa'] });
    const relay = fakeRelay(win, w.handler);
    const provider = createXpcProvider(win);
    expect(provider.isConnected()).toBe(false);
    expect(provider.chainId).toBeNull();
    const connect = vi.fn();
    const accounts = vi.fn();
    provider.on('connect', connect);
    provider.on('accountsChanged', accounts);

    await vi.waitFor(() => expect(connect).toHaveBeenCalledTimes(1));
    expect(connect).toHaveBeenCalledWith({ chainId: '0xa869' });
    expect(relay.methods()[0]).toBe(STATE_METHOD);
    expect(provider.isConnected()).toBe(true);
    expect(provider.chainId).toBe('0xa869');
    expect(accounts).toHaveBeenCalledWith(['0xaaa']);

    relay.event('stateChanged');
    await vi.waitFor(() => expect(relay.methods().filter((m) => m === STATE_METHOD)).toHaveLength(2));
    await settle(provider);
    expect(connect).toHaveBeenCalledTimes(1);
  });

  it('emits connect on a later state change when the first read failed', async () => {
    const win = makeWindow();
    const w = wallet();
    let failState = true;
    const relay = fakeRelay(win, (method, params) =>
      method === STATE_METHOD && failState ? { ok: false, error: { code: -32603, message: 'busy' } } : w.handler(method, params),
    );
    const provider = createXpcProvider(win);
    const connect = vi.fn();
    provider.on('connect', connect);
    await settle(provider);
    expect(provider.isConnected()).toBe(false);
    expect(connect).not.toHaveBeenCalled();

    failState = false;
    relay.event('stateChanged');
    await vi.waitFor(() => expect(connect).toHaveBeenCalledWith({ chainId: '0xa86a' }));
    expect(provider.isConnected()).toBe(true);
  });

  it('on stateChanged emits chainChanged and accountsChanged only for what changed', async () => {
    const { provider, relay, state } = await connected({ accounts: ['0xaaa'] });
    const chain = vi.fn();
    const accounts = vi.fn();
    provider.on('chainChanged', chain);
    provider.on('accountsChanged', accounts);

    relay.event('stateChanged'); // nothing changed
    await vi.waitFor(() => expect(relay.methods().filter((m) => m === STATE_METHOD)).toHaveLength(2));
    await settle(provider);
    expect(chain).not.toHaveBeenCalled();
    expect(accounts).not.toHaveBeenCalled();

    state.chainId = '0xa869';
    relay.event('stateChanged');
    await vi.waitFor(() => expect(chain).toHaveBeenCalledWith('0xa869'));
    expect(provider.chainId).toBe('0xa869');
    await settle(provider);
    expect(accounts).not.toHaveBeenCalled();

    state.accounts = ['0xbbb', '0xaaa'];
    relay.event('stateChanged');
    await vi.waitFor(() => expect(accounts).toHaveBeenCalledWith(['0xbbb', '0xaaa']));
    expect(chain).toHaveBeenCalledTimes(1);

    state.accounts = [];
    relay.event('stateChanged');
    await vi.waitFor(() => expect(accounts).toHaveBeenLastCalledWith([]));
    expect(accounts).toHaveBeenCalledTimes(2);
    expect(chain).toHaveBeenCalledTimes(1);
  });

  it('a chain switch resolves only once provider.chainId is the new chain, chainChanged emitted first', async () => {
    const { provider, results, state } = await connected();
    const chain = vi.fn();
    provider.on('chainChanged', chain);
    results.set('wallet_switchEthereumChain', null);
    state.chainId = '0x1869f';
    await expect(provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1869f' }] })).resolves.toBeNull();
    expect(provider.chainId).toBe('0x1869f');
    expect(chain).toHaveBeenCalledWith('0x1869f');
  });

  it('a chain switch waits for the newest state read: a stateChanged read started meanwhile is the one that counts', async () => {
    const w = wallet();
    let holdState = false;
    const handler: Handler = (method, params) => {
      if (method === STATE_METHOD && holdState) return 'hold';
      return w.handler(method, params);
    };
    const win = makeWindow();
    const relay = fakeRelay(win, handler);
    const provider = createXpcProvider(win);
    await vi.waitFor(() => expect(provider.isConnected()).toBe(true));
    w.results.set('wallet_switchEthereumChain', null);
    holdState = true;
    const switching = provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1869f' }] });
    // The switch's own read and then a stateChanged read are both in flight.
    await vi.waitFor(() => expect(relay.methods().filter((m) => m === STATE_METHOD)).toHaveLength(2));
    relay.event('stateChanged');
    await vi.waitFor(() => expect(relay.methods().filter((m) => m === STATE_METHOD)).toHaveLength(3));
    const held = relay.sent.filter((x) => x.method === STATE_METHOD).slice(1).map((x) => (r: ProviderResponse) => relay.answer(x.id, r));
    let resolved = false;
    void switching.then(() => (resolved = true));
    // The switch's own read answers with the old chain: not enough.
    held[0]!({ ok: true, result: { ...w.state, accounts: [] } });
    await settle(provider);
    expect(resolved).toBe(false);
    // The newest read says the new chain: now the switch resolves, chainId already the new one.
    held[1]!({ ok: true, result: { ...w.state, chainId: '0x1869f', accounts: [] } });
    await switching;
    expect(provider.chainId).toBe('0x1869f');
  });

  it('emits accountsChanged when eth_accounts / eth_requestAccounts answer a different list', async () => {
    const { provider, results } = await connected();
    const accounts = vi.fn();
    provider.on('accountsChanged', accounts);

    results.set('eth_requestAccounts', ['0xaaa']);
    await expect(provider.request({ method: 'eth_requestAccounts' })).resolves.toEqual(['0xaaa']);
    expect(accounts).toHaveBeenCalledTimes(1);
    expect(accounts).toHaveBeenCalledWith(['0xaaa']);

    results.set('eth_accounts', ['0xaaa']);
    await provider.request({ method: 'eth_accounts' });
    expect(accounts).toHaveBeenCalledTimes(1);

    results.set('eth_accounts', []);
    await provider.request({ method: 'eth_accounts' });
    expect(accounts).toHaveBeenCalledTimes(2);
    expect(accounts).toHaveBeenLastCalledWith([]);
  });

  it('on disconnect rejects pending and later requests with 4900 and emits disconnect', async () => {
    const win = makeWindow();
    const w = wallet();
    const relay = fakeRelay(win, (method, params) => (method === 'eth_sendTransaction' ? 'hold' : w.handler(method, params)));
    const provider = createXpcProvider(win);
    await vi.waitFor(() => expect(provider.isConnected()).toBe(true));
    const disconnect = vi.fn();
    provider.on('disconnect', disconnect);

    const waiting = rejection(provider.request({ method: 'eth_sendTransaction', params: [{}] }));
    await vi.waitFor(() => expect(relay.methods()).toContain('eth_sendTransaction'));
    relay.event('disconnect');

    expect((await waiting).code).toBe(4900);
    expect(disconnect).toHaveBeenCalledTimes(1);
    const error: unknown = disconnect.mock.calls[0]?.[0];
    expect(error).toBeInstanceOf(ProviderRpcError);
    expect((error as ProviderRpcError).code).toBe(4900);
    expect(provider.isConnected()).toBe(false);

    const sentBefore = relay.sent.length;
    expect((await rejection(provider.request({ method: 'eth_chainId' }))).code).toBe(4900);
    expect(relay.sent.length).toBe(sentBefore);

    // A second disconnect or a state change after it changes nothing.
    relay.event('disconnect');
    relay.event('stateChanged');
    await new Promise((resolve) => win.setTimeout(resolve, 20));
    expect(disconnect).toHaveBeenCalledTimes(1);
    expect(relay.sent.length).toBe(sentBefore);
  });
});

describe('event emitter', () => {
  it('keeps calling the other listeners when one throws', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const win = makeWindow();
    fakeRelay(win, wallet().handler);
    const provider = createXpcProvider(win);
    const first = vi.fn();
    const last = vi.fn();
    provider.on('connect', first);
    provider.on('connect', () => {
      throw new Error('dApp bug');
    });
    provider.on('connect', last);

    await vi.waitFor(() => expect(last).toHaveBeenCalledWith({ chainId: '0xa86a' }));
    expect(first).toHaveBeenCalledTimes(1);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0]?.[1]).toMatchObject({ message: 'dApp bug' });
  });

  it('supports once, removeListener/off, removeAllListeners and listenerCount', async () => {
    const { provider, relay, state } = await connected();
    const once = vi.fn();
    const kept = vi.fn();
    const removed = vi.fn();
    expect(provider.once('chainChanged', once)).toBe(provider);
    provider.addListener('chainChanged', kept);
    provider.on('chainChanged', removed);
    expect(provider.listenerCount('chainChanged')).toBe(3);
    expect(provider.off('chainChanged', removed)).toBe(provider);
    expect(provider.listenerCount('chainChanged')).toBe(2);

    state.chainId = '0x1';
    relay.event('stateChanged');
    await vi.waitFor(() => expect(kept).toHaveBeenCalledWith('0x1'));
    expect(once).toHaveBeenCalledTimes(1);
    expect(provider.listenerCount('chainChanged')).toBe(1);

    state.chainId = '0x2';
    relay.event('stateChanged');
    await vi.waitFor(() => expect(kept).toHaveBeenCalledWith('0x2'));
    expect(once).toHaveBeenCalledTimes(1);
    expect(removed).not.toHaveBeenCalled();

    provider.removeListener('chainChanged', kept);
    provider.on('accountsChanged', kept);
    provider.removeAllListeners();
    expect(provider.listenerCount('chainChanged')).toBe(0);
    expect(provider.listenerCount('accountsChanged')).toBe(0);
    expect(() => provider.on('connect', 'not a function' as never)).toThrow(TypeError);
  });

  it('lets a connector wrap request in place (web3-onboard does), keeps its methods defined, and is not MetaMask', async () => {
    const { provider } = await connected();
    const original = provider.request;
    const seen: string[] = [];
    // Test modules run in strict mode: a read-only method would throw here, as it did for web3-onboard.
    (provider as { request: typeof original }).request = (args) => (seen.push(args.method), original(args));
    await expect(provider.request({ method: 'eth_chainId' })).resolves.toBe('0xa86a');
    expect(seen).toEqual(['eth_chainId']);
    expect(() => Object.defineProperty(provider, 'on', { get: () => undefined })).toThrow(TypeError);
    expect(() => delete (provider as { off?: unknown }).off).toThrow(TypeError);
    expect(provider.isXpcWallet).toBe(true);
    expect('isMetaMask' in provider).toBe(false);
    expect('send' in provider || 'sendAsync' in provider).toBe(false);
  });
});
