// A validator's terms read from its own staking tx, against what platform.getCurrentValidators
// says. The list is only the node's word: a node that shows 2% for a validator that keeps 100%
// would have the user sign a delegation the review says earns a reward. The tx is the one the list
// names (platform.getTx refuses bytes that do not hash to that ID, as for the UTXO proofs of
// src/core/proof.ts): a list that only rewrites the fee is caught. Not proven: that the tx is the
// validator's current one (a node can name one it wrote and never sent, or an ended validation of
// the same node). No later tx changes the fee: a config change (type 41) carries only the restaked
// share and the period.
import { equalBytes } from '../bytes.js';
import { decodeChainTx } from '../codec/codec.js';
import { CodecError, NodeResponseError, nodeWords, RpcError, WalletError } from '../errors.js';
import { formatNodeId } from '../encoding.js';
import type { Bytes } from '../bytes.js';
import type { ChainContext } from '../tx/context.js';
import type { CurrentValidator } from '../node/validators.js';
import { sharesText } from '../describe-pvm.js';
import { timeWords } from './words.js';

/** The node's validator list contradicts the validator's own staking tx (or the node cannot show it). */
export class ValidatorMismatchError extends WalletError {
  constructor(
    readonly nodeID: string,
    readonly mismatch: string,
  ) {
    super('validator-mismatch', `The node's list of validators does not match the validator's own staking transaction (${nodeID}): ${mismatch}. Nothing was signed; try again later or with another node.`);
  }
}

/** What a Primary Network validator's staking tx fixes for good. */
export interface ValidatorTerms {
  nodeID: string;
  /** Millionths of a delegator's reward the validator keeps. */
  delegationFee: number;
  /** A fixed validation's end; undefined for an auto-renewed one (its cycles are state, not the tx). */
  end?: bigint;
}

/** Only these add a Primary Network validator: 12 (genesis and before Durango), 25, and 40 (Helicon). */
export function termsOfStakingTx(bytes: Bytes, ctx: Pick<ChainContext, 'networkID' | 'pChainID'>, nodeID: string): ValidatorTerms {
  let tx;
  try {
    tx = decodeChainTx(bytes, 'pvm').unsigned;
  } catch (e) {
    if (e instanceof CodecError) throw new ValidatorMismatchError(nodeID, 'the transaction it names cannot be decoded');
    throw e;
  }
  // A real tx of another network (the same node validating there at a lower fee) proves nothing here.
  if (!('networkID' in tx) || tx.networkID !== ctx.networkID || !equalBytes(tx.blockchainID, ctx.pChainID)) {
    throw new ValidatorMismatchError(nodeID, 'the transaction it names is not of this network’s P-Chain');
  }
  if (tx.kind === 'AddValidatorTx') return { nodeID: formatNodeId(tx.validator.nodeID), delegationFee: tx.delegationShares, end: tx.validator.end };
  if (tx.kind === 'AddPermissionlessValidatorTx' && tx.subnetID.every((b) => b === 0)) {
    return { nodeID: formatNodeId(tx.validator.nodeID), delegationFee: tx.delegationShares, end: tx.validator.end };
  }
  if (tx.kind === 'AddAutoRenewedValidatorTx') return { nodeID: formatNodeId(tx.nodeID), delegationFee: tx.delegationShares };
  throw new ValidatorMismatchError(nodeID, `the transaction it names is a ${tx.kind}, which adds no Primary Network validator`);
}

/** Refuses a listed validator whose node, fee, end or kind differ from what its tx fixes. */
export function checkListedValidator(listed: CurrentValidator, terms: ValidatorTerms): void {
  const refuse = (what: string) => {
    throw new ValidatorMismatchError(listed.nodeID, what);
  };
  if (terms.nodeID !== listed.nodeID) refuse(`the transaction it names adds ${terms.nodeID}`);
  if (terms.delegationFee !== listed.delegationFee) refuse(`the list says it keeps ${sharesText(listed.delegationFee)} of a delegator's reward, its transaction says ${sharesText(terms.delegationFee)}`);
  if ((terms.end === undefined) !== (listed.autoRenew !== undefined)) refuse(terms.end === undefined ? 'the list shows a fixed validation, its transaction an auto-renewed one' : 'the list shows an auto-renewed validation, its transaction a fixed one');
  if (terms.end !== undefined && terms.end !== listed.end) refuse(`the list says it validates until ${timeWords(listed.end)}, its transaction until ${timeWords(terms.end)}`);
}

/** The listed validator's staking tx, read from the node (hash-checked by the client) and decoded. */
export async function readValidatorTerms(getTx: (txID: string) => Promise<Bytes>, ctx: Pick<ChainContext, 'networkID' | 'pChainID'>, listed: CurrentValidator): Promise<ValidatorTerms> {
  let bytes: Bytes;
  try {
    bytes = await getTx(listed.txID);
  } catch (e) {
    // Unknown to the node, or bytes that are not the tx: the fee stays unproven, so nothing is signed.
    if (e instanceof RpcError || e instanceof NodeResponseError) throw new ValidatorMismatchError(listed.nodeID, `the node cannot show the transaction ${listed.txID} it names ${nodeWords(e.message)}`);
    throw e;
  }
  return termsOfStakingTx(bytes, ctx, listed.nodeID);
}
