// The wallet's chain operations over a node: read UTXOs and balances, then build, sign, check and
// issue transactions, and follow them to acceptance. Pure (no browser APIs): the background's
// services and the integration tests both drive the chains through this one place.
import { WEI_PER_NAVAX } from './amount.js';
import { byteKey, type Bytes, equalBytes, fromHex, toHex } from './bytes.js';
import { exportNonce } from './c-atomic.js';
import { utxoId } from './codec/ids.js';
import { ownersOf } from './codec/rules.js';
import type { CTx, OutputOwners, UnsignedTx, Utxo } from './codec/types.js';
import { cb58Encode, formatAddress } from './encoding.js';
import { checkTxBelongs, decodeExternalTx, type ExternalSigned, type ExternalTx, keychainSignsAny, resolveSpent, signedSlots, signExternalTx, spentFingerprint } from './external-tx.js';
import { NodeResponseError, RpcError, WalletError } from './errors.js';
import { memoryProofCache, type ProofCache, proveUtxos } from './proof.js';
import { decodeChainTx, inputsUnspent, outputsPresent, type WalletUtxos } from './tx-fate.js';
import { checkFeeInput, MAX_C_BASE_FEE_WEI, MAX_C_GAS_LIMIT, MAX_C_TIP_WEI, MAX_P_GAS_PRICE, MAX_P_WEIGHTS } from './fee-limits.js';
import { type AtomicFeeCap, atomicTxFee, atomicTxGas, type PFeeContext, pTxFee, withHeadroom } from './fees.js';
import type { KeyPair } from './keys.js';
import { formatEvmAddress } from './evm-address.js';
import type { ChainAlias, DroppedUtxo, NodeClient, TxOutcome, WaitOptions } from './node.js';
import type { BuiltTx } from './tx/built.js';
import { buildCExport, buildCImport, eip1559Fees, type EvmTxRequest, evmTxNonce, PLAIN_TRANSFER_GAS, signEvmTx } from './tx/c.js';
import { type ChainContext, makeOwners } from './tx/context.js';
import { buildPExport, buildPImport, buildPSend } from './tx/p.js';
import { accountKeychain, signBuilt } from './tx/sign.js';
import { classifyUtxo, othersCanSpend, ownedAddressSet, spendableUtxos, type SpendableUtxo } from './tx/utxos.js';
import * as x from './tx/x.js';

export interface EngineKeys {
  /** Every X/P key of the account (receive and change addresses scanned so far). */
  xp: KeyPair[];
  /** The account's EVM key; its short ID also owns atomic UTXOs sent to the C-Chain. */
  evm: KeyPair;
  /** Short ID that receives change (a fresh change address). */
  change: Bytes;
}

export interface EngineOptions {
  /** EVM chain ID of the C-Chain (43112 on local). */
  evmChainId: bigint;
  /** Percent of the C-Chain base fee paid for atomic txs (default 125: a rise of a quarter before inclusion is absorbed). */
  atomicBaseFeeHeadroom?: bigint;
  /** Percent of it a fee the user reviewed must still pay to be paid instead of a costlier one of now (default 110). */
  atomicBaseFeeFloor?: bigint;
  /** Percent of the P-Chain gas price paid (default 100: the exact current price). */
  pPriceHeadroom?: bigint;
  wait?: WaitOptions;
  /** Proofs of UTXOs already checked against their txs (default: this engine's own, in memory). */
  proofs?: ProofCache;
  /**
   * UTXOs (by ID) every selection of their asset takes: the inputs of sends the node refused, so
   * that the next send conflicts with them and at most one of the two can run
   * (src/background/refused.ts).
   */
  spendFirst?: ReadonlySet<string>;
}

export interface Issued<T extends UnsignedTx = UnsignedTx> {
  chain: ChainAlias;
  txID: string;
  tx: T;
  /** nAVAX this tx burns. */
  fee: bigint;
  signedBytes: Bytes;
}

/** A tx the node did not accept (dropped, aborted, rejected), with the node's reason. */
export class TxFailedError extends WalletError {
  constructor(readonly outcome: TxOutcome) {
    super('tx-failed', `${outcome.chain}-Chain transaction ${outcome.txID} was not accepted: ${outcome.status}${outcome.reason ? ` (${outcome.reason})` : ''}`);
  }
}

/** A tx's fate as far as the node knows it. */
export type TxState = 'accepted' | 'failed' | 'processing' | 'unknown';
/** A signed tx's fate: the node's word checked against what the tx spends and creates (txFate). */
export type TxFate = Exclude<TxState, 'unknown'> | 'not-seen' | 'inputs-spent';

