// A site's auto-renewed validation, and its change of one, sent through the wallet on the Helicon
// test node, are timed as the wallet's own are (services/staking.ts): never sent again by the
// outbox once too late (sendBefore); a change is refused, before it is shown or at signing, within
// the last 5 s of its cycle (this network's margin: a quarter of its 20 s shortest cycle), when it
// could reach the chain after the validator renewed, and at signing in another cycle than the one
// its approval showed. Each validator is a fresh NodeID that never runs: the node lists it for its
// first cycle, then removes it (uptime), which the last test waits for.
import { type Context, pvm } from '@avalabs/avalanchejs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bytes } from '../../src/core/bytes.js';
import { timeText } from '../../src/core/describe-pvm.js';
import { formatNodeId, parseAddress } from '../../src/core/encoding.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { avalanchejsContextOf } from '../unit/avalanchejs-context.js';
import { AVAX, genesisEngine, localNetwork } from './fixture.js';
import { freshBlsKey, freshNodeId, hex0x, siteWallet, type SiteWallet, type TxSummary } from './pvm-kit.js';
import { currentValidators, detail, siteTxChecks } from './pvm-site-checks.js';

/** The validator's cycle: room for a change early in it and a wait for its last 5 s. */
const CYCLE = 30n;
const MARGIN = 5;

