// EVM requests of sites: personal_sign, eth_signTypedData_v4 (and v3) and eth_sendTransaction (each
// shown to the user exactly as it will be signed), personal_ecRecover (no key), and the read-only
// calls passed to the chain's node.
import { UINT64_MAX } from '../core/amount.js';
import { fromHex, INVISIBLE_TEXT, invisibleAsCodes, toHex } from '../core/bytes.js';
import type { TypedDataInput } from '../core/message.js';
import { WalletError } from '../core/errors.js';
import { formatEvmAddress } from '../core/evm-address.js';
import { evmAddressFromPublicKey, lowSTwin, recoverSigner } from '../core/keys.js';
import { checkFeeInput, MAX_C_BASE_FEE_WEI, MAX_C_BLOCK_GAS_LIMIT, MAX_C_GAS_LIMIT, MAX_C_TIP_WEI } from '../core/fee-limits.js';
import { personalMessageDigest, signPersonalMessage, signTypedData } from '../core/message.js';
import { chargedGas, eip1559Fees, gasLimitFor, roomCap, signEvmTx, sizeGasFloor, unsignedEvmTxHex, type EvmTxRequest } from '../core/tx/c.js';
import type { ActivityItem } from '../shared/messages.js';
import { ProviderErrorCode as Code } from '../shared/provider-protocol.js';
import { type Call, MAX_CALL_DATA_BYTES, MAX_MESSAGE_BYTES, messageShown, ProviderError, SiteHandler, type Site } from './provider-context.js';
import { chainIdParam, evmAddressParam, hexBytesParam, hexDataParam, InvalidParamsError, messageParam, objectParam, onlyKeys, positional, txQuantityParam, typedDataParam, typedDataV3Param } from './provider-params.js';
import { chainKeyOf, hostOf, networkOfChainKey } from './site-connection.js';
import { requesterOf } from './approvals.js';
import { nonceTaken } from './delivery.js';
import { oneAtATime } from './storage.js';
import { evmTxInsight, typedDataReview } from './evm-views.js';

/** Read-only EVM methods answered by the chain's node, params passed through (they move no funds). */
export const READ_METHODS = new Set([
  'eth_blockNumber',
  'eth_call',
  'eth_estimateGas',
  'eth_feeHistory',
  'eth_gasPrice',
  'eth_getBalance',
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getBlockTransactionCountByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getCode',
  'eth_getLogs',
  'eth_getProof',
  'eth_getStorageAt',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'eth_maxPriorityFeePerGas',
  'eth_baseFee',
  'eth_syncing',
  'web3_clientVersion',
  // Node-side filters: ethers' BrowserProvider listens for contract events through these.
  'eth_newFilter',
  'eth_newBlockFilter',
  'eth_getFilterChanges',
  'eth_getFilterLogs',
  'eth_uninstallFilter',
]);
const MAX_READ_PARAMS = 4;

/** A read's params, checked for count and size: before the read waits for its turn, so that oversized ones never wait in memory. */
export function readParams(params: unknown): unknown[] {
  const list = positional(params, 0, MAX_READ_PARAMS);
  if (JSON.stringify(list).length > MAX_CALL_DATA_BYTES * 2 + 1024) throw new InvalidParamsError('params are too large', 'params');
  return list;
}

/** EIP-7825's per-tx gas cap (Ethereum since Fusaka): the room never takes a tx on a chain a site added past it. */
const EIP7825_TX_GAS = 16_777_216n;
const looksLikeAddress = (v: unknown): boolean => typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v);

