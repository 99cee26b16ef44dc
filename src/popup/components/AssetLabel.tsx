// How an asset is named everywhere: the network's real AVAX carries a verified badge; any other
// asset shows its ID next to its name, so a look-alike "AVAX" cannot pass for it.
import { looksLikeAvax } from '../look-alike.js';
import { shortenId } from '../format.js';

export interface AssetIdentity {
  assetID: string;
  name: string;
  symbol: string;
  verified: boolean;
}

export function AssetLabel({ asset }: { asset: AssetIdentity }) {
  if (asset.verified) {
    return (
      <span class="asset-label">
        <span class="asset-symbol">{asset.symbol}</span>
        <span class="badge verified" title="The network's own AVAX asset">
          ✓ Verified
        </span>
      </span>
    );
  }
  const imitates = looksLikeAvax(asset.symbol) || looksLikeAvax(asset.name);
  return (
    <span class="asset-label">
      <span class="asset-symbol">{asset.symbol}</span>
      <span class="asset-name">{asset.name}</span>
      <span class="asset-id mono" title={asset.assetID}>
        ID {shortenId(asset.assetID)}
      </span>
      {imitates && (
        <span class="badge warn" role="note">
          Not AVAX: a different asset with a similar name
        </span>
      )}
    </span>
  );
}
