// Transactions built elsewhere (a site hands the wallet unsigned, or partly signed, bytes): decode
// them strictly (X and P-Chain txs also against the chain's syntactic rules), check they belong to this
// network and chain, find every UTXO they spend and the owner any P-Chain authorization answers to
// (so the approval shows owners and amounts, and the credentials can be derived), and sign what
// this wallet's keys can sign. Nothing here issues: the caller decides after the user approved.
import { sha256 } from '@noble/hashes/sha2.js';
import { MAX_DENOMINATION } from './amount.js';
import { type Bytes, byteKey, equalBytes, toHex, utf8 } from './bytes.js';
import { decodeChainTx, decodeSignedTx, decodeUnsignedTx, encodeUtxo } from './codec/codec.js';
import { MAX_U64 } from './codec/io.js';
import { utxoId } from './codec/ids.js';
import { verifyXTx } from './codec/avm-rules.js';
import { authorizationOf, PRIMARY_NETWORK_ID, stakeOf, verifyPTx } from './codec/pvm-rules.js';
import { amountOf, lockEnd, ownInputs, ownersOf } from './codec/rules.js';
import type { ChainTx, Credential, OutputOwners, TransferableInput, UnsignedTx, Utxo, UtxoRef, Vm } from './codec/types.js';
import { cb58Encode } from './encoding.js';
import { CodecError, NetworkMismatchError, RpcError, ValidationError } from './errors.js';
import { type ChainAlias, getTx, type NodeClient } from './node.js';
import { VM_OF } from './node/types.js';
import { type Creation, creationOf } from './proof.js';
import { type ChainContext, chainAliasOf, chainIdOf } from './tx/context.js';
import { authorityRecord, type Keychain, requiredCredentials, signTx, utxoLookupOf } from './tx/sign.js';
import { classifyUtxo, type OwnedAddresses } from './tx/utxos.js';

export interface ExternalTx {
  chain: ChainAlias;
  tx: UnsignedTx;
  /** The exact bytes that are hashed and signed. */
  unsignedBytes: Bytes;
  /** Signatures the tx already carried (a multisig hand-off), in credential order. */
  existing?: Credential[];
  /**
   * Every UTXO the tx spends (inputs, imported inputs, operation UTXOs), and for a P-Chain tx with
   * an authorization the record of the owner it answers to, when found (see authorityRecord).
   */
  spent: Utxo[];
}

export interface ExternalSigned {
  signedBytes: Bytes;
  txID: string;
  /** True when every credential slot holds a signature: the tx can be issued. */
  complete: boolean;
}

/**
 * Unsigned bytes, or a signed tx whose credentials are kept. Both are decoded strictly; an X or
 * P-Chain tx must also pass the chain's syntactic rules (ValidationError otherwise).
 */
export function decodeExternalTx(chain: ChainAlias, bytes: Bytes): { tx: UnsignedTx; unsignedBytes: Bytes; existing?: Credential[] } {
  const decoded = decodeEither(VM_OF[chain], bytes);
  if (decoded.tx.vm === 'pvm') verifyPTx(decoded.tx);
  if (decoded.tx.vm === 'avm') verifyXTx(decoded.tx);
  return decoded;
}

function decodeEither(vm: Vm, bytes: Bytes): { tx: UnsignedTx; unsignedBytes: Bytes; existing?: Credential[] } {
  try {
    const tx = decodeUnsignedTx(bytes, vm);
    return { tx, unsignedBytes: bytes };
  } catch (unsignedError) {
    let signed;
    try {
      signed = decodeSignedTx(bytes, vm);
    } catch {
      throw unsignedError;
    }
    return { tx: signed.unsigned, unsignedBytes: bytes.slice(0, signed.unsignedLength), existing: signed.credentials };
  }
}

