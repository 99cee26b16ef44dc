// The C-Chain token core against independent references: the ABI coder against viem's, call and
// permit decoding (malformed data stays undecoded), a call trace read into balance changes,
// replacement fees, and the test contracts' sources against what was compiled.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { decodeAbiParameters, encodeAbiParameters, encodeFunctionData, parseAbi, toFunctionSelector } from 'viem';
import { describe, expect, it } from 'vitest';
import contracts from '../fixtures/contracts.json' with { type: 'json' };
import { AbiReader, addressTopic, decodeTextResult, encodeCall, selectorOf, topicOf } from '../../src/core/evm-abi.js';
import { decodeTokenCall, decodeTypedPermit, PERMIT2_ADDRESS } from '../../src/core/evm-calls.js';
import { APPROVAL_FOR_ALL_TOPIC, APPROVAL_TOPIC, readTrace, revertReason, simulateTx, tokenMovesOf, TRANSFER_SINGLE_TOPIC, TRANSFER_TOPIC } from '../../src/core/evm-simulate.js';
import type { EthApi } from '../../src/core/node/eth.js';
import { replacementFees } from '../../src/core/tx/c.js';
import { RpcError } from '../../src/core/errors.js';
import { readTokenMetadata, revokeCall, tokenBalance, tokenSendData } from '../../src/core/tokens.js';

const A = '0x1111111111111111111111111111111111111111';
const B = '0x2222222222222222222222222222222222222222';
const ME = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const TOKEN = '0x1CB79692389258FD0da4911A4947dF2C51DC7A47';
const MAX = (1n << 256n) - 1n;
const abi = parseAbi([
  'function transfer(address,uint256)',
  'function approve(address,uint256)',
  'function setApprovalForAll(address,bool)',
  'function safeTransferFrom(address,address,uint256,uint256,bytes)',
  'function transferFrom(address,address,uint256)',
  'function increaseAllowance(address,uint256)',
]);

describe('ABI coder', () => {
  it('encodes calls exactly as viem does (static arguments and a trailing bytes)', () => {
    expect(encodeCall('transfer(address,uint256)', A, 5n)).toBe(encodeFunctionData({ abi, functionName: 'transfer', args: [A, 5n] }));
    expect(encodeCall('approve(address,uint256)', B, MAX)).toBe(encodeFunctionData({ abi, functionName: 'approve', args: [B, MAX] }));
    expect(encodeCall('setApprovalForAll(address,bool)', B, true)).toBe(encodeFunctionData({ abi, functionName: 'setApprovalForAll', args: [B, true] }));
    const bytes = Uint8Array.from({ length: 37 }, (_, i) => i);
    expect(encodeCall('safeTransferFrom(address,address,uint256,uint256,bytes)', A, B, 7n, 3n, bytes)).toBe(
      encodeFunctionData({ abi, functionName: 'safeTransferFrom', args: [A, B, 7n, 3n, `0x${Buffer.from(bytes).toString('hex')}`] }),
    );
    expect(selectorOf('transferFrom(address,address,uint256)')).toBe(toFunctionSelector('transferFrom(address,address,uint256)'));
    expect(() => encodeCall('transfer(address,uint256)', A, -1n)).toThrow();
    expect(addressTopic(A)).toBe(`0x${'0'.repeat(24)}${A.slice(2)}`);
  });

  it('reads string and bytes32 answers; refuses text that is not UTF-8 or runs past the data', () => {
    expect(decodeTextResult(encodeAbiParameters([{ type: 'string' }], ['Test Dollar ✓']))).toBe('Test Dollar ✓');
    expect(decodeTextResult(`0x${Buffer.from('MKR').toString('hex').padEnd(64, '0')}`)).toBe('MKR');
    expect(() => decodeTextResult(encodeAbiParameters([{ type: 'bytes' }], ['0xff']))).toThrow(/UTF-8/);
    const lying = encodeAbiParameters([{ type: 'string' }], ['abc']).replace(/0{63}3(?=616263)/, 'f'.repeat(64));
    expect(() => decodeTextResult(lying)).toThrow();
    // An address word whose top bytes are not zero is not an address.
    expect(() => new AbiReader(`0x${'ff'.repeat(32)}`).address(0)).toThrow(/not an address/);
  });

  it("the wallet's own token calls: a send per standard and a revoke (of an allowance Permit2 keeps: its approve to 0, sent to Permit2)", () => {
    expect(tokenSendData('erc20', ME, A, { amount: 9n })).toBe(encodeFunctionData({ abi, functionName: 'transfer', args: [A, 9n] }));
    const [from, to, id] = decodeAbiParameters([{ type: 'address' }, { type: 'address' }, { type: 'uint256' }], `0x${tokenSendData('erc721', ME, A, { tokenId: 4n }).slice(10)}`);
    expect([from, to, id]).toEqual([ME, A, 4n]);
    expect(revokeCall('allowance', A, B)).toEqual({ to: A, data: encodeFunctionData({ abi, functionName: 'approve', args: [B, 0n] }) });
    expect(revokeCall('operator', A, B)).toEqual({ to: A, data: encodeFunctionData({ abi, functionName: 'setApprovalForAll', args: [B, false] }) });
    const permit2Approve = parseAbi(['function approve(address token, address spender, uint160 amount, uint48 expiration)']);
    expect(revokeCall('permit2', A, B)).toEqual({ to: PERMIT2_ADDRESS, data: encodeFunctionData({ abi: permit2Approve, functionName: 'approve', args: [A, B, 0n, 0] }) });
  });
});

