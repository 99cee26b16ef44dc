// A small dApp as a real site would write it, for the browser suite: it finds wallets through
// EIP-6963 (never window.ethereum), takes the one with rdns 'dev.xpcwallet', and talks to it with
// viem over `custom(provider)`. test/e2e/dapp.ts bundles this file with esbuild (IIFE) and inlines
// it into the page's <head>, so its listeners are in place before the provider's first state read
// answers.
//
// window.dapp holds the dApp's functions (connect, chainId, signMessage, signTypedData,
// sendTransaction, …), the provider events it recorded (`events`), and `run(name, args)`, which the
// tests call through page.evaluate: it answers with plain data (bigints as decimal strings, errors
// as their viem name chain and EIP-1193 code), because neither Playwright nor WebDriver BiDi
// carries viem's error objects.
import { createPublicClient, createWalletClient, custom, defineChain, type Address, type EIP1193Provider, type Hex } from 'viem';
import { ADDED_CHAIN, LOCAL_C_CHAIN, MESSAGE, PAYEE, PAYMENT_WEI, typedDataFor, type AnnouncedInfo, type CallError, type Outcome, type ReceiptView, type RecordedEvent } from './shared.js';

interface Announcement {
  info: AnnouncedInfo;
  provider: EIP1193Provider;
}

const announcements: Announcement[] = [];
const events: RecordedEvent[] = [];
let wallet: Announcement | undefined;

function onAnnounce(event: Event): void {
  const detail = (event as CustomEvent<Announcement>).detail;
  if (!detail || typeof detail.info !== 'object' || typeof detail.provider !== 'object') return;
  announcements.push(detail);
  // The first announcement of our wallet wins; later ones repeat it (same uuid, same provider).
  if (!wallet && detail.info.rdns === 'dev.xpcwallet') {
    wallet = detail;
    subscribe(detail.provider);
  }
}

function subscribe(provider: EIP1193Provider): void {
  provider.on('connect', (info) => events.push({ event: 'connect', data: { chainId: info.chainId } }));
  provider.on('accountsChanged', (accounts) => events.push({ event: 'accountsChanged', data: [...accounts] }));
  provider.on('chainChanged', (chainId) => events.push({ event: 'chainChanged', data: chainId }));
  provider.on('disconnect', (error) => events.push({ event: 'disconnect', data: { code: error.code, message: error.message } }));
}

window.addEventListener('eip6963:announceProvider', onAnnounce);
window.dispatchEvent(new Event('eip6963:requestProvider'));

function provider(): EIP1193Provider {
  if (!wallet) throw new Error('no wallet with rdns dev.xpcwallet announced itself');
  return wallet.provider;
}

// Clients are made per call, as a dApp does after the user picked a wallet.
const walletClient = () => createWalletClient({ chain: LOCAL_C_CHAIN, transport: custom(provider()) });
const publicClient = () => createPublicClient({ chain: LOCAL_C_CHAIN, transport: custom(provider()), pollingInterval: 200 });

async function rawRequest(method: string, params?: unknown[]): Promise<unknown> {
  const request = provider().request as (args: { method: string; params?: unknown[] }) => Promise<unknown>;
  return request({ method, ...(params !== undefined ? { params } : {}) });
}

/** The connected account, as a dApp keeps it after connecting. */
async function account(): Promise<Address> {
  const [address] = await walletClient().getAddresses();
  if (!address) throw new Error('not connected');
  return address;
}