/** Refuses a tx for another network, another chain, or moving funds to or from an unknown chain. */
export function checkTxBelongs(tx: UnsignedTx, chain: ChainAlias, ctx: ChainContext): void {
  if (tx.networkID !== ctx.networkID) {
    throw new NetworkMismatchError(`the transaction is for network ID ${tx.networkID}; this wallet is on network ID ${ctx.networkID}`);
  }
  if (!equalBytes(tx.blockchainID, chainIdOf(ctx, chain))) {
    throw new NetworkMismatchError(`the transaction is for blockchain ${cb58Encode(tx.blockchainID)}, not this network's ${chain}-Chain`);
  }
  const other = 'sourceChain' in tx ? tx.sourceChain : 'destinationChain' in tx ? tx.destinationChain : undefined;
  if (other !== undefined) {
    const alias = chainAliasOf(ctx, other);
    if (alias === undefined || alias === chain) {
      throw new NetworkMismatchError(`the transaction moves funds to or from blockchain ${cb58Encode(other)}, which is not another chain of this network`);
    }
  }
  // Primary Network stake is this network's AVAX.
  if (tx.vm === 'pvm' && (!('subnetID' in tx) || equalBytes(tx.subnetID, PRIMARY_NETWORK_ID))) {
    if (stakeOf(tx).some((o) => !equalBytes(o.assetID, ctx.avaxAssetID))) {
      throw new NetworkMismatchError(`the transaction stakes an asset other than this network's AVAX`);
    }
  }
  // The node refuses such an asset, and its amounts could not be shown in the approval either.
  if (tx.kind === 'CreateAssetTx' && tx.denomination > MAX_DENOMINATION) {
    throw new ValidationError(`the new asset would have ${tx.denomination} decimal places; the network allows at most ${MAX_DENOMINATION}`);
  }
}

/** Every UTXO reference the tx spends, with the chain whose state holds it. */
function spentRefs(tx: UnsignedTx, chain: ChainAlias, ctx: ChainContext): { ref: UtxoRef; on: ChainAlias; from?: ChainAlias }[] {
  const refs: { ref: UtxoRef; on: ChainAlias; from?: ChainAlias }[] = [];
  const add = (inputs: readonly TransferableInput[], from?: ChainAlias) => {
    for (const i of inputs) refs.push({ ref: i, on: chain, ...(from ? { from } : {}) });
  };
  if (tx.vm === 'evm') {
    if (tx.kind === 'ImportTx') add(tx.importedInputs, chainAliasOf(ctx, tx.sourceChain));
    return refs;
  }
  add(tx.inputs);
  if (tx.kind === 'ImportTx') add(tx.importedInputs, chainAliasOf(ctx, tx.sourceChain));
  if (tx.kind === 'OperationTx') for (const op of tx.operations) for (const ref of op.utxoIDs) refs.push({ ref, on: chain });
  return refs;
}

function key(ref: UtxoRef): string {
  return `${toHex(ref.txID)}:${ref.outputIndex}`;
}

/** Creating txs read at once while resolving a site's tx. */
const READS_AT_ONCE = 8;

/**
 * The UTXOs a tx spends, each taken from the hash-checked tx that created it (an export's, for an
 * atomic input), never from the node's word: a node that reports one of the user's UTXOs as a
 * stranger's could otherwise make an approval hide what the user's signature really spends.
 * Every creating tx is read, the account's own UTXOs' too (in parallel), so neither the answer nor
 * the time it takes tells a site which UTXOs are the account's. `proven`: the account's UTXOs
 * already checked against their creating tx (see proveUtxos); one that differs from what its tx
 * says now is refused. A UTXO no tx proves (a staking reward, a refund, an unknown tx) is refused
 * with one message whoever owns it. An input must declare the asset and amount its UTXO holds, so
 * what the approval counts as spent is what the chain spends.
 */
