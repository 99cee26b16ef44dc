// The P-Chain staking, subnet and L1 validator tx types (docs/protocol.md §P): a byte dump of a
// tx a v1.14.2 node accepted, the reward tx IDs (one checked against a live node), round trips of
// every type, the fee's worked examples, and strictness (structure: CodecError; the chain's
// syntactic rules: ValidationError).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sha256 } from '@noble/hashes/sha2.js';
import { type Bytes, concatBytes, fromHex, toHex } from '../../src/core/bytes.js';
import {
  decodeChainTx,
  decodeSignedTx,
  decodeUnsignedTx,
  encodeSignedTx,
  encodeUnsignedTx,
  isRetiredPTx,
  PVM_TX_TYPE_IDS,
  rewardAutoRenewedValidatorTxId,
  rewardValidatorTxId,
  txId,
  verifyPTx,
  type Credential,
  type OutputOwners,
  type PAddAutoRenewedValidatorTx,
  type PAddPermissionlessDelegatorTx,
  type PAddPermissionlessValidatorTx,
  type PDisableL1ValidatorTx,
  type PSetAutoRenewedValidatorConfigTx,
  type PTx,
  type TransferableInput,
  type TransferableOutput,
} from '../../src/core/codec/index.js';
import { cb58Encode } from '../../src/core/encoding.js';
import { CodecError, ValidationError } from '../../src/core/errors.js';
import { avaxBurned, pGas, pTxComplexity, pTxFee } from '../../src/core/fees.js';
import { signDigest } from '../../src/core/keys.js';
import { ARB_P_TXS, arbPBlockTx } from './codec-gen-p.js';
import { arbCredentialsFor, credentialShapes, expectCodecError } from './codec-generators.js';
import { ewoq, u32 } from './pvm-test-kit.js';

const PRICE_1 = { weights: [1n, 1000n, 1000n, 4n] as const, gasPriceNavax: 1n };
const LOCAL_AVAX = fromHex('dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db');
const ZERO_ID = new Uint8Array(32);
const one = (address: Bytes): OutputOwners => ({ locktime: 0n, threshold: 1, addresses: [address] });
const out = (amount: bigint, owners = one(ewoq.shortId)): TransferableOutput => ({ assetID: LOCAL_AVAX, output: { kind: 'TransferOutput', amount, owners } });
const input = (txID: Bytes, outputIndex: number, amount: bigint): TransferableInput => ({
  txID, outputIndex, assetID: LOCAL_AVAX, input: { kind: 'TransferInput', amount, sigIndices: [0] },
});
const SIG = new Uint8Array(65).fill(9);
/** Credentials with one placeholder signature per slot, shaped like the tx needs. */
const creds = (tx: PTx): Credential[] => credentialShapes(tx).map(({ sigs }) => ({ fx: 'secp', signatures: Array.from({ length: sigs }, () => SIG) }));
const signedSize = (tx: PTx): number => encodeSignedTx({ unsigned: tx, credentials: creds(tx) }).length;

// ---- §5.2: the AddPermissionlessDelegatorTx a v1.14.2 node accepted (avalanchejs 5.2.0, local network) ----

const P7_NODE = fromHex('f29bce5f34a74301eb0de716d5194e4a4aea5d7a'); // NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5
const dumpTx: PAddPermissionlessDelegatorTx = {
  vm: 'pvm',
  kind: 'AddPermissionlessDelegatorTx',
  networkID: 12345,
  blockchainID: ZERO_ID,
  outputs: [out(0x002386ec9da32595n)],
  // The genesis allocation on P: UTXO (32 zero bytes, 1).
  inputs: [input(ZERO_ID, 1, 0x002386f26fc10000n)],
  memo: new Uint8Array(),
  validator: { nodeID: P7_NODE, start: 0x6b05eff7n, end: 0x6b05f01an, weight: 25_000_000_000n },
  subnetID: ZERO_ID,
  stake: [out(25_000_000_000n)],
  rewardsOwner: one(ewoq.shortId),
};
const DUMP_UNSIGNED_HEX = [
  '0000', '0000001a', '00003039', '00'.repeat(32),
  '00000001', toHex(LOCAL_AVAX), '00000007', '002386ec9da32595', '0000000000000000', '00000001', '00000001', toHex(ewoq.shortId),
  '00000001', '00'.repeat(32), '00000001', toHex(LOCAL_AVAX), '00000005', '002386f26fc10000', '00000001', '00000000',
  '00000000',
  toHex(P7_NODE), '000000006b05eff7', '000000006b05f01a', '00000005d21dba00',
  '00'.repeat(32),
  '00000001', toHex(LOCAL_AVAX), '00000007', '00000005d21dba00', '0000000000000000', '00000001', '00000001', toHex(ewoq.shortId),
  '0000000b', '0000000000000000', '00000001', '00000001', toHex(ewoq.shortId),
].join('');
const DUMP_TX_ID = '2kV1vFS2AQ79vJQHo3tw3vZF1zs1qSS2gsHHZjDKUT5FL9UPa5';

