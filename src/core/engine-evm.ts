// WalletEngine's C-Chain EVM txs (its methods delegate here): fee quotes, nonces, signing and what became of them.
import type { Bytes } from './bytes.js';
import type { WalletEngine } from './engine.js';
import type { EvmNonces, EvmQuote, SignedEvm, TxFate } from './engine-types.js';
import { NodeResponseError, RpcError, WalletError } from './errors.js';
import { checkFeeInput, MAX_C_GAS_LIMIT } from './fee-limits.js';
import { eip1559Fees, evmTxNonce, gasLimitFor, PLAIN_TRANSFER_GAS, roomCap } from './tx/c.js';

/**
 * Signs a C-Chain EVM tx (EIP-1559) of `valueWei` to `to` (with `data`, a call) at the node's
 * pending nonce; nothing is sent. `maxFeeWei`: the most the tx may cost in fees (gasLimit ×
 * maxFeePerGas); a costlier one is refused unsigned.
 */
export async function signC(e: WalletEngine, chainId: bigint, to: string, valueWei: bigint, data?: string, options: { maxFeeWei?: bigint; own?: EvmNonces } = {}): Promise<SignedEvm> {
  const [nonce, q] = await Promise.all([e.evmNonce(options.own), e.quoteC(to, valueWei, data, options.maxFeeWei)]);
  if (options.maxFeeWei !== undefined && q.gasLimit * q.maxFeePerGas > options.maxFeeWei) {
    throw new WalletError('fee-above-approved', `the fee of up to ${q.gasLimit * q.maxFeePerGas} wei is above the approved maximum of ${options.maxFeeWei} wei`);
  }
  const signed = e.signEvm({ chainId, nonce, to, value: valueWei, gasLimit: q.gasLimit, maxFeePerGas: q.maxFeePerGas, maxPriorityFeePerGas: q.maxPriorityFeePerGas, ...(data ? { data } : {}) });
  return signed;
}

/**
 * The gas the tx likely uses (the node's estimate for a call or a transfer to a contract; 21000 for
 * a plain transfer), the limit signed for it (gasLimitFor: room within the C-Chain's ceiling, the
 * balance left beside the value and `maxFeeWei`, the fee approved) and EIP-1559 fees (the node's
 * base fee bound and tip, checked against sane limits) signC would sign with now.
 */
export async function quoteC(e: WalletEngine, to: string, valueWei: bigint, data?: string, maxFeeWei?: bigint): Promise<EvmQuote> {
  const [[baseFee, tip], estimate, balance] = await Promise.all([
    e.cFeeInputs(),
    data ? e.node.eth.estimateGas({ from: e.evmAddress, to, value: '0x' + valueWei.toString(16), data }) : transferGas(e, to, valueWei),
    e.cBalanceWei(),
  ]);
  const gasUse = checkFeeInput('a gas estimate of', estimate, MAX_C_GAS_LIMIT);
  const fees = eip1559Fees(baseFee, tip);
  const budget = maxFeeWei !== undefined && maxFeeWei < balance - valueWei ? maxFeeWei : balance - valueWei;
  return { gasLimit: gasLimitFor(gasUse, roomCap(MAX_C_GAS_LIMIT, budget, fees.maxFeePerGas)), gasUse, baseFeeWei: baseFee, ...fees };
}

/**
 * Gas for sending AVAX with no data: 21000 to an address without code. A contract's code runs on
 * receipt, and 21000 leaves it none, so the tx would fail and still cost its fee: the node's
 * estimate instead, and a contract that refuses the transfer is said before anything is signed.
 */
async function transferGas(e: WalletEngine, to: string, valueWei: bigint): Promise<bigint> {
  if ((await e.node.eth.getCode(to)) === '0x') return PLAIN_TRANSFER_GAS;
  try {
    return await e.node.eth.estimateGas({ from: e.evmAddress, to, value: '0x' + valueWei.toString(16) });
  } catch (err) {
    if (err instanceof RpcError && (err.rpcCode === 3 || /revert/i.test(err.rpcMessage))) {
      throw new WalletError('recipient-refuses', `the recipient ${to} is a contract that refuses this transfer: it would fail and still cost its fee`);
    }
    throw err;
  }
}

