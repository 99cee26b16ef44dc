// Section 4's wallet for the popup timings (popup-timing.ts, popup-firefox.ts): created through the
// background of the browser under test, funded by the genesis key, its balances cached.
import { WalletEngine } from '../src/core/engine.js';
import { parseAddress } from '../src/core/encoding.js';
import { chainContextOf, discoverNetwork, LOCAL } from '../src/core/network.js';
import { NodeClient } from '../src/core/node.js';
import { makeOwners } from '../src/core/tx/context.js';
import type { BalancesView, RequestParams, RequestResult, RequestType } from '../src/shared/messages.js';
import { sleep, within } from '../test/e2e/processes.js';
import { GENESIS_KEY } from './node-balance.js';

/** Sent to the bench wallet on X, nAVAX: so the home screen has a real balance row to show. */
export const FUNDING = 1_234_567_891n;
export const PASSWORD = 'bench correct horse battery';

export type Log = (msg: string) => void;
export type Call = <T extends RequestType>(type: T, params: RequestParams<T>) => Promise<RequestResult<T>>;

export async function settled(call: Call): Promise<BalancesView> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const view = await call('balances.get', {});
    if (!view.refreshing) return view;
    if (Date.now() > deadline) throw new Error('the balances were still refreshing after 30 s');
    await sleep(50);
  }
}

/**
 * Through the background: a new wallet on the local node at `nodeUrl`, sent FUNDING nAVAX on X by
 * the genesis key (the same set-up as section 3), its balances cached by one balances.refresh.
 * Returns its X address.
 */
export async function fundedWallet(call: Call, nodeUrl: string): Promise<string> {
  const client = new NodeClient({ url: nodeUrl, atomicApi: LOCAL.atomicApi, timeoutMs: 30_000 });
  const identity = await discoverNetwork(client, { ...LOCAL, url: nodeUrl });
  const ctx = chainContextOf(identity);
  const genesis = new WalletEngine(client, ctx, { xp: [GENESIS_KEY], evm: GENESIS_KEY, change: GENESIS_KEY.shortId }, {
    evmChainId: BigInt(identity.evmChainID),
    wait: { timeoutMs: 60_000, pollMs: 50 },
  });
  const { mnemonic } = await within(call('wallet.generateMnemonic', { words: 24 }), 15_000, 'wallet.generateMnemonic');
  const created = await within(call('wallet.create', { password: PASSWORD, mnemonic }), 30_000, 'wallet.create');
  if (created.vault !== 'unlocked') throw new Error(`wallet.create left the vault ${created.vault}`);
  const network = await call('networks.addCustom', { name: 'bench local node', url: nodeUrl });
  const status = await within(call('networks.select', { id: network.id }), 30_000, 'networks.select');
  const xAddress = status.account?.xAddress;
  if (!xAddress) throw new Error('no account after selecting the node');
  await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: FUNDING, owners: makeOwners([parseAddress(xAddress).bytes]) }]));
  const snapshot = await within(call('balances.refresh', {}), 30_000, 'balances.refresh');
  if (snapshot.error) throw new Error(`balances.refresh: ${snapshot.error}`);
  const x = snapshot.balances.find((b) => b.chain === 'X' && b.verified);
  if (x?.spendable !== FUNDING.toString()) throw new Error(`the cached X balance is ${x?.spendable ?? 'missing'}, expected ${FUNDING}`);
  return xAddress;
}
