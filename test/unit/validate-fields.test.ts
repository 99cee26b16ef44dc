// Request validation: IDs and addresses, integers and enums, and the fields of single request
// types (tokens, send and transfer estimates, hidden assets, sites, approvals, staking).
import { describe, expect, it } from 'vitest';
import { cb58Encode } from '../../src/core/encoding.js';
import { U256_MAX, U64_MAX } from '../../src/shared/validate-fields.js';
import { accepts, addr, ASSET, EVM, owners, rejects, U256, VALID, withFields } from './validate-fixtures.js';

describe('token requests', () => {
  it('a token send names an amount or a token ID (or both, ERC-1155), each a uint256', () => {
    rejects('tokens.send', { address: EVM, to: EVM, maxFeeWei: '1' }, 'amount');
    rejects('tokens.estimateSend', { address: EVM, to: EVM, amount: '0' }, 'amount');
    rejects('tokens.estimateSend', { address: EVM, to: EVM, tokenId: (U256_MAX + 1n).toString() }, 'tokenId');
    expect(accepts('tokens.estimateSend', { address: EVM, to: EVM, amount: '5', tokenId: '0' })).toEqual({ address: EVM, to: EVM, amount: '5', tokenId: '0' });
  });

  it('addresses are checked as EVM addresses (a wrong EIP-55 checksum is a typo)', () => {
    const wrongCase = EVM.slice(0, 2) + EVM.slice(2, 3).toLowerCase() + EVM.slice(3);
    rejects('tokens.add', { address: wrongCase === EVM ? EVM.toLowerCase().replace('0xab', '0xAb') : wrongCase }, 'address');
    rejects('tokens.revoke', { address: EVM, spender: 'X-local1abc', kind: 'allowance', maxFeeWei: '1' }, 'spender');
    rejects('tokens.revoke', { address: EVM, spender: EVM, kind: 'all', maxFeeWei: '1' }, 'kind');
  });

  it('a replacement names a pending tx by its 0x hash and says what to do with it', () => {
    rejects('evm.replace', { txHash: '0x' + 'ab'.repeat(31), action: 'cancel', maxFeeWei: '1' }, 'txHash');
    rejects('evm.replace', { txHash: '0x' + 'zz'.repeat(32), action: 'cancel', maxFeeWei: '1' }, 'txHash');
    rejects('evm.estimateReplace', { txHash: '0x' + 'ab'.repeat(32), action: 'drop' }, 'action');
  });
});

describe('IDs and addresses', () => {
  it('asset IDs: 32-byte CB58 with a valid checksum', () => {
    const short = cb58Encode(new Uint8Array(20).fill(7));
    for (const bad of [short, ASSET.slice(0, -1) + (ASSET.endsWith('1') ? '2' : '1'), 'not base58 0OIl', '']) {
      rejects('assets.mint', { ...VALID['assets.mint'], assetID: bad }, 'assetID');
    }
    rejects('send.x', { ...VALID['send.x'], assetID: 'A'.repeat(65) }, 'assetID');
  });

  it('UTXO IDs: <txID>:<index>', () => {
    accepts('assets.transferNft', { ...VALID['assets.transferNft'], utxoID: `${ASSET}:0` });
    for (const bad of [ASSET, `${ASSET}:`, `${ASSET}:-1`, `${ASSET}:4294967296`, `x:${1}`, `${ASSET}:1:2`]) {
      rejects('assets.transferNft', { ...VALID['assets.transferNft'], utxoID: bad }, 'utxoID');
    }
    // A mint names the mint right it reviewed: without one it is refused.
    for (const type of ['assets.mint', 'assets.mintNft'] as const) {
      rejects(type, withFields(VALID[type], { utxoID: undefined }), 'utxoID');
      rejects(type, { ...VALID[type], utxoID: ASSET }, 'utxoID');
    }
  });

  it('send.c: a 0x EVM address; a mixed-case one must match its checksum', () => {
    accepts('send.c', { to: EVM.toLowerCase(), amountWei: '1', maxFeeWei: '1' });
    accepts('send.c', { to: '0x' + EVM.slice(2).toUpperCase(), amountWei: '1', maxFeeWei: '1' });
    const body = EVM.slice(2);
    const i = body.search(/[a-fA-F]/);
    const c = body[i]!;
    const wrongCase = '0x' + body.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + body.slice(i + 1);
    expect(wrongCase).not.toBe(wrongCase.toLowerCase());
    rejects('send.c', { to: wrongCase, amountWei: '1', maxFeeWei: '1' }, 'to');
    for (const bad of ['0x1234', EVM.slice(2), addr(1, 'C'), '0x' + 'g'.repeat(40)]) {
      rejects('send.c', { to: bad, amountWei: '1', maxFeeWei: '1' }, 'to');
    }
  });
});