const api = {
  /** What discovery found: every announcement's info, and whether ours is the page's globals. */
  discovery: async () => ({
    announced: announcements.map((a) => ({ ...a.info })),
    picked: wallet ? { ...wallet.info } : null,
    isXpcWalletGlobal: wallet !== undefined && (window as unknown as { xpcWallet?: unknown }).xpcWallet === wallet.provider,
    isEthereumGlobal: wallet !== undefined && (window as unknown as { ethereum?: unknown }).ethereum === wallet.provider,
  }),
  /** eth_accounts through viem: the accounts the site may see without asking. */
  accounts: async (): Promise<string[]> => walletClient().getAddresses(),
  /** eth_requestAccounts through viem: asks the user to connect. */
  connect: async (): Promise<string[]> => walletClient().requestAddresses(),
  chainId: async () => ({ viem: await walletClient().getChainId(), provider: (provider() as unknown as { chainId: string | null }).chainId }),
  signMessage: async (): Promise<Hex> => walletClient().signMessage({ account: await account(), message: MESSAGE }),
  signTypedData: async (): Promise<Hex> => {
    const client = walletClient();
    // The domain names the chain the wallet says it is on.
    const chainId = await client.getChainId();
    return client.signTypedData({ account: await account(), ...typedDataFor(chainId) });
  },
  /** Pays PAYMENT_WEI to PAYEE; the wallet estimates gas and fees (the dApp sets none). */
  sendTransaction: async (): Promise<Hex> => walletClient().sendTransaction({ account: await account(), to: PAYEE, value: PAYMENT_WEI }),
  waitForReceipt: async (hash: Hex): Promise<ReceiptView> => {
    const r = await publicClient().waitForTransactionReceipt({ hash, timeout: 60_000 });
    return { status: r.status, transactionHash: r.transactionHash, from: r.from, to: r.to, blockNumber: r.blockNumber.toString(), gasUsed: r.gasUsed.toString(), contractAddress: r.contractAddress ?? null };
  },
  /** Deploys a contract without constructor arguments (its creation bytecode as given). */
  deployContract: async (bytecode: Hex): Promise<Hex> => walletClient().deployContract({ abi: [], bytecode, account: await account() }),
  balance: async (address: Address): Promise<string> => (await publicClient().getBalance({ address })).toString(),
  nonce: async (address: Address): Promise<number> => publicClient().getTransactionCount({ address, blockTag: 'pending' }),
  /** wallet_addEthereumChain through viem: ADDED_CHAIN, served by `rpcUrl`. */
  addChain: async (rpcUrl: string): Promise<null> => {
    const nativeCurrency = { name: 'Test', symbol: ADDED_CHAIN.symbol, decimals: 18 };
    await walletClient().addChain({ chain: defineChain({ id: ADDED_CHAIN.id, name: ADDED_CHAIN.name, nativeCurrency, rpcUrls: { default: { http: [rpcUrl] } } }) });
    return null;
  },
  /** wallet_switchEthereumChain through viem. */
  switchChain: async (id: number): Promise<null> => {
    await walletClient().switchChain({ id });
    return null;
  },
  /** Any raw EIP-1193 request. */
  request: (method: string, params?: unknown[]): Promise<unknown> => rawRequest(method, params),
  // The wallet's X/P site methods have no viem action: raw requests.
  xpcGetAddresses: (): Promise<unknown> => rawRequest('xpc_getAddresses'),
  xpcSignMessage: (message: string, chainAlias: 'X' | 'P' = 'X'): Promise<unknown> => rawRequest('xpc_signMessage', [{ message, chainAlias }]),
  xpcSendTransaction: (transactionHex: string, chainAlias: 'X' | 'P' | 'C'): Promise<unknown> => rawRequest('xpc_sendTransaction', [{ transactionHex, chainAlias }]),
};

export type DappApi = typeof api;
export type DappCall = keyof DappApi;
export type DappResult<K extends DappCall> = Awaited<ReturnType<DappApi[K]>>;

function describeError(e: unknown): CallError {
  const chain: { name: string; code?: unknown; message: string }[] = [];
  let current: unknown = e;
  while (current !== undefined && current !== null && chain.length < 10) {
    const err = current as { name?: unknown; code?: unknown; shortMessage?: unknown; message?: unknown; cause?: unknown };
    chain.push({
      name: typeof err.name === 'string' ? err.name : typeof current,
      code: err.code,
      message: typeof err.shortMessage === 'string' ? err.shortMessage : typeof err.message === 'string' ? err.message : String(current),
    });
    current = err.cause;
  }
  const code = chain.find((c) => typeof c.code === 'number')?.code as number | undefined;
  return { name: chain[0]?.name ?? 'unknown', names: chain.map((c) => c.name), code, message: chain[0]?.message ?? '' };
}

async function run<K extends DappCall>(name: K, args: Parameters<DappApi[K]>): Promise<Outcome<DappResult<K>>> {
  try {
    const fn = api[name] as (...a: Parameters<DappApi[K]>) => Promise<DappResult<K>>;
    return { ok: true, value: await fn(...args) };
  } catch (e) {
    return { ok: false, error: describeError(e) };
  }
}

/**
 * Outcomes of calls started with `keep`, by the name the test gave: for a call that must outlive a
 * navigation of its page (the test's own page.evaluate dies with it; the page, kept in the
 * back/forward cache, does not).
 */
const kept = new Map<string, Outcome<unknown>>();
function keep<K extends DappCall>(label: string, name: K, args: Parameters<DappApi[K]>): void {
  void run(name, args).then((outcome) => kept.set(label, outcome));
}

/** Times this page came back from the back/forward cache (a pageshow that says it persisted). */
let restoredFromCache = 0;
window.addEventListener('pageshow', (event) => {
  if (event.persisted) restoredFromCache++;
});

/**
 * window.dapp: the functions above (they throw viem's errors), `run` for tests, the recorded
 * events, `keep` and `kept` (a call's outcome kept in the page), and how often it came back from
 * the back/forward cache.
 */
export type DappGlobal = DappApi & {
  run: typeof run;
  keep: typeof keep;
  kept(label: string): Outcome<unknown> | undefined;
  restoredFromCache(): number;
  readonly events: readonly RecordedEvent[];
};

const dappGlobal: DappGlobal = Object.freeze({ ...api, run, keep, kept: (label: string) => kept.get(label), restoredFromCache: () => restoredFromCache, events });
Object.defineProperty(window, 'dapp', { value: dappGlobal, enumerable: true });
document.documentElement.dataset['dapp'] = 'ready';
