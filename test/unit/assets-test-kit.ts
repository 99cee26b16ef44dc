// A fake of what the asset studio service (src/background/services/assets.ts) runs on: one account
// (key `me`) whose X-Chain UTXOs are `utxos`, at chain time `now`; what it builds is recorded, and
// every issue answers at once. For the tests of which UTXO a mint or an NFT send takes.
import { vi } from 'vitest';
import type { AccountEngines } from '../../src/background/account-engines.js';
import type { Delivery } from '../../src/background/delivery.js';
import { AssetsService } from '../../src/background/services/assets.js';
import type { NetworksService } from '../../src/background/services/networks.js';
import type { Utxo } from '../../src/core/codec/types.js';
import { formatAddress } from '../../src/core/encoding.js';
import type { WalletEngine } from '../../src/core/engine.js';
import { ctx } from './x-test-kit.js';

export interface AssetsServiceFake {
  me: Uint8Array;
  utxos: Utxo[];
  /** Those no tx proves (WalletEngine.isUnproven). */
  unproven?: Utxo[];
  now?: bigint;
  /** The names of assets; default: every asset is "Gold" (GLD). */
  networks?: Pick<NetworksService, 'assetDescriptionOrUnknown'>;
}

export function assetsService({ me, utxos, unproven = [], now = 1_800_000_000n, networks }: AssetsServiceFake) {
  const built: Utxo[] = [];
  const engine = {
    ctx,
    addresses: () => [formatAddress('X', ctx.hrp, me)],
    now: async () => now,
    utxos: async () => utxos,
    assetUtxos: async () => utxos,
    isUnproven: (u: Utxo) => unproven.includes(u),
    buildXMint: async (u: Utxo) => built.push(u),
    buildXNftMint: async (u: Utxo) => built.push(u),
    buildXNftTransfer: async (u: Utxo) => built.push(u),
  } as unknown as WalletEngine;
  const issue = vi.fn(async () => ({ txID: 'tx', fee: 1_000_000n }));
  const engines = { open: async () => ({ engine, preset: {} }) } as unknown as AccountEngines;
  const names = networks ?? { assetDescriptionOrUnknown: async () => ({ name: 'Gold', symbol: 'GLD', denomination: 0 }) };
  return { assets: new AssetsService(engines, names as NetworksService, { issue } as unknown as Delivery), built, issue };
}
