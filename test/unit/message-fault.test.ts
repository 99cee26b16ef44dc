// Message and EVM tx signing under a faulty signer: the signing is wrapped so that it can flip one
// bit of the signature it returns, as a glitch would. A deterministic signature that is wrong must
// never leave the wallet (two of them for one message can give the key away).
import { Transaction } from 'micro-eth-signer';
import { describe, expect, it, vi } from 'vitest';
import { SigningError } from '../../src/core/errors.js';
import { keyPairFromSecret } from '../../src/core/keys.js';
import { signAvalancheMessage, signPersonalMessage, signTypedData } from '../../src/core/message.js';
import { signEvmTx } from '../../src/core/tx/c.js';

const fault = vi.hoisted(() => ({ on: false }));

/** Flips a bit of r in a 0x-hex or raw signature when the fault is on. */
function glitch<T extends string | Uint8Array>(sig: T): T {
  if (!fault.on) return sig;
  if (typeof sig === 'string') return (sig.slice(0, 10) + (sig[10] === '0' ? '1' : '0') + sig.slice(11)) as T;
  const copy = sig.slice();
  copy[3]! ^= 0x04;
  return copy as T;
}

vi.mock('../../src/core/keys.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/core/keys.js')>();
  return { ...real, signDigest: (secret: Uint8Array, digest: Uint8Array) => glitch(real.signDigest(secret, digest)) };
});

vi.mock('micro-eth-signer', async (importOriginal) => {
  const real = await importOriginal<typeof import('micro-eth-signer')>();
  const eip191Signer = { ...real.eip191Signer, sign: (...args: Parameters<typeof real.eip191Signer.sign>) => glitch(real.eip191Signer.sign(...args)) };
  const signTyped = (...args: Parameters<typeof real.signTyped>) => glitch(real.signTyped(...args));
  return { ...real, eip191Signer, signTyped };
});

// An EVM tx signing glitch that gave another valid signature: as if another key had signed.
const realSignBy = Transaction.prototype.signBy;
vi.spyOn(Transaction.prototype, 'signBy').mockImplementation(function (this: InstanceType<typeof Transaction>, ...args: Parameters<typeof realSignBy>) {
  return realSignBy.apply(this, fault.on ? [new Uint8Array(32).fill(7), false] : args) as ReturnType<typeof realSignBy>;
});

const key = keyPairFromSecret(new Uint8Array(32).fill(3));
const message = new TextEncoder().encode('hello');
const typed = {
  types: { EIP712Domain: [{ name: 'name', type: 'string' }], Mail: [{ name: 'contents', type: 'string' }] },
  primaryType: 'Mail',
  domain: { name: 'test' },
  message: { contents: 'hi' },
};
const evmTx = { chainId: 43112n, nonce: 0n, to: '0x' + '11'.repeat(20), value: 1n, gasLimit: 21_000n, maxFeePerGas: 10n, maxPriorityFeePerGas: 1n };

describe('a faulty signing never leaves the wallet', () => {
  it('signs each kind when the signer is healthy', () => {
    fault.on = false;
    expect(signAvalancheMessage(key.secret, message)).toMatch(/^[1-9A-HJ-NP-Za-km-z]+$/);
    expect(signPersonalMessage(key.secret, message)).toMatch(/^0x[0-9a-f]{130}$/);
    expect(signTypedData(key.secret, typed)).toMatch(/^0x[0-9a-f]{130}$/);
    expect(signEvmTx(evmTx, key.secret).rawTx).toMatch(/^0x02/);
  });

  it('refuses each kind when the signature came out wrong', () => {
    fault.on = true;
    expect(() => signAvalancheMessage(key.secret, message)).toThrow(SigningError);
    expect(() => signPersonalMessage(key.secret, message)).toThrow(SigningError);
    expect(() => signTypedData(key.secret, typed)).toThrow(SigningError);
    expect(() => signEvmTx(evmTx, key.secret)).toThrow(SigningError);
    fault.on = false;
  });
});
