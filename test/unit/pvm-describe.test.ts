// What the approval window is given for P-Chain staking, subnet and L1 txs: one plain sentence,
// the facts behind it, the stake as outputs marked `staked`, and the fee burned (stake and L1
// balances are not burned).
import { describe, expect, it } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8 } from '../../src/core/bytes.js';
import type { PBlockTx, PTx, TransferableOutput } from '../../src/core/codec/index.js';
import { describeTx } from '../../src/core/describe.js';
import { durationText, sharesText, timeText } from '../../src/core/describe-pvm.js';
import { cb58Encode, formatAddress, formatNodeId } from '../../src/core/encoding.js';
import { type PFeeContext, pTxFee } from '../../src/core/fees.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { addressedCall, ctx, ewoq, l1ValidatorWeightMessage, mine, registerL1ValidatorMessage, second, utxo, warpMessage } from './pvm-test-kit.js';

const fee: PFeeContext = { weights: [1n, 1000n, 1000n, 4n], gasPriceNavax: 1n };
const node = sha256(utf8.encode('node')).slice(0, 20);
const END = 1_800_000_000n; // 2027-01-15T08:00:00Z
const AVAX = 1_000_000_000n;
const addr = (a: Uint8Array) => formatAddress('P', ctx.hrp, a);
const stakeOut = (amount: bigint): TransferableOutput => ({ assetID: ctx.avaxAssetID, output: { kind: 'TransferOutput', amount, owners: mine } });
const pop = { kind: 'ProofOfPossession' as const, publicKey: new Uint8Array(48).fill(1), signature: new Uint8Array(96).fill(2) };

/** A tx spending one UTXO of `total` nAVAX, with change of `total − spent − fee` so it burns exactly the fee. */
function funded<T extends PTx>(make: (change: TransferableOutput[]) => T, total: bigint, spent: bigint): { tx: T; utxos: ReturnType<typeof utxo>[] } {
  const u = utxo(total);
  const input = { txID: u.txID, outputIndex: 0, assetID: u.assetID, input: { kind: 'TransferInput' as const, amount: total, sigIndices: [0] } };
  const draft = make([stakeOut(1n)]);
  const withInput = { ...draft, inputs: [input] };
  const f = pTxFee(withInput, fee);
  return { tx: { ...withInput, outputs: [stakeOut(total - spent - f)] }, utxos: [u] };
}

const base = { vm: 'pvm' as const, networkID: ctx.networkID, blockchainID: ctx.pChainID, inputs: [], memo: new Uint8Array() };

describe('P-Chain staking txs, described', () => {
  it('AddPermissionlessValidatorTx: node, network, end, stake (marked staked), BLS key, rewards owners, delegation fee in percent; burned = fee only', () => {
    const { tx, utxos } = funded(
      (outputs) => ({
        ...base, outputs, kind: 'AddPermissionlessValidatorTx', validator: { nodeID: node, start: 0n, end: END, weight: 2_000n * AVAX }, subnetID: ctx.pChainID,
        signer: pop, stake: [stakeOut(2_000n * AVAX)], validationRewardsOwner: mine, delegationRewardsOwner: makeOwners([second.shortId]), delegationShares: 20_000,
      }),
      2_100n * AVAX,
      2_000n * AVAX,
    );
    const view = describeTx(tx, ctx, utxos);
    expect(view.action).toBe(`Validate the Primary Network with ${formatNodeId(node)} until 2027-01-15T08:00:00Z (Unix ${END}), staking 2,000 AVAX`);
    expect(view.details).toEqual(
      expect.arrayContaining([
        { label: 'Node', value: formatNodeId(node) },
        { label: 'Delegation fee', value: '2%' },
        { label: 'Validation rewards go to', value: addr(ewoq.shortId) },
        { label: 'Delegation fees go to', value: addr(second.shortId) },
        expect.objectContaining({ label: 'Stake', value: expect.stringContaining('2,000 AVAX') }),
      ]),
    );
    expect(view.outputs.filter((o) => o.staked)).toEqual([expect.objectContaining({ amount: (2_000n * AVAX).toString(), owners: { addresses: [addr(ewoq.shortId)], threshold: 1, locktime: '0' } })]);
    expect(view.burned).toBe(pTxFee(tx, fee).toString());
  });

  it('AddPermissionlessDelegatorTx: who is delegated to, how much, until when, who gets the rewards', () => {
    const { tx, utxos } = funded(
      (outputs) => ({ ...base, outputs, kind: 'AddPermissionlessDelegatorTx', validator: { nodeID: node, start: 0n, end: END, weight: 25n * AVAX }, subnetID: ctx.pChainID, stake: [stakeOut(25n * AVAX)], rewardsOwner: mine }),
      30n * AVAX,
      25n * AVAX,
    );
    const view = describeTx(tx, ctx, utxos);
    expect(view.action).toBe(`Delegate 25 AVAX to ${formatNodeId(node)} on the Primary Network until ${timeText(END)}`);
    expect(view.details).toContainEqual({ label: 'Rewards go to', value: addr(ewoq.shortId) });
    expect(view.burned).toBe(pTxFee(tx, fee).toString());
  });

  it('AddAutoRenewedValidatorTx: cycle, restaked share, who can change or stop it', () => {
    const { tx, utxos } = funded(
      (outputs) => ({
        ...base, outputs, kind: 'AddAutoRenewedValidatorTx', nodeID: node, signer: pop, stake: [stakeOut(2_000n * AVAX)], validationRewardsOwner: mine,
        delegationRewardsOwner: mine, validatorAuthority: makeOwners([ewoq.shortId, second.shortId], 2), delegationShares: 125_000, autoCompoundRewardShares: 500_000, period: 172_800n,
      }),
      2_001n * AVAX,
      2_000n * AVAX,
    );
    const view = describeTx(tx, ctx, utxos);
    expect(view.action).toBe(`Validate the Primary Network with ${formatNodeId(node)}, staking 2,000 AVAX in cycles of 2 d that renew until stopped, restaking 50% of the rewards`);
    expect(view.details).toEqual(
      expect.arrayContaining([
        { label: 'Delegation fee', value: '12.5%' },
        { label: 'Restaked share of rewards', value: '50%' },
        { label: 'Can change or stop it', value: expect.stringMatching(/^2 of 2 signatures: /) },
      ]),
    );
    expect(view.burned).toBe(pTxFee(tx, fee).toString());
  });

  it('SetAutoRenewedValidatorConfigTx with a next cycle', () => {
    const id = sha256(utf8.encode('validator'));
    const view = describeTx({ ...base, outputs: [], kind: 'SetAutoRenewedValidatorConfigTx', txID: id, auth: [0], autoCompoundRewardShares: 1_000_000, period: 1_209_600n }, ctx, []);
    // The node applies the share to the cycle already running; only the period waits for the next.
    expect(view.action).toBe(`Change the auto-renewed validator added by ${cb58Encode(id)}: restaking 100% of the rewards, the current cycle's included, and cycles of 14 d from its next cycle`);
    expect(view.details).toContainEqual({ label: 'Restaked share of rewards', value: '100%, from the rewards of the current cycle (split when it ends)' });
    expect(view.authorization).toMatchObject({ by: 'validator authority', note: expect.stringContaining('cannot look up') });
  });
});

