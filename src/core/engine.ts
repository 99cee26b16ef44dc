// The wallet's chain operations over a node: read UTXOs and balances, then build, sign, check and
// issue transactions, and follow them to acceptance. Pure (no browser APIs): the background's
// services and the integration tests both drive the chains through this one place. Its parts beside
// it: engine-types.ts (types, spend params), engine-kept.ts (reads checked against the txs the
// wallet keeps), engine-evm.ts (C-Chain EVM txs), engine-moves.ts (cross-chain), engine-follow.ts
// (sending, and what became of a tx).
import { WEI_PER_NAVAX } from './amount.js';
import { byteKey, type Bytes, fromHex, toHex } from './bytes.js';
import { utxoId } from './codec/ids.js';
import type { CTx, OutputOwners, UnsignedTx, Utxo } from './codec/types.js';
import { formatAddress } from './encoding.js';
import { type AssetBalance, type EngineKeys, type EngineOptions, type EvmNonces, type EvmQuote, type Issued, type SignedEvm, type SpentRecord, TxFailedError, type TxFate, type TxState, lockTime, pParams, xParams } from './engine-types.js';
import { evmNonce, evmState, quoteC, signC } from './engine-evm.js';
import { KeptSpenders } from './engine-kept.js';
import { submit, txFate, txFateFromNode, txState } from './engine-follow.js';
import { atomicPricing, buildExport, buildImports, buildImportsOf, cBaseFee, estimateImportFee } from './engine-moves.js';
import { checkTxBelongs, decodeExternalTx, type ExternalSigned, type ExternalTx, keychainSignsAny, resolveSpent, signedSlots, signExternalTx, spentFingerprint } from './external-tx.js';
import { WalletError } from './errors.js';
import { memoryProofCache, type ProofCache, proveUtxos } from './proof.js';
import { decodeChainTx } from './tx-fate.js';
import { checkFeeInput, MAX_C_BASE_FEE_WEI, MAX_C_TIP_WEI, MAX_P_GAS_PRICE, MAX_P_WEIGHTS } from './fee-limits.js';
import { atomicTxFee, atomicTxGas, type PFeeContext, pTxFee, withHeadroom } from './fees.js';
import { formatEvmAddress } from './evm-address.js';
import { type ChainAlias, CHAIN_OF_VM, type DroppedUtxo, type NodeClient, type TxOutcome, type WaitOptions } from './node.js';
import type { BuiltTx } from './tx/built.js';
import { type EvmTxRequest, signEvmTx } from './tx/c.js';
import { type ChainContext, chainAliasOf, makeOwners } from './tx/context.js';
import { buildPSend } from './tx/p.js';
import { accountKeychain, signBuilt } from './tx/sign.js';
import { type OwnedAddresses, ownedAddressSet, spendableUtxos, type SpendableUtxo, sumBalances } from './tx/utxos.js';
import * as x from './tx/x.js';

export { type AssetBalance, type EngineKeys, type EngineOptions, type EvmNonces, type Issued, isEvmHash, pClock, provenFirst, type SignedEvm, type SpentRecord, TxFailedError, type TxFate, type TxState } from './engine-types.js';

/** How long one engine (one refresh, one send) may spend reading the txs that prove its UTXOs. */
const PROOF_BUDGET_MS = 30_000;

function refKey(u: Utxo): string {
  return `${u.outputIndex}:${byteKey(u.txID)}`;
}

export class WalletEngine {
  readonly ctx: ChainContext;
  readonly #dropped: (DroppedUtxo & { chain: ChainAlias; sourceChain?: ChainAlias })[] = [];
  readonly #kept: KeptSpenders;
  /** UTXOs read so far that no tx proves, by refKey. */
  readonly #unproven = new Set<string>();
  readonly #proofs: ProofCache;
  /** The short IDs of every key of the account (X/P and EVM), whose thresholds a selection meets, as byteKey strings. */
  readonly owned: OwnedAddresses;
  /** The short IDs of the account's X/P keys, whose UTXOs its X and P reads list, as byteKey strings. */
  readonly listedKeys: OwnedAddresses;
  private readonly options: Required<Omit<EngineOptions, 'wait' | 'proofs' | 'spendFirst' | 'spendNever' | 'spent' | 'ranElsewhere'>> & { wait: WaitOptions };
  /** What txs taken as accepted spent (EngineOptions.spent). */
  readonly spent: SpentRecord | undefined;
  #proofDeadline: number | undefined;

  constructor(
    readonly node: NodeClient,
    ctx: ChainContext,
    private readonly keys: EngineKeys,
    options: EngineOptions,
  ) {
    this.ctx = ctx;
    this.owned = ownedAddressSet([...keys.xp.map((k) => k.shortId), keys.evm.shortId]);
    this.listedKeys = ownedAddressSet(keys.xp.map((k) => k.shortId));
    this.#proofs = options.proofs ?? memoryProofCache();
    this.#kept = new KeptSpenders(options, (chain, txID) => this.txState(chain, txID));
    this.spent = options.spent;
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
    return this.#kept.screen(checked.utxos, (id, reason) => this.#dropped.push({ ...where, id, reason }));
  }