describe('decoded calls and permits', () => {
  it('decodes each token call viem encodes; leaves other and malformed data undecoded', () => {
    expect(decodeTokenCall(encodeFunctionData({ abi, functionName: 'approve', args: [B, MAX] }))).toEqual({ kind: 'approve', spender: B, amount: MAX });
    expect(decodeTokenCall(encodeFunctionData({ abi, functionName: 'increaseAllowance', args: [B, 3n] }))).toEqual({ kind: 'increaseAllowance', spender: B, amount: 3n });
    expect(decodeTokenCall(encodeFunctionData({ abi, functionName: 'transferFrom', args: [A, B, 3n] }))).toEqual({ kind: 'transferFrom', from: A, to: B, amount: 3n });
    expect(decodeTokenCall(encodeFunctionData({ abi, functionName: 'setApprovalForAll', args: [B, false] }))).toEqual({ kind: 'setApprovalForAll', operator: B, approved: false });
    expect(decodeTokenCall(encodeFunctionData({ abi, functionName: 'safeTransferFrom', args: [A, B, 1n, 2n, '0x'] }))).toEqual({ kind: 'safeTransferFrom', from: A, to: B, tokenId: 1n, amount: 2n });
    const transfer = encodeFunctionData({ abi, functionName: 'transfer', args: [A, 5n] });
    expect(decodeTokenCall(transfer.slice(0, -2))).toBeUndefined(); // one byte short
    expect(decodeTokenCall(`0xdeadbeef${transfer.slice(10)}`)).toBeUndefined();
    // A bool that is neither 0 nor 1, an address word with junk above it.
    expect(decodeTokenCall(`${selectorOf('setApprovalForAll(address,bool)')}${addressTopic(B).slice(2)}${'0'.repeat(63)}2`)).toBeUndefined();
    expect(decodeTokenCall(`${selectorOf('transfer(address,uint256)')}${'f'.repeat(64)}${'0'.repeat(64)}`)).toBeUndefined();
    expect(decodeTokenCall('0x')).toBeUndefined();
    // Permit2's own approve: the token it names, the spender, a uint160 amount and a uint48 expiration.
    const permit2Approve = encodeFunctionData({ abi: parseAbi(['function approve(address,address,uint160,uint48)']), functionName: 'approve', args: [TOKEN, B, (1n << 160n) - 1n, 1_900_000_000] });
    expect(decodeTokenCall(permit2Approve)).toEqual({ kind: 'permit2Approve', token: TOKEN, spender: B, amount: (1n << 160n) - 1n, expiration: 1_900_000_000n });
  });

  const PERMIT_TYPES = {
    Permit: [
      { name: 'owner', type: 'address' },
      { name: 'spender', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'nonce', type: 'uint256' },
      { name: 'deadline', type: 'uint256' },
    ],
  };

  it('EIP-2612 and Permit2 permits: spender, amounts, deadline; a Permit on the Permit2 contract, or junk, is not one', () => {
    const eip2612 = { types: PERMIT_TYPES, domain: { verifyingContract: TOKEN }, primaryType: 'Permit', message: { owner: ME, spender: B, value: '4000000', nonce: '0', deadline: '1900000000' } };
    expect(decodeTypedPermit(eip2612)).toEqual({ kind: 'eip2612', spender: B, owner: ME, deadline: 1_900_000_000n, verifier: TOKEN, grants: [{ token: TOKEN, amount: 4_000_000n }] });
    const single = {
      types: {
        PermitSingle: [{ name: 'details', type: 'PermitDetails' }, { name: 'spender', type: 'address' }, { name: 'sigDeadline', type: 'uint256' }],
        PermitDetails: [{ name: 'token', type: 'address' }, { name: 'amount', type: 'uint160' }, { name: 'expiration', type: 'uint48' }, { name: 'nonce', type: 'uint48' }],
      },
      domain: { verifyingContract: PERMIT2_ADDRESS.toLowerCase() },
      primaryType: 'PermitSingle',
      message: { details: { token: TOKEN, amount: '0xffffffffffffffffffffffffffffffffffffffff', expiration: 1_900_000_000, nonce: 0 }, spender: A, sigDeadline: '1800000000' },
    };
    expect(decodeTypedPermit(single)).toEqual({ kind: 'permit2-allowance', spender: A, deadline: 1_800_000_000n, verifier: PERMIT2_ADDRESS, grants: [{ token: TOKEN, amount: (1n << 160n) - 1n, expiration: 1_900_000_000n }] });
    const batch = {
      types: {
        PermitBatchTransferFrom: [{ name: 'permitted', type: 'TokenPermissions[]' }, { name: 'spender', type: 'address' }, { name: 'nonce', type: 'uint256' }, { name: 'deadline', type: 'uint256' }],
        TokenPermissions: [{ name: 'token', type: 'address' }, { name: 'amount', type: 'uint256' }],
      },
      domain: { verifyingContract: PERMIT2_ADDRESS },
      primaryType: 'PermitBatchTransferFrom',
      message: { permitted: [{ token: TOKEN, amount: '5' }, { token: B, amount: '6' }], spender: A, nonce: '1', deadline: '9' },
    };
    expect(decodeTypedPermit(batch)?.grants).toEqual([{ token: TOKEN, amount: 5n }, { token: B, amount: 6n }]);
    expect(decodeTypedPermit({ ...eip2612, domain: { verifyingContract: PERMIT2_ADDRESS } })).toBeUndefined();
    expect(decodeTypedPermit({ ...eip2612, message: { ...eip2612.message, value: '-1' } })).toBeUndefined();
    expect(decodeTypedPermit({ ...eip2612, primaryType: 'Order' })).toBeUndefined();
  });

  it('a permit is read from the fields its types declare (those signed): undeclared decoys decide nothing', () => {
    const unlimited = (1n << 256n) - 1n;
    // An unlimited EIP-2612 permit dressed up with DAI's fields, which its types leave out (so the signature does not cover them).
    const decoyed = { types: PERMIT_TYPES, domain: { verifyingContract: TOKEN }, primaryType: 'Permit', message: { owner: ME, spender: B, value: unlimited.toString(), nonce: '0', deadline: '1900000000', holder: ME, allowed: false, expiry: '0' } };
    expect(decodeTypedPermit(decoyed)?.grants).toEqual([{ token: TOKEN, amount: unlimited }]);
    // DAI's own permit declares them: read as DAI's.
    const dai = {
      types: { Permit: [{ name: 'holder', type: 'address' }, { name: 'spender', type: 'address' }, { name: 'nonce', type: 'uint256' }, { name: 'expiry', type: 'uint256' }, { name: 'allowed', type: 'bool' }] },
      domain: { verifyingContract: TOKEN },
      primaryType: 'Permit',
      message: { holder: ME, spender: B, nonce: '0', expiry: '0', allowed: true },
    };
    expect(decodeTypedPermit(dai)).toMatchObject({ owner: ME, deadline: unlimited, grants: [{ token: TOKEN, amount: unlimited }] });
    // A nested struct's decoy: Permit2's details read by their declared type only.
    const single = {
      types: {
        PermitSingle: [{ name: 'details', type: 'PermitDetails' }, { name: 'spender', type: 'address' }, { name: 'sigDeadline', type: 'uint256' }],
        PermitDetails: [{ name: 'token', type: 'address' }, { name: 'amount', type: 'uint160' }, { name: 'expiration', type: 'uint48' }, { name: 'nonce', type: 'uint48' }],
      },
      domain: { verifyingContract: PERMIT2_ADDRESS },
      primaryType: 'PermitSingle',
      message: { details: { token: TOKEN, amount: '7', expiration: 1, nonce: 0 }, spender: A, sigDeadline: '1' },
    };
    expect(decodeTypedPermit(single)?.grants).toEqual([{ token: TOKEN, amount: 7n, expiration: 1n }]);
    // Types without the primary type, or a field's struct type left undeclared: not read as a permit.
    expect(decodeTypedPermit({ ...decoyed, types: {} })).toBeUndefined();
    expect(decodeTypedPermit({ ...single, types: { PermitSingle: single.types.PermitSingle } })).toBeUndefined();
  });
});