export interface AssetBalance {
  assetID: Bytes;
  spendable: bigint;
  /** Held but time-locked (OutputOwners locktime in the future). */
  locked: bigint;
  /** P-Chain only: stakeable-locked (vesting), usable for staking only. */
  lockedStakeable: bigint;
  /** The part of the three above that no tx proves (genesis funds, staking rewards, or a lie). */
  unproven: bigint;
  /**
   * The part of `spendable` that keys not the account's can also spend alone (a 1-of-2 with a
   * stranger's key): the account's only until that key moves it. Still spent by sends.
   */
  shared: bigint;
  /** The same for `locked` and `lockedStakeable`: a stranger's key can take it once it unlocks. */
  sharedLocked: bigint;
}

/** A C-Chain EVM tx, signed: its 0x hash is its ID. */
export interface SignedEvm {
  txID: string;
  signedBytes: Bytes;
  /** The most it can cost: gasLimit × maxFeePerGas, in wei. */
  maxFeeWei: bigint;
}

/** Nonces of this wallet's own EVM txs the node has not decided on: sent, and refused (see evmNonce). */
export interface EvmNonces {
  live: readonly bigint[];
  voided: readonly bigint[];
}

export const isEvmHash = (txID: string): boolean => /^0x[0-9a-fA-F]{64}$/.test(txID);

/**
 * The atomic UTXOs an import takes now. One UTXO the chain does not hold makes it refuse the whole
 * import: unproven ones wait until they are all that is left, so they never hold up proven funds.
 */
export function provenFirst(utxos: SpendableUtxo[]): SpendableUtxo[] {
  const proven = utxos.filter((u) => !u.unproven);
  return proven.length > 0 ? proven : utxos;
}

/** How long one engine (one refresh, one send) may spend reading the txs that prove its UTXOs. */
const PROOF_BUDGET_MS = 30_000;

function refKey(u: Utxo): string {
  return `${u.outputIndex}:${byteKey(u.txID)}`;
}

export class WalletEngine {
  readonly ctx: ChainContext;
  readonly #dropped: (DroppedUtxo & { chain: ChainAlias; sourceChain?: ChainAlias })[] = [];
  /** UTXOs read so far that no tx proves, by refKey. */
  readonly #unproven = new Set<string>();
  readonly #proofs: ProofCache;
  private readonly owned: ReadonlySet<string>;
  private readonly options: Required<Omit<EngineOptions, 'wait' | 'proofs' | 'spendFirst'>> & { wait: WaitOptions };
  readonly #spendFirst: ReadonlySet<string>;
  #proofDeadline: number | undefined;

  constructor(
    readonly node: NodeClient,
    ctx: ChainContext,
    private readonly keys: EngineKeys,
    options: EngineOptions,
  ) {
    this.ctx = ctx;
    this.owned = ownedAddressSet([...keys.xp.map((k) => k.shortId), keys.evm.shortId]);
    this.#proofs = options.proofs ?? memoryProofCache();
    this.#spendFirst = options.spendFirst ?? new Set();
    this.options = {
      evmChainId: options.evmChainId,
      atomicBaseFeeHeadroom: options.atomicBaseFeeHeadroom ?? 125n,
      atomicBaseFeeFloor: options.atomicBaseFeeFloor ?? 110n,
      pPriceHeadroom: options.pPriceHeadroom ?? 100n,
      wait: options.wait ?? { timeoutMs: 60_000 },
    };
  }

  /** How long (and how often) this engine waits for a tx to become final. */
  get waitOptions(): WaitOptions {
    return this.options.wait;
  }

  get evmAddress(): string {
    return formatEvmAddress(this.keys.evm.evmAddress);
  }

  get changeOwners(): OutputOwners {
    return makeOwners([this.keys.change]);
  }

  /** Bech32 addresses the wallet asks the node about on `chain` (C: atomic owners). */
  addresses(chain: ChainAlias): string[] {
    const ids = chain === 'C' ? [this.keys.evm.shortId, ...this.keys.xp.map((k) => k.shortId)] : this.keys.xp.map((k) => k.shortId);
    return ids.map((id) => formatAddress(chain, this.ctx.hrp, id));
  }

  // ---- reading ----