describe('the accepted AddPermissionlessDelegatorTx (byte dump of a live v1.14.2 tx)', () => {
  it('encodes to the dump, is 499 bytes signed, has the ID the node gave it, and burned 8 299 nAVAX at price 1', () => {
    const unsigned = encodeUnsignedTx(dumpTx);
    expect(toHex(unsigned)).toBe(DUMP_UNSIGNED_HEX);
    // The signature is ewoq's RFC-6979 signature: the same 65 bytes avalanchejs made.
    const credentials: Credential[] = [{ fx: 'secp', signatures: [signDigest(ewoq.secret, sha256(unsigned))] }];
    const signed = encodeSignedTx({ unsigned: dumpTx, credentials });
    expect(signed.length).toBe(499);
    expect(toHex(signed.subarray(unsigned.length, unsigned.length + 12))).toBe('000000010000000900000001');
    expect(txId(signed)).toBe(DUMP_TX_ID);
    expect(DUMP_TX_ID.startsWith('2kV1vFS2')).toBe(true);
    expect(decodeSignedTx(signed, 'pvm')).toStrictEqual({ unsigned: dumpTx, credentials, unsignedLength: unsigned.length });
    expect(pTxComplexity(dumpTx)).toStrictEqual([499n, 2n, 5n, 200n]);
    expect(pTxFee(dumpTx, PRICE_1)).toBe(8_299n);
    expect(avaxBurned(dumpTx, LOCAL_AVAX)).toBe(8_299n);
    expect(() => verifyPTx(dumpTx)).not.toThrow();
  });
});

describe('reward tx IDs', () => {
  it('RewardValidatorTx: the live vector (delegator 2kV1vFS2… → 8L5BXq…, Committed on the node)', () => {
    expect(rewardValidatorTxId(DUMP_TX_ID)).toBe('8L5BXqMjqASca594XyVoWnzJ2eAJgz2LyUXe67JicKkrFdZtc');
  });

  it('both are sha256 of the block-builder tx with no credentials', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), (staker, end) => {
        const u64 = new Uint8Array(8);
        new DataView(u64.buffer).setBigUint64(0, end);
        expect(rewardValidatorTxId(staker)).toBe(cb58Encode(sha256(concatBytes(fromHex('0000'), u32(20), staker, u32(0)))));
        expect(rewardValidatorTxId(cb58Encode(staker))).toBe(rewardValidatorTxId(staker));
        expect(rewardAutoRenewedValidatorTxId(staker, end)).toBe(cb58Encode(sha256(concatBytes(fromHex('0000'), u32(42), staker, u64, u32(0)))));
      }),
      { numRuns: 50 },
    );
    // Each cycle end names another reward tx.
    expect(rewardAutoRenewedValidatorTxId(DUMP_TX_ID, 1n)).not.toBe(rewardAutoRenewedValidatorTxId(DUMP_TX_ID, 2n));
  });
});

