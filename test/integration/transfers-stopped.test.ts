// A resume pass (an alarm's, an unlock's) under way when a restore stops moves: it runs no further
// move, so none of them is signed or sent again while the vault is replaced.
import { describe, expect, it } from 'vitest';
import type { TransferRecord } from '../../src/background/transfer-journal.js';
import { AVAX } from './fixture.js';
import { fundedWallet } from './wallet-fixture.js';

const move = (id: string, from: 'X' | 'P', to: 'X' | 'P'): TransferRecord => ({ id, from, to, amount: AVAX.toString(), state: 'pending', imports: [], importAttempts: 0, createdAt: 1, updatedAt: 1 });

describe('a resume pass when a restore stops moves', () => {
  it('runs none of its next moves: the first stops at its next step, the second is not touched', async () => {
    let stop: (() => void) | undefined;
    // Once armed, the wallet's first question to the node is when the restore stops moves.
    const gated: typeof fetch = (input, init) => {
      stop?.();
      return fetch(input, init);
    };
    const { wallet, account } = await fundedWallet({ x: 10n * AVAX, p: 10n * AVAX }, { fetch: gated });
    const journal = await wallet.transfers.journal((await wallet.accounts.walletStatus()).network.id, account.id);
    // On two chains, so neither's export waits for the other's.
    await journal.put(move('first', 'X', 'P'));
    await journal.put(move('second', 'P', 'X'));
    let replaced!: Promise<string>;
    stop = () => {
      stop = undefined;
      replaced = wallet.transfers.stoppedWhile(async () => undefined, async () => 'replaced');
    };
    await wallet.transfers.resumeTransfers().catch(() => undefined);
    expect(await replaced).toBe('replaced');
    const states = Object.fromEntries((await journal.list()).map((r) => [r.id, r.state]));
    expect(states).toEqual({ first: expect.stringMatching(/^(pending|export-signed)$/), second: 'pending' });
    expect((await journal.get('second'))?.updatedAt).toBe(1);
  });
});
