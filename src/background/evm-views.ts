// What an EVM call, a typed-data permit or a simulation means for the account, as the approval
// window and the token screens show it: token calls and permits decoded (core/evm-calls.ts) and
// put in the token's own units, every address that receives tokens or rights named (one of the
// wallet's accounts, a contract or an ordinary account, how often this site had the user call it),
// and a simulation's balance changes labelled with the listed tokens' checked symbols. docs/tokens.md.
import { decodeTokenCall, decodeTypedPermit, isPermitType, PERMIT2_ADDRESS, PERMIT2_UNLIMITED } from '../core/evm-calls.js';
import { normaliseTypedData, type TypedDataInput } from '../core/message.js';
import { keccakHex } from '../core/evm-abi.js';
import { type Simulation, simulateTx } from '../core/evm-simulate.js';
import { fromHex } from '../core/bytes.js';
import { WalletError } from '../core/errors.js';
import { contractAddressOf } from '../core/tx/c.js';
import type { EthApi } from '../core/node/eth.js';
import { UNLIMITED_ALLOWANCE as UNLIMITED } from '../core/amount.js';
import { readTokenMetadata, type TokenMetadata, totalSupplyOf } from '../core/tokens.js';
import type { ImpactWarning, OwnAddress } from '../core/tx-impact.js';
import type { ActivityItem, ApprovalSummary, ApprovalTokenView, CounterpartyView, PermitView, SimulationView, TokenCallView } from '../shared/messages.js';
import { shownName } from './chain-name.js';
import { InvalidParamsError } from './provider-params.js';
import { approvalTokenView, namedToken, type StoredToken } from './token-store.js';

/** A revert reason is shown at most this long. */
const MAX_REVERT_REASON = 120;

/** What the views need to know about the account, its chain and the asking site. */
export interface InsightContext {
  eth: EthApi;
  /** The acting account's EVM address. */
  account: string;
  /** The tokens listed on this network ([] on a chain a site added). */
  listed: readonly StoredToken[];
  nativeSymbol: string;
  /** One of the wallet's addresses, or the warnings a recipient gets (a first payment, a look-alike). */
  recipientOf(address: string): Promise<{ yours?: OwnAddress; warnings: ImpactWarning[] }>;
  /** How many txs of the asking site that called `address` the user approved. */
  siteCalls(address: string): Promise<number>;
}

/**
 * What the wallet knows of an address that receives tokens or rights. A read that fails leaves only
 * its own part unknown (whether it has code; the recipient checks), never the rest of the view.
 */
export async function counterparty(c: InsightContext, address: string): Promise<CounterpartyView> {
  const [who, code, siteCalls] = await Promise.allSettled([c.recipientOf(address), c.eth.getCode(address), c.siteCalls(address)]);
  const yours = who.status === 'fulfilled' ? who.value.yours : undefined;
  return {
    address,
    ...(yours ? { yours } : {}),
    ...(code.status === 'fulfilled' ? { isContract: code.value !== '0x' } : {}),
    siteCalls: siteCalls.status === 'fulfilled' ? siteCalls.value : 0,
    warnings: who.status === 'fulfilled' ? who.value.warnings : [],
    ...(who.status === 'rejected' || siteCalls.status === 'rejected' ? { checksFailed: true } : {}),
  };
}

/** The contract read as a token; undefined when it does not answer as one; 'unread' when the node failed to answer for it. */
export async function tokenInfo(c: InsightContext, address: string): Promise<ApprovalTokenView | 'unread' | undefined> {
  let meta: TokenMetadata;
  try {
    meta = await readTokenMetadata(c.eth, address);
  } catch (e) {
    return e instanceof WalletError && (e.code === 'not-a-token' || e.code === 'token-call-failed') ? undefined : 'unread';
  }
  return approvalTokenView(meta, c.listed, c.nativeSymbol);
}

/**
 * An allowance with no practical limit: `max` or more (the usual "max uint"), or at least the
 * token's whole supply now (1e30 base units reads as a number, yet takes everything the user holds).
 */
async function unlimited(c: InsightContext, token: string, amount: bigint, max = UNLIMITED): Promise<boolean> {
  // A supply of 0 (or none read) says nothing: every amount would read as unlimited, its number hidden.
  const supply = amount < max ? await totalSupplyOf(c.eth, token).catch(() => 0n) : 0n;
  return amount >= max || (supply > 0n && amount >= supply);
}

