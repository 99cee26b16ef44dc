// What the user approved for a site's X/P tx is what gets signed: the provider holds the approval
// to what it showed, even when the node's word changes between the approval and the signing.
import { describe, expect, it, vi } from 'vitest';
import { ApprovalQueue } from '../../src/background/approvals.js';
import { ProviderService, type SiteWallet } from '../../src/background/provider.js';
import { SiteStore } from '../../src/background/sites.js';
import { memoryStores } from '../../src/background/storage.js';
import type { Utxo } from '../../src/core/codec/types.js';
import { spentFingerprint } from '../../src/core/external-tx.js';
import { PROVIDER_CHANNEL, type ProviderResponse } from '../../src/shared/provider-protocol.js';
import { ADDED_ID, autoRenewNode, STOP, WALL } from './auto-renew-node.js';
import { ACCOUNT } from './site-account.js';

const SITE = { origin: 'https://subnets.example' };
const owned = (byte: number): Utxo => ({ txID: new Uint8Array(32).fill(5), outputIndex: 0, assetID: new Uint8Array(32), output: { kind: 'TransferOutput', amount: 1n, owners: { locktime: 0n, threshold: 1, addresses: [new Uint8Array(20).fill(byte)] } } });

/**
 * A provider whose account engine resolves the tx as `atApproval` says until the user decides,
 * then as `afterApproval` says (a node that changes its answer about the subnet's owner).
 */
async function setup(atApproval: { spent: Utxo[]; signs: boolean; cycleEnd?: number }, afterApproval: { spent: Utxo[]; signs: boolean; cycleEnd?: number }, tx: object = { vm: 'pvm', kind: 'TransferSubnetOwnershipTx' }, networkAfterApproval = 'local') {
  const stores = memoryStores();
  const approvals = new ApprovalQueue(stores.session);
  const sites = new SiteStore(stores.local);
  await sites.grant(SITE.origin, [ACCOUNT.id]);
  let decided = false;
  const now = () => (decided ? afterApproval : atApproval);
  const signedAfterApproval = vi.fn();
  const checkedOn: string[] = [];
  const engine = {
    // An auto-renewed validator's cycle, for a change of one (`tx`).
    ...autoRenewNode(() => (now().cycleEnd === undefined ? undefined : { txID: ADDED_ID, end: now().cycleEnd! })),
    resolveExternal: async () => ({ chain: 'P', tx, unsignedBytes: new Uint8Array([1]), spent: now().spent }),
    signsAnyOf: () => now().signs,
    fingerprintOf: (ext: { spent: Utxo[] }) => spentFingerprint(ext.spent, now().signs ? ['0:0:01'] : []),
    signExternal: () => {
      if (decided) signedAfterApproval();
      return { signedBytes: new Uint8Array([1, 2]), txID: 'tx', complete: false };
    },
  };
  const wallet = {
    siteNetwork: async () => ({ network: { id: 'local', name: 'Local network', url: 'http://127.0.0.1:1', hrp: 'local' }, evmChainId: 43112n }),
    siteNetworks: async () => [{ id: 'local', name: 'Local network', evmChainId: 43112n }],
    accountsList: async () => ({ accounts: [ACCOUNT], selectedId: ACCOUNT.id }),
    siteEngine: async () => ({ engine, networkId: decided ? networkAfterApproval : 'local' }),
    approvalSummaryForTx: async () => ({ kind: 'tx', chain: 'P', unsignedHex: '0x01', view: {}, assets: {}, impact: { assets: [], warnings: [], yours: {} } }),
    // The network the signing check is held to (the approval's).
    checkSiteSigning: async (_account: string, _chain: string, _bytes: Uint8Array, networkId: string) => void checkedOn.push(networkId),
  } as unknown as SiteWallet;
  const provider = new ProviderService({
    wallet,
    session: { isUnlocked: () => true, idleMaybeDue: () => false, checkIdle: async () => false } as never,
    approvals,
    sites,
    sessionArea: stores.session,
    // The user approves whatever the window shows.
    openApprovalWindow: async () => {
      setTimeout(async () => {
        for (const p of await approvals.list()) {
          decided = true;
          await approvals.decide(p.id, true);
        }
      }, 5);
    },
    notifyPages: () => undefined,
  });
  const sign = (): Promise<ProviderResponse> =>
    provider.handle({ channel: PROVIDER_CHANNEL, requestId: 'r1', method: 'xpc_signTransaction', params: [{ transactionHex: '0x01', chainAlias: 'P' }] }, SITE);
  return { sign, signedAfterApproval, approvals, checkedOn };
}

describe('a site tx is signed only as approved', () => {
  it('an approval that said "approving signs nothing" signs nothing, even when the node now says the account owns the subnet', async () => {
    const t = await setup({ spent: [owned(9)], signs: false }, { spent: [owned(1)], signs: true });
    const r = await t.sign();
    expect(r).toMatchObject({ ok: false, error: { code: -32602, message: expect.stringMatching(/no key of this account signs/) } });
    expect(t.signedAfterApproval).not.toHaveBeenCalled();
  });

  it('the node\'s answer on what the tx spends or who authorizes it changed after the approval: nothing is signed, the site is told to ask again', async () => {
    const t = await setup({ spent: [owned(1)], signs: true }, { spent: [owned(2)], signs: true });
    const r = await t.sign();
    expect(r).toMatchObject({ ok: false, error: { message: expect.stringMatching(/changed after you approved it; nothing was signed/) } });
    expect(t.signedAfterApproval).not.toHaveBeenCalled();
  });

  it('a change of an auto-renewed validator is signed only in the cycle the approval found: none then and one now is refused too', async () => {
    for (const [then, later] of [[undefined, WALL + 100], [WALL + 100, undefined], [WALL + 100, WALL + 140]]) {
      const t = await setup({ spent: [owned(1)], signs: true, cycleEnd: then }, { spent: [owned(1)], signs: true, cycleEnd: later }, STOP);
      const why = later === undefined ? /^The validator stopped since your review: nothing was sent/ : /^A new cycle began since your review: nothing was sent/;
      expect(await t.sign(), `approved in ${then}, signed in ${later}`).toMatchObject({ ok: false, error: { message: expect.stringMatching(why) } });
      expect(t.signedAfterApproval).not.toHaveBeenCalled();
    }
    const same = await setup({ spent: [owned(1)], signs: true, cycleEnd: WALL + 100 }, { spent: [owned(1)], signs: true, cycleEnd: WALL + 100 }, STOP);
    expect(await same.sign()).toMatchObject({ ok: true });
  });

  it('the wallet switched to another network between the approval and the signing: nothing is signed, the site is told to ask again', async () => {
    const t = await setup({ spent: [owned(1)], signs: true }, { spent: [owned(1)], signs: true }, undefined, 'fuji');
    expect(await t.sign()).toMatchObject({ ok: false, error: { message: expect.stringMatching(/switched to another network since this was approved; nothing was sent: ask again/) } });
    expect(t.signedAfterApproval).not.toHaveBeenCalled();
  });

  it('the same answer as at approval: signed', async () => {
    const t = await setup({ spent: [owned(1)], signs: true }, { spent: [owned(1)], signs: true });
    const r = await t.sign();
    expect(r).toMatchObject({ ok: true, result: { signedTransactionHex: '0x0102', txID: 'tx', complete: false } });
    expect(t.signedAfterApproval).toHaveBeenCalledTimes(1);
    expect(t.checkedOn).toEqual(['local']);
  });
});
