// A site's typed-data permit as the approval shows it and the wallet signs it: values the signing
// library reads (spaces around a number, an address with a wrong checksum) are decoded as the
// library reads them and signed as shown; a Permit type the wallet cannot decode is refused; a node
// read that fails leaves only its own part unknown. And a revert's reason, the contract's own words, shown cleaned;
// a flagged listed token in a simulation, named with its address.
import { describe, expect, it } from 'vitest';
import { simulationView, typedDataReview, type InsightContext } from '../../src/background/evm-views.js';
import { normaliseTypedData, signTypedData, type TypedDataInput } from '../../src/core/message.js';
import { PERMIT2_ADDRESS } from '../../src/core/evm-calls.js';
import { formatEvmAddress, parseEvmAddress } from '../../src/core/evm-address.js';
import type { EthApi } from '../../src/core/node/eth.js';

const KEY = new Uint8Array(32).fill(7);
const OWNER = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const TOKEN = '0x1CB79692389258FD0da4911A4947dF2C51DC7A47';
// The spender with its case changed: a wrong EIP-55 checksum, which the library does not check.
const SPENDER_BAD_CHECKSUM = '0xAbCDEF0123456789abcdef0123456789ABCDEF01';
const SPENDER = formatEvmAddress(parseEvmAddress(SPENDER_BAD_CHECKSUM.toLowerCase()));
const MAX = ((1n << 256n) - 1n).toString();

const permitTypes = {
  EIP712Domain: [{ name: 'name', type: 'string' }, { name: 'chainId', type: 'uint256' }, { name: 'verifyingContract', type: 'address' }],
  Permit: [{ name: 'owner', type: 'address' }, { name: 'spender', type: 'address' }, { name: 'value', type: 'uint256' }, { name: 'nonce', type: 'uint256' }, { name: 'deadline', type: 'uint256' }],
};
const permit = (message: Record<string, unknown>, types: TypedDataInput['types'] = permitTypes): TypedDataInput => ({
  types,
  primaryType: 'Permit',
  domain: { name: 'Test Dollar', chainId: 43112, verifyingContract: TOKEN },
  message: { owner: OWNER, spender: SPENDER_BAD_CHECKSUM, value: MAX, nonce: '0', deadline: MAX, ...message },
});

/** A node that answers nothing (every read fails) and a site that was never seen. */
function deadNode(): InsightContext {
  const fail = async () => {
    throw new Error('node down');
  };
  const eth = new Proxy({}, { get: () => fail }) as EthApi;
  return { eth, account: OWNER, listed: [], nativeSymbol: 'AVAX', recipientOf: async () => ({ warnings: [] }), siteCalls: async () => 0 };
}