/** The EVM tx an approval holds (as JSON-safe strings), back as the request that is shown and signed. */
function evmRequestOf(t: Record<keyof EvmTxRequest, string>): EvmTxRequest {
  return {
    chainId: BigInt(t.chainId),
    nonce: BigInt(t.nonce),
    to: t.to,
    value: BigInt(t.value),
    gasLimit: BigInt(t.gasLimit),
    maxFeePerGas: BigInt(t.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(t.maxPriorityFeePerGas),
    ...(t.data && t.data !== '0x' ? { data: t.data } : {}),
  };
}

/**
 * Typed data as the approval shows it: pretty JSON with every character that could hide or reorder
 * what it says (direction marks, zero-width, controls) written as a \u code, so what is read is
 * what is signed (the signature covers the data itself, unchanged).
 */
function shownJson(value: unknown): string {
  // Line breaks here are the pretty-printing's own: JSON escapes those inside strings already.
  return invisibleAsCodes(JSON.stringify(value, null, 2), true);
}

/** True when any text of the typed data holds such a character (the approval warns of it). */
function hidesText(typed: TypedDataInput): boolean {
  return INVISIBLE_TEXT.test(JSON.stringify([typed.domain, typed.message, typed.types]));
}

/**
 * True when the text holds a Sign-In with Ethereum message (EIP-4361) for another host than the
 * site that asks (`requester`, an origin): with the signature, that site could sign in there as
 * the user. Every such line anywhere in the text counts, as a lax verifier may read any; its domain
 * must be exactly the site's host[:port] (no user info, path or backslash a loose check could read
 * otherwise).
 */
export function signInElsewhere(text: string, requester: string): boolean {
  const host = new URL(requester).host;
  for (const m of text.matchAll(/(?:^|\s)(?:[a-z][\w+.-]*:\/\/)?(\S+) wants you to sign in with your Ethereum account/gi)) {
    let seen: string | undefined;
    try {
      seen = new URL(`https://${m[1]}`).host;
    } catch {
      // Not a host at all: never this site's.
    }
    if (seen !== host || /[@\\/]/.test(m[1]!)) return true;
  }
  return false;
}

export class SiteEvm extends SiteHandler {
  async personalSign(call: Call): Promise<string> {
    const [first, second] = positional(call.params, 2, 3);
    // [address, message], as some dapps send it, is taken as MetaMask takes it: when the first is an
    // address and the second is not. The address must still be one this site is connected to.
    const reversed = looksLikeAddress(first) && !looksLikeAddress(second);
    const message = messageParam(reversed ? second : first, reversed ? 'params[1]' : 'params[0]', MAX_MESSAGE_BYTES);
    const address = evmAddressParam(reversed ? first : second, reversed ? 'params[0]' : 'params[1]');
    return (await this.gate.approved(call, 'personal-sign', async () => {
      const account = await this.conn.actingAccount(call.site, address);
      return {
        summary: {
          kind: 'sign-message',
          format: 'personal',
          ...messageShown(message),
          digestHex: `0x${toHex(personalMessageDigest(message.bytes))}`,
          signer: account.cAddress,
          // Read from the bytes, however shown: hidden characters must not hide a sign-in elsewhere.
          ...(signInElsewhere(new TextDecoder().decode(message.bytes), requesterOf(call.site)) ? { signInElsewhere: true as const } : {}),
        },
        payload: { kind: 'personal-sign', accountId: account.id, messageHex: toHex(message.bytes) },
      };
    }, async (payload) => {
      return this.deps.wallet.withEvmSecret(payload.accountId, (secret) => signPersonalMessage(secret, fromHex(payload.messageHex)));
    })) as string;
  }

  /** eth_signTypedData_v4, or v3 (`v3`): only typed data v3 encodes as v4 does, signed by v4's encoder. */
  async signTypedData(call: Call, v3 = false): Promise<string> {
    const [rawAddress, rawTyped] = positional(call.params, 2, 2);
    const address = evmAddressParam(rawAddress, 'params[0]');
    const typed = v3 ? typedDataV3Param(typedDataParam(rawTyped, 'params[1]'), 'params[1]') : typedDataParam(rawTyped, 'params[1]');
    const domainChain = typed.domain.chainId;
    let chainId: bigint | undefined;
    if (domainChain !== undefined) {
      try {
        chainId = BigInt(domainChain as string | number);
      } catch {
        throw new InvalidParamsError('params[1].domain.chainId is not a number', 'params[1].domain.chainId');
      }
      const active = await this.conn.activeChain(call.site);
      if (chainId !== active.chainId) {
        throw new InvalidParamsError(`params[1].domain.chainId is ${chainId}; the wallet is on chain ${active.chainId}`, 'params[1].domain.chainId');
      }
    }
    return (await this.gate.approved(call, 'typed-data', async () => {
      const account = await this.conn.actingAccount(call.site, address);
      // Encode once before asking: typed data the library cannot encode is refused, not shown.
      signTypedData(new Uint8Array(32).fill(1), typed);
      const active = await this.conn.activeChain(call.site);
      // Checked again on the chain the approval will name: a switch since the first check refuses it.
      if (chainId !== undefined && chainId !== active.chainId) throw new ProviderError(Code.chainDisconnected, `the typed data is for chain ${chainId}; the wallet is on chain ${active.chainId}`);
      const insight = await this.deps.wallet.evmInsight(account.id, requesterOf(call.site), this.conn.eth(active.rpcUrl), { avalanche: active.kind === 'avalanche', symbol: active.symbol, key: chainKeyOf(active) });
      const { typed: shown, permit } = await typedDataReview(insight, typed);
      return {
        summary: {
          kind: 'sign-typed-data',
          signer: account.cAddress,
          primaryType: typed.primaryType,
          domainJson: shownJson(shown.domain),
          messageJson: shownJson(shown.message),
          typesJson: shownJson(shown.types),
          ...(hidesText(shown) ? { hiddenCharacters: true as const } : {}),
          ...(chainId !== undefined ? { chainId: chainId.toString() } : {}),
          ...(active.kind === 'evm' ? { rpcHost: hostOf(active.rpcUrl) } : {}),
          ...(permit ? { permit } : {}),
        },
        payload: { kind: 'typed-data', accountId: account.id, typed: shown, ...(chainId !== undefined ? { chain: chainKeyOf(active) } : {}) },
      };
    }, async (payload) => {
      await this.conn.assertStillOn(call.site, payload.chain);
      return this.deps.wallet.withEvmSecret(payload.accountId, (secret) => signTypedData(secret, payload.typed));
    })) as string;
  }

  /**
   * personal_ecRecover [message, signature]: the address whose key signed the EIP-191 message. Pure
   * computation (no key, no approval, no connection needed), as MetaMask answers it: v is 27/28 (or
   * 0/1), and a high-S signature recovers as its low-S twin does, as Ethereum's ecrecover does.
   */
  ecRecover(call: Call): string {
    const [rawMessage, rawSignature] = positional(call.params, 2, 2);
    const message = messageParam(rawMessage, 'params[0]', MAX_MESSAGE_BYTES);
    const signature = hexBytesParam(rawSignature, 'params[1]', 65).slice();
    if (signature.length !== 65) throw new InvalidParamsError('params[1] must be a signature of 65 bytes (r, s, v)', 'params[1]');
    const v = signature[64]!;
    if (v !== 0 && v !== 1 && v !== 27 && v !== 28) throw new InvalidParamsError('params[1] must end in a recovery byte v of 27 or 28', 'params[1]');
    signature[64] = v % 27;
    try {
      return formatEvmAddress(evmAddressFromPublicKey(recoverSigner(personalMessageDigest(message.bytes), lowSTwin(signature)).publicKey));
    } catch {
      throw new InvalidParamsError('params[1] is not a signature any key can have made', 'params[1]');
    }
  }

  async sendEvmTransaction(call: Call): Promise<string> {
    const [arg] = positional(call.params, 1, 1);
    const o = objectParam(arg, 'params[0]');
    onlyKeys(o, 'params[0]', ['from', 'to', 'value', 'data', 'input', 'gas', 'gasLimit', 'maxFeePerGas', 'maxPriorityFeePerGas', 'gasPrice', 'nonce', 'chainId', 'type', 'accessList']);
    const from = evmAddressParam(o.from, 'params[0].from');
    // No `to`: a contract deployment, whose data is the contract's init code.
    const to = o.to === undefined || o.to === null ? undefined : evmAddressParam(o.to, 'params[0].to');
    const value = o.value === undefined ? 0n : txQuantityParam(o.value, 'params[0].value');
    if (o.data !== undefined && o.input !== undefined && o.data !== o.input) throw new InvalidParamsError('params[0].data and params[0].input differ', 'params[0].data');
    const rawData = o.data ?? o.input;
    const data = rawData === undefined ? '0x' : hexDataParam(rawData, o.data !== undefined ? 'params[0].data' : 'params[0].input', MAX_CALL_DATA_BYTES);
    if (to === undefined && data.length <= 2) throw new InvalidParamsError('params[0].data is required to deploy a contract (params[0].to is absent)', 'params[0].data');
    const gas = o.gas ?? o.gasLimit;
    const siteMaxFee = o.maxFeePerGas === undefined ? undefined : txQuantityParam(o.maxFeePerGas, 'params[0].maxFeePerGas', MAX_C_BASE_FEE_WEI * 2n + MAX_C_TIP_WEI);
    const siteTip = o.maxPriorityFeePerGas === undefined ? undefined : txQuantityParam(o.maxPriorityFeePerGas, 'params[0].maxPriorityFeePerGas', MAX_C_TIP_WEI);
    const gasPrice = o.gasPrice === undefined ? undefined : txQuantityParam(o.gasPrice, 'params[0].gasPrice', MAX_C_BASE_FEE_WEI * 2n + MAX_C_TIP_WEI);
    // Gas limit and nonce are 64-bit (EIP-2681: a nonce stops one short).
    const siteNonce = o.nonce === undefined ? undefined : txQuantityParam(o.nonce, 'params[0].nonce', UINT64_MAX - 1n);
    if (o.type !== undefined && o.type !== '0x2' && o.type !== '0x0') throw new InvalidParamsError('params[0].type must be 0x2 (EIP-1559) or 0x0', 'params[0].type');
    if (o.accessList !== undefined && !(Array.isArray(o.accessList) && o.accessList.length === 0)) {
      throw new InvalidParamsError('params[0].accessList is not supported (only an empty list)', 'params[0].accessList');
    }
    const chain = await this.conn.activeChain(call.site);
    // The per-tx cap is Avalanche's C-Chain's (half a limit charged); other chains have their own blocks.
    const gasCap = chain.kind === 'avalanche' ? MAX_C_GAS_LIMIT : undefined;
    const gasLimit = gas === undefined ? undefined : txQuantityParam(gas, 'params[0].gas', gasCap ?? UINT64_MAX);
    if (o.chainId !== undefined && chainIdParam(o.chainId, 'params[0].chainId') !== chain.chainId) {
      throw new ProviderError(Code.chainDisconnected, `the transaction is for chain ${BigInt(o.chainId as string)}; the wallet is on chain ${chain.chainId}`);
    }
    return (await this.gate.approved(call, 'evm-tx', async () => {
      const account = await this.conn.actingAccount(call.site, from);
      const eth = this.conn.eth(chain.rpcUrl);
      const estimateUse = (): Promise<bigint> => eth.estimateGas({ from: account.cAddress, ...(to ? { to } : {}), value: `0x${value.toString(16)}`, data });
      const [next, block, tip, use, recipient, balance] = await Promise.all([
        // On the Avalanche C-Chain the wallet chooses the nonce, whatever the site asked
        // (WalletEngine.evmNonce: never past a gap, a refused tx's nonce taken again).
        chain.kind === 'avalanche' ? this.deps.wallet.evmNonceFor(account.id) : eth.getTransactionCount(account.cAddress, 'pending'),
        // On Avalanche's C-Chain, eth_baseFee: the bound the next block's base fee keeps to, as the
        // wallet's own sends price (a tx under it waits); the block's limit sets only the least a
        // tx of this size may be signed with (sizeGasFloor), never the ceiling (gasCap).
        chain.kind === 'avalanche'
          ? Promise.all([eth.baseFee(), eth.getBlockByNumber('latest')]).then(([baseFeePerGas, latest]) => ({ baseFeePerGas, gasLimit: latest?.gasLimit ?? 0n }))
          : eth.getBlockByNumber('latest'),
        siteTip ?? eth.maxPriorityFeePerGas(),
        // With the site's own limit, the estimate only informs the approval (what is likely charged).
        gasLimit === undefined ? estimateUse() : estimateUse().catch(() => undefined),
        to === undefined ? undefined : this.deps.wallet.recipientOf(account.id, to),
        // What pays the room over an estimate (roomCap); a site's own limit needs none.
        gasLimit === undefined ? eth.getBalance(account.cAddress) : 0n,
      ]);
      // On a chain a site added, the nonce the site names; one under the next takes the place of a
      // waiting tx of the account (or is refused), one over it waits for those between: the approval says which.
      const nonce = chain.kind === 'evm' ? (siteNonce ?? next) : next;
      const baseFee = block?.baseFeePerGas;
      if (baseFee === undefined) throw new WalletError('unsupported-chain', 'the chain has no EIP-1559 base fee; XPC Wallet signs only EIP-1559 transactions');
      checkFeeInput('a base fee (wei) of', baseFee, MAX_C_BASE_FEE_WEI);
      checkFeeInput('a priority fee (wei) of', tip, MAX_C_TIP_WEI);
      let fees = eip1559Fees(baseFee, tip);
      if (siteMaxFee !== undefined) fees = { maxFeePerGas: siteMaxFee, maxPriorityFeePerGas: siteTip ?? (tip < siteMaxFee ? tip : siteMaxFee) };
      else if (gasPrice !== undefined) fees = { maxFeePerGas: gasPrice, maxPriorityFeePerGas: tip < gasPrice ? tip : gasPrice };
      if (fees.maxPriorityFeePerGas > fees.maxFeePerGas) throw new InvalidParamsError('params[0].maxPriorityFeePerGas is above maxFeePerGas', 'params[0].maxPriorityFeePerGas');
      // A site's fee cap under it would wait for the base fee to fall, every later C-Chain tx of the
      // account (its own sends, its moves) queued behind it: the wallet's own fees, shown for approval.
      const siteCap = fees.maxFeePerGas;
      if (chain.kind === 'avalanche' && siteCap < baseFee) fees = eip1559Fees(baseFee, tip);
      // The site's own limit as it is; else the estimate with room (gasLimitFor) the balance pays,
      // elsewhere within 90% of a block and EIP-7825's per-tx cap (as MetaMask pads).
      const blockRoom = (block!.gasLimit * 9n) / 10n;
      const ceiling = gasCap ?? (blockRoom < EIP7825_TX_GAS ? blockRoom : EIP7825_TX_GAS);
      const chosen = gasLimit ?? gasLimitFor(gasCap === undefined ? use! : checkFeeInput('a gas estimate of', use!, gasCap), roomCap(ceiling, balance - value, fees.maxFeePerGas));
      // A calldata-heavy call under Helicon's gas-per-byte floor would be refused by every node's
      // mempool (a site's own limit too): raised to it, and refused when it is over the C-Chain's
      // ceiling, as is a block limit past belief. The approval shows the fee at that limit.
      const floor =
        chain.kind === 'avalanche'
          ? checkFeeInput('a gas limit for this transaction’s size of', sizeGasFloor({ chainId: chain.chainId, nonce, to: to ?? '', value, data, gasLimit: chosen, ...fees }, checkFeeInput('a block gas limit of', block!.gasLimit, MAX_C_BLOCK_GAS_LIMIT)), gasCap!)
          : 0n;
      const limit = floor > chosen ? floor : chosen;
      const tx = { chainId: chain.chainId, nonce, to: to ?? '', value, data, gasLimit: limit, ...fees };
      const approvedTx = Object.fromEntries(Object.entries(tx).map(([k, v]) => [k, String(v)])) as Record<keyof EvmTxRequest, string>;
      const requester = requesterOf(call.site);
      const insight = await this.deps.wallet.evmInsight(account.id, requester, eth, { avalanche: chain.kind === 'avalanche', symbol: chain.symbol, key: chainKeyOf(chain) });
      const { views, item } = await evmTxInsight(insight, { from: account.cAddress, to, value, data, gasLimit: limit, nonce, ...fees });
      return {
        summary: {
          kind: 'evm-tx',
          chainName: chain.name,
          chainId: chain.chainId.toString(),
          ...(chain.kind === 'evm' ? { rpcHost: hostOf(chain.rpcUrl) } : {}),
          symbol: chain.symbol,
          from: account.cAddress,
          to: to ?? '',
          valueWei: value.toString(),
          data,
          nonce: nonce.toString(),
          ...(siteNonce !== undefined && siteNonce !== nonce ? { siteNonce: siteNonce.toString() } : {}),
          ...(nonce < next ? { replacesWaiting: true } : nonce > next ? { nextNonce: next.toString() } : {}),
          gasLimit: limit.toString(),
          maxFeePerGas: fees.maxFeePerGas.toString(),
          ...(siteCap !== fees.maxFeePerGas ? { siteMaxFeePerGas: siteCap.toString() } : {}),
          maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
          ...(use !== undefined ? { estimatedGasUse: use.toString() } : {}),
          expectedGas: chargedGas(use ?? 0n, limit).toString(),
          baseFeePerGas: baseFee.toString(),
          unsignedHex: unsignedEvmTxHex(evmRequestOf(approvedTx)),
          ...(recipient ? { recipient } : {}),
          ...views,
        },
        payload: {
          kind: 'evm-tx',
          accountId: account.id,
          rpcUrl: chain.rpcUrl,
          activity: chain.kind === 'avalanche',
          tx: approvedTx,
          item,
          requester,
          chain: chainKeyOf(chain),
          ...(chain.kind === 'evm' && nonce === next ? { nonceOf: account.cAddress } : {}),
        },
      };
    }, async (payload) => {
      await this.conn.assertStillOn(call.site, payload.chain);
      const t = payload.tx;
      // Exactly the approved fields (the bytes the user was shown): nothing is re-estimated after the user said yes.
      const request = evmRequestOf(t);
      const sign = () => this.deps.wallet.withEvmSecret(payload.accountId, (secret) => signEvmTx(request, secret));
      // A call is counted for the site's later approvals once it went out, not when it was refused.
      const noteCall = async () => {
        // Never an error for a tx that went out: the site could take it for a failure and pay again.
        if (payload.requester && payload.chain && request.to !== '') await this.deps.wallet.noteSiteCall(payload.requester, payload.chain, request.to).catch((e: unknown) => this.deps.log?.(`site call not counted: ${(e as Error).message}`));
      };
      if (payload.activity) {
        const signed = await sign();
        // The Avalanche C-Chain: kept in the outbox, so a lost answer never becomes a second payment.
        // Listed with the most it can cost until its receipt says what it charged (as the wallet's own sends).
        // A token call's item says its own amount, or none (an operator approval): never the AVAX value in the token's units.
        const item: ActivityItem = { txID: signed.hash, chain: 'C', kind: 'send', status: 'pending', ...(payload.item?.token ? {} : { amount: t.value }), fee: (request.gasLimit * request.maxFeePerGas).toString(), createdAt: Date.now(), ...(request.to ? { to: request.to } : {}), ...payload.item };
        await this.deps.wallet.sendSiteTx(payload.accountId, { chain: 'C', txID: signed.hash, signedBytes: fromHex(signed.rawTx.slice(2)) }, item, networkOfChainKey(payload.chain));
        await noteCall();
        return signed.hash;
      }
      // One of the account's txs on this chain at a time, from its nonce check to its send: two
      // approvals acted on together would both find the nonce free.
      const sent = await oneAtATime(`site tx ${payload.chain} ${payload.accountId}`, async () => {
        const eth = this.conn.eth(payload.rpcUrl);
        // The next nonce when it was asked: a tx of the account sent since (another site's, approved
        // first) took it, and this one would take that one's place, or be refused. (Avalanche's C-Chain: sendSiteTx.)
        if (payload.nonceOf) {
          const now = await eth.getTransactionCount(payload.nonceOf, 'pending');
          if (now !== request.nonce) throw nonceTaken(request.nonce, now);
        }
        const signed = await sign();
        const hash = await eth.sendRawTransaction(signed.rawTx);
        if (hash.toLowerCase() !== signed.hash.toLowerCase()) throw new WalletError('node-response', `the node reports hash ${hash} for transaction ${signed.hash}`);
        return signed.hash;
      });
      await noteCall();
      return sent;
    })) as string;
  }

  /** A read's params as passed to the node (readParams). */
  async read(site: Site, method: string, list: unknown[]): Promise<unknown> {
    const chain = await this.conn.activeChain(site);
    return this.conn.eth(chain.rpcUrl).ethCall(method, list);
  }
}
