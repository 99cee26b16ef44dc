// An auto-renewed validator as a node answers about it, for the unit tests of a site's change of
// one (site-stakes.test.ts, site-tx-approved.test.ts): its type 40 by ID, and the validator listed
// for its NodeID in the cycle `listed()` says (none: not validating now), on the local network
// (shortest cycle 20 s, so a 5 s margin), this computer's clock at WALL.
import { encodeSignedTx } from '../../src/core/codec/codec.js';
import type { OutputOwners, UnsignedTx } from '../../src/core/codec/types.js';
import { cb58Encode, formatNodeId } from '../../src/core/encoding.js';

export const WALL = 1_800_000_000;
const LOCAL = 1337;
const NODE = new Uint8Array(20).fill(3);
const owner: OutputOwners = { locktime: 0n, threshold: 1, addresses: [new Uint8Array(20).fill(1)] };
const base = { vm: 'pvm' as const, networkID: LOCAL, blockchainID: new Uint8Array(32), outputs: [], inputs: [], memo: new Uint8Array() };
const ADDED = new Uint8Array(32).fill(5);
/** The validator's type 40, and its ID as the node lists it. */
export const ADDED_TX = { ...base, kind: 'AddAutoRenewedValidatorTx', nodeID: NODE, signer: { kind: 'EmptySigner' }, stake: [], validationRewardsOwner: owner, delegationRewardsOwner: owner, validatorAuthority: owner, delegationShares: 20_000, autoCompoundRewardShares: 0, period: 40n } as UnsignedTx;
export const ADDED_ID = cb58Encode(ADDED);
/** A stop of that validator at the end of its current cycle. */
export const STOP = { ...base, kind: 'SetAutoRenewedValidatorConfigTx', txID: ADDED, auth: [0], autoCompoundRewardShares: 0, period: 0n } as UnsignedTx;

/** The engine's parts autoRenewTiming reads; the chain's last block at `chain`. */
export function autoRenewNode(listed: () => { txID: string; end: number } | undefined, chain = WALL - 30) {
  return {
    ctx: { networkID: LOCAL },
    now: (c: string) => Promise.resolve(BigInt(c === 'P' ? chain : WALL)),
    node: {
      platform: {
        getTx: (id: string) => Promise.resolve(id === ADDED_ID ? encodeSignedTx({ unsigned: ADDED_TX as never, credentials: [] }) : new Uint8Array()),
        getCurrentValidators: ([nodeID]: string[]) => {
          const v = listed();
          return Promise.resolve(v && nodeID === formatNodeId(NODE) ? [{ nodeID, txID: v.txID, end: BigInt(v.end) }] : []);
        },
      },
    },
  };
}
