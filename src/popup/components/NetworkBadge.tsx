// Which network the wallet is on, always in sight: mainnet, testnet and local look different.
import type { NetworkView } from '../../shared/messages.js';

export function NetworkBadge({ network }: { network: NetworkView }) {
  // A custom entry whose node is Mainnet handles real funds, whatever it was named: said and styled so.
  const mainnet = network.kind === 'custom' && network.hrp === 'avax';
  return (
    <span class={`badge net net-${mainnet ? 'mainnet' : network.kind}`} title={network.url}>
      {network.name}
      {mainnet && ' · Mainnet'}
    </span>
  );
}
