// Request validation: amounts and fee ceilings, owner sets, and the rules of assets.create.
import { describe, expect, it } from 'vitest';
import { bech32 } from 'bech32';
import { formatAddress } from '../../src/core/encoding.js';
import { U256_MAX, U64_MAX } from '../../src/shared/validate-fields.js';
import { accepts, addr, EVM, HRP, owners, rejects, U256, U64, VALID, withFields } from './validate-fixtures.js';

describe('amounts', () => {
  it('nAVAX amounts: digits only, no leading zeros, at most 2^64 − 1, above zero for transfers', () => {
    const base = VALID['send.p'];
    accepts('send.p', { ...base, amount: U64 });
    accepts('send.p', { ...base, amount: '1' });
    const tooBig = rejects('send.p', { ...base, amount: (U64_MAX + 1n).toString() }, 'amount');
    expect(tooBig.message).toContain(U64);
    rejects('send.p', { ...base, amount: '9'.repeat(400) }, 'amount');
    for (const bad of ['01', '-1', '+1', '1.5', '1e3', ' 1', '1 ', '', '0x10', '１']) {
      rejects('send.p', { ...base, amount: bad }, 'amount');
    }
    rejects('send.p', { ...base, amount: 1000 }, 'amount');
    expect(rejects('send.p', { ...base, amount: '0' }, 'amount').message).toMatch(/greater than zero/);
    rejects('transfers.start', { ...VALID['transfers.start'], amount: (U64_MAX + 1n).toString() }, 'amount');
    rejects('assets.mint', { ...VALID['assets.mint'], amount: '0' }, 'amount');
  });

  it('wei amounts: up to 2^256 − 1', () => {
    accepts('send.c', { to: EVM, amountWei: U256, maxFeeWei: '1' });
    accepts('send.c', { to: EVM, amountWei: (U64_MAX + 1n).toString(), maxFeeWei: '1' });
    rejects('send.c', { to: EVM, amountWei: (U256_MAX + 1n).toString(), maxFeeWei: '1' }, 'amountWei');
    rejects('send.c', { to: EVM, amountWei: '0', maxFeeWei: '1' }, 'amountWei');
  });

  it('approved fee ceilings: required, decimal, u64 in nAVAX (u256 in wei), zero allowed', () => {
    for (const type of ['send.x', 'send.p', 'transfers.start'] as const) {
      const base = VALID[type];
      expect(accepts(type, { ...base, maxFee: U64 }).maxFee).toBe(U64);
      expect(accepts(type, { ...base, maxFee: '0' }).maxFee).toBe('0');
      expect(rejects(type, { ...base, maxFee: (U64_MAX + 1n).toString() }, 'maxFee').message).toContain(U64);
      for (const bad of ['01', '-1', '1.5', '', '0x10', 1000, null]) rejects(type, { ...base, maxFee: bad }, 'maxFee');
      rejects(type, withFields(base, { maxFee: undefined }), 'maxFee');
    }
    const c = VALID['send.c'];
    expect(accepts('send.c', { ...c, maxFeeWei: (U64_MAX + 1n).toString() }).maxFeeWei).toBe((U64_MAX + 1n).toString());
    accepts('send.c', { ...c, maxFeeWei: '0' });
    rejects('send.c', { ...c, maxFeeWei: (U256_MAX + 1n).toString() }, 'maxFeeWei');
    for (const bad of ['01', '-1', '1.5', '', 5]) rejects('send.c', { ...c, maxFeeWei: bad }, 'maxFeeWei');
    rejects('send.c', withFields(c, { maxFeeWei: undefined }), 'maxFeeWei');
    // Every asset tx carries the approved ceiling too.
    for (const type of ['assets.create', 'assets.mint', 'assets.mintNft', 'assets.transferNft'] as const) {
      rejects(type, withFields(VALID[type], { maxFee: undefined }), 'maxFee');
      for (const bad of ['-1', '1.5', '', 5, (U64_MAX + 1n).toString()]) rejects(type, { ...VALID[type], maxFee: bad }, 'maxFee');
    }
    rejects('assets.fees', { maxFee: '1' }, 'maxFee');
    // The estimates take no ceiling: they are what the user reviews.
    rejects('transfers.estimate', { from: 'X', to: 'P', amount: '1', maxFee: '1' }, 'maxFee');
    rejects('send.estimate', { chain: 'P', amount: '1', to: owners(1, 1, 'P'), maxFee: '1' }, 'maxFee');
  });

  it('locktime: a u64 that may be zero', () => {
    const base = VALID['send.x'];
    accepts('send.x', { ...base, to: { ...base.to, locktime: U64 } });
    rejects('send.x', { ...base, to: { ...base.to, locktime: (U64_MAX + 1n).toString() } }, 'to.locktime');
    rejects('send.x', { ...base, to: { ...base.to, locktime: 0 } }, 'to.locktime');
  });

  it("a stake's reward owners take no lock time (no staking review shows one): zero is the same as none", () => {
    const cases = [
      ['staking.estimateDelegation', 'rewardOwner'],
      ['staking.delegate', 'rewardOwner'],
      ['staking.estimateValidation', 'rewardOwner'],
      ['staking.estimateValidation', 'delegationFeeOwner'],
      ['staking.validate', 'rewardOwner'],
      ['staking.validate', 'delegationFeeOwner'],
    ] as const;
    for (const [type, field] of cases) {
      const base = VALID[type] as Record<string, unknown>;
      const set = (base[field] ?? owners(1, 1, 'P')) as object;
      const rejected = rejects(type, { ...base, [field]: { ...set, locktime: '1800000000' } }, `${field}.locktime`);
      expect(rejected.message).toMatch(/staking rewards take no lock time/);
      const zero = accepts(type, { ...base, [field]: { ...set, locktime: '0' } }) as Record<string, unknown>;
      expect(zero[field]).toEqual(set);
      expect(zero[field]).not.toHaveProperty('locktime');
    }
  });

  it('holder amounts, with the path to the holder', () => {
    const base = { name: 'Fixed', symbol: 'FX', denomination: 0, kind: 'fixed', maxFee: '1', holders: [{ owners: owners(1), amount: '5' }, { owners: owners(1), amount: '0' }] };
    rejects('assets.create', base, 'holders[1].amount');
  });
});