/** A callTracer trace as the node gives it (shape recorded from the Helicon test node; addresses made up). */
function pullTrace(revertInner = false) {
  const word = (n: bigint) => n.toString(16).padStart(64, '0');
  return {
    type: 'CALL', from: ME.toLowerCase(), to: A, value: '0x29a2241af62c0000', input: '0x12345678', gas: '0x30000', gasUsed: '0x1000',
    calls: [
      {
        type: 'CALL', from: A, to: TOKEN.toLowerCase(), value: '0x0', input: '0x23b872dd',
        logs: [{ address: TOKEN.toLowerCase(), topics: [TRANSFER_TOPIC, addressTopic(ME), addressTopic(A)], data: `0x${word(700_000n)}` }],
        ...(revertInner ? { error: 'execution reverted' } : {}),
      },
      { type: 'STATICCALL', from: A, to: B, input: '0x70a08231', value: '0x5' },
      { type: 'CALL', from: A, to: ME.toLowerCase(), value: '0x3', input: '0x' },
      {
        type: 'CALL', from: A, to: B, input: '0xf242432a', value: '0x0',
        logs: [{ address: B, topics: [TRANSFER_SINGLE_TOPIC, addressTopic(A), addressTopic(A), addressTopic(ME)], data: `0x${word(9n)}${word(2n)}` }],
      },
    ],
  };
}