describe('a permit as shown is the permit signed', () => {
  it('spaces and newlines around the value and deadline, and a wrong-checksum spender: decoded as unlimited, and the signature is that of the plain permit', async () => {
    const odd = permit({ value: ` ${MAX}\n`, deadline: `\n${MAX} ` });
    const plain = permit({ spender: SPENDER_BAD_CHECKSUM.toLowerCase() });
    const review = await typedDataReview(deadNode(), odd);
    expect(review.permit).toMatchObject({ kind: 'eip2612', spender: { address: SPENDER }, deadline: MAX, grants: [{ token: TOKEN, amount: MAX, unlimited: true }] });
    // What is signed (the reviewed, normalised data) signs to the same bytes as the site's own data and the plain permit.
    expect(signTypedData(KEY, review.typed)).toBe(signTypedData(KEY, odd));
    expect(signTypedData(KEY, review.typed)).toBe(signTypedData(KEY, plain));
    expect(review.typed.message).toMatchObject({ value: MAX, deadline: MAX, spender: SPENDER_BAD_CHECKSUM.toLowerCase() });
  });

  it('hex, 0o / 0b and numbers are read as the library reads them; nested Permit2 batches too', () => {
    const batch: TypedDataInput = {
      types: {
        PermitBatch: [{ name: 'details', type: 'PermitDetails[]' }, { name: 'spender', type: 'address' }, { name: 'sigDeadline', type: 'uint256' }],
        PermitDetails: [{ name: 'token', type: 'address' }, { name: 'amount', type: 'uint160' }, { name: 'expiration', type: 'uint48' }, { name: 'nonce', type: 'uint48' }],
      },
      primaryType: 'PermitBatch',
      domain: { name: 'Permit2', chainId: ' 43112 ', verifyingContract: PERMIT2_ADDRESS.toLowerCase() },
      message: { details: [{ token: TOKEN.toUpperCase().replace('0X', '0x'), amount: ' 0xff ', expiration: 7, nonce: '0b11' }], spender: OWNER, sigDeadline: '0o17' },
    };
    const n = normaliseTypedData(batch);
    expect(n.message).toEqual({ details: [{ token: TOKEN.toLowerCase(), amount: '255', expiration: '7', nonce: '3' }], spender: OWNER.toLowerCase(), sigDeadline: '15' });
    expect(n.domain).toEqual({ name: 'Permit2', chainId: '43112', verifyingContract: PERMIT2_ADDRESS.toLowerCase() });
    expect(signTypedData(KEY, n)).toBe(signTypedData(KEY, batch));
  });

  it('a Permit the wallet cannot decode (a renamed field, a Permit2 type on another contract) is refused in words, not shown as raw JSON', async () => {
    const renamed = permit({}, { ...permitTypes, Permit: permitTypes.Permit.map((f) => (f.name === 'value' ? { ...f, name: 'amount' } : f)) });
    const { value, ...rest } = renamed.message;
    const message = { ...rest, amount: value };
    // The library signs it…
    expect(() => signTypedData(KEY, { ...renamed, message })).not.toThrow();
    // …the wallet does not.
    await expect(typedDataReview(deadNode(), { ...renamed, message })).rejects.toThrow(/hands out tokens, in a form the wallet cannot read/);
    const single: TypedDataInput = { types: { PermitSingle: [{ name: 'spender', type: 'address' }] }, primaryType: 'PermitSingle', domain: { verifyingContract: TOKEN }, message: { spender: OWNER } };
    await expect(typedDataReview(deadNode(), single)).rejects.toThrow(/XPC Wallet does not sign it/);
    // Other typed data (an order) is not a permit and stays as it was.
    const order: TypedDataInput = { types: { Order: [{ name: 'maker', type: 'address' }] }, primaryType: 'Order', domain: { verifyingContract: TOKEN }, message: { maker: OWNER } };
    expect((await typedDataReview(deadNode(), order)).permit).toBeUndefined();
  });

  it("a node that fails every read leaves the spender's kind unknown, never the decoded amounts, spender and deadline", async () => {
    const review = await typedDataReview(deadNode(), permit({ value: '5', deadline: '1900000000' }));
    expect(review.permit).toMatchObject({ spender: { address: SPENDER, siteCalls: 0 }, deadline: '1900000000', grants: [{ amount: '5', unlimited: false }] });
    expect(review.permit!.spender.isContract).toBeUndefined();
  });
});

describe("a revert's reason", () => {
  it('is shown cleaned: no direction overrides or invisible characters, 120 characters at most', () => {
    const view = simulationView({ method: 'trace', reverted: 'paid \u202etfel\u202c to\u200b you' + 'x'.repeat(200), changes: [], touched: [] }, [], 'AVAX');
    expect(view.reverted).not.toMatch(/[\u202e\u202c\u200b]/);
    expect(view.reverted!.startsWith('paid tfel to you')).toBe(true);
    expect([...view.reverted!].length).toBeLessThanOrEqual(120);
    expect(simulationView({ method: 'trace', reverted: '', changes: [], touched: [] }, [], 'AVAX').reverted).toBe('');
  });
});

describe('a simulation naming a listed token', () => {
  it('a listed token that calls itself AVAX (or reads like another) carries its address, so "You get: 5 AVAX" cannot pass for the coin; a clean one is its symbol', () => {
    const fake = { address: TOKEN, standard: 'erc20' as const, name: 'AVAX', symbol: 'AVAX', decimals: 18, addedBy: 'https://site.example', addedAt: 0 };
    const sim = { method: 'trace' as const, changes: [{ asset: 'native', delta: -(10n ** 18n) }, { asset: TOKEN, standard: 'erc20' as const, delta: 5n * 10n ** 18n }], approvals: [{ token: TOKEN, spender: SPENDER, amount: 1n }], touched: [] };
    const view = simulationView(sim, [fake], 'AVAX');
    expect(view.changes.map((c) => c.symbol)).toEqual(['AVAX', 'AVAX (0x1CB79692…DC7A47)']);
    expect(view.approvals![0]!.symbol).toBe('AVAX (0x1CB79692…DC7A47)');
    expect(simulationView(sim, [{ ...fake, name: 'Test Dollar', symbol: 'TUSD', decimals: 6 }], 'AVAX').changes[1]).toMatchObject({ symbol: 'TUSD', decimals: 6 });
  });
});
