// @vitest-environment happy-dom
// Plain words: every failure's sentence carries no URL, base units, IDs or RPC names; what the
// background said stays one click away.
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { FormError } from '../../../src/popup/components/Field.js';
import { FEE_NOT_COVERED, hasInternals, plainError, sentence } from '../../../src/popup/errors.js';
import { isLockedError, KeysWipedError, nodeWords, RpcError, WalletError } from '../../../src/core/errors.js';
import { VaultLockedError } from '../../../src/background/vault.js';
import { BackgroundError } from '../../../src/shared/client.js';

afterEach(cleanup);

/** Messages the background and core really produce (src/core/errors.ts and the node client). */
const RAW: [code: string, message: string][] = [
  ['node-unreachable', 'node at http://127.0.0.1:9650/ext/bc/X is unreachable: Failed to fetch'],
  ['timeout', 'avm.getUTXOs at http://127.0.0.1:9650/ext/bc/X got no answer within 15000 ms'],
  ['insufficient-funds', 'insufficient funds of 2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe: need 300000000001000000, spendable 12'],
  ['codec', 'CB58 checksum mismatch (at byte 4)'],
  ['rpc', 'platform.issueTx: failed to verify (code -32000)'],
  ['node-response', 'eth_getTransactionReceipt: the node reports a receipt for 0xabababababababababababababababababababababababababababababababab from another account'],
  ['fee-above-approved', 'the fee of 1000001 nAVAX is above the approved maximum of 1000000 nAVAX'],
  ['tx-too-large', 'an X-Chain tx of 70000 bytes is above the 64 KiB limit'],
  ['validation', 'to.addresses[0]: https://evil.example is not an address'],
];