describe('reading a trace', () => {
  it("the account's native and token changes and the contracts run, in call order", () => {
    const sim = readTrace(pullTrace(), ME);
    expect(sim.method).toBe('trace');
    expect(sim.changes).toEqual([
      { asset: 'native', delta: -3_000_000_000_000_000_000n + 3n },
      { asset: TOKEN, standard: 'erc20', delta: -700_000n },
      { asset: B, standard: 'erc1155', tokenId: 9n, delta: 2n },
    ]);
    expect(sim.touched).toEqual([A, TOKEN, B]);
  });

  it('a frame that reverted changes nothing; a reverted call says why', () => {
    expect(readTrace(pullTrace(true), ME).changes.some((c) => c.asset === TOKEN)).toBe(false);
    const reason = `0x08c379a0${encodeAbiParameters([{ type: 'string' }], ['balance too low']).slice(2)}`;
    expect(readTrace({ type: 'CALL', from: ME, to: A, error: 'execution reverted', output: reason }, ME)).toEqual({ method: 'trace', reverted: 'balance too low', changes: [], touched: [] });
    expect(revertReason('0x')).toBe('');
    expect(() => readTrace({ nope: true }, ME)).toThrow(/not a call trace/);
  });

  it('token moves from logs: ERC-20, ERC-721 (ID as the fourth topic), ERC-1155; anything else none', () => {
    const id = `0x${'0'.repeat(63)}7`;
    expect(tokenMovesOf({ address: TOKEN, topics: [TRANSFER_TOPIC, addressTopic(A), addressTopic(B), id], data: '0x' })).toEqual([{ token: TOKEN, from: A, to: B, amount: 1n, tokenId: 7n, standard: 'erc721' }]);
    expect(tokenMovesOf({ address: TOKEN, topics: [TRANSFER_TOPIC, addressTopic(A), addressTopic(B)], data: '0x' })).toEqual([]);
    expect(tokenMovesOf({ address: TOKEN, topics: [`0x${'ab'.repeat(32)}`], data: '0x' })).toEqual([]);
  });
});