export async function resolveSpent(
  tx: UnsignedTx,
  chain: ChainAlias,
  ctx: ChainContext,
  node: NodeClient,
  proven: readonly Utxo[],
): Promise<Utxo[]> {
  const refs = spentRefs(tx, chain, ctx);
  const creators = new Map<string, { on: ChainAlias; from: ChainAlias | undefined; txID: Bytes }>();
  for (const { ref, on, from } of refs) creators.set(`${from ?? on}:${toHex(ref.txID)}`, { on, from, txID: ref.txID });
  const made = new Map<string, Creation>();
  const queue = [...creators];
  await Promise.all(
    Array.from({ length: Math.min(READS_AT_ONCE, queue.length) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) made.set(next[0], await creationOf(node, ctx, next[1].on, next[1].from, next[1].txID));
    }),
  );
  const mine = new Map(proven.map((u) => [key(u), u]));
  const out: Utxo[] = [];
  for (const { ref, on, from } of refs) {
    const creation = made.get(`${from ?? on}:${toHex(ref.txID)}`)!;
    const utxo = creation.found === true ? creation.produced.find((u) => u.outputIndex === ref.outputIndex) : undefined;
    if (!utxo) {
      throw new ValidationError(
        `the transaction spends ${utxoId(ref)}, which no transaction the node shows created (staking rewards and refunds exist only in the chain's state): the wallet cannot prove who owns it or what it holds, so it signs nothing`,
      );
    }
    const known = mine.get(key(ref));
    if (known && !sameUtxo(known, utxo, VM_OF[on])) {
      throw new ValidationError(`the node's word on ${utxoId(ref)} differs from the transaction that created it: the wallet signs nothing until they agree`);
    }
    if ('input' in ref) checkDeclared(ref as TransferableInput, utxo);
    out.push(utxo);
  }
  if (tx.vm === 'pvm') {
    const auth = authorizationOf(tx);
    const owner = auth && (await authorizingOwner(node, auth.kind, auth.id));
    if (auth && owner) out.push(authorityRecord(auth.id, owner));
  }
  return out;
}

function sameUtxo(a: Utxo, b: Utxo, vm: Vm): boolean {
  try {
    return equalBytes(encodeUtxo(a, vm), encodeUtxo(b, vm));
  } catch {
    return false;
  }
}

/** An input's declared asset and amount must be its UTXO's: else the tx burns or spends other than it says. */
function checkDeclared(input: TransferableInput, utxo: Utxo): void {
  const declared = input.input.kind === 'StakeableLockIn' ? input.input.input.amount : input.input.amount;
  if (!equalBytes(input.assetID, utxo.assetID) || declared !== amountOf(utxo.output)) {
    throw new ValidationError(`an input of the transaction declares ${declared} units of asset ${cb58Encode(input.assetID)}, but the UTXO it spends (${utxoId(utxo)}) holds ${amountOf(utxo.output)} of asset ${cb58Encode(utxo.assetID)}`);
  }
}

/** The tx a node stores under `txID`, decoded (getTx checks that the bytes hash to that ID). */
async function chainTx(node: NodeClient, chain: 'X' | 'P', txID: Bytes, what: string): Promise<ChainTx> {
  const id = cb58Encode(txID);
  const bytes = await getTx(node, chain, id);
  try {
    return decodeChainTx(bytes, VM_OF[chain]).unsigned;
  } catch (e) {
    if (e instanceof CodecError) throw new ValidationError(`the transaction ${what} ${id}, which this wallet cannot decode`);
    throw e;
  }
}

/**
 * The owner an authorization answers to now: a subnet's from the chain's state (after any
 * ownership transfer or conversion; the subnet itself is checked to exist by its CreateSubnetTx),
 * an L1 validator's deactivation owner from the chain's state, an auto-renewed validator's
 * authority from its AddAutoRenewedValidatorTx (it cannot change). Owners read from state are the
 * node's word: a wrong one makes the wallet sign a slot the chain then refuses, or leave one empty;
 * whatever it says, the approval warns that the user's signature serves any slot of theirs.
 */
async function authorizingOwner(node: NodeClient, kind: 'subnet-owner' | 'deactivation-owner' | 'validator-authority', id: Bytes): Promise<OutputOwners | undefined> {
  if (kind === 'deactivation-owner') {
    // A validation the node does not know: no owner to sign for; the slot stays as the site sent it.
    return node.platform.getL1ValidatorDeactivationOwner(cb58Encode(id)).catch((e: unknown) => {
      if (e instanceof RpcError) return undefined;
      throw e;
    });
  }
  const tx = await chainTx(node, 'P', id, kind === 'subnet-owner' ? 'names subnet' : 'names validator');
  if (kind === 'subnet-owner') {
    if (tx.kind !== 'CreateSubnetTx') throw new ValidationError(`the transaction names subnet ${cb58Encode(id)}, which is not a subnet`);
    return node.platform.getSubnetOwner(cb58Encode(id));
  }
  if (tx.kind !== 'AddAutoRenewedValidatorTx') throw new ValidationError(`the transaction names validator ${cb58Encode(id)}, which is not an auto-renewed validator`);
  return tx.validatorAuthority;
}

