// The validators of the token and EVM tx requests (tokens.*, evm.*: src/shared/token-messages.ts),
// built from the field checkers of validate-fields.ts. Shape only: whether a token or a tx exists
// is the tokens service's business.
import type { ApprovalKind, RequestParams, RequestType, TokenSendParams } from './messages.js';
import { amount, bool, evmAddress, fail, type Fields, none, oneOf, present, record, str, U256_MAX } from './validate-fields.js';
import { maxFeeWei } from './validate-fees.js';

type TokenType = Extract<RequestType, `tokens.${string}` | `evm.${string}`>;


function tokenAddressOnly(params: unknown): { address: string } {
  const f = record(params, '', ['address']);
  return { address: evmAddress(f.address, 'address') };
}

function refreshOnly(params: unknown): { refresh?: boolean } {
  const f = record(params, '', [], ['refresh']);
  return present(f, 'refresh') ? { refresh: bool(f.refresh, 'refresh') } : {};
}

/** A token send's fields: an amount (ERC-20, ERC-1155) and/or a token ID (NFTs); at least one. */
function tokenSend(f: Fields): TokenSendParams {
  const out: TokenSendParams = { address: evmAddress(f.address, 'address'), to: evmAddress(f.to, 'to') };
  if (present(f, 'amount')) out.amount = amount(f.amount, 'amount', U256_MAX, true);
  if (present(f, 'tokenId')) out.tokenId = amount(f.tokenId, 'tokenId', U256_MAX, false);
  if (out.amount === undefined && out.tokenId === undefined) fail('amount', 'is required (or tokenId, for an NFT)');
  return out;
}

const TOKEN_SEND_FIELDS = ['amount', 'tokenId'];

function revokeTarget(f: Fields): { address: string; spender: string; kind: ApprovalKind } {
  return { address: evmAddress(f.address, 'address'), spender: evmAddress(f.spender, 'spender'), kind: oneOf(f.kind, 'kind', ['allowance', 'operator', 'permit2'] as const) };
}

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

function replaceTarget(f: Fields): { txHash: string; action: 'speed-up' | 'cancel' } {
  const txHash = str(f.txHash, 'txHash', { min: 66, max: 66 });
  if (!TX_HASH.test(txHash)) fail('txHash', 'must be a 0x transaction hash (64 hex digits)');
  return { txHash, action: oneOf(f.action, 'action', ['speed-up', 'cancel'] as const) };
}

export const TOKEN_VALIDATORS: { [T in TokenType]: (params: unknown) => RequestParams<T> } = {
  'tokens.inspect': tokenAddressOnly,
  'tokens.add': tokenAddressOnly,
  'tokens.remove': tokenAddressOnly,
  'tokens.list': none,
  'tokens.activity': refreshOnly,
  'tokens.nfts': tokenAddressOnly,
  'tokens.nftMetadata': (params: unknown) => {
    const f = record(params, '', ['address', 'tokenId']);
    return { address: evmAddress(f.address, 'address'), tokenId: amount(f.tokenId, 'tokenId', U256_MAX, false) };
  },
  'tokens.estimateSend': (params: unknown) => tokenSend(record(params, '', ['address', 'to'], TOKEN_SEND_FIELDS)),
  'tokens.send': (params: unknown) => {
    const f = record(params, '', ['address', 'to', 'maxFeeWei'], TOKEN_SEND_FIELDS);
    return { ...tokenSend(f), maxFeeWei: maxFeeWei(f) };
  },
  'tokens.allowances': refreshOnly,
  'tokens.estimateRevoke': (params: unknown) => revokeTarget(record(params, '', ['address', 'spender', 'kind'])),
  'tokens.revoke': (params: unknown) => {
    const f = record(params, '', ['address', 'spender', 'kind', 'maxFeeWei']);
    return { ...revokeTarget(f), maxFeeWei: maxFeeWei(f) };
  },
  'evm.pending': none,
  'evm.estimateReplace': (params: unknown) => replaceTarget(record(params, '', ['txHash', 'action'])),
  'evm.replace': (params: unknown) => {
    const f = record(params, '', ['txHash', 'action', 'maxFeeWei']);
    return { ...replaceTarget(f), maxFeeWei: maxFeeWei(f) };
  },
};

