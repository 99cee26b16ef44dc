// A site's X tx the node refuses, on the real node: kept in the way of the user's later sends only
// when a send could take its place. A site that shares a UTXO with the user (2 of 2: the user and
// the site's own key), and has the wallet complete and send a tx spending only that, paying too
// little fee, must not stop every later send: no send can ever select that UTXO. Such a tx is kept
// only to be watched: if a node that held it lets it run, Activity lists it. Nor one spending
// only a token of the user's: kept, it is in the way of a send of that token, not of an AVAX one.
// One that spends the user's own AVAX too is kept, and the next send takes its place; so is one
// spending a UTXO of the site's own beside it (a swap), judged by the inputs the user signed.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { PendingApproval } from '../../src/background/approvals.js';
import type { OutboxEntry } from '../../src/background/outbox.js';
import type { Site } from '../../src/background/provider.js';
import { memoryStores } from '../../src/background/storage.js';
import { fromHex, toHex } from '../../src/core/bytes.js';
import { utxoId } from '../../src/core/codec/ids.js';
import { compareUtxoRefs } from '../../src/core/codec/rules.js';
import type { Utxo, XTx } from '../../src/core/codec/index.js';
import { cb58Encode, formatAddress, parseAddress, toApiHex } from '../../src/core/encoding.js';
import { generateMnemonic, keyPairFromSecret } from '../../src/core/keys.js';
import { getTx } from '../../src/core/node.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { keychainOf, requiredCredentials, signTx, utxoLookupOf } from '../../src/core/tx/sign.js';
import { decodeChainTx, inputIds } from '../../src/core/tx-fate.js';
import type { AccountView } from '../../src/shared/messages.js';
import { PROVIDER_CHANNEL, type ProviderResponse } from '../../src/shared/provider-protocol.js';
import { WATCHED_REFUSAL } from '../../src/background/outbox-send.js';
import { AVAX, genesisEngine, localNetwork, testNodeOutboxKey } from './fixture.js';
import { lyingNode, rpcError } from './lying-node.js';
import { holdingX, issueOnRealNode } from './lying-node-sends.js';
import { PASSWORD, type ProviderBackground, providerBackground } from './wallet-fixture.js';

const SITE: Site = { origin: 'https://swap.example' };
const siteKey = keyPairFromSecret(new Uint8Array(32).fill(47));