describe('what a simulation does not drop', () => {
  const word = (n: bigint) => n.toString(16).padStart(64, '0');

  it('a trace past the frame limit keeps what it counted and says it is partial', () => {
    const spend = { type: 'CALL', from: A, to: TOKEN, input: '0xa9059cbb', value: '0x0', logs: [{ address: TOKEN, topics: [TRANSFER_TOPIC, addressTopic(ME), addressTopic(A)], data: `0x${word(5n)}` }] };
    const filler = Array.from({ length: 10_050 }, () => ({ type: 'STATICCALL', from: A, to: B, input: '0x', value: '0x0' }));
    const sim = readTrace({ type: 'CALL', from: ME, to: A, input: '0x12', value: '0x0', calls: [spend, ...filler] }, ME);
    expect(sim.partial).toBe(true);
    expect(sim.changes).toEqual([{ asset: TOKEN, standard: 'erc20', delta: -5n }]);
  });

  it("Approval and ApprovalForAll events with the account as owner are the rights it gives; another owner's are not", () => {
    const logs = [
      { address: TOKEN, topics: [APPROVAL_TOPIC, addressTopic(ME), addressTopic(A)], data: `0x${word(MAX)}` },
      { address: B, topics: [APPROVAL_FOR_ALL_TOPIC, addressTopic(ME), addressTopic(A)], data: `0x${word(1n)}` },
      { address: B, topics: [APPROVAL_TOPIC, addressTopic(ME), addressTopic(A), `0x${word(7n)}`], data: '0x' },
      { address: TOKEN, topics: [APPROVAL_TOPIC, addressTopic(B), addressTopic(A)], data: `0x${word(9n)}` },
    ];
    const sim = readTrace({ type: 'CALL', from: ME, to: A, input: '0x12', value: '0x0', logs }, ME);
    expect(sim.approvals).toEqual([
      { token: TOKEN, spender: A, amount: MAX },
      { token: B, spender: A, all: true },
      { token: B, spender: A, tokenId: 7n },
    ]);
    expect(sim.changes).toEqual([]);
  });

  it("Permit2's Approval and Permit events give the right over the token they name, only from Permit2's address and with the account as owner", () => {
    const approval = topicOf('Approval(address,address,address,uint160,uint48)');
    const permit = topicOf('Permit(address,address,address,uint160,uint48,uint48)');
    const logs = [
      { address: PERMIT2_ADDRESS, topics: [approval, addressTopic(ME), addressTopic(TOKEN), addressTopic(A)], data: `0x${word((1n << 160n) - 1n)}${word(0n)}` },
      { address: PERMIT2_ADDRESS, topics: [permit, addressTopic(ME), addressTopic(TOKEN), addressTopic(B)], data: `0x${word(5n)}${word(0n)}${word(0n)}` },
      { address: A, topics: [approval, addressTopic(ME), addressTopic(TOKEN), addressTopic(B)], data: `0x${word(7n)}${word(0n)}` },
      { address: PERMIT2_ADDRESS, topics: [approval, addressTopic(A), addressTopic(TOKEN), addressTopic(B)], data: `0x${word(9n)}${word(0n)}` },
    ];
    const sim = readTrace({ type: 'CALL', from: ME, to: PERMIT2_ADDRESS, input: '0x87517c45', value: '0x0', logs }, ME);
    expect(sim.approvals).toEqual([
      { token: TOKEN, spender: A, amount: (1n << 160n) - 1n, permit2: true },
      { token: TOKEN, spender: B, amount: 5n, permit2: true },
    ]);
  });

  it("a second address's token changes come from the same trace: a token keeping a cut of a transfer, what the recipient gains", async () => {
    const R = '0x00000000000000000000000000000000000000F3';
    const logs = [
      { address: TOKEN, topics: [TRANSFER_TOPIC, addressTopic(ME), addressTopic(R)], data: `0x${word(90n)}` },
      { address: TOKEN, topics: [TRANSFER_TOPIC, addressTopic(ME), addressTopic(TOKEN)], data: `0x${word(10n)}` },
    ];
    const trace = { type: 'CALL', from: ME, to: TOKEN, input: '0xa9059cbb', value: '0x0', logs };
    let calls = 0;
    const eth = { traceCall: async () => (calls++, trace) } as unknown as EthApi;
    const sim = await simulateTx(eth, { from: ME, to: TOKEN, value: 0n, data: '0xa9059cbb', gasLimit: 60_000n }, R.toLowerCase());
    expect(calls).toBe(1);
    expect(sim.changes).toEqual([{ asset: TOKEN, standard: 'erc20', delta: -100n }]);
    expect(sim.other).toEqual([{ asset: TOKEN, standard: 'erc20', delta: 90n }]);
    expect(readTrace(trace, ME).other).toBeUndefined();
    // The account sending to itself: what it receives, apart from what it sends.
    const self = readTrace({ ...trace, logs: [{ ...logs[0]!, topics: [TRANSFER_TOPIC, addressTopic(ME), addressTopic(ME)] }, logs[1]!] }, ME, ME);
    expect([self.changes, self.other]).toEqual([[{ asset: TOKEN, standard: 'erc20', delta: -10n }], [{ asset: TOKEN, standard: 'erc20', delta: 90n }]]);
  });

  it("the simulation runs at the tx's own fees", async () => {
    const sent: Record<string, unknown>[] = [];
    const eth = { traceCall: async (call: Record<string, unknown>) => (sent.push(call), { type: 'CALL', from: ME, to: A, input: '0x', value: '0x0' }) } as unknown as EthApi;
    await simulateTx(eth, { from: ME, to: A, value: 0n, data: '0x', gasLimit: 21_000n, maxFeePerGas: 50n, maxPriorityFeePerGas: 2n });
    expect(sent[0]).toMatchObject({ maxFeePerGas: '0x32', maxPriorityFeePerGas: '0x2' });
  });
});