describe('every P-Chain tx type', () => {
  it('type IDs', () => {
    const sample = <T>(arb: fc.Arbitrary<T>): T => fc.sample(arb, { numRuns: 1, seed: 3 })[0]!;
    for (const [kind, arb] of Object.entries(ARB_P_TXS)) {
      const bytes = encodeUnsignedTx(sample(arb));
      expect(new DataView(bytes.buffer).getUint32(2), kind).toBe(PVM_TX_TYPE_IDS[kind as PTx['kind']]);
    }
    expect(PVM_TX_TYPE_IDS).toMatchObject({ AddAutoRenewedValidatorTx: 0x28, SetAutoRenewedValidatorConfigTx: 0x29, RewardAutoRenewedValidatorTx: 0x2a });
  });

  describe.each(Object.entries(ARB_P_TXS))('%s', (kind, arb) => {
    it('round trip (unsigned and signed), the chain rules hold, and the fee bandwidth is the signed size', () => {
      fc.assert(
        fc.property(arb.chain((tx) => arbCredentialsFor(tx).map((credentials) => ({ tx, credentials }))), ({ tx, credentials }) => {
          const bytes = encodeUnsignedTx(tx);
          expect(decodeUnsignedTx(bytes, 'pvm')).toStrictEqual(tx);
          const signed = encodeSignedTx({ unsigned: tx, credentials });
          const decoded = decodeSignedTx(signed, 'pvm');
          expect(decoded.unsigned).toStrictEqual(tx);
          expect(decoded.credentials).toStrictEqual(credentials);
          expect(toHex(encodeSignedTx(decoded))).toBe(toHex(signed));
          if (isRetiredPTx(tx)) {
            expect(() => verifyPTx(tx)).toThrow(ValidationError);
            expect(() => pTxComplexity(tx)).toThrow(ValidationError);
          } else {
            verifyPTx(tx);
            expect(pTxComplexity(tx)[0], kind).toBe(BigInt(signed.length));
          }
        }),
        { numRuns: 60 },
      );
    });

    it('every truncation is a CodecError inside the input', () => {
      fc.assert(
        fc.property(arb, (tx) => {
          const bytes = encodeUnsignedTx(tx);
          for (let n = 0; n < bytes.length; n += Math.max(1, Math.floor(bytes.length / 60))) {
            expect(expectCodecError(() => decodeUnsignedTx(bytes.subarray(0, n), 'pvm'), n).offset).toBeLessThanOrEqual(n);
          }
          const longer = concatBytes(bytes, Uint8Array.of(0));
          expect(expectCodecError(() => decodeUnsignedTx(longer, 'pvm'), longer.length).offset).toBe(bytes.length);
        }),
        { numRuns: 10 },
      );
    });
  });

  it('block-builder txs: decodeChainTx reads them, with no credentials', () => {
    fc.assert(
      fc.property(arbPBlockTx, (tx) => {
        const bytes = encodeSignedTx({ unsigned: tx, credentials: [] });
        expect(decodeChainTx(bytes, 'pvm')).toStrictEqual({ unsigned: tx, credentials: [], unsignedLength: bytes.length - 4 });
      }),
    );
  });
});

// ---- fees: the worked examples at price 1 ----

const NODE = sha256(Uint8Array.of(1)).slice(0, 20);
const POP = { kind: 'ProofOfPossession' as const, publicKey: new Uint8Array(48).fill(1), signature: new Uint8Array(96).fill(2) };
const base = (ins: TransferableInput[]) => ({ vm: 'pvm' as const, networkID: 12345, blockchainID: ZERO_ID, outputs: [out(1_000n)], inputs: ins, memo: new Uint8Array() });
const ins = (n: number) => Array.from({ length: n }, (_, i) => input(sha256(Uint8Array.of(i)), 0, 10n ** 15n)).sort((a, b) => (toHex(a.txID) < toHex(b.txID) ? -1 : 1));