describe('owner sets', () => {
  const base = VALID['send.x'];
  const to = (set: unknown) => ({ ...base, to: set });

  it('names the bad address by index', () => {
    const bad = [addr(1), addr(2), 'X-local1notanaddress', addr(4)];
    rejects('send.x', to({ addresses: bad, threshold: 1 }), 'to.addresses[2]');
    rejects('send.x', to({ addresses: [addr(1), 7], threshold: 1 }), 'to.addresses[1]');
  });

  it('requires 20-byte bech32 with a chain prefix', () => {
    const long = 'X-' + bech32.encode(HRP, bech32.toWords(new Uint8Array(32).fill(1)));
    rejects('send.x', to({ addresses: [long], threshold: 1 }), 'to.addresses[0]');
    const noChain = addr(1).slice(2);
    rejects('send.x', to({ addresses: [noChain], threshold: 1 }), 'to.addresses[0]');
    const flipped = addr(1).slice(0, -1) + (addr(1).endsWith('q') ? 'p' : 'q');
    rejects('send.x', to({ addresses: [flipped], threshold: 1 }), 'to.addresses[0]');
    rejects('send.x', to({ addresses: ['X-' + 'a'.repeat(200)], threshold: 1 }), 'to.addresses[0]');
  });

  it('leaves the chain and hrp match to the wallet service', () => {
    accepts('send.x', to({ addresses: [formatAddress('P', 'fuji', new Uint8Array(20).fill(9))], threshold: 1 }));
  });

  it('refuses the same address twice', () => {
    rejects('send.x', to({ addresses: [addr(1), addr(2), addr(1)], threshold: 1 }), 'to.addresses[2]');
  });

  it('threshold: an integer from 1 to the number of addresses', () => {
    rejects('send.x', to({ addresses: [addr(1), addr(2)], threshold: 3 }), 'to.threshold');
    rejects('send.x', to({ addresses: [addr(1)], threshold: 0 }), 'to.threshold');
    rejects('send.x', to({ addresses: [addr(1), addr(2)], threshold: 1.5 }), 'to.threshold');
    rejects('send.x', to({ addresses: [addr(1)], threshold: '1' }), 'to.threshold');
    accepts('send.x', to({ addresses: [addr(1), addr(2)], threshold: 2 }));
  });

  it('at least one and at most 64 addresses', () => {
    accepts('send.x', to(owners(64, 64)));
    rejects('send.x', to(owners(65)), 'to.addresses');
    rejects('send.x', to({ addresses: [], threshold: 1 }), 'to.addresses');
    rejects('send.x', to({ addresses: addr(1), threshold: 1 }), 'to.addresses');
  });

  it('no unknown fields inside the set', () => {
    rejects('send.x', to({ ...owners(1), extra: true }), 'to.extra');
  });

  it('reports nested paths in assets and NFT mints', () => {
    const create = { name: 'Var', symbol: 'V', denomination: 0, kind: 'variable', maxFee: '1', minters: [owners(1), { addresses: [addr(1)], threshold: 2 }] };
    rejects('assets.create', create, 'minters[1].threshold');
    const holders = { ...create, minters: [owners(1)], holders: [{ owners: { addresses: [addr(1), 'bad'], threshold: 1 }, amount: '1' }] };
    rejects('assets.create', holders, 'holders[0].owners.addresses[1]');
    rejects('assets.mintNft', { ...VALID['assets.mintNft'], to: [owners(1), { addresses: [addr(1)], threshold: 1, x: 1 }] }, 'to[1].x');
  });
});

