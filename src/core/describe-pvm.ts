// What a P-Chain staking, subnet or L1 validator tx does, in words a person can check before
// approving it: which node, until when, how much is staked and who gets it back, who gets the
// rewards, the delegation fee, the auto-renew cycle and the restaked share, what changes on a
// subnet or L1, and whose authorization the tx carries. Built from the exact tx (docs/protocol.md §P).
import { type Bytes, equalBytes, toHex } from './bytes.js';
import { formatAmount } from './amount.js';
import { authorizationOf, l1BalanceOf } from './codec/pvm-rules.js';
import { amountOf } from './codec/rules.js';
import { readL1ManagerMessage, parseWarpMessage } from './codec/warp.js';
import type { OutputOwners, PBlockTx, PChainOwner, PTx, Signer, TransferableOutput, Validator } from './codec/types.js';
import { cb58Encode, formatAddress, formatNodeId } from './encoding.js';
import type { ChainContext } from './tx/context.js';

export interface DetailLine {
  label: string;
  value: string;
}

export interface AuthorizationView {
  /** Whose authorization: 'subnet owner', 'L1 validator deactivation owner', 'validator authority'. */
  by: string;
  /** The subnet, validation or validator tx ID that names that owner. */
  of: string;
  /** Indices into that owner's addresses whose signatures the tx carries. */
  sigIndices: number[];
  /** The owner's addresses and threshold, when the wallet found them. */
  owners?: { addresses: string[]; threshold: number };
  /** The addresses that sign (at sigIndices), when the owner is known. */
  signers?: string[];
  note?: string;
}

export interface PDescription {
  action: string;
  details: DetailLine[];
  authorization?: AuthorizationView;
}

const SECONDS_PER_UNIT: [bigint, string][] = [
  [86_400n, 'd'],
  [3_600n, 'h'],
  [60n, 'min'],
  [1n, 's'],
];

/** "14 d", "1 d 2 h", "90 s". */
export function durationText(seconds: bigint): string {
  if (seconds === 0n) return '0 s';
  const parts: string[] = [];
  let left = seconds;
  for (const [unit, name] of SECONDS_PER_UNIT) {
    if (left >= unit) {
      parts.push(`${left / unit} ${name}`);
      left %= unit;
    }
  }
  return parts.join(' ');
}

/** Unix seconds as an ISO-8601 UTC time, with the raw value. */
export function timeText(seconds: bigint): string {
  const ms = Number(seconds) * 1000;
  if (seconds > 8_640_000_000_000n) return `Unix ${seconds}`;
  return `${new Date(ms).toISOString().replace('.000Z', 'Z')} (Unix ${seconds})`;
}

/** Shares in millionths as a percentage: 20 000 → "2%". */
export function sharesText(shares: number): string {
  const whole = Math.floor(shares / 10_000);
  const fraction = (shares % 10_000).toString().padStart(4, '0').replace(/0+$/, '');
  return `${whole}${fraction ? `.${fraction}` : ''}%`;
}

class Describer {
  readonly details: DetailLine[] = [];
  constructor(private readonly ctx: ChainContext) {}

  add(label: string, value: string): void {
    this.details.push({ label, value });
  }

  avax(amount: bigint): string {
    return `${formatAmount(amount, 9, { groupThousands: true })} AVAX`;
  }

  amount(amount: bigint, assetID: Bytes): string {
    return equalBytes(assetID, this.ctx.avaxAssetID) ? this.avax(amount) : `${amount} base units of asset ${cb58Encode(assetID)}`;
  }

  addresses(addresses: readonly Bytes[]): string[] {
    return addresses.map((a) => formatAddress('P', this.ctx.hrp, a));
  }

  owners(o: OutputOwners | PChainOwner): string {
    const list = this.addresses(o.addresses).join(', ');
    const of = o.addresses.length === 1 && o.threshold === 1 ? list : `${o.threshold} of ${o.addresses.length} signatures: ${list}`;
    const locktime = 'locktime' in o && o.locktime !== 0n ? `, locked until ${timeText(o.locktime)}` : '';
    // No addresses means threshold 0 (the node refuses any other): no signature is needed, so anyone can act as it.
    return (o.addresses.length === 0 ? 'anyone (no signature needed)' : of) + locktime;
  }

