// Network presets: what the wallet expects of each network it knows (IDs, hrp, URLs) and of a
// custom one. A file of its own so network-staking.ts can key on them without importing
// discovery (network.ts, which checks a node against them and re-exports both).
import type { AtomicApiConfig, ChainAlias } from './node.js';

export type NetworkKind = 'mainnet' | 'fuji' | 'local' | 'custom';

/** IDs fixed by a network's genesis; a node serving anything else is not that network. */
export interface KnownIds {
  xChainID: string;
  cChainID: string;
  avaxAssetID: string;
}

export interface NetworkPreset {
  kind: NetworkKind;
  name: string;
  url: string;
  /** Expected network ID; undefined for custom networks (taken from the node). */
  networkID?: number;
  /** Expected hrp; for custom networks optional (if given it must match the node's network ID). */
  hrp?: string;
  /** Expected C-Chain EVM chain ID; undefined for custom networks. */
  evmChainID?: number;
  /** Checked against the node for mainnet and fuji. */
  known?: KnownIds;
  atomicApi: AtomicApiConfig;
  /** Block explorer base URL, where one exists. */
  explorerUrl?: string;
}

/** The P-Chain ID is 32 zero bytes on every network. */
export const P_CHAIN_ID = '11111111111111111111111111111111LpoYY';
/** AVAX has 9 decimals (1 AVAX = 10^9 nAVAX) on X, P and the atomic side of C. */
export const AVAX_DENOMINATION = 9;

export const DEFAULT_ATOMIC_API: AtomicApiConfig = { namespace: 'avax', path: '/ext/bc/C/avax' };

export const MAINNET: NetworkPreset = {
  kind: 'mainnet',
  name: 'Mainnet',
  url: 'https://api.avax.network',
  networkID: 1,
  hrp: 'avax',
  evmChainID: 43114,
  known: {
    xChainID: '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
    cChainID: '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5',
    avaxAssetID: 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z',
  },
  atomicApi: DEFAULT_ATOMIC_API,
  explorerUrl: 'https://subnets.avax.network',
};

export const FUJI: NetworkPreset = {
  kind: 'fuji',
  name: 'Fuji testnet',
  url: 'https://api.avax-test.network',
  networkID: 5,
  hrp: 'fuji',
  evmChainID: 43113,
  known: {
    xChainID: '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm',
    cChainID: 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp',
    avaxAssetID: 'U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK',
  },
  atomicApi: DEFAULT_ATOMIC_API,
  explorerUrl: 'https://subnets-test.avax.network',
};

/**
 * The network ID of a local Helicon network (`npm run node`). `--network-id=local` (12345) runs
 * pre-Helicon rules and takes no upgrade file, so Helicon runs locally under a custom ID, whose
 * addresses use the hrp `custom` (docs/test-network.md). A 12345 node can be added as a custom network.
 */
export const LOCAL_NETWORK_ID = 1337;

/** A local Helicon network: its chain and asset IDs depend on the genesis, so they are asked, not fixed. */
export const LOCAL: NetworkPreset = {
  kind: 'local',
  name: 'Local network',
  url: 'http://127.0.0.1:9650',
  networkID: LOCAL_NETWORK_ID,
  hrp: 'custom',
  evmChainID: 43112,
  atomicApi: DEFAULT_ATOMIC_API,
};


export const PRESETS: Readonly<Record<Exclude<NetworkKind, 'custom'>, NetworkPreset>> = {
  mainnet: MAINNET,
  fuji: FUJI,
  local: LOCAL,
};

/** A user-supplied node: identity is taken from the node (hrp checked if given). */
export function customPreset(
  url: string,
  options: { name?: string; hrp?: string; atomicApi?: AtomicApiConfig; explorerUrl?: string } = {},
): NetworkPreset {
  const preset: NetworkPreset = {
    kind: 'custom',
    name: options.name ?? 'Custom network',
    url,
    atomicApi: options.atomicApi ?? DEFAULT_ATOMIC_API,
  };
  if (options.hrp !== undefined) preset.hrp = options.hrp;
  if (options.explorerUrl !== undefined) preset.explorerUrl = options.explorerUrl;
  return preset;
}

/** The bech32 hrp a network ID uses (docs/protocol.md §Encodings). */
export function hrpForNetworkId(networkID: number): string {
  switch (networkID) {
    case 1:
      return 'avax';
    case 2:
      return 'cascade';
    case 3:
      return 'denali';
    case 4:
      return 'everest';
    case 5:
      return 'fuji';
    case 10:
      return 'testing';
    case 12345:
      return 'local';
    default:
      return 'custom';
  }
}

/** Explorer link for a tx, when the preset has an explorer. */
export function explorerTxUrl(preset: NetworkPreset, chain: ChainAlias, txID: string): string | undefined {
  if (!preset.explorerUrl) return undefined;
  const segment = chain === 'X' ? 'x-chain' : chain === 'P' ? 'p-chain' : 'c-chain';
  return `${preset.explorerUrl.replace(/\/+$/, '')}/${segment}/tx/${encodeURIComponent(txID)}`;
}
