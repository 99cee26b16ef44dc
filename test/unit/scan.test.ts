import { describe, expect, it } from 'vitest';
import { encodeUtxo } from '../../src/core/codec/index.js';
import { parseAddress, toApiHex } from '../../src/core/encoding.js';
import { keyPairFromSecret } from '../../src/core/keys.js';
import { NodeClient } from '../../src/core/node.js';
import { MAX_SCANNED_ADDRESSES, scanBranch } from '../../src/core/scan.js';

/** A node that claims every address it is asked about holds one UTXO. */
function nodeSayingEverythingIsUsed(): NodeClient {
  let n = 0;
  const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const { id, params } = JSON.parse(String(init?.body)) as { id: number; params: { addresses: string[]; sourceChain?: string } };
    const utxos = params.sourceChain
      ? []
      : params.addresses.map((a) =>
          toApiHex(
            encodeUtxo(
              { txID: new Uint8Array(32).fill(++n % 256), outputIndex: n, assetID: new Uint8Array(32), output: { kind: 'TransferOutput', amount: 1n, owners: { locktime: 0n, threshold: 1, addresses: [parseAddress(a).bytes] } } },
              'avm',
            ),
          ),
        );
    const result = { numFetched: String(utxos.length), utxos, endIndex: { address: params.addresses.at(-1), utxo: '11111111111111111111111111111111LpoYY' }, encoding: 'hex' };
    return new Response(JSON.stringify({ jsonrpc: '2.0', id, result }), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return new NodeClient({ url: 'http://127.0.0.1:9', atomicApi: { namespace: 'avax', path: '/ext/bc/C/avax' }, fetch });
}

describe('address scanning against an implausible node', () => {
  it(`stops with a clear error after ${MAX_SCANNED_ADDRESSES} addresses instead of running forever`, async () => {
    const derive = (i: number) => keyPairFromSecret(Uint8Array.from({ length: 32 }, (_, j) => (j === 0 ? 1 : j === 1 ? i >> 8 : j === 2 ? i & 0xff : 0)));
    await expect(scanBranch(nodeSayingEverythingIsUsed(), 'local', derive)).rejects.toMatchObject({ code: 'scan-limit' });
  });
});