  node(nodeID: Bytes): string {
    return nodeID.length === 20 ? formatNodeId(nodeID) : `0x${toHex(nodeID)} (not a valid NodeID)`;
  }

  subnet(subnetID: Bytes): string {
    return subnetID.every((b) => b === 0) ? 'the Primary Network' : `subnet ${cb58Encode(subnetID)}`;
  }

  signer(s: Signer): void {
    if (s.kind === 'ProofOfPossession') this.add('BLS key', `0x${toHex(s.publicKey)} (with proof of possession)`);
    else this.add('BLS key', 'none');
  }

  validator(v: Validator, subnetID?: Bytes): void {
    this.add('Node', this.node(v.nodeID));
    if (subnetID) this.add('Network', this.subnet(subnetID));
    this.add('Until', timeText(v.end));
  }

  stake(total: bigint, assetID: Bytes | undefined): string {
    return assetID ? this.amount(total, assetID) : this.avax(total);
  }
}

function stakeTotal(stake: readonly TransferableOutput[]): bigint {
  return stake.reduce((sum, o) => sum + amountOf(o.output), 0n);
}

const AUTHORITY_NAMES = { 'subnet-owner': 'subnet owner', 'deactivation-owner': 'L1 validator deactivation owner', 'validator-authority': 'validator authority' } as const;

function authorizationView(tx: PTx, owner: OutputOwners | undefined, d: Describer): AuthorizationView | undefined {
  const auth = authorizationOf(tx);
  if (!auth) return undefined;
  const view: AuthorizationView = { by: AUTHORITY_NAMES[auth.kind], of: cb58Encode(auth.id), sigIndices: auth.sigIndices };
  if (owner) {
    view.owners = { addresses: d.addresses(owner.addresses), threshold: owner.threshold };
    view.signers = d.addresses(auth.sigIndices.flatMap((i) => (owner.addresses[i] ? [owner.addresses[i]] : [])));
    if (auth.kind !== 'validator-authority') view.note = "the owner as the node reports it from the chain's state";
  } else {
    view.note = 'the wallet cannot look up this owner: it cannot tell who signs this authorization';
  }
  return view;
}

/** The description of a P-Chain tx that has a BaseTx (stake legs and burned are in the TxView). */
/**
 * The owner sets a P-Chain tx hands something to other than its outputs: who gets the rewards, who
 * controls a validator or a subnet, who gets an L1 validator's remaining balance (also when it is
 * named inside a RegisterL1ValidatorTx's message). An approval warns when one of them is not the
 * wallet's. Owner sets that carry a locktime keep it.
 */
export function ownersNamedBy(tx: PTx): { what: string; owners: PChainOwner & { locktime?: bigint } }[] {
  switch (tx.kind) {
    case 'AddPermissionlessValidatorTx':
      return [{ what: 'validation rewards', owners: tx.validationRewardsOwner }, { what: 'delegation fees', owners: tx.delegationRewardsOwner }];
    case 'AddAutoRenewedValidatorTx':
      return [
        { what: 'validation rewards', owners: tx.validationRewardsOwner },
        { what: 'delegation fees', owners: tx.delegationRewardsOwner },
        { what: 'control of the validator', owners: tx.validatorAuthority },
      ];
    case 'AddValidatorTx':
    case 'AddDelegatorTx':
    case 'AddPermissionlessDelegatorTx':
      return [{ what: 'rewards', owners: tx.rewardsOwner }];
    case 'CreateSubnetTx':
    case 'TransferSubnetOwnershipTx':
      return [{ what: 'ownership of the subnet', owners: tx.owner }];
    case 'ConvertSubnetToL1Tx':
      return tx.validators.flatMap((v) => [
        { what: "an L1 validator's remaining balance", owners: v.remainingBalanceOwner },
        { what: 'the right to disable an L1 validator', owners: v.deactivationOwner },
      ]);
    case 'RegisterL1ValidatorTx': {
      const msg = managerMessage(tx.message);
      if (msg?.kind !== 'RegisterL1Validator') return [];
      return [
        { what: "the L1 validator's remaining balance", owners: msg.remainingBalanceOwner },
        { what: 'the right to disable the L1 validator', owners: msg.disableOwner },
      ];
    }
    default:
      return [];
  }
}

