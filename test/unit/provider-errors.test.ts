// What a site is told when its request fails at the node: the node's code, message and data, cut
// to what a site needs, since each answer is also kept in the request log (storage.session, whose
// quota every site's approvals share).
import { describe, expect, it } from 'vitest';
import { providerErrorInfo } from '../../src/background/provider-context.js';
import { NodeResponseError, RpcError, WalletError } from '../../src/core/errors.js';

describe("a node's error passed on to a site", () => {
  it('keeps a revert and its data as the node gave them', () => {
    const revert = new RpcError('eth_estimateGas', 3, 'execution reverted: not owner', '0x08c379a0');
    expect(providerErrorInfo(revert, 'eth_sendTransaction')).toEqual({ code: 3, message: 'execution reverted: not owner', data: '0x08c379a0' });
  });

  it('cuts a message of megabytes to 1,000 characters and drops data over 16 KB', () => {
    const huge = new RpcError('eth_sendRawTransaction', -32000, 'x'.repeat(3_000_000), { blob: 'y'.repeat(3_000_000) });
    const info = providerErrorInfo(huge, 'eth_sendTransaction');
    expect(info).toEqual({ code: -32000, message: 'x'.repeat(1000) });
    expect(JSON.stringify(info).length).toBeLessThan(1100);
  });

  it("cuts the node's words inside a wallet error too, and drops data too deeply nested to write", () => {
    expect(providerErrorInfo(new NodeResponseError(`eth_sendRawTransaction: the answer's id is ${'A'.repeat(5_000_000)}`), 'eth_sendTransaction').message).toHaveLength(1000);
    let deep: unknown = 0;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(providerErrorInfo(new RpcError('eth_sendRawTransaction', -32000, 'failed', deep), 'eth_sendTransaction')).toEqual({ code: -32000, message: 'failed' });
  });
});

describe("a damaged record in the wallet's storage", () => {
  it('is said to a site in fixed words: the record and the account it names stay in the wallet', () => {
    const damaged = new WalletError('storage-corrupt', 'an older record of sends for "My savings" cannot be read, so the wallet stops rather than risk paying twice');
    expect(providerErrorInfo(damaged, 'avalanche_sendTransaction')).toEqual({ code: -32603, message: "the wallet's storage is damaged, so it stopped: open the wallet", data: { reason: 'storage-corrupt' } });
  });
});