describe('subnet and L1 txs, described', () => {
  const subnetID = sha256(utf8.encode('subnet'));
  const validationID = sha256(utf8.encode('validation'));

  it('CreateSubnetTx, CreateChainTx, TransferSubnetOwnershipTx', () => {
    const owners = makeOwners([ewoq.shortId, second.shortId], 1);
    expect(describeTx({ ...base, outputs: [], kind: 'CreateSubnetTx', owner: owners }, ctx, []).action).toBe(`Create a subnet owned by 1 of 2 signatures: ${owners.addresses.map(addr).join(', ')}`);
    const chain = describeTx({ ...base, outputs: [], kind: 'CreateChainTx', subnetID, chainName: 'Dex', vmID: sha256(utf8.encode('vm')), fxIDs: [], genesisData: new Uint8Array(10), subnetAuth: [0] }, ctx, []);
    expect(chain.action).toBe(`Create the blockchain "Dex" on subnet ${cb58Encode(subnetID)}, running VM ${cb58Encode(sha256(utf8.encode('vm')))}`);
    expect(chain.details).toContainEqual({ label: 'Genesis', value: '10 bytes' });
    expect(describeTx({ ...base, outputs: [], kind: 'TransferSubnetOwnershipTx', subnetID, subnetAuth: [0], owner: mine }, ctx, []).action).toBe(
      `Transfer ownership of subnet ${cb58Encode(subnetID)} to ${addr(ewoq.shortId)}`,
    );
  });

  it('ConvertSubnetToL1Tx: manager, validators, and their balances (not burned)', () => {
    const u = utxo(10n * AVAX);
    const tx: PTx = {
      ...base, outputs: [], inputs: [{ txID: u.txID, outputIndex: 0, assetID: u.assetID, input: { kind: 'TransferInput', amount: 10n * AVAX, sigIndices: [0] } }],
      kind: 'ConvertSubnetToL1Tx', subnetID, chainID: sha256(utf8.encode('chain')), address: new Uint8Array(20).fill(0xab),
      validators: [{ nodeID: node, weight: 100n, balance: 3n * AVAX, publicKey: new Uint8Array(48), signature: new Uint8Array(96), remainingBalanceOwner: { threshold: 1, addresses: [ewoq.shortId] }, deactivationOwner: { threshold: 1, addresses: [second.shortId] } }],
      subnetAuth: [0],
    };
    const view = describeTx(tx, ctx, [u]);
    expect(view.action).toContain(`Convert subnet ${cb58Encode(subnetID)} into an L1 whose validators are managed by 0x${'ab'.repeat(20)}`);
    expect(view.action).toContain('1 initial validator funded with 3 AVAX');
    expect(view.details).toContainEqual({ label: 'Validator 1 can be disabled by', value: addr(second.shortId) });
    expect(view.burned).toBe((7n * AVAX).toString());
  });

  it('RegisterL1ValidatorTx and SetL1ValidatorWeightTx: read from the manager message inside the Warp message', () => {
    const registration = registerL1ValidatorMessage({
      subnetID, nodeID: node, blsPublicKey: new Uint8Array(48), expiry: END, remainingBalanceOwner: { threshold: 1, addresses: [ewoq.shortId] }, disableOwner: { threshold: 1, addresses: [second.shortId] }, weight: 42n,
    });
    const reg = describeTx({ ...base, outputs: [], kind: 'RegisterL1ValidatorTx', balance: 2n * AVAX, proofOfPossession: new Uint8Array(96), message: warpMessage(addressedCall(registration)) }, ctx, []);
    expect(reg.action).toBe(`Register ${formatNodeId(node)} as a validator of subnet ${cb58Encode(subnetID)} with weight 42, funding its fee balance with 2 AVAX`);
    expect(reg.details).toContainEqual({ label: 'Validation ID', value: cb58Encode(sha256(registration)) });
    // The owners inside the message are judged like any other (src/core/tx-impact.ts), and so is the balance moved.
    expect(reg.rewardOwners).toEqual([
      { what: "the L1 validator's remaining balance", owners: { addresses: [addr(ewoq.shortId)], threshold: 1, locktime: '0' } },
      { what: 'the right to disable the L1 validator', owners: { addresses: [addr(second.shortId)], threshold: 1, locktime: '0' } },
    ]);
    expect(reg.feeBalances).toEqual([{ amount: (2n * AVAX).toString(), refundTo: { addresses: [addr(ewoq.shortId)], threshold: 1, locktime: '0' } }]);

    const weight = (w: bigint) => describeTx({ ...base, outputs: [], kind: 'SetL1ValidatorWeightTx', message: warpMessage(addressedCall(l1ValidatorWeightMessage(validationID, 4n, w))) }, ctx, []).action;
    expect(weight(7n)).toBe(`Set the weight of L1 validator ${cb58Encode(validationID)} to 7`);
    expect(weight(0n)).toBe(`Remove L1 validator ${cb58Encode(validationID)}`);
    expect(describeTx({ ...base, outputs: [], kind: 'SetL1ValidatorWeightTx', message: new Uint8Array(3) }, ctx, []).action).toBe("Change an L1 validator's weight from its manager's message");
  });

  it('IncreaseL1ValidatorBalanceTx and DisableL1ValidatorTx', () => {
    expect(describeTx({ ...base, outputs: [], kind: 'IncreaseL1ValidatorBalanceTx', validationID, balance: 1_500_000_000n }, ctx, []).feeBalances).toEqual([{ amount: '1500000000' }]);
    expect(describeTx({ ...base, outputs: [], kind: 'IncreaseL1ValidatorBalanceTx', validationID, balance: 1_500_000_000n }, ctx, []).action).toBe(
      `Add 1.5 AVAX to the fee balance of L1 validator ${cb58Encode(validationID)}`,
    );
    expect(describeTx({ ...base, outputs: [], kind: 'DisableL1ValidatorTx', validationID, disableAuth: [0] }, ctx, []).action).toContain(`Disable L1 validator ${cb58Encode(validationID)}`);
  });
});

