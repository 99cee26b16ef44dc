// A send built on funds a move's export then took (the move journaled its export after the send's
// engine read the UTXOs, EngineOptions.spendNever being read at its opening): refused before it is
// signed, so the two never race with nothing linking them (Delivery.beforeSending, checkNotMoving).
import { describe, expect, it, vi } from 'vitest';
import { Delivery } from '../../src/background/delivery.js';
import { memoryStores } from '../../src/background/storage.js';
import { TransferJournal, type TransferRecord } from '../../src/background/transfer-journal.js';
import { toHex } from '../../src/core/bytes.js';
import { decodeChainTx } from '../../src/core/tx-fate.js';
import { pTx } from './outbox-test-kit.js';
import { utxo } from './pvm-test-kit.js';

const funds = utxo(5_000_000_000n, undefined, 0);
const other = utxo(5_000_000_000n, undefined, 1);

async function sendWhileMoving(record: TransferRecord | undefined) {
  const journal = new TransferJournal(memoryStores().local, 'transfers:test');
  if (record) await journal.put(record);
  const sign = vi.fn(() => {
    throw new Error('signed');
  });
  // An empty outbox and Activity: nothing refused before, so a send not in a move's way goes on to signing.
  const engines = { journal: async () => journal, outbox: async () => ({ list: async () => [] }), caches: { get: async () => ({ activity: [] }) } };
  const delivery = new Delivery(engines as never);
  const send = pTx([funds]);
  const built = { tx: decodeChainTx('P', send.bytes), fee: 1_000_000n, spent: [funds] };
  const ctx = { engine: { sign }, preset: { id: 'n' }, account: { id: 'a', kind: 'hd' }, cache: { receiveNext: 1, changeNext: 0 } };
  const outcome = await delivery.issue(ctx as never, 'send', built as never, '1000000').catch((e: unknown) => e);
  return { outcome, sign };
}

const moving = (spent: typeof funds, state: TransferRecord['state'] = 'export-signed'): TransferRecord => {
  const exported = pTx([spent]);
  return { id: 'm', from: 'P', to: 'X', amount: '1000000000', state, imports: [], importAttempts: 0, createdAt: 1, updatedAt: 1, export: { chain: 'P', txID: exported.txID, signedHex: toHex(exported.bytes), fee: '1000000', accepted: false } };
};

describe("a send racing a move's export for the same funds", () => {
  it('is refused before it is signed while the export is undecided, in words', async () => {
    const { outcome, sign } = await sendWhileMoving(moving(funds));
    expect(outcome).toMatchObject({ code: 'tx-processing', message: expect.stringMatching(/^a move between chains is spending some of the same funds and is not decided yet\. Nothing was sent/) });
    expect(sign).not.toHaveBeenCalled();
  });

  it('goes on (to signing) when the export spends other funds, or is decided', async () => {
    for (const record of [moving(other), { ...moving(funds, 'export-accepted'), export: { ...moving(funds).export!, accepted: true } }, undefined]) {
      const { outcome, sign } = await sendWhileMoving(record);
      expect(sign).toHaveBeenCalledOnce();
      expect((outcome as Error).message).toBe('signed');
    }
  });
});
