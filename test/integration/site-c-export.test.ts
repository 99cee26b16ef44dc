// A site's C-Chain export (xpc_sendTransaction, chainAlias C) spends a nonce of the account's line,
// as the wallet's own sends and its moves' exports do: on the real node, with a node that holds one
// of them back, neither is ever signed at the other's nonce (one of the two would never run).
import { keccak_256 } from '@noble/hashes/sha3.js';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Site } from '../../src/background/provider.js';
import { memoryStores } from '../../src/background/storage.js';
import { fromHex, toHex } from '../../src/core/bytes.js';
import { encodeUnsignedTx } from '../../src/core/codec/codec.js';
import { parseAddress } from '../../src/core/encoding.js';
import { generateMnemonic } from '../../src/core/keys.js';
import { buildCExport, decodeEvmTx } from '../../src/core/tx/c.js';
import { makeOwners } from '../../src/core/tx/context.js';
import type { AccountView } from '../../src/shared/messages.js';
import { PROVIDER_CHANNEL, type ProviderResponse } from '../../src/shared/provider-protocol.js';
import { AVAX, genesisEngine, localNetwork, WEI_PER_NAVAX } from './fixture.js';
import { lyingNode, refreshUntilDecided, rpcError, rpcResult, txIdOfIssue } from './lying-node.js';
import { PASSWORD, type ProviderBackground, providerBackground } from './wallet-fixture.js';

const SITE: Site = { origin: 'https://bridge.example' };
/** Well above the local node's base fee: the site's export pays its own fee. */
const SITE_BASE_FEE_WEI = 30_000_000_000n;

