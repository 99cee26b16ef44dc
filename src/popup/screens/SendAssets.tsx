// Which asset a send sends: the assets each chain can send, and the X-Chain's Asset field to pick one.
// Its own file beside Send.tsx (which shows it) so each screen file stays readable.
import { AssetLabel } from '../components/AssetLabel.js';
import { shortenId, units } from '../format.js';
import type { AssetBalanceView, BalancesView, ChainName } from '../../shared/messages.js';

/** The assets that can be sent from `chain`, the network's AVAX first. */
export function sendableAssets(view: BalancesView | null, chain: ChainName): AssetBalanceView[] {
  if (!view || view.updatedAt === 0) return [];
  const rows = view.balances.filter((b) => b.chain === chain && (b.verified || units(b.spendable) > 0n));
  if (chain === 'X' && !rows.some((b) => b.verified)) {
    // No X UTXO yet: AVAX is still the asset to pick (its ID is the P-Chain's AVAX).
    const avax = view.balances.find((b) => b.chain === 'P' && b.verified);
    if (avax) rows.unshift({ ...avax, chain: 'X', spendable: '0', locked: '0', lockedStakeable: '0', unproven: '0' });
  }
  return rows.sort((a, b) => Number(b.verified) - Number(a.verified));
}

function assetOption(b: AssetBalanceView): string {
  return b.verified ? `${b.symbol} (verified)` : `${b.symbol} · ${b.name} · ID ${shortenId(b.assetID)}`;
}

/** The X-Chain's Asset field: each sendable asset by name, the picked one labelled as everywhere. */
export function AssetPicker({ assets, asset, onPick }: { assets: AssetBalanceView[]; asset: AssetBalanceView; onPick: (assetID: string) => void }) {
  return (
    <div class="field">
      <label for="send-asset">Asset</label>
      <select id="send-asset" value={asset.assetID} onChange={(e) => onPick(e.currentTarget.value)}>
        {assets.map((b) => (
          <option key={b.assetID} value={b.assetID}>
            {assetOption(b)}
          </option>
        ))}
      </select>
      <p class="field-hint">
        <AssetLabel asset={asset} />
      </p>
    </div>
  );
}