describe('integers and enums', () => {
  it('words: 12 or 24', () => {
    accepts('wallet.generateMnemonic', { words: 12 });
    for (const w of [15, 18, 0, '12', 12.5]) rejects('wallet.generateMnemonic', { words: w }, 'words');
  });

  it('idle lock: whole minutes 1…1440 or "never"', () => {
    accepts('wallet.setIdleLock', { minutes: 1 });
    accepts('wallet.setIdleLock', { minutes: 1440 });
    accepts('wallet.setIdleLock', { minutes: 'never' });
    for (const m of [0, 1441, 1.5, -5, 'always', '15', Number.NaN, Number.POSITIVE_INFINITY, null]) {
      rejects('wallet.setIdleLock', { minutes: m }, 'minutes');
    }
  });

  it('NFT group ID: a u32', () => {
    accepts('assets.mintNft', { ...VALID['assets.mintNft'], groupID: 0xffffffff });
    for (const g of [-1, 2 ** 32, 0.5, '0']) rejects('assets.mintNft', { ...VALID['assets.mintNft'], groupID: g }, 'groupID');
  });

  it('chain names, and a transfer between two different chains', () => {
    accepts('transfers.start', { from: 'P', to: 'X', amount: '1', maxFee: '1' });
    rejects('transfers.start', { from: 'Y', to: 'X', amount: '1', maxFee: '1' }, 'from');
    rejects('transfers.start', { from: 'X', to: 'x', amount: '1', maxFee: '1' }, 'to');
    rejects('transfers.start', { from: 'X', to: 'X', amount: '1', maxFee: '1' }, 'to');
  });
});

describe('send.estimate', () => {
  it('takes the params of send.x, send.p or send.c, chosen by chain', () => {
    expect(accepts('send.estimate', { chain: 'P', amount: '5', to: owners(1, 1, 'P') })).toEqual({ chain: 'P', amount: '5', to: owners(1, 1, 'P') });
    expect(accepts('send.estimate', { chain: 'C', to: ` ${EVM} `, amountWei: U256 })).toEqual({ chain: 'C', to: EVM, amountWei: U256 });
    const x = accepts('send.estimate', { chain: 'X', assetID: ` ${ASSET}`, amount: '1', to: owners(1) });
    expect(x).toEqual({ chain: 'X', assetID: ASSET, amount: '1', to: owners(1) });
    expect(x).not.toHaveProperty('memo');
  });

  it("refuses a field of another chain's send", () => {
    rejects('send.estimate', { chain: 'P', amount: '5', to: owners(1, 1, 'P'), memo: 'hi' }, 'memo');
    rejects('send.estimate', { chain: 'P', amount: '5', to: owners(1, 1, 'P'), assetID: ASSET }, 'assetID');
    rejects('send.estimate', { chain: 'C', to: EVM, amount: '5' }, 'amount');
    rejects('send.estimate', { chain: 'C', to: EVM }, 'amountWei');
    rejects('send.estimate', { chain: 'X', amount: '5', to: owners(1) }, 'assetID');
    rejects('send.estimate', { chain: 'X', assetID: ASSET, amountWei: '5', to: owners(1) }, 'amountWei');
  });

  it('checks each field as the send itself does', () => {
    rejects('send.estimate', { chain: 'Y', amount: '5', to: owners(1) }, 'chain');
    rejects('send.estimate', { chain: 'x', amount: '5', to: owners(1) }, 'chain');
    rejects('send.estimate', { chain: 'P', amount: '0', to: owners(1, 1, 'P') }, 'amount');
    rejects('send.estimate', { chain: 'P', amount: (U64_MAX + 1n).toString(), to: owners(1, 1, 'P') }, 'amount');
    rejects('send.estimate', { chain: 'C', to: 'X-local1xyz', amountWei: '1' }, 'to');
    rejects('send.estimate', { chain: 'C', to: EVM, amountWei: (U256_MAX + 1n).toString() }, 'amountWei');
    rejects('send.estimate', { chain: 'X', assetID: 'nope', amount: '1', to: owners(1) }, 'assetID');
    rejects('send.estimate', { chain: 'X', assetID: ASSET, amount: '1', to: owners(1), memo: 'é'.repeat(129) }, 'memo');
    rejects('send.estimate', { chain: 'X', assetID: ASSET, amount: '1', to: { addresses: [addr(1), addr(1)], threshold: 1 } }, 'to.addresses[1]');
  });
});

