// What a site's delegation approval says of the validator the page chose (site-stakes.ts
// delegationTerms): its share of the reward proven by its own staking tx, its end, its uptime; a
// list its tx contradicts, a validator that is not validating and a delegation outlasting its
// validator said in words. The same on the node: test/integration/pvm-types.test.ts.
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { delegationTerms } from '../../src/background/site-stakes.js';
import { encodeSignedTx } from '../../src/core/codec/index.js';
import type { PAddPermissionlessDelegatorTx, PAddPermissionlessValidatorTx } from '../../src/core/codec/types.js';
import { timeText } from '../../src/core/describe-pvm.js';
import { cb58Encode, formatNodeId } from '../../src/core/encoding.js';
import type { WalletEngine } from '../../src/core/engine.js';
import type { CurrentValidator } from '../../src/core/node/validators.js';
import { ctx, mine } from './pvm-test-kit.js';

const NODE_BYTES = new Uint8Array(20).fill(7);
const NODE = formatNodeId(NODE_BYTES);
const END = 2_000_000_000n;
const base = { vm: 'pvm' as const, networkID: ctx.networkID, blockchainID: ctx.pChainID, inputs: [], outputs: [], memo: new Uint8Array() };

/** The validator's own staking tx: its fee and end fixed for good. */
function validatorTx(fee: number): Uint8Array {
  const tx: PAddPermissionlessValidatorTx = { ...base, kind: 'AddPermissionlessValidatorTx', validator: { nodeID: NODE_BYTES, start: 0n, end: END, weight: 2_000_000_000_000n }, subnetID: new Uint8Array(32), signer: { kind: 'EmptySigner' }, stake: [], validationRewardsOwner: mine, delegationRewardsOwner: mine, delegationShares: fee };
  return encodeSignedTx({ unsigned: tx, credentials: [] });
}

function delegation(end = END - 1n, subnetID = new Uint8Array(32)): PAddPermissionlessDelegatorTx {
  return { ...base, kind: 'AddPermissionlessDelegatorTx', validator: { nodeID: NODE_BYTES, start: 0n, end, weight: 25_000_000_000n }, subnetID, stake: [], rewardsOwner: mine };
}

/** A node listing the validator with `listed` terms over the staking tx `bytes`; none when `bytes` is undefined. */
function engine(bytes: Uint8Array | undefined, listed: Partial<CurrentValidator> = {}): WalletEngine {
  const txID = bytes ? cb58Encode(sha256(bytes)) : '';
  const v: CurrentValidator = { txID, nodeID: NODE, start: 0n, end: END, weight: 2_000_000_000_000n, potentialReward: 1n, accruedDelegateeReward: 0n, delegationFee: 20_000, uptime: 99.5, connected: true, delegatorCount: 0, delegatorWeight: 0n, ...listed };
  const platform = {
    getCurrentValidators: async () => (bytes ? [v] : []),
    getTx: async (id: string) => {
      if (id !== txID || !bytes) throw new Error('not found');
      return bytes;
    },
  };
  return { ctx, node: { platform } } as unknown as WalletEngine;
}

describe("a site's delegation: what its approval says of the validator", () => {
  it('its fee proven by its staking tx, its end and its uptime as the node says', async () => {
    expect(await delegationTerms(engine(validatorTx(20_000)), delegation())).toEqual([
      { label: 'Validator keeps', value: '2% of the reward (proven by its staking transaction)' },
      { label: 'Validator validates until', value: timeText(END) },
      { label: 'Validator uptime', value: '99.5%, as the node reports it' },
    ]);
  });

  it('one that keeps the whole reward: said as earning nothing', async () => {
    const lines = await delegationTerms(engine(validatorTx(1_000_000), { delegationFee: 1_000_000, connected: false }), delegation());
    expect(lines[0]).toEqual({ label: 'Validator keeps', value: 'the whole reward: this delegation earns you nothing' });
    expect(lines[2]!.value).toBe('99.5%, as the node reports it; not connected now');
  });

  it('an uptime the node does not report: said so, never "0%"', async () => {
    const lines = await delegationTerms(engine(validatorTx(20_000), { uptime: null }), delegation());
    expect(lines[2]).toEqual({ label: 'Validator uptime', value: 'not reported by your node' });
  });

  it('a list whose fee its staking tx contradicts, or a tx the node cannot show: its terms not known, nothing claimed', async () => {
    const said = [{ label: "Validator's terms", value: "not known: the node could not show them, or showed terms its own staking transaction contradicts. Only approve if you trust this site's choice of validator" }];
    expect(await delegationTerms(engine(validatorTx(1_000_000), { delegationFee: 20_000 }), delegation())).toEqual(said);
    expect(await delegationTerms(engine(validatorTx(20_000), { txID: 'another' }), delegation())).toEqual(said);
  });

  it('a node that is not validating, and a delegation ending after its validator: the chain refuses them, said before signing', async () => {
    expect(await delegationTerms(engine(undefined), delegation())).toEqual([{ label: 'Validator', value: 'not validating now: the chain refuses a delegation to it' }]);
    expect(await delegationTerms(engine(validatorTx(20_000)), delegation(END + 1n))).toContainEqual({ label: 'Ends after the validator', value: 'the chain refuses a delegation that ends after its validator (or its current cycle)' });
  });

  it("says nothing of a subnet's delegation", async () => {
    expect(await delegationTerms(engine(validatorTx(20_000)), delegation(END - 1n, new Uint8Array(32).fill(1)))).toEqual([]);
  });
});
