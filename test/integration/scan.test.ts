import { describe, expect, it } from 'vitest';
import { toHex } from '../../src/core/bytes.js';
import { deriveXpKey, generateMnemonic, HdRoot, mnemonicToSeed } from '../../src/core/keys.js';
import { scanBranch } from '../../src/core/scan.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { buildXExport } from '../../src/core/tx/x.js';
import { AVAX, genesisEngine, localNetwork } from './fixture.js';

describe('gap-limit scanning of an HD account', () => {
  it('finds addresses used on X, on P and only in atomic memory, and stops after 20 unused in a row', async () => {
    const { client, ctx } = await localNetwork();
    const genesis = await genesisEngine();
    const root = HdRoot.fromSeed(await mnemonicToSeed(generateMnemonic(12)));
    const receive = (i: number) => deriveXpKey(root, 0, 0, i);
    const owners = (i: number) => makeOwners([receive(i).shortId]);

    await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 1n * AVAX, owners: owners(0) }]));
    await genesis.issueAndWait(await genesis.buildPSend(1n * AVAX, owners(7)));
    // Index 25 only has funds waiting in the P-Chain's atomic memory (exported from X, never imported).
    const pool = await genesis.spendable('X');
    await genesis.issueAndWait(buildXExport({ ctx, pool, changeOwners: genesis.changeOwners, destination: 'P', amount: 1n * AVAX, to: owners(25) }));
    // Index 50 is more than 20 unused addresses past 25: a wallet following BIP-44 does not see it.
    await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 1n * AVAX, owners: owners(50) }]));

    const scan = await scanBranch(client, ctx.hrp, receive);
    expect(scan.nextIndex).toBe(26);
    expect(scan.keys.map((k) => toHex(k.shortId))).toEqual(Array.from({ length: 26 }, (_, i) => toHex(receive(i).shortId)));

    // An address in the wallet's own history counts as used even with no UTXOs left, extending the scan.
    const withHistory = await scanBranch(client, ctx.hrp, receive, { knownUsed: new Set([toHex(receive(40).shortId)]) });
    expect(withHistory.nextIndex).toBe(51);

    const empty = await scanBranch(client, ctx.hrp, (i) => deriveXpKey(root, 0, 1, i));
    expect(empty).toEqual({ keys: [], nextIndex: 0 });
  });
});
