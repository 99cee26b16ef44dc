// Every error the core raises is one of these classes, so callers can branch on type, and the
// background can turn them into typed messages for the UI and for pages.

/**
 * The most of a message an error keeps. Messages can carry a node's words (its JSON-RPC error, an
 * ID it sent), and errors are stored (a failed refresh's, in the account's cache) and sent to the
 * popup: a node's message of megabytes would fill the extension's storage quota, refusing every
 * later write (sends, moves) on every network.
 */
export const MAX_ERROR_MESSAGE = 2_000;

/** `message` cut to MAX_ERROR_MESSAGE characters, never between the two halves of one character. */
function clipped(message: string): string {
  if (message.length <= MAX_ERROR_MESSAGE) return message;
  const endsInHighSurrogate = /[\uD800-\uDBFF]/.test(message[MAX_ERROR_MESSAGE - 1]!);
  return `${message.slice(0, MAX_ERROR_MESSAGE - (endsInHighSurrogate ? 1 : 0))}…`;
}

/** Base class: `code` is a stable machine-readable name. */
export class WalletError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(clipped(message));
    this.name = new.target.name;
  }
}

/**
 * A node's own words inside a wallet message, marked so no screen shows them as the wallet's main
 * text: a lying node can write anything there ("your key leaked: move your funds to …"). Cut short,
 * so the mark always closes within what a screen reads of a message.
 */
export const nodeWords = (text: string): string => `[node: ${text.slice(0, 500).replace(/[[\]]/g, '')}]`;

/** Malformed bytes: the only error a decoder ever throws. `offset` is where decoding stopped. */
export class CodecError extends WalletError {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super('codec', `${message} (at byte ${offset})`);
  }
}

/** A malformed string form: address, CB58, hex, private key, amount, mnemonic. */
export class FormatError extends WalletError {
  constructor(message: string) {
    super('format', message);
  }
}

/** An intent the wallet refuses before signing (bad owners, payload too big, wrong chain, …). */
export class ValidationError extends WalletError {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super('validation', message);
  }
}

/** Not enough spendable funds: names the asset, what is needed and what can be spent. */
export class InsufficientFundsError extends WalletError {
  constructor(
    readonly assetID: string,
    readonly needed: bigint,
    readonly spendable: bigint,
    readonly assetLabel: string = assetID,
  ) {
    super('insufficient-funds', `insufficient funds of ${assetLabel}: need ${needed}, spendable ${spendable}`);
  }
}

/**
 * Not enough AVAX for the network fee of a tx that spends no AVAX otherwise (another asset sent):
 * the fee, not the amount, is short. `field` 'fee' tells a form so.
 */
export class FeeFundsError extends InsufficientFundsError {
  readonly field = 'fee';
  constructor(short: InsufficientFundsError) {
    super(short.assetID, short.needed, short.spendable, short.assetLabel);
    this.message = `insufficient funds of ${short.assetLabel} for the network fee: need ${short.needed}, spendable ${short.spendable}`;
  }
}

/**
 * More of one asset than one tx can carry from the coins at hand: the node adds a tx's inputs of
 * each asset, and its outputs, in a u64 (docs/protocol.md §X). `most` is the most one tx could
 * carry. A ValidationError, so the popup shows its sentence.
 */
export class AssetLimitError extends ValidationError {
  constructor(
    readonly assetID: string,
    readonly most: bigint,
    assetLabel: string = assetID,
  ) {
    super(`this is more of the asset than one transaction can carry (at most ${most} of ${assetLabel}): send less, and the rest in another transaction`, 'amount');
  }
}

/** A transaction too large for the chain's mempool that cannot be split. */
export class TxTooLargeError extends WalletError {
  constructor(message: string) {
    super('tx-too-large', message);
  }
}

/** A signature or signer set that does not match the spent outputs' owners. */
export class SigningError extends WalletError {
  /** By default: a signature just made that does not check out (written once, thrown from each check). */
  constructor(message = 'a signature just made does not verify against its key; nothing was sent') {
    super('signing', message);
  }
}

/** An amount a tx would carry: above zero. */
export function checkPositive(amount: bigint): void {
  if (amount <= 0n) throw new ValidationError('an amount must be greater than zero', 'amount');
}

/** A key pair handed out before a lock (its secret zeroed since): it signs nothing. Said as a locked wallet is. */
export class KeysWipedError extends WalletError {
  constructor() {
    super('vault-locked', 'the wallet was locked: its keys are wiped, and nothing was signed');
  }
}

/**
 * Refused because the wallet is locked (or locked under the work, its keys wiped): the one test for
 * it, background and popup alike (an answer from the background is a WalletError too).
 */
export const isLockedError = (e: unknown): boolean => e instanceof WalletError && e.code === 'vault-locked';

/** The node answered with a JSON-RPC error object. */
export class RpcError extends WalletError {
  constructor(
    readonly method: string,
    readonly rpcCode: number,
    readonly rpcMessage: string,
    readonly data?: unknown,
  ) {
    super('rpc', `${method}: ${rpcMessage} (code ${rpcCode})`);
  }
}

/** The node could not be reached (network error, refused connection, non-JSON answer). */
export class NodeUnreachableError extends WalletError {
  constructor(
    readonly url: string,
    cause: string,
  ) {
    super('node-unreachable', `node at ${url} is unreachable: ${cause}`);
  }
}

/** The node answered something the protocol does not allow (wrong shape, bad checksum, lies). */
export class NodeResponseError extends WalletError {
  constructor(message: string) {
    super('node-response', message);
  }
}

/** An answer larger than the wallet reads (rpc.ts MAX_ANSWER_BYTES): a smaller request may be read. */
export class AnswerTooLargeError extends NodeResponseError {}

export class TimeoutError extends WalletError {
  constructor(message: string) {
    super('timeout', message);
  }
}

export class AbortedError extends WalletError {
  constructor(message = 'request was cancelled') {
    super('aborted', message);
  }
}

/** The node's network identity does not match the configured preset. */
export class NetworkMismatchError extends WalletError {
  constructor(message: string) {
    super('network-mismatch', message);
  }
}

/** The node is not the network the wallet is set to, or contradicts itself. Its text names the node's URL. */
export class NodeIdentityError extends NetworkMismatchError {}
