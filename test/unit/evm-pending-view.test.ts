// evm.pending: a waiting token call carries what Activity knows of it (token, amount, recipient or
// spender), so its speed-up review can say what it does instead of "To <the token's contract>".
import { describe, expect, it } from 'vitest';
import type { AccountEngines } from '../../src/background/account-engines.js';
import type { Delivery } from '../../src/background/delivery.js';
import { outboxEntry } from '../../src/background/outbox.js';
import { EvmTxService } from '../../src/background/services/evm-txs.js';
import { fromHex } from '../../src/core/bytes.js';
import { signEvmTx } from '../../src/core/tx/c.js';

const SECRET = fromHex('11'.repeat(32));
const TOKEN = '0x52C84043CD9c865236f11d9Fc9F56aa003c1f922';
const BOB = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';

function service(entries: ReturnType<typeof outboxEntry>[]) {
  const engine = { evmAddress: '0x0', node: { eth: { getTransactionCount: async () => 0n } } };
  const engines = { open: async () => ({ engine, preset: { id: 'net' }, account: { id: 'a' } }), outbox: () => ({ list: async () => entries }) } as unknown as AccountEngines;
  return new EvmTxService(engines, {} as Delivery);
}

describe('evm.pending', () => {
  it('gives a token call its token, amount and counterparty; a plain send none', async () => {
    const tx = (nonce: bigint, to: string) => signEvmTx({ chainId: 43112n, nonce, to, value: 0n, gasLimit: 60_000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 0n }, SECRET);
    const token = { address: TOKEN, symbol: 'TUSD', decimals: 6, standard: 'erc20' as const };
    const a = tx(0n, TOKEN);
    const b = tx(1n, BOB);
    const { txs } = await service([
      outboxEntry('C', a.hash, fromHex(a.rawTx), { txID: a.hash, chain: 'C', kind: 'send', status: 'pending', amount: '2500000', to: BOB, token, createdAt: 1 }),
      outboxEntry('C', b.hash, fromHex(b.rawTx), { txID: b.hash, chain: 'C', kind: 'send', status: 'pending', amount: '1', to: BOB, createdAt: 2 }),
    ]).evmPending();
    expect(txs[0]).toMatchObject({ to: TOKEN, kind: 'send', token, amount: '2500000', counterparty: BOB });
    expect(txs[1]!.token).toBeUndefined();
    expect(txs[1]!.counterparty).toBeUndefined();
  });
});