/**
 * AVAX a P-Chain tx moves into L1 validators' fee balances, and who gets what is left of each when
 * the validator is disabled, when the tx says (an IncreaseL1ValidatorBalanceTx does not: the chain's
 * state holds that owner).
 */
export function feeBalancesOf(tx: PTx): { amount: bigint; refundTo?: PChainOwner }[] {
  if (tx.kind === 'ConvertSubnetToL1Tx') return tx.validators.map((v) => ({ amount: v.balance, refundTo: v.remainingBalanceOwner }));
  if (tx.kind === 'RegisterL1ValidatorTx') {
    const msg = managerMessage(tx.message);
    return [{ amount: tx.balance, ...(msg?.kind === 'RegisterL1Validator' ? { refundTo: msg.remainingBalanceOwner } : {}) }];
  }
  if (tx.kind === 'IncreaseL1ValidatorBalanceTx') return [{ amount: tx.balance }];
  return [];
}

export function describePTx(tx: PTx, ctx: ChainContext, authorityOwner?: OutputOwners): PDescription | undefined {
  const d = new Describer(ctx);
  const action = actionOf(tx, d);
  if (action === undefined) return undefined;
  const view: PDescription = { action, details: d.details };
  const authorization = authorizationView(tx, authorityOwner, d);
  if (authorization) view.authorization = authorization;
  return view;
}