/**
 * The nonce this account's next EVM tx takes. A nonce the node refused a tx of this wallet's at
 * (`own.voided`, kept for this) is taken again first: the two can never both run, however long
 * the node held the refused one. Else the lowest unused one no undecided tx of this wallet's holds
 * (`own.live`): the one after them, or a gap below one (a node that overstated the nonces used
 * made the wallet sign past it), filled so the txs above it run rather than wait forever.
 * Never a nonce the node merely calls free: a tx signed past a gap waits unseen until the gap is
 * filled, then runs beside the retry that filled it. So a node that counts pending txs this
 * wallet did not send, or fewer than the nonces used, is refused.
 */
export async function evmNonce(e: WalletEngine, own: EvmNonces = { live: [], voided: [] }): Promise<bigint> {
  const [pending, used] = await Promise.all([e.node.eth.getTransactionCount(e.evmAddress, 'pending'), e.node.eth.getTransactionCount(e.evmAddress, 'latest')]);
  if (pending < used) throw new NodeResponseError(`the node offers nonce ${pending} for an account that has already used ${used} nonces`);
  const after = (nonces: readonly bigint[]) => nonces.reduce((n, u) => (u + 1n > n ? u + 1n : n), used);
  if (pending > after([...own.live, ...own.voided])) {
    throw new WalletError('evm-nonce-gap', `the node counts ${pending - after([...own.live, ...own.voided])} C-Chain transaction(s) of this account waiting that this wallet did not send; wait until they go through or are dropped`);
  }
  const reusable = own.voided.filter((n) => n >= used && !own.live.includes(n)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let free = used;
  while (own.live.includes(free)) free++;
  return reusable[0] ?? free;
}

/**
 * An EVM tx's fate. Its receipt decides (the node's word: an EVM receipt cannot be proven here),
 * never as 'failed'; without one, a nonce the account has already used means another tx took it
 * ('inputs-spent': this one can never run); else the node holds it or has never seen it.
 */
export async function evmFate(e: WalletEngine, hash: string, rawTx: Bytes): Promise<TxFate> {
  const nonce = evmTxNonce(rawTx);
  // The used nonce is read before the receipt: a receipt missing after it is missing for good.
  // Read again after a receipt: the tx may have run between the two reads.
  const usedNow = () => e.node.eth.getTransactionCount(e.evmAddress, 'latest');
  let used = await usedNow();
  const receipt = await e.node.eth.getTransactionReceipt(hash);
  if (receipt && used <= nonce) used = await usedNow();
  // A receipt counts only with the nonce used and from this account. Even then a reverted one is
  // not "failed": the nonce is spent either way, and a faked revert must never invite a retry
  // that pays a second time. It stays unclear.
  if (receipt && used > nonce && receipt.from.toLowerCase() === e.evmAddress.toLowerCase()) return receipt.status === 1n ? 'accepted' : 'inputs-spent';
  if (used > nonce) return 'inputs-spent';
  if (receipt) return 'processing';
  const held = await e.node.eth.ethCall('eth_getTransactionByHash', [hash]);
  return held ? 'processing' : 'not-seen';
}

/**
 * An EVM tx of this account's whose signed bytes the wallet no longer has (another network entry
 * for the same chains followed it to its end): 'accepted' on a receipt of this account's that
 * succeeded, 'unclear' on one that reverted (never "failed": see evmFate), else 'unknown'.
 */
export async function evmState(e: WalletEngine, hash: string): Promise<'accepted' | 'unclear' | 'unknown'> {
  const receipt = await e.node.eth.getTransactionReceipt(hash);
  if (!receipt || receipt.from.toLowerCase() !== e.evmAddress.toLowerCase()) return 'unknown';
  return receipt.status === 1n ? 'accepted' : 'unclear';
}