describe('transfers.estimate', () => {
  it('is checked like transfers.start: two different chains and an amount above zero', () => {
    expect(accepts('transfers.estimate', { from: 'P', to: 'X', amount: '7' })).toEqual({ from: 'P', to: 'X', amount: '7' });
    rejects('transfers.estimate', { from: 'P', to: 'P', amount: '7' }, 'to');
    rejects('transfers.estimate', { from: 'Q', to: 'P', amount: '7' }, 'from');
    rejects('transfers.estimate', { from: 'X', to: 'P', amount: '0' }, 'amount');
    rejects('transfers.estimate', { from: 'X', to: 'P', amount: '01' }, 'amount');
  });
});

describe('settings.setHiddenAssets', () => {
  const id = (i: number) => cb58Encode(new Uint8Array(32).fill(i));

  it('takes 0 to 200 asset IDs, trimmed', () => {
    expect(accepts('settings.setHiddenAssets', { assetIDs: [], networkId: 'local' })).toEqual({ assetIDs: [], networkId: 'local' });
    expect(accepts('settings.setHiddenAssets', { assetIDs: [` ${id(1)} `], networkId: 'local' })).toEqual({ assetIDs: [id(1)], networkId: 'local' });
    rejects('settings.setHiddenAssets', { assetIDs: [] }, 'networkId');
    rejects('settings.getHiddenAssets', {}, 'networkId');
    const many = Array.from({ length: 200 }, (_, i) => id(i + 1));
    expect(accepts('settings.setHiddenAssets', { assetIDs: many, networkId: 'local' }).assetIDs).toHaveLength(200);
    rejects('settings.setHiddenAssets', { assetIDs: [...many, id(0)], networkId: 'local' }, 'assetIDs');
  });

  it('names a bad or repeated ID by index', () => {
    rejects('settings.setHiddenAssets', { assetIDs: [id(1), 'not-an-id'], networkId: 'local' }, 'assetIDs[1]');
    rejects('settings.setHiddenAssets', { assetIDs: [id(1), 7], networkId: 'local' }, 'assetIDs[1]');
    // A corrupted checksum, and a 20-byte ID (an address's size, not an asset's).
    rejects('settings.setHiddenAssets', { assetIDs: [id(1).slice(0, -1) + (id(1).endsWith('1') ? '2' : '1')], networkId: 'local' }, 'assetIDs[0]');
    rejects('settings.setHiddenAssets', { assetIDs: [cb58Encode(new Uint8Array(20).fill(1))], networkId: 'local' }, 'assetIDs[0]');
    rejects('settings.setHiddenAssets', { assetIDs: [id(1), id(2), id(1)], networkId: 'local' }, 'assetIDs[2]');
    rejects('settings.setHiddenAssets', { assetIDs: id(1), networkId: 'local' }, 'assetIDs');
  });
});

describe('sites.revoke, sites.resetChain and sites.removeChain', () => {
  it('takes a bare origin and a decimal chain ID', () => {
    expect(accepts('sites.revoke', { origin: 'http://localhost:5173' })).toEqual({ origin: 'http://localhost:5173' });
    expect(accepts('sites.resetChain', { origin: 'https://app.example' })).toEqual({ origin: 'https://app.example' });
    expect(accepts('sites.removeChain', { chainId: '1' })).toEqual({ chainId: '1' });
  });
  it('refuses URLs that are not exactly an origin, and non-decimal chain IDs', () => {
    for (const origin of ['https://app.example/', 'https://app.example/path', 'app.example', '', 42]) {
      rejects('sites.revoke', { origin }, 'origin');
      rejects('sites.resetChain', { origin }, 'origin');
    }
    for (const chainId of ['0x1', '-1', '1.5', '', 1]) rejects('sites.removeChain', { chainId }, 'chainId');
  });
});

describe('approvals.decide', () => {
  const ID = '00ff00ff00ff00ff00ff00ff';

  it('takes a 24-character lowercase hex ID and a boolean', () => {
    expect(accepts('approvals.decide', { id: ID, approved: true })).toEqual({ id: ID, approved: true });
  });

  it('refuses any other ID', () => {
    for (const id of ['', '00ff', ID + '0', ID.slice(1), ID.toUpperCase(), `0x${ID.slice(2)}`, ' '.repeat(24), 'g'.repeat(24), 'ab'.repeat(500)]) {
      rejects('approvals.decide', { id, approved: false }, 'id');
    }
  });

  it('refuses an approval that is not a boolean', () => {
    for (const approved of ['true', 1, 0, null, {}]) rejects('approvals.decide', { id: ID, approved }, 'approved');
  });

  it('takes an optional boolean "closing" (the window closing on the request), nothing else', () => {
    expect(accepts('approvals.decide', { id: ID, approved: false, closing: true })).toEqual({ id: ID, approved: false, closing: true });
    expect(accepts('approvals.decide', { id: ID, approved: false })).not.toHaveProperty('closing');
    for (const closing of ['true', 1, null]) rejects('approvals.decide', { id: ID, approved: false, closing }, 'closing');
  });

  it('approvals.list and approvals.waiting take nothing', () => {
    for (const type of ['approvals.list', 'approvals.waiting'] as const) {
      expect(accepts(type, {})).toEqual({});
      rejects(type, { id: ID }, 'id');
    }
  });
});

