// Network presets and discovery: what the wallet expects of a network, and how it checks that the
// node it talks to really is that network before trusting it with a single transaction.
import { parseId } from './encoding.js';
import { NodeIdentityError, NodeResponseError, ValidationError } from './errors.js';
import { provenAsset } from './proof.js';
import type { AtomicApiConfig, CallOptions, ChainAlias, NodeClient } from './node.js';
import type { ChainContext } from './tx/context.js';
import { checkFeeInput, MAX_X_CREATE_ASSET_FEE, MAX_X_TX_FEE } from './fee-limits.js';

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

/** The public Avalanche networks: a node that shares any identity of one must be all of it. */
const PUBLIC_NETWORKS: readonly NetworkPreset[] = [MAINNET, FUJI];

/**
 * EVM chain IDs of other well-known chains. The wallet's EVM key is the one other wallets derive
 * for the same phrase (m/44'/60'/0'/0/n), so a C-Chain tx signed with one of these IDs would be a
 * valid tx on that chain.
 */
const OTHER_CHAINS: ReadonlyMap<number, string> = new Map([
  [1, 'Ethereum'],
  [10, 'OP Mainnet'],
  [56, 'BNB Smart Chain'],
  [100, 'Gnosis'],
  [137, 'Polygon'],
  [250, 'Fantom'],
  [324, 'zkSync Era'],
  [8453, 'Base'],
  [17000, 'Holesky'],
  [42161, 'Arbitrum One'],
  [59144, 'Linea'],
  [11155111, 'Sepolia'],
]);

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

/** Everything the wallet learned (and checked) about the network behind a node. */
export interface NetworkIdentity {
  kind: NetworkKind;
  url: string;
  networkID: number;
  hrp: string;
  xChainID: string;
  pChainID: string;
  cChainID: string;
  avaxAssetID: string;
  avaxSymbol: string;
  avaxName: string;
  avaxDenomination: number;
  stakingAssetID: string;
  /** X-Chain static fees, nAVAX. */
  xTxFee: bigint;
  xCreateAssetTxFee: bigint;
  evmChainID: number;
}

function mismatch(preset: NetworkPreset, what: string, expected: string | number, got: string | number): NodeIdentityError {
  return new NodeIdentityError(
    `the node at ${preset.url} is not ${preset.name}: its ${what} is ${got}, expected ${expected}`,
  );
}

/**
 * Asks the node who it is and checks the answer against the preset. Throws NodeIdentityError
 * when the node contradicts the preset (network ID, EVM chain ID, known chain/asset IDs, hrp) or
 * itself (staking asset ≠ AVAX).
 */