describe('a token read the node failed', () => {
  const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;
  const text = (t: string) => `${word(32n)}${word(BigInt(t.length)).slice(2)}${Buffer.from(t).toString('hex').padEnd(64, '0')}`;
  const answers: Record<string, string> = { [selectorOf('name()')]: text('Test Dollar'), [selectorOf('symbol()')]: text('TUSD'), [selectorOf('decimals()')]: word(6n), [selectorOf('totalSupply()')]: word(1000n), [selectorOf('balanceOf(address)')]: word(5n) };
  /** An ERC-20 whose `failing` function fails with `error` (a node's refusal, or the contract's own). */
  const tokenWhere = (failing: string, error: RpcError) =>
    ({
      getCode: async () => '0x60',
      call: async (tx: { data: string }) => {
        if (tx.data.startsWith(selectorOf(failing))) throw error;
        return answers[tx.data.slice(0, 10)] ?? word(0n);
      },
    }) as unknown as EthApi;
  const limited = new RpcError('eth_call', -32005, 'limit exceeded');
  it('a rate limit is thrown, never read as a missing symbol, "not a token" or a balance the contract did not give', async () => {
    await expect(readTokenMetadata(tokenWhere('symbol()', limited), TOKEN)).rejects.toThrow(/limit exceeded/);
    await expect(readTokenMetadata(tokenWhere('totalSupply()', limited), TOKEN)).rejects.toThrow(/limit exceeded/);
    await expect(tokenBalance(tokenWhere('balanceOf(address)', limited), TOKEN, ME)).rejects.toThrow(/limit exceeded/);
  });
  it("the contract's own failure (a revert, an EVM error of an older compiler) is a function it does not have", async () => {
    expect(await readTokenMetadata(tokenWhere('symbol()', new RpcError('eth_call', 3, 'execution reverted')), TOKEN)).toMatchObject({ standard: 'erc20', symbol: '', decimals: 6 });
    expect(await readTokenMetadata(tokenWhere('symbol()', new RpcError('eth_call', -32000, 'invalid opcode: INVALID')), TOKEN)).toMatchObject({ symbol: '' });
    await expect(readTokenMetadata(tokenWhere('totalSupply()', new RpcError('eth_call', -32000, 'execution reverted')), TOKEN)).rejects.toMatchObject({ code: 'not-a-token' });
    await expect(tokenBalance(tokenWhere('balanceOf(address)', new RpcError('eth_call', 3, 'execution reverted')), TOKEN, ME)).rejects.toMatchObject({ code: 'token-call-failed' });
  });
});