describe("a site's X tx the node refuses", () => {
  const seen: PendingApproval[] = [];
  /** The real node, but for the lies a test sets. */
  const node = lyingNode();
  let bg: ProviderBackground;
  let account: AccountView;
  let n = 0;

  const call = (method: string, params?: unknown): Promise<ProviderResponse> =>
    bg.provider.handle({ channel: PROVIDER_CHANNEL, requestId: `r${++n}`, method, ...(params !== undefined ? { params } : {}) }, SITE);

  /** A UTXO the genesis key sends to `owners`, as the node lists it for `listedAt` (the user's address unless said). */
  async function funded(owners: ReturnType<typeof makeOwners>, amount: bigint, listedAt = account.xAddress): Promise<Utxo> {
    const { ctx, client } = await localNetwork();
    const genesis = await genesisEngine();
    const sent = await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount, owners }]));
    const { utxos } = await client.getAllUtxos('X', [listedAt]);
    return utxos.find((u) => cb58Encode(u.txID) === sent.txID)!;
  }

  /**
   * The site's tx: everything `spent` holds (of one asset) to the site's key, less what it burns:
   * 1 unit unless said (below the X-Chain's fee, so the node refuses it), with the site's own
   * signature in every slot its key signs.
   */
  async function siteTxHex(spent: Utxo[], burn = 1n, order: 'sorted' | 'reversed' = 'sorted'): Promise<string> {
    const { ctx } = await localNetwork();
    // Inputs in the order the node requires (by UTXO), or it refuses the tx for that instead
    // (the wallet, before asking the user: the last test).
    const ordered = [...spent].sort(compareUtxoRefs);
    if (order === 'reversed') ordered.reverse();
    const held = ordered.map((u) => (u.output.kind === 'TransferOutput' ? { utxo: u, output: u.output } : expect.unreachable('a transfer output')));
    const total = held.reduce((sum, h) => sum + h.output.amount, 0n);
    const tx: XTx = {
      vm: 'avm',
      kind: 'BaseTx',
      networkID: ctx.networkID,
      blockchainID: ctx.xChainID,
      outputs: [{ assetID: spent[0]!.assetID, output: { kind: 'TransferOutput', amount: total - burn, owners: makeOwners([siteKey.shortId]) } }],
      inputs: held.map(({ utxo, output }) => ({ txID: utxo.txID, outputIndex: utxo.outputIndex, assetID: utxo.assetID, input: { kind: 'TransferInput' as const, amount: output.amount, sigIndices: Array.from({ length: output.owners.threshold }, (_, i) => i) } })),
      memo: new Uint8Array(),
    };
    const signed = signTx(tx, requiredCredentials(tx, utxoLookupOf(spent)), keychainOf([siteKey]), { allowPartial: true });
    return `0x${toHex(signed.signedBytes)}`;
  }

  /** The user's own send of 1 AVAX to themselves, as the popup asks for it: its tx as the node holds it, and how Activity lists it. */
  async function sendOwn() {
    const { ctx, client } = await localNetwork();
    const sent = await bg.wallet.sends.sendX({ assetID: cb58Encode(ctx.avaxAssetID), amount: AVAX.toString(), to: { addresses: [account.xAddress], threshold: 1 }, maxFee: ctx.xTxFee.toString() });
    const listed = (await bg.wallet.balances.activityList()).items.find((i) => i.txID === sent.txID);
    return { txID: sent.txID, spends: inputIds(decodeChainTx('X', await getTx(client, 'X', sent.txID))), status: listed?.status };
  }

  async function outbox(): Promise<OutboxEntry[]> {
    const key = await testNodeOutboxKey(account.id);
    return ((await bg.stores.local.get([key]))[key] as OutboxEntry[] | undefined) ?? [];
  }

  beforeAll(async () => {
    bg = await providerBackground(memoryStores(), {
      fetch: node.fetch,
      openApprovalWindow: (b) => {
        setTimeout(async () => {
          for (const p of await b.approvals.list()) {
            if (seen.some((s) => s.id === p.id)) continue;
            seen.push(p);
            await b.approvals.decide(p.id, true);
          }
        }, 10);
      },
    });
    await bg.wallet.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    const network = await bg.wallet.networks.networksAddCustom({ name: 'Test node', url: inject('nodeUrl') });
    account = (await bg.wallet.networks.networksSelect({ id: network.id })).account!;
    await funded(makeOwners([parseAddress(account.xAddress).bytes]), 20n * AVAX);
    await bg.wallet.balances.balancesRefresh();
    expect((await call('eth_requestAccounts')).ok).toBe(true);
  });

  it("spending only a UTXO shared 2 of 2 with the site: refused, kept only to be watched, in nobody's way; the site's retry paying the fee takes its place", async () => {
    const { ctx, client } = await localNetwork();
    const shared = await funded(makeOwners([parseAddress(account.xAddress).bytes, siteKey.shortId], 2), AVAX);
    const r = await call('xpc_sendTransaction', [{ transactionHex: await siteTxHex([shared]), chainAlias: 'X' }]);
    expect(r).toMatchObject({ ok: false, error: { message: expect.stringContaining(`; nothing was paid. ${WATCHED_REFUSAL}`) } });
    // Kept, voided, with nothing a send could select: no send could ever take its place, so it stops none.
    const watched = await outbox();
    expect(watched).toMatchObject([{ voided: true, selectable: [] }]);
    expect((await sendOwn()).status).toBe('accepted');
    await bg.wallet.balances.balancesRefresh();
    expect(await outbox()).toMatchObject([{ txID: watched[0]!.txID, voided: true }]);
    // The site asks again, paying the fee, spending the same shared UTXO: tied to the refused one.
    const retry = await call('xpc_sendTransaction', [{ transactionHex: await siteTxHex([shared], ctx.xTxFee), chainAlias: 'X' }]);
    expect(retry).toMatchObject({ ok: true });
    const retryID = (retry as { result: { txID: string } }).result.txID;
    expect(await outbox()).toContainEqual(expect.objectContaining({ txID: watched[0]!.txID, replacedBy: retryID }));
    await client.waitForTx('X', retryID);
    await bg.wallet.balances.balancesRefresh();
    expect(await outbox()).toEqual([]);
    const items = (await bg.wallet.balances.activityList()).items;
    expect(items.find((i) => i.txID === retryID)).toMatchObject({ status: 'accepted' });
    expect(items.some((i) => i.txID === watched[0]!.txID)).toBe(false);
  });

  it('the same, refused by a node that kept it and let it run later: Activity lists it, and the next send is told once', async () => {
    const { ctx } = await localNetwork();
    const shared = await funded(makeOwners([parseAddress(account.xAddress).bytes, siteKey.shortId], 2), AVAX);
    const letGo = holdingX(node);
    const r = await call('xpc_sendTransaction', [{ transactionHex: await siteTxHex([shared], ctx.xTxFee), chainAlias: 'X' }]);
    node.lies.delete('avm.issueTx');
    expect(r).toMatchObject({ ok: false, error: { message: expect.stringContaining(WATCHED_REFUSAL) } });
    const [watched] = await outbox();
    expect(watched).toMatchObject({ voided: true, selectable: [] });
    expect((await letGo()).result?.txID).toBe(watched!.txID);
    await localNetwork().then(({ client }) => client.waitForTx('X', watched!.txID));
    await bg.wallet.balances.balancesRefresh();
    expect((await bg.wallet.balances.activityList()).items.find((i) => i.txID === watched!.txID)).toMatchObject({ status: 'accepted' });
    // Without the watch, it was dropped when refused: never listed, and no send told.
    await expect(sendOwn()).rejects.toMatchObject({ code: 'earlier-send-went-through' });
    expect((await sendOwn()).status).toBe('accepted');
    expect(await outbox()).toEqual([]);
  });

  it('the same, refused by a node, then signed again for the site to send itself (the same bytes): once it runs, Activity lists it', async () => {
    const { ctx, client } = await localNetwork();
    const shared = await funded(makeOwners([parseAddress(account.xAddress).bytes, siteKey.shortId], 2), AVAX);
    const hex = await siteTxHex([shared], ctx.xTxFee);
    node.lies.set('avm.issueTx', () => Promise.resolve(rpcError('mempool full')));
    const r = await call('xpc_sendTransaction', [{ transactionHex: hex, chainAlias: 'X' }]);
    node.lies.delete('avm.issueTx');
    expect(r).toMatchObject({ ok: false, error: { message: expect.stringContaining(WATCHED_REFUSAL) } });
    const [watched] = await outbox();
    const signed = await call('xpc_signTransaction', [{ transactionHex: hex, chainAlias: 'X' }]);
    expect(signed).toMatchObject({ ok: true, result: { txID: watched!.txID, complete: true } });
    // Not taken for its own successor: still watched, unmarked.
    expect(await outbox()).toEqual([watched]);
    // As the node's API takes it: hex with its checksum.
    const bytes = fromHex((signed as { result: { signedTransactionHex: string } }).result.signedTransactionHex.slice(2));
    expect((await issueOnRealNode(toApiHex(bytes))).result?.txID).toBe(watched!.txID);
    await client.waitForTx('X', watched!.txID);
    await bg.wallet.balances.balancesRefresh();
    expect((await bg.wallet.balances.activityList()).items.find((i) => i.txID === watched!.txID)).toMatchObject({ status: 'accepted' });
    await expect(sendOwn()).rejects.toMatchObject({ code: 'earlier-send-went-through' });
    expect(await outbox()).toEqual([]);
  });

  it("spending only a token of the user's: refused and kept, but in the way of a send of that token only; the next AVAX send goes through", async () => {
    const { ctx, client } = await localNetwork();
    const token = await bg.wallet.assets.assetsCreate({ name: 'Site points', symbol: 'SPT', denomination: 0, kind: 'fixed', holders: [{ owners: { addresses: [account.xAddress], threshold: 1 }, amount: '1000' }], maxFee: ctx.xCreateAssetTxFee.toString() });
    const { utxos } = await client.getAllUtxos('X', [account.xAddress]);
    const points = utxos.find((u) => cb58Encode(u.assetID) === token.assetID)!;
    const r = await call('xpc_sendTransaction', [{ transactionHex: await siteTxHex([points]), chainAlias: 'X' }]);
    // Told that only a send of the token takes its place, not "the next send".
    expect(r).toMatchObject({ ok: false, error: { message: expect.stringMatching(/nothing was paid, and your next X-Chain send of the same token takes its place; until then the node could still let it go through, so do not pay the same again another way$/) } });
    expect(await outbox()).toMatchObject([{ voided: true, selectable: [{ id: utxoId(points) }] }]);
    expect((await sendOwn()).status).toBe('accepted');
    // Still kept: a send of the token must take its place.
    expect(await outbox()).toMatchObject([{ voided: true, selectable: [{ id: utxoId(points) }] }]);
    const send = await bg.wallet.sends.sendX({ assetID: token.assetID, amount: '10', to: { addresses: [account.xAddress], threshold: 1 }, maxFee: ctx.xTxFee.toString() });
    expect(inputIds(decodeChainTx('X', await getTx(client, 'X', send.txID)))).toContain(utxoId(points));
    await bg.wallet.balances.balancesRefresh();
    expect(await outbox()).toEqual([]);
  });

  it("spending a UTXO of the site's own beside the user's (a swap): refused is told as refused, not as sent, and the next send takes its place", async () => {
    const { ctx } = await localNetwork();
    // The site's alone: the wallet's reads never list it, and only the site signs for it.
    const theirs = await funded(makeOwners([siteKey.shortId]), AVAX, formatAddress('X', ctx.hrp, siteKey.shortId));
    const own = await funded(makeOwners([parseAddress(account.xAddress).bytes]), 2n * AVAX);
    const r = await call('xpc_sendTransaction', [{ transactionHex: await siteTxHex([theirs, own]), chainAlias: 'X' }]);
    // Before: the site's UTXO, never listed, read as spent, so the refused tx was answered as sent.
    expect(r).toMatchObject({ ok: false, error: { message: expect.stringMatching(/nothing was paid, and your next X-Chain send takes its place, so the two can never both go through$/) } });
    const kept = await outbox();
    expect(kept).toMatchObject([{ voided: true, selectable: [{ id: utxoId(own) }] }]);
    const sent = await sendOwn();
    expect(sent.status).toBe('accepted');
    expect(sent.spends).toContain(utxoId(own));
    await bg.wallet.balances.balancesRefresh();
    expect(await outbox()).toEqual([]);
    // Refused, nothing happened: nothing of it is listed (before, it stayed "may have gone through").
    expect((await bg.wallet.balances.activityList()).items.some((i) => i.txID === kept[0]!.txID)).toBe(false);
  });

  it("spending the user's own UTXO too: refused and kept in the way, and the next send spends that UTXO, taking its place", async () => {
    const shared = await funded(makeOwners([parseAddress(account.xAddress).bytes, siteKey.shortId], 2), AVAX);
    const own = await funded(makeOwners([parseAddress(account.xAddress).bytes]), 2n * AVAX);
    const r = await call('xpc_sendTransaction', [{ transactionHex: await siteTxHex([shared, own]), chainAlias: 'X' }]);
    expect(r).toMatchObject({ ok: false, error: { message: expect.stringMatching(/nothing was paid, and your next X-Chain send takes its place, so the two can never both go through$/) } });
    const kept = await outbox();
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ voided: true, selectable: [{ id: utxoId(own) }] });
    const sent = await sendOwn();
    expect(sent.status).toBe('accepted');
    expect(sent.spends).toContain(utxoId(own));
    // Marked replaced by it, so at most one of the two ever runs; the next refresh lets it go.
    expect(await outbox()).toMatchObject([{ txID: kept[0]!.txID, replacedBy: sent.txID }]);
    await bg.wallet.balances.balancesRefresh();
    expect(await outbox()).toEqual([]);
  });

  it('the same swap paying the fee: accepted, and listed as accepted once the user signed input is seen spent', async () => {
    const { ctx } = await localNetwork();
    const theirs = await funded(makeOwners([siteKey.shortId]), AVAX, formatAddress('X', ctx.hrp, siteKey.shortId));
    const own = await funded(makeOwners([parseAddress(account.xAddress).bytes]), 2n * AVAX);
    const r = await call('xpc_sendTransaction', [{ transactionHex: await siteTxHex([theirs, own], ctx.xTxFee), chainAlias: 'X' }]);
    expect(r).toMatchObject({ ok: true, result: { txID: expect.any(String) } });
    const txID = (r as { result: { txID: string } }).result.txID;
    await localNetwork().then(({ client }) => client.waitForTx('X', txID));
    await bg.wallet.balances.balancesRefresh();
    expect((await bg.wallet.balances.activityList()).items.find((i) => i.txID === txID)).toMatchObject({ status: 'accepted' });
    expect((await bg.wallet.balances.activityList()).items.find((i) => i.txID === txID)?.checking).toBeUndefined();
    expect(await outbox()).toEqual([]);
  });

  it('a swap whose inputs are out of the order the chain requires: refused before the user is asked, nothing signed', async () => {
    const { ctx } = await localNetwork();
    const theirs = await funded(makeOwners([siteKey.shortId]), AVAX, formatAddress('X', ctx.hrp, siteKey.shortId));
    const own = await funded(makeOwners([parseAddress(account.xAddress).bytes]), 2n * AVAX);
    const asked = seen.length;
    const r = await call('xpc_sendTransaction', [{ transactionHex: await siteTxHex([theirs, own], ctx.xTxFee, 'reversed'), chainAlias: 'X' }]);
    expect(r).toMatchObject({ ok: false, error: { message: expect.stringMatching(/inputs are not sorted and unique/) } });
    expect(seen.length).toBe(asked);
    expect(await outbox()).toEqual([]);
  });
});
