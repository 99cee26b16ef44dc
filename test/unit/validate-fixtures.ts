// Shared by the validate*.test.ts files: one valid example per request type, and helpers that
// expect a request's params to be accepted or rejected (naming the field).
import { expect } from 'vitest';
import { cb58Encode, formatAddress, formatNodeId, formatPrivateKey } from '../../src/core/encoding.js';
import { ValidationError } from '../../src/core/errors.js';
import { formatEvmAddress } from '../../src/core/evm-address.js';
import { generateMnemonic } from '../../src/core/keys.js';
import type { OwnerSet, RequestParams, RequestType } from '../../src/shared/messages.js';
import { REQUEST_VALIDATORS } from '../../src/shared/validate.js';
import { U256_MAX, U64_MAX } from '../../src/shared/validate-fields.js';

export const HRP = 'local';
export const addr = (i: number, chain = 'X'): string => formatAddress(chain, HRP, new Uint8Array(20).fill(i));
export const owners = (n: number, threshold = 1, chain = 'X'): OwnerSet => ({
  addresses: Array.from({ length: n }, (_, i) => addr(i + 1, chain)),
  threshold,
});
export const ASSET = cb58Encode(new Uint8Array(32).fill(7));
export const UTXO = `${ASSET}:3`;
export const EVM = formatEvmAddress(new Uint8Array(20).fill(0xab));
export const KEY_CB58 = formatPrivateKey(new Uint8Array(32).fill(1));
export const KEY_HEX = '0x' + '11'.repeat(32);
export const MNEMONIC = generateMnemonic(12);
export const PASSWORD = 'correct horse battery staple';
export const U64 = U64_MAX.toString();
export const U256 = U256_MAX.toString();
export const NODE = formatNodeId(new Uint8Array(20).fill(3));
export const NODE_KEY = { nodeID: NODE, publicKey: '0x' + 'ab'.repeat(48), proofOfPossession: '0x' + 'cd'.repeat(96) };

