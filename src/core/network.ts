// Network discovery: how the wallet checks that the node it talks to really is the network it
// expects (network-presets.ts) before trusting it with a single transaction.
import { parseId } from './encoding.js';
import { NodeIdentityError, NodeResponseError, ValidationError } from './errors.js';
import { AVAX_DENOMINATION, FUJI, hrpForNetworkId, MAINNET, type NetworkKind, type NetworkPreset, P_CHAIN_ID } from './network-presets.js';
import { provenAsset } from './proof.js';
import type { CallOptions, NodeClient } from './node.js';
import type { ChainContext } from './tx/context.js';
import { checkFeeInput, MAX_X_CREATE_ASSET_FEE, MAX_X_TX_FEE, PUBLIC_X_CREATE_ASSET_FEE, PUBLIC_X_TX_FEE } from './fee-limits.js';

// Re-exported so callers keep one import for a network: its preset, identity and staking rules.
export * from './network-presets.js';
export * from './network-staking.js';

/** The public Avalanche networks: a node that shares any identity of one must be all of it. */
const PUBLIC_NETWORKS: readonly NetworkPreset[] = [MAINNET, FUJI];

/**
 * EVM chain IDs of other well-known chains, with their names and coins. The wallet's EVM key is the
 * one other wallets derive for the same phrase (m/44'/60'/0'/0/n), so a C-Chain tx signed with one
 * of these IDs would be a valid tx on that chain.
 */
export const OTHER_CHAINS: ReadonlyMap<number, { name: string; symbol: string }> = new Map(
  (
    [
      [1, 'Ethereum', 'ETH'],
      [10, 'OP Mainnet', 'ETH'],
      [56, 'BNB Smart Chain', 'BNB'],
      [100, 'Gnosis', 'XDAI'],
      [137, 'Polygon', 'POL'],
      [250, 'Fantom', 'FTM'],
      [324, 'zkSync Era', 'ETH'],
      [8453, 'Base', 'ETH'],
      [17000, 'Holesky', 'ETH'],
      [42161, 'Arbitrum One', 'ETH'],
      [59144, 'Linea', 'ETH'],
      [11155111, 'Sepolia', 'ETH'],
    ] as const
  ).map(([id, name, symbol]) => [id, { name, symbol }]),
);

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

  /** What the preset expects (when it says), against what the node said. */
  const same = (what: string, expected: string | number | undefined, got: string | number): void => {
    if (expected !== undefined && got !== expected) throw mismatch(preset, what, expected, got);
  };
  same('network ID', preset.networkID, networkID);
  const hrp = hrpForNetworkId(networkID);
  same('address prefix (hrp, from network ID ' + networkID + ')', preset.hrp, hrp);
  same('C-Chain EVM chain ID', preset.evmChainID, evmChainID);
  same('P-Chain ID', P_CHAIN_ID, pChainID);
  const { known } = preset;
  same('X-Chain ID', known?.xChainID, xChainID);
  same('C-Chain ID', known?.cChainID, cChainID);
  same('AVAX asset ID', known?.avaxAssetID, avax.assetID);
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
  const other = OTHER_CHAINS.get(evmChainID)?.name;
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

  // Shares a public network's ID only if it is that network through and through (above).
  const fixedFees = PUBLIC_NETWORKS.some((pub) => pub.networkID === networkID);
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
    xTxFee: checkFeeInput('an X-Chain tx fee of', fees.txFee, fixedFees ? PUBLIC_X_TX_FEE : MAX_X_TX_FEE),
    xCreateAssetTxFee: checkFeeInput('an X-Chain asset-creation fee of', fees.createAssetTxFee, fixedFees ? PUBLIC_X_CREATE_ASSET_FEE : MAX_X_CREATE_ASSET_FEE),
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
