// One look at the account's stakes (src/background/stake-follow.ts) with what it needs from the
// node, the result saved to the stake book, and every reward the chain paid to the account since
// the last look listed in Activity as "Staking reward".
import { fromHex } from '../core/bytes.js';
import { cb58Encode } from '../core/encoding.js';
import { lockClamp } from '../core/engine-types.js';
import type { CurrentValidator } from '../core/node/validators.js';
import { addActivity } from './account-cache.js';
import type { AccountEngines } from './account-engines.js';
import type { StakingContext } from './staking-context.js';
import { listedStates, type StakeRecord } from './stake-book.js';
import { delegationNodes, followStakes } from './stake-follow.js';
import { apiOwnerSet } from './staking-views.js';

/** Validators found per look: a node listing hundreds naming the account must not make each look ask about them all at once. */
const FOUND_PER_LOOK = 16;

/** Validators the account gets the rewards of (or may change) that the book does not know yet, FOUND_PER_LOOK at most. */
function discovered(stakes: readonly StakeRecord[], validators: readonly CurrentValidator[], mine: ReadonlySet<string>): StakeRecord[] {
  const known = new Set(stakes.map((s) => s.txID));
  const all = (addresses: readonly string[] | undefined) => addresses !== undefined && addresses.length > 0 && addresses.every((a) => mine.has(a));
  return validators
    .filter((v) => !known.has(v.txID) && (all(v.validationRewardOwner?.addresses) || all(v.autoRenew?.authority.addresses)))
    .slice(0, FOUND_PER_LOOK)
    .map((v) => ({
      txID: v.txID,
      kind: v.autoRenew ? 'auto-renewed' : 'validation',
      nodeID: v.nodeID,
      amount: v.weight.toString(),
      state: 'active',
      rewardOwner: v.validationRewardOwner ? apiOwnerSet(v.validationRewardOwner) : { addresses: [], threshold: 0 },
      ...(v.delegationRewardOwner ? { delegationFeeOwner: apiOwnerSet(v.delegationRewardOwner) } : {}),
      delegationFee: v.delegationFee,
      rewards: [],
      byWallet: false,
      createdAt: Date.now(),
    }));
}


export async function followAccountStakes(c: StakingContext, validators: readonly CurrentValidator[], engines: Pick<AccountEngines, 'caches' | 'outbox'>): Promise<void> {
  const stakes = await c.book.list();
  // Each stake's state as this look read it (followStakes mutates the records).
  const readStates = new Map(stakes.map((s) => [s.txID, s.state]));
  const sent = await (await engines.outbox(c.preset, c.account.id)).list();
  stakes.push(...discovered(stakes, validators, c.mine));
  const node = c.engine.node;
  const withDelegators = new Map<string, CurrentValidator>();
  await Promise.all(
    delegationNodes(stakes).map(async (nodeID) => {
      const [v] = await node.platform.getCurrentValidators([nodeID]);
      if (v) withDelegators.set(nodeID, v);
    }),
  );
  // A stake the node no longer lists is finished once its end has passed: by the chain's time no
  // further than an hour past this computer's clock (a node far ahead would end stakes for good).
  // Checked with the stake's signed bytes: the outbox's, or once it no longer holds them the node's.
  const ran = async (txID: string): Promise<boolean> => {
    const e = sent.find((x) => x.txID === txID);
    return (await (e ? c.engine.txFate('P', txID, fromHex(e.signedHex)) : c.engine.txFateFromNode('P', txID))) === 'accepted';
  };
  const found = await followStakes(stakes, { node, hrp: c.engine.ctx.hrp, mine: c.mine, now: Number(lockClamp(c.chainTime)), validators, withDelegators, txState: (txID) => c.engine.txState('P', txID), outbox: new Set(sent.map((e) => e.txID)), ran, listed: listedStates(c.cache.activity) });
  const avax = cb58Encode(c.engine.ctx.avaxAssetID);
  const paid = found.map((f) => ({ f, amount: f.rewards.filter((r) => r.yours).reduce((s, r) => s + BigInt(r.amount), 0n) })).filter((x) => x.amount > 0n);
  // Listed before the book says the stake is settled: a stop between the two decides the reward again
  // next time (listed once), where the other order would never list it.
  if (paid.length > 0) {
    await engines.caches.update(c.preset.id, c.account.id, (cache) => {
      for (const { f, amount } of paid) {
        if (cache.activity.some((a) => a.txID === f.rewardTxID)) continue;
        addActivity(cache, { txID: f.rewardTxID, chain: 'P', kind: 'staking-reward', status: 'accepted', assetID: avax, amount: amount.toString(), nodeID: f.stake.nodeID, createdAt: f.paidAt * 1000 });
      }
      // Listed by when the chain paid it, among the rest.
      cache.activity.sort((a, b) => b.createdAt - a.createdAt);
    });
  }
  const followed = new Map(stakes.map((s) => [s.txID, s]));
  await c.book.update((stored) => {
    // A stake recorded meanwhile (a send) stays, over a copy of it discovered in the list, and so
    // does what its send decided meanwhile over a copy still pending; the others take what was found.
    // One made pending meanwhile (taken back: reopenContradicted in settle-activity.ts) stays so:
    // this look read it in another state, so what it found proves nothing about the take-back.
    for (let i = 0; i < stored.length; i++) {
      const mine = followed.get(stored[i]!.txID);
      const was = readStates.get(stored[i]!.txID);
      const takenBackMeanwhile = stored[i]!.state === 'pending' && was !== undefined && was !== 'pending';
      if (mine && !takenBackMeanwhile && (mine.byWallet || !stored[i]!.byWallet) && (mine.state !== 'pending' || stored[i]!.state === 'pending')) stored[i] = mine;
      followed.delete(stored[i]!.txID);
    }
    stored.push(...followed.values());
  });
}