describe('assets.create', () => {
  const base = { name: 'Gold Coin', symbol: 'GLD', denomination: 9, maxFee: '10000000' };

  it('applies the node’s name, symbol and denomination rules', () => {
    const holders = [{ owners: owners(1), amount: '1' }];
    accepts('assets.create', { ...base, kind: 'fixed', holders });
    rejects('assets.create', { ...base, name: 'Gold!', kind: 'fixed', holders }, 'name');
    rejects('assets.create', { ...base, name: ' Gold', kind: 'fixed', holders }, 'name');
    rejects('assets.create', { ...base, name: 'G'.repeat(129), kind: 'fixed', holders }, 'name');
    rejects('assets.create', { ...base, symbol: 'gld', kind: 'fixed', holders }, 'symbol');
    rejects('assets.create', { ...base, symbol: 'GOLDX', kind: 'fixed', holders }, 'symbol');
    rejects('assets.create', { ...base, symbol: '', kind: 'fixed', holders }, 'symbol');
    accepts('assets.create', { ...base, denomination: 32, kind: 'fixed', holders });
    for (const d of [33, -1, 1.5, '9']) rejects('assets.create', { ...base, denomination: d, kind: 'fixed', holders }, 'denomination');
  });

  it('kind decides which of holders and minters are allowed', () => {
    const holders = [{ owners: owners(1), amount: '1' }];
    const minters = [owners(1)];
    rejects('assets.create', { ...base, kind: 'fixed' }, 'holders');
    rejects('assets.create', { ...base, kind: 'fixed', holders, minters }, 'minters');
    rejects('assets.create', { ...base, kind: 'variable', holders }, 'minters');
    accepts('assets.create', { ...base, kind: 'variable', minters });
    rejects('assets.create', { ...base, kind: 'nft' }, 'minters');
    rejects('assets.create', { ...base, kind: 'nft', minters, holders }, 'holders');
    rejects('assets.create', { ...base, kind: 'capped', holders }, 'kind');
  });
});