describe('staking requests', () => {
  const validation = VALID['staking.estimateValidation'];

  it('take a validation either with an end time or auto-renewed, never both or neither', () => {
    const { end: _end, ...noEnd } = validation;
    const renewed = accepts('staking.estimateValidation', { ...noEnd, autoRenew: { period: 172_800, restakeShares: 500_000 } });
    expect(renewed.autoRenew).toEqual({ period: 172_800, restakeShares: 500_000 });
    expect(renewed).not.toHaveProperty('end');
    rejects('staking.estimateValidation', { ...validation, autoRenew: { period: 60, restakeShares: 0 } }, 'end');
    rejects('staking.estimateValidation', noEnd, 'end');
    rejects('staking.estimateValidation', { ...noEnd, autoRenew: { period: 0, restakeShares: 0 } }, 'autoRenew.period');
    rejects('staking.estimateValidation', { ...noEnd, autoRenew: { period: 60, restakeShares: 1_000_001 } }, 'autoRenew.restakeShares');
    rejects('staking.estimateValidation', { ...noEnd, autoRenew: { period: 60 } }, 'autoRenew.restakeShares');
  });

  it('take BLS keys of exactly their size, given with or without 0x, and return them 0x-prefixed in lower case', () => {
    expect(accepts('staking.estimateValidation', { ...validation, publicKey: 'AB'.repeat(48) }).publicKey).toBe('0x' + 'ab'.repeat(48));
    rejects('staking.estimateValidation', { ...validation, publicKey: '0x' + 'ab'.repeat(47) }, 'publicKey');
    rejects('staking.estimateValidation', { ...validation, proofOfPossession: '0x' + 'cd'.repeat(97) }, 'proofOfPossession');
    rejects('staking.estimateValidation', { ...validation, proofOfPossession: '0x' + 'zz'.repeat(96) }, 'proofOfPossession');
  });

  it('refuse a NodeID that does not parse, shares above 100% and times out of range', () => {
    rejects('staking.estimateDelegation', { ...VALID['staking.estimateDelegation'], nodeID: 'NodeID-notcb58!' }, 'nodeID');
    rejects('staking.estimateDelegation', { ...VALID['staking.estimateDelegation'], nodeID: ASSET }, 'nodeID');
    rejects('staking.estimateDelegation', { ...VALID['staking.estimateDelegation'], end: 0 }, 'end');
    rejects('staking.estimateDelegation', { ...VALID['staking.estimateDelegation'], end: 1.5 }, 'end');
    rejects('staking.estimateDelegation', { ...VALID['staking.estimateDelegation'], amount: '0' }, 'amount');
    rejects('staking.validate', { ...VALID['staking.validate'], delegationFee: 1_000_001 }, 'delegationFee');
    rejects('staking.setAutoRenew', { ...VALID['staking.setAutoRenew'], period: -1 }, 'period');
    rejects('staking.setAutoRenew', { ...VALID['staking.setAutoRenew'], period: 365 * 86_400 + 1 }, 'period');
    rejects('staking.setAutoRenew', { ...VALID['staking.setAutoRenew'], takesEffect: -1 }, 'takesEffect');
  });

  it('check the validator list’s filter field by field, and bound the page', () => {
    expect(accepts('staking.validators', {})).toEqual({});
    rejects('staking.validators', { filter: { minUptime: 101 } }, 'filter.minUptime');
    rejects('staking.validators', { filter: { minUptime: Number.NaN } }, 'filter.minUptime');
    rejects('staking.validators', { filter: { maxFee: 2_000_000 } }, 'filter.maxFee');
    rejects('staking.validators', { filter: { minFreeSpace: '-1' } }, 'filter.minFreeSpace');
    rejects('staking.validators', { filter: { stake: '1' } }, 'filter.stake');
    rejects('staking.validators', { sort: 'stake' }, 'sort');
    rejects('staking.validators', { limit: 101 }, 'limit');
    rejects('staking.validators', { limit: 0 }, 'limit');
  });

  it('take a node URL for its key only as a node URL: https, or http on this machine', () => {
    accepts('staking.nodeKey', { url: 'http://127.0.0.1:9650' });
    rejects('staking.nodeKey', { url: 'http://node.example.org:9650' }, 'url');
    rejects('staking.nodeKey', { url: 'https://user:pw@node.example.org' }, 'url');
  });
});
