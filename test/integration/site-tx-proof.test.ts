// A site, helped by a lying node, asks the wallet to sign a tx that spends more of the user's funds
// than the approval would show: through the real provider path, on the real node. The wallet takes
// what a tx spends from the tx that created it, refuses while the node's word about the account's
// own UTXOs does not check out, and tells a site nothing about which UTXOs are the account's before
// the user approved.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { PendingApproval } from '../../src/background/approvals.js';
import type { Site } from '../../src/background/provider.js';
import { memoryStores } from '../../src/background/storage.js';
import { toHex } from '../../src/core/bytes.js';
import { encodeUnsignedTx } from '../../src/core/codec/codec.js';
import type { Utxo } from '../../src/core/codec/types.js';
import { cb58Encode, formatAddress, parseAddress } from '../../src/core/encoding.js';
import { generateMnemonic, keyPairFromSecret } from '../../src/core/keys.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { ownedAddressSet, spendableUtxos } from '../../src/core/tx/utxos.js';
import { buildXSend } from '../../src/core/tx/x.js';
import type { AccountView, ApprovalSummary } from '../../src/shared/messages.js';
import { PROVIDER_CHANNEL, type ProviderResponse } from '../../src/shared/provider-protocol.js';
import { AVAX, genesisEngine, localNetwork } from './fixture.js';
import { lyingNode, rewriteUtxos } from './lying-node.js';
import { PASSWORD, type ProviderBackground, providerBackground } from './wallet-fixture.js';

const SITE: Site = { origin: 'https://staking.example' };
const stranger = keyPairFromSecret(new Uint8Array(32).fill(21));