/** One valid example per request type; the table is typed so a new request type needs an entry. */
export const VALID: { [T in RequestType]: RequestParams<T> } = {
  'wallet.status': {},
  'wallet.open': {},
  'wallet.generateMnemonic': { words: 24 },
  'wallet.create': { password: PASSWORD, mnemonic: MNEMONIC },
  'wallet.checkPhrase': { mnemonic: MNEMONIC },
  'wallet.checkKey': { privateKey: KEY_CB58 },
  'wallet.restore': { password: PASSWORD, mnemonic: MNEMONIC },
  'wallet.createFromKey': { password: PASSWORD, privateKey: KEY_CB58, name: 'Imported' },
  'wallet.unlock': { password: PASSWORD },
  'wallet.lock': {},
  'wallet.changePassword': { oldPassword: PASSWORD, newPassword: 'another long password' },
  'wallet.revealMnemonic': { password: PASSWORD },
  'wallet.exportPrivateKey': { password: PASSWORD, accountId: '0a1b2c3d4e5f6071' },
  'wallet.setIdleLock': { minutes: 15 },
  'accounts.list': {},
  'accounts.add': { name: 'Savings' },
  'accounts.importKey': { name: 'Hot key', privateKey: KEY_HEX },
  'accounts.rename': { id: '0a1b2c3d4e5f6071', name: 'Renamed ✓' },
  'accounts.remove': { id: '0a1b2c3d4e5f6071', password: 'long enough' },
  'accounts.select': { id: '0a1b2c3d4e5f6071' },
  'networks.list': {},
  'networks.select': { id: 'fuji' },
  'networks.addCustom': { name: 'My node', url: 'https://node.example.org:9650', atomicNamespace: 'avax' },
  'networks.remove': { id: 'custom-00112233aabbccdd' },
  'networks.health': { id: 'local' },
  'balances.get': { refresh: true },
  'balances.refresh': {},
  'send.x': { assetID: ASSET, amount: '1000', to: { addresses: [addr(1)], threshold: 1, locktime: '0' }, memo: 'thanks', maxFee: '1000000' },
  'send.p': { amount: U64, to: owners(2, 2, 'P'), maxFee: '0' },
  'send.c': { to: EVM, amountWei: U256, maxFeeWei: U256 },
  'send.estimate': { chain: 'X', assetID: ASSET, amount: '1000', to: owners(2, 1), memo: 'for rent' },
  'assets.create': {
    name: 'Gold Coin',
    symbol: 'GLD',
    denomination: 2,
    kind: 'variable',
    minters: [owners(2, 1)],
    holders: [{ owners: owners(1), amount: '500' }],
    maxFee: '10000000',
  },
  'assets.fees': {},
  'assets.mint': { assetID: ASSET, utxoID: UTXO, amount: '1', to: owners(1), maxFee: '1000000' },
  'assets.mintNft': { assetID: ASSET, utxoID: UTXO, groupID: 0, payloadHex: '0x' + 'ab'.repeat(1024), to: [owners(1), owners(3, 2)], maxFee: '0' },
  'assets.transferNft': { utxoID: UTXO, to: owners(1), maxFee: U64 },
  'assets.listNfts': {},
  'assets.mintRights': {},
  'transfers.start': { from: 'X', to: 'C', amount: '1000000000', maxFee: '2000000' },
  'transfers.estimate': { from: 'C', to: 'P', amount: '1' },
  'transfers.list': {},
  'transfers.estimateImportWaiting': {},
  'transfers.importWaiting': { planID: '0123abcd', maxFee: '1000' },
  'staking.params': {},
  'staking.validators': { filter: { minUptime: 90.5, maxFee: 50_000, minFreeSpace: '25000000000', minRemainingSeconds: 86_400, nodeID: 'NodeID-7' }, sort: 'free-space', offset: 20, limit: 100 },
  'staking.pick': { amount: '25000000000', end: 1_800_000_000 },
  'staking.estimateDelegation': { nodeID: NODE, amount: '25000000000', end: 1_800_000_000, rewardOwner: owners(1, 1, 'P') },
  'staking.delegate': { nodeID: NODE, amount: '25000000000', end: 1_800_000_000, rewardOwner: owners(2, 2, 'P'), maxFee: '10000' },
  'staking.nodeKey': { url: 'https://node.example.org:9650' },
  'staking.estimateValidation': { ...NODE_KEY, amount: '2000000000000', end: 1_800_000_000, delegationFee: 20_000, rewardOwner: owners(1, 1, 'P'), delegationFeeOwner: owners(1, 1, 'P') },
  'staking.validate': { ...NODE_KEY, amount: '2000000000000', end: 1_800_000_000, delegationFee: 1_000_000, maxFee: '20000' },
  'staking.estimateAutoRenew': { txID: ASSET, period: 0, restakeShares: 0 },
  'staking.setAutoRenew': { txID: ASSET, period: 172_800, restakeShares: 500_000, takesEffect: 1_790_000_000, maxFee: '10000' },
  'staking.mine': {},
  'staking.rewardsCsv': { scope: 'all' },
  'activity.list': {},
  'settings.getHiddenAssets': { networkId: 'local' },
  'settings.setHiddenAssets': { assetIDs: [ASSET, cb58Encode(new Uint8Array(32).fill(8))], networkId: 'local' },
  'approvals.list': {},
  'sites.list': {},
  'sites.revoke': { origin: 'https://app.example' },
  'sites.removeChain': { chainId: '43114' },
  'sites.resetChain': { origin: 'https://app.example' },
  'approvals.decide': { id: '0123456789abcdef01234567', approved: false },
  'approvals.waiting': {},
  'tokens.inspect': { address: EVM },
  'tokens.add': { address: EVM },
  'tokens.remove': { address: EVM },
  'tokens.list': {},
  'tokens.activity': { refresh: true },
  'tokens.nfts': { address: EVM },
  'tokens.nftMetadata': { address: EVM, tokenId: U256 },
  'tokens.estimateSend': { address: EVM, to: EVM, amount: '1' },
  'tokens.send': { address: EVM, to: EVM, tokenId: '0', maxFeeWei: '1' },
  'tokens.allowances': {},
  'tokens.estimateRevoke': { address: EVM, spender: EVM, kind: 'operator' },
  'tokens.revoke': { address: EVM, spender: EVM, kind: 'allowance', maxFeeWei: U256 },
  'evm.pending': {},
  'evm.estimateReplace': { txHash: '0x' + 'ab'.repeat(32), action: 'speed-up' },
  'evm.replace': { txHash: '0x' + 'CD'.repeat(32), action: 'cancel', maxFeeWei: '0' },
};

export function errorOf(run: () => unknown): unknown {
  try {
    run();
  } catch (e) {
    return e;
  }
  throw new Error('expected an error');
}

export function rejects(type: RequestType, params: unknown, field: string): ValidationError {
  const e = errorOf(() => REQUEST_VALIDATORS[type](params));
  expect(e).toBeInstanceOf(ValidationError);
  const v = e as ValidationError;
  expect(v.code).toBe('validation');
  expect(v.field).toBe(field);
  return v;
}

export function accepts<T extends RequestType>(type: T, params: unknown): RequestParams<T> {
  return REQUEST_VALIDATORS[type](params) as RequestParams<T>;
}

/** `base` with `patch` applied (`undefined` in the patch deletes the key). */
export function withFields(base: object, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}