/** The token operation a call to `to` with `data` asks for, in the token's units; undefined for any other call. */
export async function tokenCallView(c: InsightContext, to: string, data: string): Promise<TokenCallView | undefined> {
  const call = decodeTokenCall(data);
  const permit2 = call?.kind === 'permit2Approve';
  // Permit2's approve is only Permit2's at its address; the token is the one it names.
  if (!call || (permit2 && to.toLowerCase() !== PERMIT2_ADDRESS.toLowerCase())) return undefined;
  const read = await tokenInfo(c, permit2 ? call.token : to);
  const token = read === 'unread' ? undefined : read;
  const nft = token?.standard === 'erc721';
  const base = { kind: call.kind === 'permit2Approve' ? 'approve' : call.kind, ...(token ? { token } : {}), ...(read === 'unread' ? { unread: true as const } : {}) };
  switch (call.kind) {
    case 'transfer':
      return { ...base, recipient: await counterparty(c, call.to), amount: call.amount.toString() };
    case 'transferFrom':
      return { ...base, from: call.from, recipient: await counterparty(c, call.to), ...(nft ? { tokenId: call.amount.toString() } : { amount: call.amount.toString() }) };
    case 'safeTransferFrom':
      return { ...base, from: call.from, recipient: await counterparty(c, call.to), tokenId: call.tokenId.toString(), ...(call.amount !== undefined ? { amount: call.amount.toString() } : {}) };
    case 'approve':
      // ERC-721's approve names one token for one spender; ERC-20's an amount.
      return { ...base, spender: await counterparty(c, call.spender), ...(nft ? { tokenId: call.amount.toString() } : { amount: call.amount.toString(), unlimited: await unlimited(c, to, call.amount) }) };
    case 'increaseAllowance':
      return { ...base, spender: await counterparty(c, call.spender), amount: call.amount.toString(), unlimited: await unlimited(c, to, call.amount) };
    case 'setApprovalForAll':
      return { ...base, spender: await counterparty(c, call.operator), approved: call.approved };
    case 'permit2Approve':
      return { ...base, spender: await counterparty(c, call.spender), amount: call.amount.toString(), unlimited: await unlimited(c, call.token, call.amount, PERMIT2_UNLIMITED), expiration: call.expiration.toString() };
  }
}

/**
 * A site's typed data as it is shown and signed: normalised (core/message.ts), with the allowance
 * it grants decoded. A Permit type the wallet cannot decode is refused: the user would see only
 * raw JSON for what may be an unlimited allowance.
 */
export async function typedDataReview(c: InsightContext, typed: TypedDataInput): Promise<{ typed: TypedDataInput; permit?: PermitView }> {
  const shown = normaliseTypedData(typed);
  const permit = await permitView(c, shown);
  if (!permit && isPermitType(shown.primaryType)) {
    throw new InvalidParamsError(
      `params[1] asks to sign a ${shown.primaryType.slice(0, 60)}, a signature that hands out tokens, in a form the wallet cannot read (its spender, amounts or deadline); XPC Wallet does not sign it`,
      'params[1].message',
    );
  }
  return { typed: shown, ...(permit ? { permit } : {}) };
}

/** The allowance a typed-data signature grants, decoded; undefined when it grants none the wallet knows. */
export async function permitView(c: InsightContext, typed: Parameters<typeof decodeTypedPermit>[0]): Promise<PermitView | undefined> {
  const p = decodeTypedPermit(typed);
  if (!p) return undefined;
  const limit = p.kind === 'eip2612' ? UNLIMITED : PERMIT2_UNLIMITED;
  const grants = await Promise.all(
    p.grants.map(async (g) => {
      const read = await tokenInfo(c, g.token);
      const tokenView = read === 'unread' ? undefined : read;
      return { token: g.token, ...(tokenView ? { tokenView } : {}), amount: g.amount.toString(), unlimited: await unlimited(c, g.token, g.amount, limit), ...(g.expiration !== undefined ? { expiration: g.expiration.toString() } : {}) };
    }),
  );
  return { kind: p.kind, spender: await counterparty(c, p.spender), grants, deadline: p.deadline.toString(), verifier: p.verifier };
}

/**
 * A simulation as shown: native changes in the chain's symbol, listed tokens by their checked
 * symbol, others by address ('' and 0). A listed token whose words are flagged (reads as the coin,
 * as another listed token, or in other scripts) carries its address too: "5 AVAX" of a listed fake
 * must not read as the coin.
 */