describe('history-only txs', () => {
  it('block-builder txs: an action, no legs, no fee', () => {
    const id = sha256(utf8.encode('staker'));
    const txs: [PBlockTx, string][] = [
      [{ vm: 'pvm', kind: 'RewardValidatorTx', txID: id }, `The staking of ${cb58Encode(id)} ended`],
      [{ vm: 'pvm', kind: 'RewardAutoRenewedValidatorTx', txID: id, timestamp: END }, `ended at ${timeText(END)}`],
      [{ vm: 'pvm', kind: 'AdvanceTimeTx', time: END }, `advanced to ${timeText(END)}`],
    ];
    for (const [tx, text] of txs) {
      const view = describeTx(tx, ctx, []);
      expect(view).toMatchObject({ chain: 'P', kind: tx.kind, networkID: ctx.networkID, inputs: [], outputs: [], burned: '0' });
      expect(view.action).toContain(text);
    }
  });

  it('a P BaseTx keeps its old shape (no action)', () => {
    expect(describeTx({ ...base, outputs: [], kind: 'BaseTx' }, ctx, [])).not.toHaveProperty('action');
  });
});

describe('text helpers', () => {
  it('durations, shares and times', () => {
    expect(durationText(172_800n)).toBe('2 d');
    expect(durationText(90_061n)).toBe('1 d 1 h 1 min 1 s');
    expect(durationText(0n)).toBe('0 s');
    expect(sharesText(20_000)).toBe('2%');
    expect(sharesText(1)).toBe('0.0001%');
    expect(sharesText(1_000_000)).toBe('100%');
    expect(timeText(0n)).toBe('1970-01-01T00:00:00Z (Unix 0)');
    expect(timeText((1n << 64n) - 1n)).toBe(`Unix ${(1n << 64n) - 1n}`);
  });
});