  /**
   * The UTXOs the node says this wallet holds on `chain` (atomic ones exported from `sourceChain`),
   * each checked against the tx that created it (see proveUtxos): disproven ones are dropped,
   * unproven ones kept and remembered ({@link isUnproven}).
   */
  async utxos(chain: ChainAlias, sourceChain?: ChainAlias): Promise<Utxo[]> {
    const result = await this.node.getAllUtxos(chain, this.addresses(chain), sourceChain ? { sourceChain } : {});
    const where = { chain, ...(sourceChain ? { sourceChain } : {}) };
    for (const d of result.dropped) this.#dropped.push({ ...where, ...d });
    const read = result.utxos.map((utxo, i) => ({ utxo, bytes: result.encoded[i]!, digest: result.digests[i]! }));
    // One budget for a burst of reads (a refresh reads several chains): a stalling node holds a
    // refresh up for at most that long, then what is left is unproven this time. A long-lived
    // engine (a move) gets a new budget for a later burst.
    if (this.#proofDeadline === undefined || Date.now() > this.#proofDeadline + PROOF_BUDGET_MS) this.#proofDeadline = Date.now() + PROOF_BUDGET_MS;
    const budgetMs = Math.max(0, this.#proofDeadline - Date.now());
    const checked = await proveUtxos(this.node, chain, read, { network: this.ctx, cache: this.#proofs, budgetMs, ...(sourceChain ? { sourceChain } : {}) });
    for (const d of checked.disproven) this.#dropped.push({ ...where, ...d });
    for (const u of checked.unproven) this.#unproven.add(refKey(u));
    return checked.utxos;
  }

  /** True when no tx proves this UTXO (it was read by this engine and kept all the same). */
  isUnproven(utxo: Utxo): boolean {
    return this.#unproven.size > 0 && this.#unproven.has(refKey(utxo));
  }

  /**
   * UTXOs the node sent that this engine's reads left out (bad checksum, not decodable, not owned
   * by the addresses asked about, two bodies under one ID, contradicted by their own tx): never
   * counted, and to be told.
   */
  get droppedUtxos(): readonly (DroppedUtxo & { chain: ChainAlias; sourceChain?: ChainAlias })[] {
    return this.#dropped;
  }

  /** Chain time in seconds: P from the node; X and C follow wall-clock time closely enough for locktimes. */
  async now(chain: ChainAlias): Promise<bigint> {
    if (chain === 'P') return BigInt(Math.floor(Date.parse(await this.node.platform.getTimestamp()) / 1000));
    return BigInt(Math.floor(Date.now() / 1000));
  }

  async spendable(chain: 'X' | 'P'): Promise<SpendableUtxo[]> {
    const [utxos, now] = await Promise.all([this.utxos(chain), this.now(chain)]);
    return this.marked(spendableUtxos(utxos, this.owned, now));
  }

  /** Atomic UTXOs waiting on `chain` that were exported from `source` and that the wallet can spend. */
  async atomicSpendable(chain: ChainAlias, source: ChainAlias): Promise<SpendableUtxo[]> {
    const [utxos, now] = await Promise.all([this.utxos(chain, source), this.now(chain)]);
    return this.marked(spendableUtxos(utxos, this.owned, now));
  }

  private marked(spendable: SpendableUtxo[]): SpendableUtxo[] {
    for (const s of spendable) {
      if (this.isUnproven(s.utxo)) s.unproven = true;
      if (this.#spendFirst.size > 0 && this.#spendFirst.has(utxoId(s.utxo))) s.first = true;
    }
    return spendable;
  }

  /**
   * Exact balances per asset from every UTXO (no deprecated balance APIs). `read`: this chain's
   * UTXOs as {@link utxos} just gave them, so a refresh that needs both reads them once.
   */
  async balances(chain: 'X' | 'P', read?: readonly Utxo[]): Promise<AssetBalance[]> {
    const [utxos, now] = await Promise.all([read ?? this.utxos(chain), this.now(chain)]);
    const byAsset = new Map<string, AssetBalance>();
    // The client's reader shares one array per asset ID: by that array first, no key to make.
    const byArray = new Map<Bytes, AssetBalance>();
    const seen = new Map<Bytes, boolean>();
    for (const u of utxos) {
      let b = byArray.get(u.assetID);
      if (!b) {
        const key = byteKey(u.assetID);
        b = byAsset.get(key);
        if (!b) byAsset.set(key, (b = { assetID: u.assetID, spendable: 0n, locked: 0n, lockedStakeable: 0n, unproven: 0n, shared: 0n, sharedLocked: 0n }));
        byArray.set(u.assetID, b);
      }
      const c = classifyUtxo(u, this.owned, now, seen);
      const amount = c.state === 'spendable' ? c.spendable.amount : c.state === 'locked' || c.state === 'stakeable-locked' ? c.amount : 0n;
      if (c.state === 'spendable') {
        b.spendable += amount;
        if (othersCanSpend(ownersOf(u.output), this.owned, c.spendable.sigIndices)) b.shared += amount;
      } else if (c.state === 'locked' || c.state === 'stakeable-locked') {
        if (c.state === 'locked') b.locked += amount;
        else b.lockedStakeable += amount;
        if (othersCanSpend(ownersOf(u.output), this.owned, c.sigIndices)) b.sharedLocked += amount;
      }
      if (this.isUnproven(u)) b.unproven += amount;
    }
    return [...byAsset.values()];
  }

  async cBalanceWei(): Promise<bigint> {
    return this.node.eth.getBalance(this.evmAddress);
  }

  /** The P-Chain fee inputs, each within its ceiling: weights from the config, price from the state (with headroom). */
  async pFeeContext(): Promise<PFeeContext> {
    const [config, state] = await Promise.all([this.node.platform.getFeeConfig(), this.node.platform.getFeeState()]);
    const [b, r, w, c] = config.weights.map((v, i) => checkFeeInput(`a P-Chain ${['bandwidth', 'read', 'write', 'compute'][i]} fee weight of`, v, MAX_P_WEIGHTS[i]!));
    const price = checkFeeInput('a P-Chain gas price of', state.price, MAX_P_GAS_PRICE);
    return { weights: [b!, r!, w!, c!], gasPriceNavax: withHeadroom(price, this.options.pPriceHeadroom) };
  }

  /**
   * What the network charges for `tx` now (nAVAX): the X-Chain's fixed fee, the P-Chain's gas at
   * the current price, a C-Chain atomic tx's gas at the current base fee (with their headroom).
   */
  async networkFeeOf(tx: UnsignedTx): Promise<bigint> {
    if (tx.vm === 'avm') return tx.kind === 'CreateAssetTx' ? this.ctx.xCreateAssetTxFee : this.ctx.xTxFee;
    if (tx.vm === 'pvm') return pTxFee(tx, await this.pFeeContext());
    return atomicTxFee(atomicTxGas(tx), (await this.atomicPricing()).baseFeeWei);
  }

  /** The base fee C-Chain atomic txs are built at and, given the fee the user reviewed (`maxFee`), the cap it sets. */
  private async atomicPricing(maxFee?: bigint): Promise<{ baseFeeWei: bigint; cap: AtomicFeeCap | undefined }> {
    const baseFee = await this.cBaseFee();
    const cap = maxFee === undefined ? undefined : { maxFee, floorBaseFeeWei: withHeadroom(baseFee, this.options.atomicBaseFeeFloor) };
    return { baseFeeWei: withHeadroom(baseFee, this.options.atomicBaseFeeHeadroom), cap };
  }

  private async cBaseFee(): Promise<bigint> {
    return checkFeeInput('a C-Chain base fee (wei) of', await this.node.eth.baseFee(), MAX_C_BASE_FEE_WEI);
  }

  /** Whether a signed C-Chain atomic tx burning `fee` pays less per gas than the base fee of now: the chain holds it until the fee falls. */
  async atomicUnderpays(signedBytes: Bytes, fee: bigint): Promise<boolean> {
    const gas = atomicTxGas(decodeChainTx('C', signedBytes) as CTx);
    return (fee * WEI_PER_NAVAX) / gas < (await this.cBaseFee());
  }

  // ---- signing and issuing ----

  /** Signs with the account's keys and checks every signature locally; nothing is sent. */
  sign<T extends UnsignedTx>(built: BuiltTx<T>): Issued<T> {
    const chain: ChainAlias = built.tx.vm === 'avm' ? 'X' : built.tx.vm === 'pvm' ? 'P' : 'C';
    const signed = signBuilt(built, [...this.keys.xp, this.keys.evm]);
    return { chain, txID: signed.txID, tx: built.tx, fee: built.fee, signedBytes: signed.signedBytes };
  }

  /**
   * A tx built elsewhere (a site): decoded, checked to be for this network and chain, with every
   * UTXO it spends as the tx that made it says (see resolveSpent; refused when the node's answers
   * about this account's own UTXOs did not check out).
   */
  async resolveExternal(chain: ChainAlias, bytes: Bytes): Promise<ExternalTx> {
    const decoded = decodeExternalTx(chain, bytes);
    checkTxBelongs(decoded.tx, chain, this.ctx);
    const tx = decoded.tx;
    const source = 'sourceChain' in tx ? ([['X', this.ctx.xChainID], ['P', this.ctx.pChainID], ['C', this.ctx.cChainID]] as const).find(([, id]) => equalBytes(id, tx.sourceChain))?.[0] : undefined;
    const droppedBefore = this.#dropped.length;
    const known = [...(chain === 'C' ? [] : await this.utxos(chain)), ...(source ? await this.utxos(chain, source) : [])];
    // A node caught lying about this account's funds is not asked what a site's tx spends.
    if (this.#dropped.length > droppedBefore) {
      throw new WalletError('node-response', "the node's answers about this account's funds do not check out (entries their own transactions contradict, or damaged ones): the wallet signs nothing a site built until they do");
    }
    const spent = await resolveSpent(tx, chain, this.ctx, this.node, known.filter((u) => !this.isUnproven(u)));
    return { chain, ...decoded, spent };
  }

  /** True when one of this wallet's keys signs some input of the tx. */
  signsAnyOf(ext: ExternalTx): boolean {
    return keychainSignsAny(ext, accountKeychain(this.keys.xp, this.keys.evm));
  }

  /** The fingerprint of a site's tx as resolved here: what it spends, who authorizes it, which slots this wallet signs. */
  fingerprintOf(ext: ExternalTx): string {
    return spentFingerprint(ext.spent, signedSlots(ext, accountKeychain(this.keys.xp, this.keys.evm)));
  }

  /** Signs every credential slot this wallet's keys can sign; the rest stay empty. */
  signExternal(ext: ExternalTx): ExternalSigned {
    return signExternalTx(ext, accountKeychain(this.keys.xp, this.keys.evm));
  }

  /** Sends signed bytes to the chain's API (an EVM tx by its 0x hash); the node must answer with the tx's own ID. */
  async submit(chain: ChainAlias, signedBytes: Bytes, expectedTxID: string): Promise<void> {
    if (chain === 'C' && isEvmHash(expectedTxID)) {
      const hash = await this.node.eth.sendRawTransaction(signedBytes);
      if (hash.toLowerCase() !== expectedTxID.toLowerCase()) throw new WalletError('node-response', `the node reports tx hash ${hash} for a tx whose hash is ${expectedTxID}`);
      return;
    }
    const api = chain === 'X' ? this.node.avm : chain === 'P' ? this.node.platform : this.node.atomic;
    const txID = await api.issueTx(signedBytes);
    if (txID !== expectedTxID) {
      throw new WalletError('node-response', `the node reports tx ID ${txID} for a tx whose ID is ${expectedTxID}`);
    }
  }

  async issue<T extends UnsignedTx>(built: BuiltTx<T>): Promise<Issued<T>> {
    const signed = this.sign(built);
    await this.submit(signed.chain, signed.signedBytes, signed.txID);
    return signed;
  }

  /**
   * What the node says of an X, P or atomic tx, without waiting: final ('accepted', 'failed'),
   * still 'processing', or 'unknown' (never seen, or no longer known). A C-Chain atomic tx is only
   * ever 'accepted' (executed, bytes hash-checked) or 'unknown': see {@link txFate}.
   */
  async txState(chain: ChainAlias, txID: string): Promise<TxState> {
    // An acceptance is believed with the tx's bytes only (NodeClient.provesAccepted); a claim
    // without them is no more than 'processing'.
    if (chain === 'X') {
      const status = await this.node.avm.getTxStatus(txID);
      if (status === 'Accepted') return (await this.node.provesAccepted('X', txID)) ? 'accepted' : 'processing';
      return status === 'Rejected' ? 'failed' : status === 'Processing' ? 'processing' : 'unknown';
    }
    if (chain === 'P') {
      const { status } = await this.node.platform.getTxStatus(txID);
      if (status === 'Committed') return (await this.node.provesAccepted('P', txID)) ? 'accepted' : 'processing';
      return status === 'Aborted' || status === 'Dropped' ? 'failed' : status === 'Processing' ? 'processing' : 'unknown';
    }
    return (await this.node.atomic.findExecutedAtomicTx(txID)) ? 'accepted' : 'unknown';
  }

  /**
   * What became of a signed tx, the node's word checked against what the tx spends and creates:
   * - inputs unspent: the node's word stands ('failed' only then: a tx whose inputs are spent may
   *   have gone through), except that a claim of acceptance is only 'processing'; no word at all is
   *   'not-seen' (it can still be accepted, and sending the same bytes again is safe);
   * - inputs gone: 'accepted' by the node's proven word or by what the tx created being there;
   *   otherwise 'inputs-spent': it went through or something else spent them — unclear, never
   *   "failed".
   * Inputs are read before the node is asked, so a tx accepted in between is not missed.
   */
  async txFate(chain: ChainAlias, txID: string, signedBytes: Bytes): Promise<TxFate> {
    if (chain === 'C' && isEvmHash(txID)) return this.evmFate(txID, signedBytes);
    const tx = decodeChainTx(chain, signedBytes);
    const utxos = this.walletUtxos();
    const live = await inputsUnspent(this.node, chain, tx, utxos);
    const state = await this.txState(chain, txID);
    if (live) return state === 'unknown' ? 'not-seen' : state === 'accepted' ? 'processing' : state;
    if (state === 'accepted' || (await outputsPresent(chain, tx, txID, utxos))) return 'accepted';
    return 'inputs-spent';
  }

  private walletUtxos(): WalletUtxos {
    return {
      ids: async (chain, source) => new Set((await this.utxos(chain, source)).map(utxoId)),
      aliasOf: (id) => (equalBytes(id, this.ctx.xChainID) ? 'X' : equalBytes(id, this.ctx.pChainID) ? 'P' : equalBytes(id, this.ctx.cChainID) ? 'C' : undefined),
    };
  }

  /** Waits until the tx is final; throws TxFailedError when the node will never accept it. */
  async waitAccepted(chain: ChainAlias, txID: string): Promise<TxOutcome> {
    const outcome = await this.node.waitForTx(chain, txID, this.options.wait);
    if (!outcome.accepted) throw new TxFailedError(outcome);
    return outcome;
  }

  async issueAndWait<T extends UnsignedTx>(built: BuiltTx<T>): Promise<Issued<T>> {
    const issued = await this.issue(built);
    await this.waitAccepted(issued.chain, issued.txID);
    return issued;
  }

  // ---- X-Chain ----

  private async xParams(memo?: Bytes): Promise<x.XSpendParams> {
    const [pool, now] = await Promise.all([this.spendable('X'), this.now('X')]);
    return { ctx: this.ctx, pool, now, changeOwners: this.changeOwners, ...(memo ? { memo } : {}) };
  }

  async buildXSend(payments: x.Payment[], memo?: Bytes) {
    return x.buildXSend({ ...(await this.xParams(memo)), payments });
  }

  async buildXSendSplit(amount: bigint, owners: OutputOwners) {
    return x.buildXSendSplit({ ...(await this.xParams()), amount, owners });
  }

  async buildXCreateAsset(p: { name: string; symbol: string; denomination: number; initialStates: Parameters<typeof x.buildXCreateAsset>[0]['initialStates'] }) {
    return x.buildXCreateAsset({ ...(await this.xParams()), ...p });
  }

  /** UTXOs of `assetID` on X that are mint rights or NFTs (every output kind, not just fungible). */
  async assetUtxos(assetID: Bytes): Promise<Utxo[]> {
    const key = toHex(assetID);
    return (await this.utxos('X')).filter((u) => toHex(u.assetID) === key);
  }

  async buildXMint(mintUtxo: Utxo, amount: bigint, to: OutputOwners) {
    return x.buildXMint({ ...(await this.xParams()), mintUtxo, owned: this.owned, amount, to });
  }

  async buildXNftMint(mintUtxo: Utxo, payload: Bytes, to: OutputOwners[]) {
    return x.buildXNftMint({ ...(await this.xParams()), mintUtxo, owned: this.owned, payload, to });
  }

  async buildXNftTransfer(nftUtxo: Utxo, to: OutputOwners) {
    return x.buildXNftTransfer({ ...(await this.xParams()), nftUtxo, owned: this.owned, to });
  }

  // ---- P-Chain ----

  private async pParams() {
    const [pool, fee] = await Promise.all([this.spendable('P'), this.pFeeContext()]);
    return { ctx: this.ctx, fee, pool, changeOwners: this.changeOwners };
  }

  async buildPSend(amount: bigint, to: OutputOwners) {
    return buildPSend({ ...(await this.pParams()), amount, to });
  }

  // ---- C-Chain ----

  /**
   * Signs a C-Chain EVM tx (EIP-1559) of `valueWei` to `to` (with `data`, a call) at the node's
   * pending nonce; nothing is sent. `maxFeeWei`: the most the tx may cost in fees (gasLimit ×
   * maxFeePerGas); a costlier one is refused unsigned.
   */
  async signC(to: string, valueWei: bigint, data?: string, options: { maxFeeWei?: bigint; own?: EvmNonces } = {}): Promise<SignedEvm> {
    const [nonce, q] = await Promise.all([this.evmNonce(options.own), this.quoteC(to, valueWei, data)]);
    if (options.maxFeeWei !== undefined && q.gasLimit * q.maxFeePerGas > options.maxFeeWei) {
      throw new WalletError('fee-above-approved', `the fee of up to ${q.gasLimit * q.maxFeePerGas} wei is above the approved maximum of ${options.maxFeeWei} wei`);
    }
    const signed = this.signEvm({ chainId: this.options.evmChainId, nonce, to, value: valueWei, gasLimit: q.gasLimit, maxFeePerGas: q.maxFeePerGas, maxPriorityFeePerGas: q.maxPriorityFeePerGas, ...(data ? { data } : {}) });
    return signed;
  }

  /**
   * The gas limit (the node's estimate for a call or a transfer to a contract, within its ceiling;
   * 21000 for a plain transfer) and EIP-1559 fees (the node's base fee bound and tip, checked against sane limits)
   * signC would sign with now.
   */
  async quoteC(to: string, valueWei: bigint, data?: string): Promise<{ gasLimit: bigint; baseFeeWei: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> {
    const [[baseFee, tip], gasLimit] = await Promise.all([
      this.cFeeInputs(),
      data ? this.node.eth.estimateGas({ from: this.evmAddress, to, value: '0x' + valueWei.toString(16), data }) : this.transferGas(to, valueWei),
    ]);
    return { gasLimit: checkFeeInput('a gas estimate of', gasLimit, MAX_C_GAS_LIMIT), baseFeeWei: baseFee, ...eip1559Fees(baseFee, tip) };
  }

  /** The node's C-Chain base fee and tip (wei), each within its ceiling: every EVM tx's fee starts here. */
  async cFeeInputs(): Promise<[bigint, bigint]> {
    const [baseFee, tip] = await Promise.all([this.node.eth.baseFee(), this.node.eth.maxPriorityFeePerGas()]);
    return [checkFeeInput('a C-Chain base fee (wei) of', baseFee, MAX_C_BASE_FEE_WEI), checkFeeInput('a C-Chain priority fee (wei) of', tip, MAX_C_TIP_WEI)];
  }

  /**
   * Gas for sending AVAX with no data: 21000 to an address without code. A contract's code runs on
   * receipt, and 21000 leaves it none, so the tx would fail and still cost its fee: the node's
   * estimate instead, and a contract that refuses the transfer is said before anything is signed.
   */
  private async transferGas(to: string, valueWei: bigint): Promise<bigint> {
    if ((await this.node.eth.getCode(to)) === '0x') return PLAIN_TRANSFER_GAS;
    try {
      return await this.node.eth.estimateGas({ from: this.evmAddress, to, value: '0x' + valueWei.toString(16) });
    } catch (e) {
      if (e instanceof RpcError && (e.rpcCode === 3 || /revert/i.test(e.rpcMessage))) {
        throw new WalletError('recipient-refuses', `the recipient ${to} is a contract that refuses this transfer: it would fail and still cost its fee`);
      }
      throw e;
    }
  }

  /** Signs an EVM tx exactly as given (a replacement keeps its nonce); nothing is sent. */
  signEvm(req: EvmTxRequest): SignedEvm {
    const signed = signEvmTx(req, this.keys.evm.secret);
    return { txID: signed.hash, signedBytes: fromHex(signed.rawTx.slice(2)), maxFeeWei: signed.maxFeeWei };
  }

  /**
   * The nonce this account's next EVM tx takes. A nonce the node refused a tx of this wallet's at
   * (`own.voided`, kept for this) is taken again first: the two can never both run, however long
   * the node held the refused one. Else the next unused one, or the one after this wallet's own
   * undecided txs (`own.live`). Never a nonce the node merely calls free: a tx signed past a gap
   * waits unseen until the gap is filled, then runs beside the retry that filled it. So a node
   * that counts pending txs this wallet did not send, or fewer than the nonces used, is refused.
   */
  async evmNonce(own: EvmNonces = { live: [], voided: [] }): Promise<bigint> {
    const [pending, used] = await Promise.all([this.node.eth.getTransactionCount(this.evmAddress, 'pending'), this.node.eth.getTransactionCount(this.evmAddress, 'latest')]);
    if (pending < used) throw new NodeResponseError(`the node offers nonce ${pending} for an account that has already used ${used} nonces`);
    const after = (nonces: readonly bigint[]) => nonces.reduce((n, u) => (u + 1n > n ? u + 1n : n), used);
    if (pending > after([...own.live, ...own.voided])) {
      throw new WalletError('evm-nonce-gap', `the node counts ${pending - after([...own.live, ...own.voided])} C-Chain transaction(s) of this account waiting that this wallet did not send; wait until they go through or are dropped`);
    }
    const reusable = own.voided.filter((n) => n >= used && !own.live.includes(n)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return reusable[0] ?? after(own.live);
  }

  /** signC, then sent and followed until accepted (TxFailedError otherwise). */
  async sendC(to: string, valueWei: bigint, data?: string, options: { maxFeeWei?: bigint } = {}): Promise<{ hash: string; outcome: TxOutcome }> {
    const signed = await this.signC(to, valueWei, data, options);
    await this.submit('C', signed.signedBytes, signed.txID);
    return { hash: signed.txID, outcome: await this.waitAccepted('C', signed.txID) };
  }

  /**
   * An EVM tx's fate. Its receipt decides (the node's word: an EVM receipt cannot be proven here),
   * never as 'failed'; without one, a nonce the account has already used means another tx took it
   * ('inputs-spent': this one can never run); else the node holds it or has never seen it.
   */
  private async evmFate(hash: string, rawTx: Bytes): Promise<TxFate> {
    const nonce = evmTxNonce(rawTx);
    // The used nonce is read before the receipt: a receipt missing after it is missing for good.
    const used = await this.node.eth.getTransactionCount(this.evmAddress, 'latest');
    const receipt = await this.node.eth.getTransactionReceipt(hash);
    // A receipt counts only with the nonce used and from this account. Even then a reverted one is
    // not "failed": the nonce is spent either way, and a faked revert must never invite a retry
    // that pays a second time. It stays unclear.
    if (receipt && used > nonce && receipt.from.toLowerCase() === this.evmAddress.toLowerCase()) return receipt.status === 1n ? 'accepted' : 'inputs-spent';
    if (used > nonce) return 'inputs-spent';
    if (receipt) return 'processing';
    const held = await this.node.eth.ethCall('eth_getTransactionByHash', [hash]);
    return held ? 'processing' : 'not-seen';
  }

  /**
   * An EVM tx of this account's whose signed bytes the wallet no longer has (another network entry
   * for the same chains followed it to its end): 'accepted' on a receipt of this account's that
   * succeeded, 'unclear' on one that reverted (never "failed": see evmFate), else 'unknown'.
   */
  async evmState(hash: string): Promise<'accepted' | 'unclear' | 'unknown'> {
    const receipt = await this.node.eth.getTransactionReceipt(hash);
    if (!receipt || receipt.from.toLowerCase() !== this.evmAddress.toLowerCase()) return 'unknown';
    return receipt.status === 1n ? 'accepted' : 'unclear';
  }

  // ---- cross-chain ----

  /**
   * Builds the export half of a move of `amount` nAVAX from `from` to `to`, owned on arrival by this
   * wallet. `maxFee`: the fee the user reviewed, paid from the C-Chain when the fee of now is a little above it.
   */
  async buildExport(from: ChainAlias, to: ChainAlias, amount: bigint, maxFee?: bigint): Promise<BuiltTx> {
    if (from === to) throw new WalletError('validation', 'source and destination chains must differ');
    // Atomic UTXOs for the C-Chain are owned by the EVM key's short ID (C-bech32 address).
    const owner = makeOwners([to === 'C' ? this.keys.evm.shortId : this.keys.change]);
    if (from === 'X') return x.buildXExport({ ...(await this.xParams()), destination: to as 'P' | 'C', amount, to: owner });
    if (from === 'P') return buildPExport({ ...(await this.pParams()), destination: to as 'X' | 'C', amount, to: owner });
    const [nonce, balanceWei, pricing] = await Promise.all([exportNonce(this.node, this.evmAddress), this.cBalanceWei(), this.atomicPricing(maxFee)]);
    return buildCExport({ ctx: this.ctx, from: this.keys.evm.evmAddress, nonce, balanceWei, destination: to as 'X' | 'P', amount, to: owner, ...pricing });
  }

  /**
   * Builds the imports of the atomic UTXOs waiting on `to` from `from` (several txs when needed):
   * those `fromTx` created when given (a move imports its own export's funds), else every one.
   * `maxFee`: the fees the user reviewed, paid into the C-Chain when the fees of now are a little above them.
   */
  async buildImports(to: ChainAlias, from: ChainAlias, fromTx?: string, maxFee?: bigint): Promise<BuiltTx[]> {
    const atomicUtxos = (await this.atomicSpendable(to, from)).filter((u) => fromTx === undefined || cb58Encode(u.utxo.txID) === fromTx);
    if (atomicUtxos.length === 0) return [];
    return this.buildImportsOf(to, from, provenFirst(atomicUtxos), maxFee);
  }

  /** The imports into `to` of exactly `atomicUtxos` (exported from `from`), built, not signed: as few txs as they take. */
  async buildImportsOf(to: ChainAlias, from: ChainAlias, atomicUtxos: readonly SpendableUtxo[], maxFee?: bigint): Promise<BuiltTx[]> {
    if (to === 'X') return x.buildXImport({ ...(await this.xParams()), source: from as 'P' | 'C', atomicUtxos, to: this.changeOwners });
    if (to === 'P') return buildPImport({ ...(await this.pParams()), source: from as 'X' | 'C', atomicUtxos, to: this.changeOwners });
    return buildCImport({ ctx: this.ctx, source: from as 'X' | 'P', atomicUtxos, to: this.keys.evm.evmAddress, ...(await this.atomicPricing(maxFee)) });
  }

  /**
   * nAVAX the import of one atomic UTXO of `amount` (exported from `from`, owned as buildExport
   * owns it) into `to` would burn, from the destination chain's own builder. The UTXO is made up
   * here: nothing is read from atomic memory, nothing is signed.
   */
  async estimateImportFee(to: ChainAlias, from: ChainAlias, amount: bigint): Promise<bigint> {
    if (from === to) throw new WalletError('validation', 'source and destination chains must differ');
    const owners = makeOwners([to === 'C' ? this.keys.evm.shortId : this.keys.change]);
    const utxo: Utxo = { txID: new Uint8Array(32), outputIndex: 0, assetID: this.ctx.avaxAssetID, output: { kind: 'TransferOutput', amount, owners } };
    const [first] = await this.buildImportsOf(to, from, [{ utxo, amount, sigIndices: [0] }]);
    return first!.fee;
  }

  /** Export, wait for acceptance, then import everything waiting; returns both halves. */
  async move(from: ChainAlias, to: ChainAlias, amount: bigint): Promise<{ exported: Issued; imported: Issued[] }> {
    const exported = await this.issueAndWait(await this.buildExport(from, to, amount));
    const imported: Issued[] = [];
    for (const b of await this.buildImports(to, from)) imported.push(await this.issueAndWait(b));
    return { exported, imported };
  }
}