export async function discoverNetwork(
  client: NodeClient,
  preset: NetworkPreset,
  opts: CallOptions = {},
): Promise<NetworkIdentity> {
  const [networkID, xChainID, pChainID, cChainID, avax, stakingAssetID, fees, evmChainIdBig] = await Promise.all([
    client.info.getNetworkID(opts),
    client.info.getBlockchainID('X', opts),
    client.info.getBlockchainID('P', opts),
    client.info.getBlockchainID('C', opts),
    client.avm.getAssetDescription('AVAX', opts),
    client.platform.getStakingAssetID(opts),
    client.avm.getTxFee(opts),
    client.eth.chainId(opts),
  ]);
  if (evmChainIdBig > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new NodeResponseError(`eth_chainId: ${evmChainIdBig} is not a usable chain ID`);
  }
  const evmChainID = Number(evmChainIdBig);

  if (preset.networkID !== undefined && networkID !== preset.networkID) {
    throw mismatch(preset, 'network ID', preset.networkID, networkID);
  }
  const hrp = hrpForNetworkId(networkID);
  if (preset.hrp !== undefined && preset.hrp !== hrp) {
    throw mismatch(preset, 'address prefix (hrp, from network ID ' + networkID + ')', preset.hrp, hrp);
  }
  if (preset.evmChainID !== undefined && evmChainID !== preset.evmChainID) {
    throw mismatch(preset, 'C-Chain EVM chain ID', preset.evmChainID, evmChainID);
  }
  if (pChainID !== P_CHAIN_ID) throw mismatch(preset, 'P-Chain ID', P_CHAIN_ID, pChainID);
  if (preset.known) {
    if (xChainID !== preset.known.xChainID) throw mismatch(preset, 'X-Chain ID', preset.known.xChainID, xChainID);
    if (cChainID !== preset.known.cChainID) throw mismatch(preset, 'C-Chain ID', preset.known.cChainID, cChainID);
    if (avax.assetID !== preset.known.avaxAssetID) {
      throw mismatch(preset, 'AVAX asset ID', preset.known.avaxAssetID, avax.assetID);
    }
  }
  // A tx signed for a public network's IDs is valid there, whoever asked for it: a node that shares
  // any of mainnet's (or Fuji's) network ID, EVM chain ID, chain or asset IDs must be that network
  // through and through (a user's own mainnet node added as a custom network is fine).
  for (const pub of PUBLIC_NETWORKS) {
    const k = pub.known!;
    const shares = networkID === pub.networkID || evmChainID === pub.evmChainID || xChainID === k.xChainID || cChainID === k.cChainID || avax.assetID === k.avaxAssetID;
    const is = networkID === pub.networkID && evmChainID === pub.evmChainID && xChainID === k.xChainID && cChainID === k.cChainID && avax.assetID === k.avaxAssetID;
    if (shares && !is) {
      throw new NodeIdentityError(`the node at ${preset.url} claims part of ${pub.name}'s identity but is not ${pub.name}: refusing to sign anything ${pub.name} would accept`);
    }
  }
  const other = OTHER_CHAINS.get(evmChainID);
  if (other !== undefined) {
    throw new NodeIdentityError(`the node at ${preset.url} claims the C-Chain EVM chain ID ${evmChainID}, which is ${other}'s: a tx signed for it would be valid on ${other}`);
  }
  if (stakingAssetID !== avax.assetID) {
    throw new NodeIdentityError(
      `the node at ${preset.url} contradicts itself: staking asset ${stakingAssetID} is not its AVAX asset ${avax.assetID}`,
    );
  }
  // Another network's AVAX is described by its CreateAssetTx (the description is only a node's
  // word): a node that describes it otherwise contradicts the chain. Public networks' are known.
  if (!PUBLIC_NETWORKS.some((pub) => pub.known!.avaxAssetID === avax.assetID)) {
    const created = await provenAsset(client, avax.assetID, opts).catch((e: unknown) => {
      if (e instanceof ValidationError) throw new NodeIdentityError(`the node at ${preset.url} cannot show the transaction that created its AVAX asset ${avax.assetID}`);
      throw e;
    });
    if (created.symbol !== avax.symbol || created.denomination !== avax.denomination || created.name !== avax.name) {
      throw new NodeIdentityError(`the node at ${preset.url} describes its AVAX asset otherwise than the transaction that created it`);
    }
  }
  if (preset.kind !== 'custom' && avax.denomination !== AVAX_DENOMINATION) {
    throw mismatch(preset, 'AVAX denomination', AVAX_DENOMINATION, avax.denomination);
  }
  if (xChainID === cChainID || xChainID === pChainID || cChainID === pChainID) {
    throw new NodeIdentityError(`the node at ${preset.url} reports the same ID for two chains`);
  }

  return {
    kind: preset.kind,
    url: client.url,
    networkID,
    hrp,
    xChainID,
    pChainID,
    cChainID,
    avaxAssetID: avax.assetID,
    avaxSymbol: avax.symbol,
    avaxName: avax.name,
    avaxDenomination: avax.denomination,
    stakingAssetID,
    xTxFee: checkFeeInput('an X-Chain tx fee of', fees.txFee, MAX_X_TX_FEE),
    xCreateAssetTxFee: checkFeeInput('an X-Chain asset-creation fee of', fees.createAssetTxFee, MAX_X_CREATE_ASSET_FEE),
    evmChainID,
  };
}

/** The byte form the transaction builders take. */
export function chainContextOf(identity: NetworkIdentity): ChainContext {
  return {
    networkID: identity.networkID,
    hrp: identity.hrp,
    xChainID: parseId(identity.xChainID),
    pChainID: parseId(identity.pChainID),
    cChainID: parseId(identity.cChainID),
    avaxAssetID: parseId(identity.avaxAssetID),
    xTxFee: identity.xTxFee,
    xCreateAssetTxFee: identity.xCreateAssetTxFee,
  };
}

// ---- staking rules (docs/staking.md) ----

/**
 * The P-Chain's staking rules for the Primary Network. Only the minimum stakes are asked of the
 * node (platform.getMinStake); the node reports none of the rest, so they are the values its
 * genesis parameters (mainnet, Fuji) or its start flags (the local test network) set.
 */
export interface StakingRules {
  minValidatorStake: bigint;
  /** The most a validator may weigh, its own stake and its delegations together. */
  maxValidatorStake: bigint;
  minDelegatorStake: bigint;
  /** Millionths (20 000 = 2%). */
  minDelegationFee: number;
  /** Seconds: the shortest delegation (and, before Helicon, validation). */
  minStakeDuration: bigint;
  /** Seconds: the shortest validation since Helicon (ACP-273), an auto-renewed cycle included. */
  minValidatorDuration: bigint;
  maxStakeDuration: bigint;
  /** Delegations may bring a validator to this many times its own stake. */
  maxWeightFactor: bigint;
  /** Percent of its time a validator must be up for rewards; see uptimeRequirementAt for Helicon's 90%. */
  uptimeRequirement: number;
  reward: RewardConfig;
}