export function simulationView(sim: Simulation, listed: readonly StoredToken[], nativeSymbol: string): SimulationView {
  const named = (token: string): { symbol: string; decimals: number } => {
    const t = listed.find((l) => l.address.toLowerCase() === token.toLowerCase());
    return t ? namedToken(t, listed, nativeSymbol) : { symbol: '', decimals: 0 };
  };
  const changes = sim.changes.map((ch) => {
    if (ch.asset === 'native') return { asset: 'native', symbol: nativeSymbol, decimals: 18, delta: ch.delta.toString() };
    return {
      asset: ch.asset,
      ...(ch.standard ? { standard: ch.standard } : {}),
      ...named(ch.asset),
      delta: ch.delta.toString(),
      ...(ch.tokenId !== undefined ? { tokenId: ch.tokenId.toString() } : {}),
    };
  });
  const approvals = (sim.approvals ?? []).map((a) => ({
    token: a.token,
    ...named(a.token),
    spender: a.spender,
    ...(a.amount !== undefined ? { amount: a.amount.toString(), unlimited: a.amount >= (a.permit2 ? PERMIT2_UNLIMITED : UNLIMITED) } : {}),
    ...(a.tokenId !== undefined ? { tokenId: a.tokenId.toString() } : {}),
    ...(a.all !== undefined ? { all: a.all } : {}),
    ...(a.permit2 ? { permit2: a.permit2 } : {}),
  }));
  return {
    method: sim.method,
    // The contract's own words: cleaned as a site's names are (no bidi overrides or hidden characters, 120 at most).
    ...(sim.reverted !== undefined ? { reverted: sim.reverted === '' ? '' : shownName(sim.reverted, MAX_REVERT_REASON).text } : {}),
    changes,
    ...(approvals.length > 0 ? { approvals } : {}),
    ...(sim.partial ? { partial: true } : {}),
    touched: sim.touched,
    // The node's words, for Details only: cleaned and cut as a contract's.
    ...(sim.nodeSaid ? { nodeSaid: shownName(sim.nodeSaid, MAX_REVERT_REASON).text } : {}),
  };
}

type EvmTxSummary = Extract<ApprovalSummary, { kind: 'evm-tx' }>;

/**
 * What a site's EVM tx does, for its approval: the token call decoded, or the deployment (size,
 * keccak-256 of the init code, the address it will get); the tx simulated on the node; and how it
 * is listed in Activity once sent.
 */
export async function evmTxInsight(
  c: InsightContext,
  tx: { from: string; to?: string; value: bigint; data: string; gasLimit: bigint; nonce: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
): Promise<{ views: Pick<EvmTxSummary, 'call' | 'deploy' | 'simulation'>; item: Partial<ActivityItem> }> {
  const views: Pick<EvmTxSummary, 'call' | 'deploy' | 'simulation'> = {};
  let item: Partial<ActivityItem> = tx.data.length > 2 ? { kind: 'call' } : {};
  if (tx.to === undefined) {
    const contractAddress = contractAddressOf(tx.from, tx.nonce);
    views.deploy = { codeBytes: (tx.data.length - 2) / 2, codeHash: keccakHex(fromHex(tx.data)), contractAddress };
    item = { kind: 'deploy', contract: contractAddress };
  } else {
    const call = await tokenCallView(c, tx.to, tx.data);
    if (call) views.call = call;
    // Listed as a token send or approval only when the contract reads as a token: its amount is in
    // the token's units, which Activity cannot show without the token (it would read as wei of AVAX).
    if (call?.token) {
      const token = { address: call.token.address, symbol: call.token.symbol, decimals: call.token.decimals, standard: call.token.standard, ...(call.tokenId !== undefined ? { tokenId: call.tokenId } : {}) };
      const moves = call.kind === 'transfer' || call.kind === 'transferFrom' || call.kind === 'safeTransferFrom';
      // setApprovalForAll(operator, false) and an ERC-20 approve(spender, 0) take a right back:
      // listed as the wallet's own revoke is (an increaseAllowance of 0 changes nothing: not one).
      const revokes = (call.kind === 'setApprovalForAll' && call.approved === false) || (call.kind === 'approve' && call.tokenId === undefined && call.amount === '0');
      item = {
        kind: moves ? 'send' : revokes ? 'revoke' : 'approve',
        token,
        ...(call.amount !== undefined ? { amount: call.amount } : {}),
        ...(call.kind === 'increaseAllowance' ? { increase: true as const } : {}),
        ...(call.unlimited ? { unlimited: true as const } : {}),
        to: (call.recipient ?? call.spender)!.address,
      };
    }
  }
  try {
    views.simulation = simulationView(await simulateTx(c.eth, { from: tx.from, ...(tx.to ? { to: tx.to } : {}), value: tx.value, data: tx.data, gasLimit: tx.gasLimit, maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas }), c.listed, c.nativeSymbol);
  } catch {
    views.simulation = { method: 'none', changes: [], touched: [] };
  }
  return { views, item };
}