describe('P-Chain fee worked examples (price 1 nAVAX/gas)', () => {
  const validator: PAddPermissionlessValidatorTx = {
    ...base(ins(1)), kind: 'AddPermissionlessValidatorTx', validator: { nodeID: NODE, start: 1n, end: 2n, weight: 2n * 10n ** 12n }, subnetID: ZERO_ID,
    signer: POP, stake: [out(2n * 10n ** 12n)], validationRewardsOwner: one(ewoq.shortId), delegationRewardsOwner: one(ewoq.shortId), delegationShares: 20_000,
  };
  const autoRenewed: PAddAutoRenewedValidatorTx = {
    ...base(ins(1)), kind: 'AddAutoRenewedValidatorTx', nodeID: NODE, signer: POP, stake: [out(2n * 10n ** 12n)], validationRewardsOwner: one(ewoq.shortId),
    delegationRewardsOwner: one(ewoq.shortId), validatorAuthority: one(ewoq.shortId), delegationShares: 20_000, autoCompoundRewardShares: 500_000, period: 172_800n,
  };
  const config: PSetAutoRenewedValidatorConfigTx = {
    ...base(ins(1)), kind: 'SetAutoRenewedValidatorConfigTx', txID: sha256(Uint8Array.of(7)), auth: [0], autoCompoundRewardShares: 0, period: 0n,
  };
  const cases: [string, PTx, number, bigint][] = [
    ['AddPermissionlessValidatorTx, PoP, 1 input, 1 change, 1 stake', validator, 691, 13_691n],
    ['AddPermissionlessDelegatorTx, 1 input, 1 change, 1 stake', dumpTx, 499, 8_299n],
    ['AddPermissionlessDelegatorTx, 3 inputs', { ...dumpTx, inputs: ins(3) }, 821, 14_221n],
    ['AddAutoRenewedValidatorTx, PoP, 1 input, 1 change, 1 stake, 3 owners', autoRenewed, 691, 12_691n],
    ['SetAutoRenewedValidatorConfigTx, 1 fee input, 1 change, 1 auth signature', config, 428, 7_028n],
  ];
  it.each(cases)('%s: %i bytes signed, %i nAVAX', (_name, tx, size, fee) => {
    expect(signedSize(tx)).toBe(size);
    expect(pTxComplexity(tx)[0]).toBe(BigInt(size));
    expect(pTxFee(tx, PRICE_1)).toBe(fee);
    expect(pGas(pTxComplexity(tx), PRICE_1.weights) * 3n).toBe(pTxFee(tx, { ...PRICE_1, gasPriceNavax: 3n }));
  });

  it('the Warp signer count and the message length price a RegisterL1ValidatorTx; an unreadable message has no fee', () => {
    const fixture = fc.sample(ARB_P_TXS.RegisterL1ValidatorTx, { numRuns: 1, seed: 11 })[0]!;
    if (fixture.kind !== 'RegisterL1ValidatorTx') throw new Error('fixture');
    const withMessage = (message: Bytes) => ({ ...fixture, message });
    const msg = (signers: Bytes) => concatBytes(new Uint8Array(2), u32(1), ZERO_ID, u32(0), u32(0), u32(signers.length), signers, new Uint8Array(96));
    const [a, b] = [pTxComplexity(withMessage(msg(Uint8Array.of(0b1)))), pTxComplexity(withMessage(msg(Uint8Array.of(0b111))))];
    expect(b[3] - a[3]).toBe(10n); // 5 per signer
    expect(a[1]).toBe(5n + 23n + BigInt(fixture.inputs.length));
    expect(() => pTxComplexity(withMessage(msg(Uint8Array.of(0, 1))))).toThrow(ValidationError); // not a canonical bit set
    expect(() => pTxComplexity(withMessage(Uint8Array.of(1, 2, 3)))).toThrow(ValidationError);
  });
});

// ---- strictness ----