/**
 * A fingerprint of what a tx spends, which owner its authorization answers to and which slots the
 * wallet's keys sign, as resolved: the tx signed after approval must be exactly what the approval
 * showed.
 */
export function spentFingerprint(spent: readonly Utxo[], slots: readonly string[]): string {
  const json = JSON.stringify({ spent, slots }, (_k, v: unknown) => (v instanceof Uint8Array ? toHex(v) : typeof v === 'bigint' ? v.toString() : v));
  return toHex(sha256(utf8.encode(json)));
}

/** Signs every slot this keychain can; existing signatures are kept, missing ones left empty. */
export function signExternalTx(ext: ExternalTx, keychain: Keychain): ExternalSigned {
  const required = requiredCredentials(ext.tx, utxoLookupOf(ext.spent));
  if (ext.existing && ext.existing.length !== required.length) {
    throw new ValidationError(`the transaction carries ${ext.existing.length} credentials; it needs ${required.length}`);
  }
  const signed = signTx(ext.tx, required, keychain, {
    allowPartial: true,
    unsignedBytes: ext.unsignedBytes,
    ...(ext.existing ? { existing: ext.existing } : {}),
  });
  return { signedBytes: signed.signedBytes, txID: signed.txID, complete: signed.complete };
}

/** The credential slots this keychain signs, as `credential:signature:signer` (hex). */
export function signedSlots(ext: ExternalTx, keychain: Keychain): string[] {
  const required = requiredCredentials(ext.tx, utxoLookupOf(ext.spent));
  return required.flatMap((c, ci) => c.signers.flatMap((s, si) => ((c.evm ? keychain.byEvmAddress(s) : keychain.byShortId(s)) !== undefined ? [`${ci}:${si}:${toHex(s)}`] : [])));
}

/** True when at least one credential slot is for a key in the keychain (else signing is pointless). */
export function keychainSignsAny(ext: ExternalTx, keychain: Keychain): boolean {
  return signedSlots(ext, keychain).length > 0;
}

/** An input of a site's tx that a send of the wallet could select too; `from`: when its locks end (seconds), if it has any. */
export interface SelectableInput {
  id: string;
  from?: number;
}

/**
 * The inputs of a site's X/P tx that a send of this wallet could select as well, now or once their
 * locks end: a UTXO its reads list (an owner is one of the `listed` keys) whose threshold the
 * account's keys (`owned`) meet alone. Taken from the UTXOs as their creating txs say
 * (resolveSpent), never from a node's read, and no chain time: when a lock ends is recorded, and
 * judged by this computer's clock when a send is made (inTheWayOf in src/background/refused.ts).
 * A refused tx is kept in the way of later sends only with such an input (keptInTheWay in
 * src/background/outbox.ts): one spending only a UTXO shared with a stranger (2 of 2) would
 * otherwise stop every send, none being able to take its place.
 */
export function selectableInputs(ext: ExternalTx, owned: OwnedAddresses, listed: OwnedAddresses): SelectableInput[] {
  const spent = new Map(ext.spent.map((u) => [utxoId(u), u]));
  return ownInputs(ext.tx).flatMap((input) => {
    const id = utxoId(input);
    const utxo = spent.get(id);
    // Classified as if every lock had ended: whether the account's keys meet its threshold alone.
    if (!utxo || classifyUtxo(utxo, owned, MAX_U64).state !== 'spendable' || !ownersOf(utxo.output).addresses.some((a) => listed.has(byteKey(a)))) return [];
    const lock = lockEnd(utxo.output);
    return [lock > 0n ? { id, from: Number(lock) } : { id }];
  });
}