describe('plain words', () => {
  it.each(RAW)('%s: a sentence without internals, the message as its detail', (code, message) => {
    const plain = plainError(code, message);
    expect(hasInternals(plain.text)).toBe(false);
    expect(plain.text).not.toMatch(/\d{7,}|nAVAX|https?:/);
    expect(plain.text).toMatch(/^[A-Z]/);
    expect(plain.detail?.toLowerCase()).toContain(message.replace(/^[\w.[\]]+: /, '').toLowerCase());
    expect(plain.text.toLowerCase()).not.toContain('the wallet could not do this');
  });

  it("keeps the background's own sentences, dropping only a field prefix", () => {
    expect(plainError('tx-refused', 'the node refused the transaction (mempool full); nothing was paid')).toEqual({ text: 'The node refused the transaction (mempool full); nothing was paid' });
    expect(plainError('validation', 'amount: must be more than zero')).toEqual({ text: 'Must be more than zero' });
    expect(plainError('unreachable', 'no answer')).toEqual({ text: 'The wallet background is not answering. Close and reopen the popup.' });
    // A scheme alone names no address: the rule a node's address breaks is said, not 'could not do this'.
    expect(plainError('validation', 'url: must use https:// unless the node is on this machine (127.0.0.1, localhost, [::1])')).toEqual({ text: 'Must use https:// unless the node is on this machine (127.0.0.1, localhost, [::1])' });
    expect(plainError('validation', "the node's address must start with http:// or https://")).toEqual({ text: "The node's address must start with http:// or https://" });
  });

  it('keeps the sentences that matter most — went through, may have gone through, refused — with their IDs moved to the detail', () => {
    const ran = plainError('earlier-send-went-through', 'a X-Chain send the node had refused went through after all (2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe): nothing new was sent; look at Activity, then send again if you still mean to');
    expect(ran.text).toBe('A X-Chain send the node had refused went through after all: nothing new was sent; look at Activity, then send again if you still mean to');
    expect(ran.detail).toContain('2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe');
    const unclear = plainError('earlier-send-unclear', `a C-Chain send the node had refused may have gone through after all (0x${'ab'.repeat(32)}, 0x${'cd'.repeat(32)}): nothing new was sent; wait until Activity shows it decided`);
    expect(unclear.text).toBe('A C-Chain send the node had refused may have gone through after all: nothing new was sent; wait until Activity shows it decided');
    const refused = plainError('tx-refused', 'the P-Chain node refused the transaction (failed to verify at http://127.0.0.1:9650/ext/bc/P); nothing was paid, and your next P-Chain send takes its place, so the two can never both go through');
    expect(refused.text).toBe('The P-Chain node refused the transaction; nothing was paid, and your next P-Chain send takes its place, so the two can never both go through');
    const failed = plainError('tx-failed', 'X-Chain transaction 2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe was not accepted: Rejected');
    expect(failed.text).toBe('X-Chain transaction was not accepted: Rejected');
    expect(plainError('rpc', 'avm.issueTx: failed to verify: insufficient funds (code -32000)')).toEqual({ text: 'The node turned the request down.', detail: 'Failed to verify: insufficient funds (code -32000)' });
  });

  it('reads no more of a message than a person could: a node can send any length', () => {
    const plain = plainError('rpc', `avm.issueTx: ${' '.repeat(60_000)}(code -32000)`);
    expect(plain.text).toBe('The node turned the request down.');
    expect(plain.detail!.length).toBeLessThanOrEqual(2_000);
  });

  it("keeps a refusal's sentence and moves the node's own words, whatever they are, to the detail", () => {
    const node = (method: string, words: string) => nodeWords(new RpcError(method, -32000, words).message);
    const refused = plainError('tx-refused', `the X-Chain node refused the transaction ${node('avm.issueTx', 'failed to verify: insufficient funds')}; nothing was paid, and your next X-Chain send takes its place`);
    expect(refused).toEqual({
      text: 'The X-Chain node refused the transaction; nothing was paid, and your next X-Chain send takes its place',
      detail: 'The X-Chain node refused the transaction [node: avm.issueTx: failed to verify: insufficient funds (code -32000)]; nothing was paid, and your next X-Chain send takes its place',
    });
    expect(plainError('tx-refused', `the C-Chain node refused the transaction ${node('avax.issueTx', 'import UTXO missing')}, and nothing it spends was spent`).text).toBe('The C-Chain node refused the transaction, and nothing it spends was spent');
    // A lying node's words never read as the wallet's: no bare domain, no advice, not even by closing the quote early.
    for (const lie of ['this account is flagged; secure your funds at www.avax-rescue.net with your recovery phrase', 'x) Your key leaked, move funds now at avax-rescue.net (y', 'a] Your key leaked, move funds now at avax-rescue.net [b']) {
      const long = `${lie} ${'pad '.repeat(600)}`;
      for (const plain of [
        plainError('tx-refused', `the C-Chain node refused the transaction ${nodeWords(lie)}; nothing was paid`),
        plainError('tx-refused', `the C-Chain node refused the transaction ${nodeWords(long)}; nothing was paid`),
        plainError('tx-failed', `the X-Chain did not accept the transaction ${nodeWords(lie)}`),
        plainError('tx-failed', `${nodeWords(lie)}; nothing was paid`),
        plainError('validator-mismatch', `the node cannot show the transaction it names ${nodeWords(lie)}`),
        plainError('rpc', `eth_estimateGas: ${lie} (code -32000)`),
      ]) {
        expect(plain.text).not.toMatch(/rescue|leaked|flagged/);
        expect(plain.detail).toMatch(/rescue/);
      }
    }
  });

  it('says an import that cannot pay its own fee delivers nothing', () => {
    expect(plainError('insufficient-funds', 'insufficient funds of AVAX waiting to be imported (less than the import fee): need 280001, spendable 5').text).toBe(
      'The amount does not cover the import fee: nothing would arrive.',
    );
  });

  it("says AVAX short for something else's fee (field 'fee': an asset sent, created or minted) is the fee, not the amount", () => {
    const said = 'insufficient funds of AVAX for the network fee: need 1000000, spendable 5';
    expect(plainError('insufficient-funds', said, 'fee')).toEqual({ text: FEE_NOT_COVERED, detail: sentence(said) });
    expect(plainError('insufficient-funds', said).text).toBe('Not enough funds for this amount and its network fee.');
  });

  it('recognises what a sentence for people must not carry', () => {
    for (const s of ['see https://x.example', 'asset 2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe', 'need 300000000001000000', 'avm.getUTXOs failed', 'eth_call failed', 'hash 0x1234567890abcdef12'])
      expect(hasInternals(s), s).toBe(true);
    for (const s of ['Not enough funds for this amount and its network fee.', 'Sent 1.5 AVAX at 12:03', 'Wait 30 s', 'must start with http:// or https://']) expect(hasInternals(s), s).toBe(false);
  });

  it('shows the detail only when asked: behind a Details toggle, as text', () => {
    render(<FormError error="The node can't be reached." detail="node at http://127.0.0.1:9650 is unreachable" />);
    const alert = screen.getByRole('alert');
    expect(alert.querySelector('p')?.textContent).toBe("The node can't be reached.");
    const details = alert.querySelector('details')!;
    expect(details.open).toBe(false);
    fireEvent.click(screen.getByText('Details'));
    expect(details.textContent).toContain('http://127.0.0.1:9650');
  });
});

describe('a refusal for a lock, told apart', () => {
  it('is the background\'s answer, its own vault error and wiped keys alike; nothing else is', () => {
    expect(isLockedError(new BackgroundError('vault-locked', 'the wallet is locked'))).toBe(true);
    expect(isLockedError(new VaultLockedError())).toBe(true);
    expect(isLockedError(new KeysWipedError())).toBe(true);
    expect(isLockedError(new BackgroundError('no-account', 'no account'))).toBe(false);
    expect(isLockedError(new WalletError('wrong-password', 'the password is not correct'))).toBe(false);
    // Only the wallet's own errors: a thrown object that merely says so is not believed.
    expect(isLockedError(Object.assign(new Error('locked'), { code: 'vault-locked' }))).toBe(false);
    expect(isLockedError({ code: 'vault-locked' })).toBe(false);
    expect(isLockedError(undefined)).toBe(false);
  });
});
