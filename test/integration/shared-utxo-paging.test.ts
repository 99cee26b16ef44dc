// UTXOs owned 1-of-2 by two of the wallet's addresses, one of which holds more than a page (1024)
// of UTXOs: avax.GetPaginatedUTXOs lists each shared UTXO once per call (under the address that
// sorts first) and skips it, uncounted, under the other. Every UTXO must still be read, at the
// full page size and at small ones (many page ends, each one a chance to lose the rest).
import { describe, expect, it } from 'vitest';
import { byteKey, toHex } from '../../src/core/bytes.js';
import { formatAddress, toApiHex } from '../../src/core/encoding.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { AVAX, avaxOf, freshWallet, genesisEngine, localNetwork } from './fixture.js';

const OWN = 1_300; // more than a page under the later address
const SHARED = 40;
const PER_TX = 650;
const UNIT = 10_000_000n;
const SHARED_UNIT = 3n * UNIT;

describe('UTXOs shared by two of the wallet addresses, one holding more than a page', () => {
  it('reads every UTXO and the exact AVAX total', async () => {
    const { ctx, client } = await localNetwork();
    const genesis = await genesisEngine();
    const w = await freshWallet();
    const keys = [...w.receive, ...w.change].sort((a, b) => (toHex(a.shortId) < toHex(b.shortId) ? -1 : 1));
    const [low, high] = [keys[0]!, keys[keys.length - 1]!]; // the node sorts addresses by their bytes
    const mine = makeOwners([high.shortId]);
    const both = makeOwners([low.shortId, high.shortId]);
    for (let sent = 0; sent < OWN; sent += PER_TX) {
      const n = Math.min(PER_TX, OWN - sent);
      await genesis.issueAndWait(await genesis.buildXSend(Array.from({ length: n }, () => ({ assetID: ctx.avaxAssetID, amount: UNIT, owners: mine }))));
    }
    // Last: the node lists an address's UTXOs newest first, so these lead the later address's list.
    await genesis.issueAndWait(await genesis.buildXSend(Array.from({ length: SHARED }, () => ({ assetID: ctx.avaxAssetID, amount: SHARED_UNIT, owners: both }))));
    const total = UNIT * BigInt(OWN) + SHARED_UNIT * BigInt(SHARED);

    // The skip, seen live: one call lists each shared UTXO once, under the address sorting first.
    const [lowX, highX] = [low, high].map((k) => formatAddress('X', ctx.hrp, k.shortId)) as [string, string];
    const shared = new Set((await client.getAllUtxos('X', [lowX])).encoded.map((b) => toApiHex(b)));
    expect(shared.size).toBe(SHARED);
    const alone = await client.avm.getUTXOs({ addresses: [highX], limit: 1024 });
    expect(alone.utxos.filter((h) => shared.has(h))).toHaveLength(SHARED); // all in its first page
    const first = await client.avm.getUTXOs({ addresses: [highX, lowX], limit: 1024 });
    expect(new Set(first.utxos).size).toBe(1024);
    expect(first.utxos.slice(0, SHARED).every((h) => shared.has(h))).toBe(true);
    expect(first.endIndex.address).toBe(highX);

    for (const limit of [1024, 1000, 500, 64, 41, 40, 39, 7]) {
      const r = await client.getAllUtxos('X', w.engine.addresses('X'), { limit });
      expect(new Set(r.utxos.map((u) => `${u.outputIndex}:${byteKey(u.txID)}`)).size, `limit ${limit}`).toBe(OWN + SHARED);
      expect(r.dropped).toEqual([]);
    }
    expect(await avaxOf(w.engine, 'X')).toBe(total);
    expect(total).toBeGreaterThan(AVAX);
  }, 300_000);
});