function actionOf(tx: PTx, d: Describer): string | undefined {
  switch (tx.kind) {
    case 'BaseTx':
    case 'ImportTx':
    case 'ExportTx':
      return undefined;
    case 'AddPermissionlessValidatorTx':
    case 'AddValidatorTx': {
      const subnetID = tx.kind === 'AddPermissionlessValidatorTx' ? tx.subnetID : new Uint8Array(32);
      const staked = d.stake(stakeTotal(tx.stake), tx.stake[0]?.assetID);
      d.validator(tx.validator, subnetID);
      d.add('Stake', `${staked}, returned to its owners when the validation ends`);
      if (tx.kind === 'AddPermissionlessValidatorTx') {
        d.signer(tx.signer);
        d.add('Validation rewards go to', d.owners(tx.validationRewardsOwner));
        d.add('Delegation fees go to', d.owners(tx.delegationRewardsOwner));
      } else {
        d.add('Rewards go to', d.owners(tx.rewardsOwner));
        d.add('Note', 'an AddValidatorTx: a type the P-Chain no longer accepts');
      }
      d.add('Delegation fee', sharesText(tx.delegationShares));
      return `Validate ${d.subnet(subnetID)} with ${d.node(tx.validator.nodeID)} until ${timeText(tx.validator.end)}, staking ${staked}`;
    }
    case 'AddPermissionlessDelegatorTx':
    case 'AddDelegatorTx': {
      const subnetID = tx.kind === 'AddPermissionlessDelegatorTx' ? tx.subnetID : new Uint8Array(32);
      const staked = d.stake(stakeTotal(tx.stake), tx.stake[0]?.assetID);
      d.validator(tx.validator, subnetID);
      d.add('Stake', `${staked}, returned to its owners when the delegation ends`);
      d.add('Rewards go to', d.owners(tx.rewardsOwner));
      if (tx.kind === 'AddDelegatorTx') d.add('Note', 'an AddDelegatorTx: a type the P-Chain no longer accepts');
      return `Delegate ${staked} to ${d.node(tx.validator.nodeID)} on ${d.subnet(subnetID)} until ${timeText(tx.validator.end)}`;
    }
    case 'AddAutoRenewedValidatorTx': {
      const staked = d.avax(stakeTotal(tx.stake));
      d.add('Node', d.node(tx.nodeID));
      d.add('Network', 'the Primary Network');
      d.add('Stake', `${staked}, returned to its owners when the validator stops`);
      d.add('Cycle', `${durationText(tx.period)}, renewed at the end of each cycle until stopped`);
      d.add('Restaked share of rewards', sharesText(tx.autoCompoundRewardShares));
      d.add('Delegation fee', sharesText(tx.delegationShares));
      d.add('Validation rewards go to', d.owners(tx.validationRewardsOwner));
      d.add('Delegation fees go to', d.owners(tx.delegationRewardsOwner));
      d.add('Can change or stop it', d.owners(tx.validatorAuthority));
      d.signer(tx.signer);
      return `Validate the Primary Network with ${d.node(tx.nodeID)}, staking ${staked} in cycles of ${durationText(tx.period)} that renew until stopped, restaking ${sharesText(tx.autoCompoundRewardShares)} of the rewards`;
    }
    case 'SetAutoRenewedValidatorConfigTx': {
      const validator = cb58Encode(tx.txID);
      d.add('Validator', `added by ${validator}`);
      if (tx.period === 0n) {
        // A validator that stops is paid all its rewards: the share no longer matters.
        d.add('Restaked share of rewards', 'none: all rewards are paid out when it stops');
        d.add('Next cycle', 'none: the validator stops at the end of its current cycle');
        return `Stop the auto-renewed validator added by ${validator} at the end of its current cycle`;
      }
      // The node applies the share at once (it splits the running cycle's rewards at its end); only the period waits.
      d.add('Restaked share of rewards', `${sharesText(tx.autoCompoundRewardShares)}, from the rewards of the current cycle (split when it ends)`);
      d.add('Next cycle', durationText(tx.period));
      return `Change the auto-renewed validator added by ${validator}: restaking ${sharesText(tx.autoCompoundRewardShares)} of the rewards, the current cycle's included, and cycles of ${durationText(tx.period)} from its next cycle`;
    }
    case 'AddSubnetValidatorTx':
      d.validator(tx.validator, tx.subnetID);
      d.add('Weight', tx.validator.weight.toString());
      return `Add ${d.node(tx.validator.nodeID)} as a validator of ${d.subnet(tx.subnetID)} with weight ${tx.validator.weight} until ${timeText(tx.validator.end)}`;
    case 'RemoveSubnetValidatorTx':
      d.add('Node', d.node(tx.nodeID));
      d.add('Network', d.subnet(tx.subnetID));
      return `Remove ${d.node(tx.nodeID)} from the validators of ${d.subnet(tx.subnetID)}`;
    case 'CreateSubnetTx':
      d.add('Owner', d.owners(tx.owner));
      return `Create a subnet owned by ${d.owners(tx.owner)}`;
    case 'TransferSubnetOwnershipTx':
      d.add('Network', d.subnet(tx.subnetID));
      d.add('New owner', d.owners(tx.owner));
      return `Transfer ownership of ${d.subnet(tx.subnetID)} to ${d.owners(tx.owner)}`;
    case 'CreateChainTx':
      d.add('Network', d.subnet(tx.subnetID));
      d.add('Chain name', tx.chainName);
      d.add('VM', cb58Encode(tx.vmID));
      d.add('Feature extensions', tx.fxIDs.length === 0 ? 'none' : tx.fxIDs.map(cb58Encode).join(', '));
      d.add('Genesis', `${tx.genesisData.length} bytes`);
      return `Create the blockchain "${tx.chainName}" on ${d.subnet(tx.subnetID)}, running VM ${cb58Encode(tx.vmID)}`;
    case 'TransformSubnetTx':
      d.add('Network', d.subnet(tx.subnetID));
      d.add('Staking asset', cb58Encode(tx.assetID));
      d.add('Stake per validator', `${tx.minValidatorStake} to ${tx.maxValidatorStake}`);
      d.add('Staking duration', `${durationText(BigInt(tx.minStakeDuration))} to ${durationText(BigInt(tx.maxStakeDuration))}`);
      d.add('Minimum delegation fee', sharesText(tx.minDelegationFee));
      d.add('Note', 'a TransformSubnetTx: a type the P-Chain no longer accepts');
      return `Make ${d.subnet(tx.subnetID)} permissionless, staking asset ${cb58Encode(tx.assetID)}`;
    case 'ConvertSubnetToL1Tx': {
      d.add('Network', d.subnet(tx.subnetID));
      d.add('Validator manager', `0x${toHex(tx.address)} on chain ${cb58Encode(tx.chainID)}`);
      tx.validators.forEach((v, i) => {
        d.add(`Validator ${i + 1}`, `${d.node(v.nodeID)}, weight ${v.weight}, fee balance ${d.avax(v.balance)}`);
        d.add(`Validator ${i + 1} balance left goes to`, d.owners(v.remainingBalanceOwner));
        d.add(`Validator ${i + 1} can be disabled by`, d.owners(v.deactivationOwner));
      });
      return `Convert ${d.subnet(tx.subnetID)} into an L1 whose validators are managed by 0x${toHex(tx.address)} on chain ${cb58Encode(tx.chainID)}, with ${tx.validators.length} initial validator${tx.validators.length === 1 ? '' : 's'} funded with ${d.avax(l1BalanceOf(tx))}`;
    }
    case 'RegisterL1ValidatorTx': {
      d.add('Fee balance', d.avax(tx.balance));
      const msg = managerMessage(tx.message);
      if (msg?.kind === 'RegisterL1Validator') {
        d.add('Network', d.subnet(msg.subnetID));
        d.add('Node', d.node(msg.nodeID));
        d.add('Weight', msg.weight.toString());
        d.add('Message valid until', timeText(msg.expiry));
        d.add('Balance left goes to', d.owners(msg.remainingBalanceOwner));
        d.add('Can be disabled by', d.owners(msg.disableOwner));
        d.add('Validation ID', cb58Encode(msg.validationID));
        return `Register ${d.node(msg.nodeID)} as a validator of ${d.subnet(msg.subnetID)} with weight ${msg.weight}, funding its fee balance with ${d.avax(tx.balance)}`;
      }
      d.add('Message', 'not a validator registration the wallet can read');
      return `Register an L1 validator from its manager's message, funding its fee balance with ${d.avax(tx.balance)}`;
    }
    case 'SetL1ValidatorWeightTx': {
      const msg = managerMessage(tx.message);
      if (msg?.kind === 'L1ValidatorWeight') {
        const id = cb58Encode(msg.validationID);
        d.add('Validation ID', id);
        d.add('Weight', msg.weight.toString());
        d.add('Nonce', msg.nonce.toString());
        return msg.weight === 0n ? `Remove L1 validator ${id}` : `Set the weight of L1 validator ${id} to ${msg.weight}`;
      }
      d.add('Message', 'not a weight change the wallet can read');
      return "Change an L1 validator's weight from its manager's message";
    }
    case 'IncreaseL1ValidatorBalanceTx':
      d.add('Validation ID', cb58Encode(tx.validationID));
      d.add('Added to the fee balance', d.avax(tx.balance));
      return `Add ${d.avax(tx.balance)} to the fee balance of L1 validator ${cb58Encode(tx.validationID)}`;
    case 'DisableL1ValidatorTx':
      d.add('Validation ID', cb58Encode(tx.validationID));
      return `Disable L1 validator ${cb58Encode(tx.validationID)}; its remaining fee balance goes to its remaining balance owner`;
  }
}

function managerMessage(message: Bytes) {
  try {
    const warp = parseWarpMessage(message);
    return readL1ManagerMessage(warp.payload);
  } catch {
    return undefined;
  }
}

/** History only: the txs the P-Chain's block builder issues. */
export function describePBlockTx(tx: PBlockTx): PDescription {
  switch (tx.kind) {
    case 'AdvanceTimeTx':
      return { action: `The P-Chain's clock advanced to ${timeText(tx.time)} (issued by the chain)`, details: [] };
    case 'RewardValidatorTx':
      return {
        action: `The staking of ${cb58Encode(tx.txID)} ended: its stake is returned, and rewards paid if earned (issued by the chain)`,
        details: [{ label: 'Staking tx', value: cb58Encode(tx.txID) }],
      };
    case 'RewardAutoRenewedValidatorTx':
      return {
        action: `A cycle of the auto-renewed validator added by ${cb58Encode(tx.txID)} ended at ${timeText(tx.timestamp)}: rewards paid or restaked (issued by the chain)`,
        details: [
          { label: 'Validator tx', value: cb58Encode(tx.txID) },
          { label: 'Cycle end', value: timeText(tx.timestamp) },
        ],
      };
  }
}