describe("a site's C-Chain export and the account's nonce line", () => {
  const node = lyingNode();
  let bg: ProviderBackground;
  let account: AccountView;
  let n = 0;

  const call = (method: string, params?: unknown): Promise<ProviderResponse> =>
    bg.provider.handle({ channel: PROVIDER_CHANNEL, requestId: `r${++n}`, method, ...(params !== undefined ? { params } : {}) }, SITE);

  /** The site's export of 1 AVAX to the account's X address, at the chain's executed nonce now, unsigned; its fee paid at `baseFeeWei`. */
  async function siteExportHex(baseFeeWei = SITE_BASE_FEE_WEI): Promise<string> {
    const { ctx, client } = await localNetwork();
    const nonce = await client.eth.getTransactionCount(account.cAddress, 'latest');
    const built = buildCExport({
      ctx,
      from: fromHex(account.cAddress.slice(2)),
      nonce,
      balanceWei: await client.eth.getBalance(account.cAddress),
      destination: 'X',
      amount: AVAX,
      to: makeOwners([parseAddress(account.xAddress).bytes]),
      baseFeeWei,
    });
    return `0x${toHex(encodeUnsignedTx(built.tx))}`;
  }

  /** The wallet's own C-Chain send of 1 nAVAX to the genesis address. */
  async function ownSend(): Promise<string> {
    const to = (await genesisEngine()).evmAddress;
    const est = await bg.wallet.sends.sendEstimate({ chain: 'C', to, amountWei: WEI_PER_NAVAX.toString() });
    return (await bg.wallet.sends.sendC({ to, amountWei: WEI_PER_NAVAX.toString(), maxFeeWei: est.fee })).txHash;
  }

  const executedNonce = async () => (await localNetwork()).client.eth.getTransactionCount(account.cAddress, 'latest');

  beforeAll(async () => {
    bg = await providerBackground(memoryStores(), {
      fetch: node.fetch,
      // A held send is not waited for long: it stays in the outbox, followed by the refreshes.
      wait: { timeoutMs: 2_000, pollMs: 100 },
      openApprovalWindow: (b) => {
        setTimeout(async () => {
          for (const p of await b.approvals.list()) await b.approvals.decide(p.id, true);
        }, 10);
      },
    });
    await bg.wallet.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    const network = await bg.wallet.networks.networksAddCustom({ name: 'Test node', url: inject('nodeUrl') });
    account = (await bg.wallet.networks.networksSelect({ id: network.id })).account!;
    await (await genesisEngine()).sendC(account.cAddress, 10n * AVAX * WEI_PER_NAVAX);
    expect((await call('eth_requestAccounts')).ok).toBe(true);
  });

  it('a site export the node holds back: the next send of the wallet takes the nonce after it, and once the node lets the export go both run', async () => {
    const nonce = await executedNonce();
    // The node answers the export's ID and keeps it (not yet executed: its nonce is not used).
    let held: (() => Promise<unknown>) | undefined;
    node.lies.set('avax.issueTx', (c, forward) => ((held = forward), Promise.resolve(rpcResult({ txID: txIdOfIssue(c) }))));
    const transactionHex = await siteExportHex();
    const sent = await call('xpc_sendTransaction', [{ transactionHex, chainAlias: 'C' }]);
    expect(sent.ok).toBe(true);
    // The site asks again with the same bytes: that is the waiting export itself, sent once more (not "another waits").
    expect(await call('xpc_sendTransaction', [{ transactionHex, chainAlias: 'C' }])).toEqual(sent);
    node.lies.delete('avax.issueTx');
    expect(await executedNonce()).toBe(nonce);

    const hash = await ownSend();
    const { client } = await localNetwork();
    const raw = (await client.eth.ethCall('eth_getRawTransactionByHash', [hash])) as string;
    expect(decodeEvmTx(fromHex(raw.slice(2))).nonce).toBe(nonce + 1n);

    await held!();
    expect(await refreshUntilDecided(bg.wallet, (sent as { result: { txID: string } }).result.txID)).toBe('accepted');
    expect(await refreshUntilDecided(bg.wallet, hash)).toBe('accepted');
    expect(await executedNonce()).toBe(nonce + 2n);
  });

  it("a site export paying less than the C-Chain's fee of now is refused in words after its approval and never reaches the node: it would wait, the account's later C-Chain txs behind it", async () => {
    const issued = node.calls.filter((m) => m === 'avax.issueTx').length;
    const refused = await call('xpc_sendTransaction', [{ transactionHex: await siteExportHex(0n), chainAlias: 'C' }]);
    expect(refused.ok ? '' : refused.error.message).toMatch(/^this export pays less than the C-Chain's fee of now: it would wait, .*; nothing was sent$/);
    expect(node.calls.filter((m) => m === 'avax.issueTx').length).toBe(issued);
    // Nothing of it holds the line: the wallet's next send takes the executed nonce and runs.
    const nonce = await executedNonce();
    expect(await refreshUntilDecided(bg.wallet, await ownSend())).toBe('accepted');
    expect(await executedNonce()).toBe(nonce + 1n);
  });

  it("while a send of the wallet's waits (the node holds it back), a site's export is refused in words and never reaches the node; the send then runs", async () => {
    const nonce = await executedNonce();
    let held: (() => Promise<unknown>) | undefined;
    // The node answers the send's hash and keeps it.
    node.lies.set('eth_sendRawTransaction', (c, forward) => ((held = forward), Promise.resolve(rpcResult(`0x${toHex(keccak_256(fromHex((c.params as string[])[0]!.slice(2))))}`))));
    const hash = await ownSend();
    node.lies.delete('eth_sendRawTransaction');
    expect(await executedNonce()).toBe(nonce);

    const issued = node.calls.filter((m) => m === 'avax.issueTx').length;
    const refused = await call('xpc_sendTransaction', [{ transactionHex: await siteExportHex(), chainAlias: 'C' }]);
    expect(refused.ok).toBe(false);
    expect(refused.ok ? '' : refused.error.message).toMatch(/another C-Chain transaction of this account is still waiting to go through; nothing was sent/);
    expect(node.calls.filter((m) => m === 'avax.issueTx').length).toBe(issued);

    await held!();
    expect(await refreshUntilDecided(bg.wallet, hash)).toBe('accepted');
    expect(await executedNonce()).toBe(nonce + 1n);
  });

  it('a send the node "refused" but holds: a site export next takes its nonce, so the held send can never run, is never listed as "may have gone through", and the next send goes out', async () => {
    let held: string | undefined;
    node.lies.set('eth_sendRawTransaction', (c) => ((held ??= (c.params as string[])[0]), Promise.resolve(rpcError('txpool is full'))));
    expect(await ownSend().catch((e: unknown) => e)).toMatchObject({ code: 'tx-refused' });
    node.lies.delete('eth_sendRawTransaction');

    const sent = await call('xpc_sendTransaction', [{ transactionHex: await siteExportHex(), chainAlias: 'C' }]);
    expect(sent.ok).toBe(true);
    expect(await refreshUntilDecided(bg.wallet, (sent as { result: { txID: string } }).result.txID)).toBe('accepted');
    const { client } = await localNetwork();
    await expect(client.eth.sendRawTransaction(fromHex(held!.slice(2)))).rejects.toThrow(/nonce too low/i);
    await bg.wallet.balances.balancesRefresh();
    expect((await bg.wallet.balances.activityList()).items.filter((i) => i.kind === 'send' && i.status !== 'accepted')).toEqual([]);
    expect(await refreshUntilDecided(bg.wallet, await ownSend())).toBe('accepted');
  });
});