/** ACP-267: a Primary Network validator that starts at or after Helicon must be up 90% of its time. */
const HELICON_UPTIME_REQUIREMENT = 90;

/**
 * Percent of its time a validator that started at `start` must be up for its rewards and its
 * delegators'. The node keys the rule on the validator's start, so one that started before Helicon
 * keeps the older requirement.
 */
export function uptimeRequirementAt(rules: StakingRules, start: bigint): number {
  const helicon = rules.reward.heliconTime;
  return helicon !== undefined && start >= helicon ? HELICON_UPTIME_REQUIREMENT : rules.uptimeRequirement;
}

/** The reward formula's parameters (docs/staking.md §Rewards). */
export interface RewardConfig {
  /** Millionths per year at the shortest and at the longest stake (before the Helicon ramp). */
  minConsumptionRate: bigint;
  maxConsumptionRate: bigint;
  /** Seconds. */
  mintingPeriod: bigint;
  supplyCap: bigint;
  /** When Helicon activated (Unix seconds): the minimum rate ramps to 7.5% over 90 days from then. Absent: not scheduled. */
  heliconTime?: bigint;
}

const DAY = 86_400n;
const NAVAX_PER_AVAX = 1_000_000_000n;
const AVAX_REWARDS: Omit<RewardConfig, 'heliconTime'> = { minConsumptionRate: 100_000n, maxConsumptionRate: 120_000n, mintingPeriod: 365n * DAY, supplyCap: 720_000_000n * NAVAX_PER_AVAX };

/** Mainnet and Fuji's genesis staking parameters and Helicon times; local networks' defaults. */
const MAINNET_STAKING: StakingRules = {
  minValidatorStake: 2_000n * NAVAX_PER_AVAX,
  maxValidatorStake: 3_000_000n * NAVAX_PER_AVAX,
  minDelegatorStake: 25n * NAVAX_PER_AVAX,
  minDelegationFee: 20_000,
  minStakeDuration: 14n * DAY,
  minValidatorDuration: 2n * DAY,
  maxStakeDuration: 365n * DAY,
  maxWeightFactor: 5n,
  uptimeRequirement: 80,
  reward: { ...AVAX_REWARDS, heliconTime: BigInt(Date.UTC(2026, 8, 22, 15) / 1000) },
};
const FUJI_STAKING: StakingRules = {
  ...MAINNET_STAKING,
  minValidatorStake: NAVAX_PER_AVAX,
  minDelegatorStake: NAVAX_PER_AVAX,
  minStakeDuration: DAY,
  minValidatorDuration: DAY / 2n,
  reward: { ...AVAX_REWARDS, heliconTime: BigInt(Date.UTC(2026, 6, 28, 15) / 1000) },
};
/** A node's defaults on any other network (its --min-stake-duration etc.; Helicon unscheduled). */
const DEFAULT_STAKING: StakingRules = { ...MAINNET_STAKING, minStakeDuration: DAY, minValidatorDuration: 3_600n, reward: AVAX_REWARDS };
/**
 * The local Helicon test network (`npm run node`, the integration tests): its start flags shorten
 * both minimum durations to 20 s (test/integration/node-harness.ts), and every upgrade is active
 * from its genesis time 2020-12-05T05:00:00Z.
 */
const LOCAL_STAKING: StakingRules = {
  ...DEFAULT_STAKING,
  minStakeDuration: 20n,
  minValidatorDuration: 20n,
  reward: { ...AVAX_REWARDS, heliconTime: BigInt(Date.UTC(2020, 11, 5, 5) / 1000) },
};

/**
 * The staking rules of the network with this ID; minimum stakes are then read from the node. The
 * Helicon time a node reports (info.upgrades) is taken only where none is known, a custom network,
 * which may run Helicon or not yet: Mainnet's and Fuji's are fixed, whatever a node says.
 */
export function stakingRulesFor(networkID: number, heliconTime?: bigint): StakingRules {
  const known = networkID === 1 ? MAINNET_STAKING : networkID === 5 ? FUJI_STAKING : networkID === LOCAL_NETWORK_ID ? LOCAL_STAKING : DEFAULT_STAKING;
  return heliconTime === undefined || known.reward.heliconTime !== undefined ? known : { ...known, reward: { ...known.reward, heliconTime } };
}

/** Whether Helicon's staking (auto-renewed validators, ACP-273's shorter validations) is active at `now`. */
export function heliconActiveAt(rules: StakingRules, now: bigint): boolean {
  const helicon = rules.reward.heliconTime;
  return helicon !== undefined && now >= helicon;
}

/** Seconds: the shortest validation at `now`; before Helicon, the same as a delegation's. */
export function minValidationAt(rules: StakingRules, now: bigint): bigint {
  return heliconActiveAt(rules, now) ? rules.minValidatorDuration : rules.minStakeDuration;
}
