// provenAsset: an asset's name, symbol and decimals from its CreateAssetTx, as a node shows it.
// The codec reads the decimals as any u8; a tx past avalanchego's 32 is no valid asset description.
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { encodeSignedTx } from '../../src/core/codec/codec.js';
import type { XCreateAssetTx } from '../../src/core/codec/types.js';
import { cb58Encode, toApiHex } from '../../src/core/encoding.js';
import { ValidationError } from '../../src/core/errors.js';
import { LOCAL } from '../../src/core/network.js';
import { NodeClient } from '../../src/core/node.js';
import { provenAsset } from '../../src/core/proof.js';
import { fixedCapState } from '../../src/core/tx/x.js';

/** A node whose getTx shows one CreateAssetTx with these decimals; its ID is the asset's. */
function nodeWithAsset(denomination: number, name = 'Wide', symbol = 'WID'): { client: NodeClient; assetID: string } {
  const owners = { locktime: 0n, threshold: 1, addresses: [new Uint8Array(20).fill(7)] };
  const tx: XCreateAssetTx = {
    vm: 'avm',
    kind: 'CreateAssetTx',
    networkID: 1337,
    blockchainID: new Uint8Array(32).fill(1),
    outputs: [],
    inputs: [],
    memo: new Uint8Array(),
    name,
    symbol,
    denomination,
    initialStates: [fixedCapState([{ owners, amount: 1n }])],
  };
  const bytes = encodeSignedTx({ unsigned: tx, credentials: [] });
  const fetch = async (_url: string, init: RequestInit) => {
    const body = JSON.parse(init.body as string) as { id: number };
    return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { tx: toApiHex(bytes), encoding: 'hex' } }), { headers: { 'content-type': 'application/json' } });
  };
  return { client: new NodeClient({ url: 'http://127.0.0.1:1', atomicApi: LOCAL.atomicApi, fetch }), assetID: cb58Encode(sha256(bytes)) };
}

describe('provenAsset', () => {
  it('reads the name, symbol and decimals its CreateAssetTx gives, up to 32 decimals', async () => {
    const { client, assetID } = nodeWithAsset(32);
    expect(await provenAsset(client, assetID)).toEqual({ name: 'Wide', symbol: 'WID', denomination: 32 });
  });

  it('refuses a CreateAssetTx with more than 32 decimals as no valid asset (shown as unknown, not formatted)', async () => {
    for (const denomination of [33, 255]) {
      const { client, assetID } = nodeWithAsset(denomination);
      const e = await provenAsset(client, assetID).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as Error).message).toMatch(/more than the 32/);
    }
  });

  it('refuses a name or symbol the network never accepts (hidden characters, a lower-case or long symbol): a made-up asset, shown as unknown', async () => {
    for (const [name, symbol] of [['A\u200Bvalanche', 'AVAX'], ['Gold', 'avax'], ['Gold', 'AVAXX'], [' Gold', 'GLD']] as const) {
      const { client, assetID } = nodeWithAsset(9, name, symbol);
      const e = await provenAsset(client, assetID).catch((x: unknown) => x);
      expect(e, `${name} ${symbol}`).toBeInstanceOf(ValidationError);
      expect((e as Error).message).toMatch(/name or symbol the network does not accept/);
    }
  });
});