describe('a site tx over a lying node', () => {
  const node = lyingNode();
  const seen: PendingApproval[] = [];
  let answer: (p: PendingApproval) => boolean = () => true;
  let bg: ProviderBackground;
  let account: AccountView;
  let big: Utxo;
  let small: Utxo;
  let n = 0;

  const call = (method: string, params?: unknown): Promise<ProviderResponse> =>
    bg.provider.handle({ channel: PROVIDER_CHANNEL, requestId: `r${++n}`, method, ...(params !== undefined ? { params } : {}) }, SITE);

  /** The site's tx: 100 AVAX of the user's to the stranger, the user's 1-AVAX UTXO spent alongside. */
  async function siteTxHex(spend: Utxo[]): Promise<string> {
    const { ctx } = await localNetwork();
    const mine = parseAddress(account.xAddress).bytes;
    const built = buildXSend({
      ctx,
      pool: spendableUtxos(spend, ownedAddressSet([mine, stranger.shortId]), 0n),
      changeOwners: makeOwners([mine]),
      payments: [{ assetID: ctx.avaxAssetID, amount: 100n * AVAX, owners: makeOwners([stranger.shortId]) }],
      memo: new Uint8Array(),
    });
    return `0x${toHex(encodeUnsignedTx(built.tx))}`;
  }

  beforeAll(async () => {
    bg = await providerBackground(memoryStores(), {
      fetch: node.fetch,
      openApprovalWindow: (b) => {
        setTimeout(async () => {
          for (const p of await b.approvals.list()) {
            if (seen.some((s) => s.id === p.id)) continue;
            seen.push(p);
            await b.approvals.decide(p.id, answer(p));
          }
        }, 10);
      },
    });
    await bg.wallet.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    const network = await bg.wallet.networks.networksAddCustom({ name: 'Test node', url: inject('nodeUrl') });
    account = (await bg.wallet.networks.networksSelect({ id: network.id })).account!;
    const { ctx, client } = await localNetwork();
    const genesis = await genesisEngine();
    const me = makeOwners([parseAddress(account.xAddress).bytes]);
    const bigTx = await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 100n * AVAX, owners: me }]));
    const smallTx = await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 1n * AVAX, owners: me }]));
    const { utxos } = await client.getAllUtxos('X', [account.xAddress]);
    big = utxos.find((u) => cb58Encode(u.txID) === bigTx.txID)!;
    small = utxos.find((u) => cb58Encode(u.txID) === smallTx.txID)!;
    const connected = await call('eth_requestAccounts');
    expect(connected.ok).toBe(true);
  });

  it("the user's 100-AVAX UTXO reported as a stranger's (1 of 2 with the user's change address): refused before the user is asked, nothing signed", async () => {
    const { engine } = await bg.wallet.site.siteEngine(account.id);
    const change = engine.changeOwners.addresses[0]!;
    const bigID = `${toHex(big.txID)}:${big.outputIndex}`;
    node.lies.set(
      'avm.getUTXOs',
      rewriteUtxos('avm', (utxos) =>
        utxos.map((u) => (`${toHex(u.txID)}:${u.outputIndex}` === bigID && u.output.kind === 'TransferOutput' ? { ...u, output: { ...u.output, owners: makeOwners([stranger.shortId, change], 1) } } : u)),
      ),
    );
    const asked = seen.length;
    const r = await call('xpc_signTransaction', [{ transactionHex: await siteTxHex([big, small]), chainAlias: 'X' }]);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.message).toMatch(/the node's answers about this account's funds do not check out/);
    expect(seen.length).toBe(asked);
    node.lies.clear();
  });

  it('with the node honest, the same tx is shown as it is: 101 AVAX leave this wallet, 100 go to the stranger, every owner labelled', async () => {
    answer = () => false;
    const r = await call('xpc_signTransaction', [{ transactionHex: await siteTxHex([big, small]), chainAlias: 'X' }]);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe(4001);
    const summary = seen.at(-1)!.summary as Extract<ApprovalSummary, { kind: 'tx' }>;
    const { ctx } = await localNetwork();
    const avax = summary.impact.assets.find((a) => a.assetID === cb58Encode(ctx.avaxAssetID))!;
    expect(avax.leaves).toBe((101n * AVAX).toString());
    expect(avax.toOthers).toEqual([{ addresses: [formatAddress('X', ctx.hrp, stranger.shortId)], threshold: 1, ownership: 'not-yours', amount: (100n * AVAX).toString() }]);
    expect(avax.returns).toBe((1n * AVAX - ctx.xTxFee).toString());
    expect(summary.impact.yours[account.xAddress]).toMatchObject({ account: account.name, role: 'X/P address' });
    expect(summary.impact.warnings).toContainEqual({ kind: 'first-payment', address: formatAddress('X', ctx.hrp, stranger.shortId) });
    expect(summary.signsNothing).toBeUndefined();
  });

  it("a tx spending only a stranger's UTXO: the user is asked all the same (a site learns nothing of whose it is), and told approving signs nothing", async () => {
    const { ctx } = await localNetwork();
    const genesis = await genesisEngine();
    const theirs = await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 101n * AVAX, owners: makeOwners([stranger.shortId]) }]));
    const { utxos } = await (await localNetwork()).client.getAllUtxos('X', [formatAddress('X', ctx.hrp, stranger.shortId)]);
    const strangers = utxos.filter((u) => cb58Encode(u.txID) === theirs.txID);
    answer = () => true;
    const asked = seen.length;
    const r = await call('xpc_signTransaction', [{ transactionHex: await siteTxHex(strangers), chainAlias: 'X' }]);
    expect(seen.length).toBe(asked + 1);
    expect((seen.at(-1)!.summary as Extract<ApprovalSummary, { kind: 'tx' }>).signsNothing).toBe(true);
    // Only once the user approved does the site hear that there was nothing to sign.
    expect(r).toMatchObject({ ok: false, error: { code: -32602, message: expect.stringMatching(/no key of this account signs/) } });
  });

  it("a tx spending what the account's C-Chain atomic owner holds on X: shown as leaving this wallet, not as others' funds", async () => {
    const { ctx, client } = await localNetwork();
    const genesis = await genesisEngine();
    const atomic = parseAddress(account.cBech32Address).bytes;
    const sent = await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 3n * AVAX, owners: makeOwners([atomic]) }]));
    const { utxos } = await client.getAllUtxos('X', [formatAddress('X', ctx.hrp, atomic)]);
    const held = utxos.filter((u) => cb58Encode(u.txID) === sent.txID);
    const built = buildXSend({ ctx, pool: spendableUtxos(held, ownedAddressSet([atomic]), 0n), changeOwners: makeOwners([atomic]), payments: [{ assetID: ctx.avaxAssetID, amount: 2n * AVAX, owners: makeOwners([stranger.shortId]) }], memo: new Uint8Array() });
    answer = () => false;
    const r = await call('xpc_signTransaction', [{ transactionHex: `0x${toHex(encodeUnsignedTx(built.tx))}`, chainAlias: 'X' }]);
    expect(r).toMatchObject({ ok: false, error: { code: 4001 } });
    const summary = seen.at(-1)!.summary as Extract<ApprovalSummary, { kind: 'tx' }>;
    const avax = summary.impact.assets.find((a) => a.assetID === cb58Encode(ctx.avaxAssetID))!;
    expect(avax).toMatchObject({ leaves: (3n * AVAX).toString(), fromOthers: '0', returns: '0' });
    // The change to the atomic owner stays on X, where the wallet never reads it: said in words.
    expect(summary.impact.warnings).toContainEqual(expect.objectContaining({ kind: 'atomic-owner', chain: 'X' }));
  });

  it('an input that declares more than its UTXO holds is refused before the user is asked', async () => {
    const { ctx } = await localNetwork();
    const mine = parseAddress(account.xAddress).bytes;
    const built = buildXSend({ ctx, pool: spendableUtxos([small], ownedAddressSet([mine]), 0n), changeOwners: makeOwners([mine]), payments: [{ assetID: ctx.avaxAssetID, amount: AVAX / 2n, owners: makeOwners([stranger.shortId]) }], memo: new Uint8Array() });
    const input = built.tx.inputs[0]!;
    if (input.input.kind !== 'TransferInput') throw new Error('expected a TransferInput');
    const lying = { ...built.tx, inputs: [{ ...input, input: { ...input.input, amount: 50n * AVAX } }] };
    const asked = seen.length;
    const r = await call('xpc_signTransaction', [{ transactionHex: `0x${toHex(encodeUnsignedTx(lying))}`, chainAlias: 'X' }]);
    expect(r).toMatchObject({ ok: false, error: { code: -32602, message: expect.stringMatching(/declares 50000000000 units .* holds 1000000000/) } });
    expect(seen.length).toBe(asked);
  });
});