describe('replacement fees', () => {
  it('at least 10% more on the fee cap and the tip (rounded up), at least 1 wei more, and never below what the node asks now', () => {
    expect(replacementFees({ maxFeePerGas: 100n, maxPriorityFeePerGas: 10n }, 1n, 1n)).toEqual({ maxFeePerGas: 110n, maxPriorityFeePerGas: 11n });
    expect(replacementFees({ maxFeePerGas: 101n, maxPriorityFeePerGas: 1n }, 1n, 1n)).toEqual({ maxFeePerGas: 112n, maxPriorityFeePerGas: 2n });
    // A tx stuck below today's price: today's fees (2 × base fee + tip).
    expect(replacementFees({ maxFeePerGas: 0n, maxPriorityFeePerGas: 0n }, 25n, 2n)).toEqual({ maxFeePerGas: 52n, maxPriorityFeePerGas: 2n });
    // A tip of 0 (a site may set it) and a node asking 0: the mempool takes only a higher tip.
    expect(replacementFees({ maxFeePerGas: 100n, maxPriorityFeePerGas: 0n }, 10n, 0n)).toEqual({ maxFeePerGas: 110n, maxPriorityFeePerGas: 1n });
  });
});

describe('test contracts', () => {
  it('each Solidity source is the one test/fixtures/contracts.json was compiled from (scripts/compile-test-contracts.mjs)', () => {
    expect(contracts.compiler).toMatch(/^0\.8\.37\+/);
    for (const [file, sha] of Object.entries(contracts.sha256)) {
      expect(createHash('sha256').update(readFileSync(new URL(`../fixtures/contracts/${file}`, import.meta.url), 'utf8')).digest('hex'), file).toBe(sha);
    }
  });
});