describe('a site’s auto-renewed validation and its changes, timed as the wallet’s own', () => {
  let w: SiteWallet;
  let ajs: Context.Context;
  let me: Bytes;
  let pAddress: string;
  let fee = { weights: [1n, 1000n, 1000n, 4n] as [bigint, bigint, bigint, bigint], gasPriceNavax: 1n };
  /** The approval the user holds (heldRequest); none held otherwise. */
  let held: Promise<void> | undefined;
  const nodeID = formatNodeId(freshNodeId());
  let validatorTxID: string;
  let cycleEnd: number;
  /** The details of the approval of the validation the wallet sent. */
  let validatorShown: TxSummary['view']['details'];

  beforeAll(async () => {
    const { ctx } = await localNetwork();
    ajs = avalanchejsContextOf(ctx);
    w = await siteWallet(() => held ?? Promise.resolve());
    pAddress = w.account.pAddress;
    me = parseAddress(pAddress).bytes;
    const genesis = await genesisEngine();
    await genesis.issueAndWait(await genesis.buildPSend(4_100n * AVAX, makeOwners([me])));
  });

  const suite = { get w() { return w; }, get ajs() { return ajs; }, get me() { return me; }, get pAddress() { return pAddress; }, get fee() { return fee; }, set fee(next) { fee = next; } };
  const { common, siteSends } = siteTxChecks(suite);
  const activityOf = async (txID: string) => (await w.wallet.balances.activityList()).items.find((i) => i.txID === txID);

  /** A site's auto-renewed validation of `node` (a fresh NodeID) for CYCLE, sent through the wallet. */
  async function addValidator(node: string): Promise<string> {
    const bls = freshBlsKey();
    const unsigned = pvm.newAddAutoRenewedValidatorTx(
      {
        ...(await common()),
        nodeId: node,
        publicKey: bls.publicKey,
        signature: bls.proofOfPossession,
        weight: 2_000n * AVAX,
        shares: 20_000,
        rewardAddresses: [me],
        delegatorRewardsOwner: [me],
        ownerAddresses: [me],
        autoCompoundRewardShares: 0,
        period: CYCLE,
      },
      ajs,
    );
    return (await siteSends(unsigned, 'AddAutoRenewedValidatorTx')).txID;
  }
  const stopOf = async (txID: string) => hex0x(pvm.newSetAutoRenewedValidatorConfigTx({ ...(await common()), validatorTxId: txID, auth: [0], autoCompoundRewardShares: 0, period: 0n }, ajs).toBytes());
  /** The site asks; the user, shown the approval, holds it until `release`. */
  async function heldRequest(transactionHex: string): Promise<{ asked: Promise<unknown>; release: () => void }> {
    const before = w.shown.length;
    let release!: () => void;
    held = new Promise<void>((r) => (release = r));
    const asked = w.request('xpc_sendTransaction', [{ transactionHex, chainAlias: 'P' }]);
    asked.catch(() => undefined);
    for (let i = 0; w.shown.length === before; i++) {
      expect(i, 'the approval shown').toBeLessThan(100);
      await new Promise((r) => setTimeout(r, 50));
    }
    return {
      asked,
      release: () => {
        held = undefined;
        release();
      },
    };
  }

  it('the validation: never sent again once its first cycle would end more than the margin after the approved one', async () => {
    const sentFrom = Math.floor(Date.now() / 1000);
    validatorTxID = await addValidator(nodeID);
    validatorShown = (w.shown.at(-1) as TxSummary).view.details;
    const item = await activityOf(validatorTxID);
    expect(item).toMatchObject({ kind: 'validate', nodeID, amount: (2_000n * AVAX).toString() });
    expect(item!.sendBefore! - MARGIN).toBeGreaterThanOrEqual(sentFrom);
    expect(item!.sendBefore! - MARGIN).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    const [v] = await currentValidators([nodeID]);
    expect(v).toMatchObject({ txID: validatorTxID, nextPeriod: String(CYCLE) });
    cycleEnd = Number(v!.endTime);
  });

  it('a change: its approval says when the current cycle ends, and it is never sent again within the margin of that end', async () => {
    const sent = await siteSends(pvm.newSetAutoRenewedValidatorConfigTx({ ...(await common()), validatorTxId: validatorTxID, auth: [0], autoCompoundRewardShares: 250_000, period: 40n }, ajs), 'SetAutoRenewedValidatorConfigTx');
    expect(sent.summary.view.details).toContainEqual(detail('Current cycle ends', timeText(BigInt(cycleEnd))));
    expect(sent.summary.view.details?.map((d) => d.label)).not.toContain('If the chain takes it after that');
    expect(await activityOf(sent.txID)).toMatchObject({ kind: 'staking-config', sendBefore: cycleEnd - MARGIN });
    expect(await currentValidators([nodeID])).toEqual([expect.objectContaining({ txID: validatorTxID, nextPeriod: '40', endTime: String(cycleEnd) })]);
    // Only signed, it goes out when the site likes: its approval says what a late one does.
    await w.request('xpc_signTransaction', [{ transactionHex: await stopOf(validatorTxID), chainAlias: 'P' }]);
    const signOnly = (w.shown.at(-1) as TxSummary).view.details;
    expect(signOnly).toContainEqual(detail('Current cycle ends', timeText(BigInt(cycleEnd))));
    expect(signOnly).toContainEqual(detail('If the chain takes it after that', 'it applies from a later cycle'));
  });

  it('a change approved before the cycle’s last 5 s and confirmed within them is not signed; one asked for within them is refused before the user is asked', async () => {
    const items = (await w.wallet.balances.activityList()).items.length;
    const stop = await stopOf(validatorTxID);
    const { asked, release } = await heldRequest(stop);
    const shown = w.shown.length;
    expect(Date.now() / 1000, 'asked before the margin').toBeLessThan(cycleEnd - MARGIN);
    // Held by the user until 4 s before the cycle ends (whole seconds: 4.5 s before reads as 5).
    await new Promise((r) => setTimeout(r, Math.max(0, (cycleEnd - 4) * 1000 - Date.now())));
    release();
    await expect(asked).rejects.toThrow(/-32603 This cycle ends in under 5 seconds: a change sent now could wait a whole further cycle/);
    // Nothing was sent: the validator's next cycle is as the last change set it.
    expect(await currentValidators([nodeID])).toEqual([expect.objectContaining({ txID: validatorTxID, nextPeriod: '40' })]);
    // Asked again within the margin: refused, and nobody is asked.
    await expect(w.request('xpc_sendTransaction', [{ transactionHex: stop, chainAlias: 'P' }])).rejects.toThrow(/-32603 This cycle ends in under 5 seconds/);
    expect(w.shown.length).toBe(shown);
    // No new Activity row either.
    expect((await w.wallet.balances.activityList()).items.length).toBe(items);
  });

  it('a change approved in a cycle its validator no longer has (it stopped meanwhile) is not signed: the site is told it stopped', async () => {
    const second = formatNodeId(freshNodeId());
    const txID = await addValidator(second);
    const end = Number((await currentValidators([second]))[0]!.endTime);
    const items = (await w.wallet.balances.activityList()).items.length;
    const { asked, release } = await heldRequest(await stopOf(txID));
    expect((w.shown.at(-1) as TxSummary).view.details).toContainEqual(detail('Current cycle ends', timeText(BigInt(end))));
    // It never ran, so at its cycle's end the chain removes it (uptime too low); then the user approves.
    for (let i = 0; (await currentValidators([second])).length > 0; i++) {
      expect(i, 'the validator removed after its cycle').toBeLessThan(Number(CYCLE) * 4 + 60);
      await new Promise((r) => setTimeout(r, 250));
    }
    release();
    await expect(asked).rejects.toThrow(/-32603 The validator stopped since your review: nothing was sent\./);
    expect((await w.wallet.balances.activityList()).items.length).toBe(items);
  });

  it('a validation only signed for the site says it starts whenever the site sends it; one the wallet sends does not', async () => {
    const bls = freshBlsKey();
    const unsigned = pvm.newAddAutoRenewedValidatorTx(
      { ...(await common()), nodeId: formatNodeId(freshNodeId()), publicKey: bls.publicKey, signature: bls.proofOfPossession, weight: 2_000n * AVAX, shares: 20_000, rewardAddresses: [me], delegatorRewardsOwner: [me], ownerAddresses: [me], autoCompoundRewardShares: 0, period: CYCLE },
      ajs,
    );
    await w.request('xpc_signTransaction', [{ transactionHex: hex0x(unsigned.toBytes()), chainAlias: 'P' }]);
    expect((w.shown.at(-1) as TxSummary).view.details).toContainEqual(detail('Starts', 'when the site sends it: at any time while the funds it spends are unspent, locking them for a whole cycle from then'));
    expect(validatorShown?.map((d) => d.label)).not.toContain('Starts');
  });
});