describe('refusals', () => {
  const owners = one(ewoq.shortId);
  const at = (bytes: Bytes, hex: string): number => toHex(bytes).indexOf(hex) / 2;
  const withU32 = (bytes: Bytes, offset: number, v: number): Bytes => {
    const b = bytes.slice();
    new DataView(b.buffer).setUint32(offset, v);
    return b;
  };

  it('an interface field with the wrong type ID: owner (11), signer (27/28), authorization (10)', () => {
    const unsigned = encodeUnsignedTx(dumpTx);
    const ownerAt = at(unsigned, `0000000b0000000000000000`);
    const e = expectCodecError(() => decodeUnsignedTx(withU32(unsigned, ownerAt, 10), 'pvm'), unsigned.length);
    expect(e.message).toContain('must have type ID 11');
    expect(e.offset).toBe(ownerAt);

    const v = encodeUnsignedTx(fc.sample(ARB_P_TXS.AddAutoRenewedValidatorTx, { numRuns: 1, seed: 5 })[0]!);
    const signerAt = at(v, '0000001c');
    expect(expectCodecError(() => decodeUnsignedTx(withU32(v, signerAt, 29), 'pvm'), v.length).message).toContain('signer must have type ID 27 or 28');

    const c = fc.sample(ARB_P_TXS.SetAutoRenewedValidatorConfigTx, { numRuns: 1, seed: 5 })[0]! as PSetAutoRenewedValidatorConfigTx;
    const cBytes = encodeUnsignedTx(c);
    const authAt = at(cBytes, toHex(c.txID)) + 32;
    expect(expectCodecError(() => decodeUnsignedTx(withU32(cBytes, authAt, 11), 'pvm'), cBytes.length).message).toContain('must have type ID 10');
  });

  it('the chain rules: each violation is a ValidationError naming the type', () => {
    const bad: [string, PTx][] = [
      ['unsorted owner addresses', { ...dumpTx, rewardsOwner: { locktime: 0n, threshold: 1, addresses: [new Uint8Array(20).fill(2), new Uint8Array(20).fill(1)] } }],
      ['threshold above the addresses', { ...dumpTx, rewardsOwner: { ...owners, threshold: 2 } }],
      ['weight not the stake', { ...dumpTx, validator: { ...dumpTx.validator, weight: 1n } }],
      ['no stake', { ...dumpTx, stake: [] }],
      ['unsorted stake', { ...dumpTx, stake: [out(5n), out(4n)], validator: { ...dumpTx.validator, weight: 9n } }],
      ['a memo', { ...dumpTx, memo: Uint8Array.of(1) }],
      ['unsorted inputs', { ...dumpTx, inputs: [...ins(2)].reverse() }],
      ['an output of 0', { ...dumpTx, outputs: [out(0n)] }],
      ['shares above 100%', { ...(fc.sample(ARB_P_TXS.AddAutoRenewedValidatorTx, { numRuns: 1, seed: 1 })[0] as PAddAutoRenewedValidatorTx), delegationShares: 1_000_001 }],
      ['period 0', { ...(fc.sample(ARB_P_TXS.AddAutoRenewedValidatorTx, { numRuns: 1, seed: 1 })[0] as PAddAutoRenewedValidatorTx), period: 0n }],
      ['a 19-byte nodeID', { ...(fc.sample(ARB_P_TXS.AddAutoRenewedValidatorTx, { numRuns: 1, seed: 1 })[0] as PAddAutoRenewedValidatorTx), nodeID: new Uint8Array(19).fill(1) }],
      ['no BLS key on an auto-renewed validator', { ...(fc.sample(ARB_P_TXS.AddAutoRenewedValidatorTx, { numRuns: 1, seed: 1 })[0] as PAddAutoRenewedValidatorTx), signer: { kind: 'EmptySigner' } }],
      ['no BLS key on a Primary Network validator', { ...validatorOf(), signer: { kind: 'EmptySigner' } }],
      ['unsorted auth indices', { ...(fc.sample(ARB_P_TXS.DisableL1ValidatorTx, { numRuns: 1, seed: 1 })[0]! as PDisableL1ValidatorTx), disableAuth: [2, 1] }],
      ['a retired type', fc.sample(ARB_P_TXS.AddValidatorTx, { numRuns: 1, seed: 1 })[0]!],
    ];
    for (const [what, tx] of bad) {
      expect(() => verifyPTx(tx), what).toThrow(ValidationError);
      expect(() => verifyPTx(tx), what).toThrow(new RegExp(`^${tx.kind} \\(type ${PVM_TX_TYPE_IDS[tx.kind]}\\)`));
    }
  });

  it('the decoders throw nothing but CodecError on the new types (structure), whatever verifyPTx says (rules)', () => {
    const bytes = encodeUnsignedTx({ ...dumpTx, stake: [out(5n), out(4n)] });
    expect(decodeUnsignedTx(bytes, 'pvm').kind).toBe('AddPermissionlessDelegatorTx');
    expect(() => decodeUnsignedTx(concatBytes(bytes.subarray(0, 2), u32(43), bytes.subarray(6)), 'pvm')).toThrow(CodecError);
  });
});

function validatorOf(): PAddPermissionlessValidatorTx {
  return {
    ...base(ins(1)), kind: 'AddPermissionlessValidatorTx', validator: { nodeID: NODE, start: 1n, end: 2n, weight: 5n }, subnetID: ZERO_ID, signer: POP,
    stake: [out(5n)], validationRewardsOwner: one(ewoq.shortId), delegationRewardsOwner: one(ewoq.shortId), delegationShares: 20_000,
  };
}
