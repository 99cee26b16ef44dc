// Which network the wallet is on, always in sight: mainnet, testnet and local look different.
import type { NetworkView } from '../../shared/messages.js';

export function NetworkBadge({ network }: { network: NetworkView }) {
  return (
    <span class={`badge net net-${network.kind}`} title={network.url}>
      {network.name}
    </span>
  );
}