  /** The txs taken as accepted (EngineOptions.spent) whose inputs a read of this engine listed again. */
  get contradicted(): ReadonlySet<string> {
    return this.#kept.contradicted;
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
    const [utxos, now] = await Promise.all([this.utxos(chain), lockTime(this, chain)]);
    return this.marked(spendableUtxos(utxos, this.owned, now));
  }

  /** Atomic UTXOs waiting on `chain` that were exported from `source` and that the wallet can spend. */
  async atomicSpendable(chain: ChainAlias, source: ChainAlias): Promise<SpendableUtxo[]> {
    const [utxos, now] = await Promise.all([this.utxos(chain, source), lockTime(this, chain)]);
    return this.marked(spendableUtxos(utxos, this.owned, now));
  }

  private marked(spendable: SpendableUtxo[]): SpendableUtxo[] {
    const usable: SpendableUtxo[] = [];
    for (const s of spendable) {
      const id = utxoId(s.utxo);
      if (this.isUnproven(s.utxo)) s.unproven = true;
      if (this.#kept.takenFirst(id)) s.first = true;
      else if (this.#kept.neverTaken(id)) continue;
      usable.push(s);
    }
    return usable;
  }

  /**
   * Exact balances per asset from every UTXO (no deprecated balance APIs). `read`: this chain's
   * UTXOs as {@link utxos} just gave them, and `at`: the chain's time as {@link now} gave it, so a
   * refresh that needs them too reads each once.
   */
  async balances(chain: 'X' | 'P', read?: readonly Utxo[], at?: bigint): Promise<AssetBalance[]> {
    const [utxos, now] = await Promise.all([read ?? this.utxos(chain), at ?? lockTime(this, chain)]);
    return sumBalances(utxos, this.owned, now, (u) => this.isUnproven(u));
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
    return atomicTxFee(atomicTxGas(tx), (await atomicPricing(this, this.options)).baseFeeWei);
  }

  /** Whether a signed C-Chain atomic tx burning `fee` pays less per gas than the base fee of now: the chain holds it until the fee falls. */
  async atomicUnderpays(signedBytes: Bytes, fee: bigint): Promise<boolean> {
    const gas = atomicTxGas(decodeChainTx('C', signedBytes) as CTx);
    return (fee * WEI_PER_NAVAX) / gas < (await cBaseFee(this));
  }

  // ---- signing and issuing (sending and following: engine-follow.ts) ----

  /** Signs with the account's keys and checks every signature locally; nothing is sent. */
  sign<T extends UnsignedTx>(built: BuiltTx<T>): Issued<T> {
    const chain = CHAIN_OF_VM[built.tx.vm];
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
    const source = 'sourceChain' in tx ? chainAliasOf(this.ctx, tx.sourceChain) : undefined;
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

  /** Sends signed bytes to the chain's API; the node must answer with the tx's own ID. */
  submit(chain: ChainAlias, signedBytes: Bytes, expectedTxID: string): Promise<void> {
    return submit(this, chain, signedBytes, expectedTxID);
  }

  async issue<T extends UnsignedTx>(built: BuiltTx<T>): Promise<Issued<T>> {
    const signed = this.sign(built);
    await this.submit(signed.chain, signed.signedBytes, signed.txID);
    return signed;
  }

  /** What the node says of an X, P or atomic tx, without waiting. */
  txState(chain: ChainAlias, txID: string): Promise<TxState> {
    return txState(this, chain, txID);
  }

  /**
   * What became of a signed tx, the node's word checked against what it spends and creates.
   * `asked`: never taken from the spent book (a tx taken back, which another engine's book may still note).
   */
  txFate(chain: ChainAlias, txID: string, signedBytes: Bytes, asked = false): Promise<TxFate> {
    return txFate(this, chain, txID, signedBytes, asked);
  }

  /** What became of an X or P tx, from the node's own (hash-checked) bytes: see txFateFromNode. */
  txFateFromNode(chain: 'X' | 'P', txID: string): Promise<TxFate> {
    return txFateFromNode(this, chain, txID);
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

  async buildXSend(payments: x.Payment[], memo?: Bytes) {
    return x.buildXSend({ ...(await xParams(this, memo)), payments });
  }

  async buildXCreateAsset(p: { name: string; symbol: string; denomination: number; initialStates: Parameters<typeof x.buildXCreateAsset>[0]['initialStates'] }) {
    return x.buildXCreateAsset({ ...(await xParams(this)), ...p });
  }

  /** UTXOs of `assetID` on X that are mint rights or NFTs (every output kind, not just fungible). */
  async assetUtxos(assetID: Bytes): Promise<Utxo[]> {
    const key = toHex(assetID);
    return (await this.utxos('X')).filter((u) => toHex(u.assetID) === key);
  }

  async buildXMint(mintUtxo: Utxo, amount: bigint, to: OutputOwners) {
    return x.buildXMint({ ...(await xParams(this)), mintUtxo, owned: this.owned, amount, to });
  }

  async buildXNftMint(mintUtxo: Utxo, payload: Bytes, to: OutputOwners[]) {
    return x.buildXNftMint({ ...(await xParams(this)), mintUtxo, owned: this.owned, payload, to });
  }

  async buildXNftTransfer(nftUtxo: Utxo, to: OutputOwners) {
    return x.buildXNftTransfer({ ...(await xParams(this)), nftUtxo, owned: this.owned, to });
  }

  // ---- P-Chain ----

  async buildPSend(amount: bigint, to: OutputOwners) {
    return buildPSend({ ...(await pParams(this)), amount, to });
  }

  // ---- C-Chain EVM txs (engine-evm.ts) ----

  /** Signs a C-Chain EVM tx at the node's pending nonce, nothing sent; a fee above `maxFeeWei` is refused unsigned. */
  signC(to: string, valueWei: bigint, data?: string, options?: { maxFeeWei?: bigint; own?: EvmNonces }): Promise<SignedEvm> {
    return signC(this, this.options.evmChainId, to, valueWei, data, options);
  }

  /** The gas use, gas limit and EIP-1559 fees signC would sign with now (within `maxFeeWei`, when given). */
  quoteC(to: string, valueWei: bigint, data?: string, maxFeeWei?: bigint): Promise<EvmQuote> {
    return quoteC(this, to, valueWei, data, maxFeeWei);
  }

  /** The node's C-Chain base fee and tip (wei), each within its ceiling: every EVM tx's fee starts here. */
  async cFeeInputs(): Promise<[bigint, bigint]> {
    const [baseFee, tip] = await Promise.all([this.node.eth.baseFee(), this.node.eth.maxPriorityFeePerGas()]);
    return [checkFeeInput('a C-Chain base fee (wei) of', baseFee, MAX_C_BASE_FEE_WEI), checkFeeInput('a C-Chain priority fee (wei) of', tip, MAX_C_TIP_WEI)];
  }

  /** Signs an EVM tx exactly as given (a replacement keeps its nonce); nothing is sent. */
  signEvm(req: EvmTxRequest): SignedEvm {
    const signed = signEvmTx(req, this.keys.evm.secret);
    return { txID: signed.hash, signedBytes: fromHex(signed.rawTx.slice(2)), maxFeeWei: signed.maxFeeWei };
  }

  /** The nonce this account's next EVM tx takes (a refused one of its own first, never past a gap). */
  evmNonce(own?: EvmNonces): Promise<bigint> {
    return evmNonce(this, own);
  }

  /** signC, then sent and followed until accepted (TxFailedError otherwise). */
  async sendC(to: string, valueWei: bigint, data?: string, options: { maxFeeWei?: bigint } = {}): Promise<{ hash: string; outcome: TxOutcome }> {
    const signed = await this.signC(to, valueWei, data, options);
    await this.submit('C', signed.signedBytes, signed.txID);
    return { hash: signed.txID, outcome: await this.waitAccepted('C', signed.txID) };
  }

  /** An EVM tx of this account's known by its hash only, by its receipt. */
  evmState(hash: string): Promise<'accepted' | 'unclear' | 'unknown'> {
    return evmState(this, hash);
  }

  // ---- cross-chain (engine-moves.ts) ----

  /** The export half of a move of `amount` nAVAX, owned on arrival by this wallet. */
  buildExport(from: ChainAlias, to: ChainAlias, amount: bigint, maxFee?: bigint): Promise<BuiltTx> {
    return buildExport(this, this.keys, this.options, from, to, amount, maxFee);
  }

  /** The imports of the atomic UTXOs waiting on `to` from `from` (those `fromTx` created when given). */
  buildImports(to: ChainAlias, from: ChainAlias, fromTx?: string, maxFee?: bigint): Promise<BuiltTx[]> {
    return buildImports(this, to, from, fromTx, maxFee);
  }

  /** The imports into `to` of exactly `atomicUtxos` (exported from `from`), built, not signed: as few txs as they take. */
  buildImportsOf(to: ChainAlias, from: ChainAlias, atomicUtxos: readonly SpendableUtxo[], maxFee?: bigint): Promise<BuiltTx[]> {
    return buildImportsOf(this, this.keys, this.options, to, from, atomicUtxos, maxFee);
  }

  /** nAVAX the import of one atomic UTXO of `amount` into `to` would burn. */
  estimateImportFee(to: ChainAlias, from: ChainAlias, amount: bigint): Promise<bigint> {
    return estimateImportFee(this, this.keys, to, from, amount);
  }

  /**
   * Export, wait for acceptance, then import what waits from `from` (a group the wallet cannot pay
   * the fee of stays in atomic memory: buildImportGroups); returns both halves.
   */
  async move(from: ChainAlias, to: ChainAlias, amount: bigint): Promise<{ exported: Issued; imported: Issued[] }> {
    const exported = await this.issueAndWait(await this.buildExport(from, to, amount));
    const imported: Issued[] = [];
    for (const b of await this.buildImports(to, from)) imported.push(await this.issueAndWait(b));
    return { exported, imported };
  }
}
