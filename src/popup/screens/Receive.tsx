// The account's addresses, each with copy and a QR code: X, P, C (0x), and C-bech32 (which only
// receives cross-chain moves into the C-Chain).
import { useState } from 'preact/hooks';
import { CopyButton } from '../components/CopyButton.js';
import { Muted } from '../components/Field.js';
import { lazyComponent } from '../components/Lazy.js';
import { Segmented } from '../components/Segmented.js';
import type { AccountView } from '../../shared/messages.js';

/** The QR code library (uqr) is loaded when Receive first shows: the popup's first load stays without it. */
const LazyQrCode = lazyComponent(() => import('../components/QrCode.js').then((m) => m.QrCode));

type Which = 'X' | 'P' | 'C' | 'C-bech32';

const OPTIONS: { which: Which; label: string; note: string }[] = [
  { which: 'X', label: 'X-Chain', note: 'For AVAX and any X-Chain asset or NFT.' },
  { which: 'P', label: 'P-Chain', note: 'For AVAX on the P-Chain (staking).' },
  { which: 'C', label: 'C-Chain', note: 'For AVAX and tokens on the C-Chain (EVM).' },
  { which: 'C-bech32', label: 'C-bech32', note: 'Only for cross-chain moves into the C-Chain (atomic imports), not for ordinary C-Chain sends.' },
];

export function addressOf(account: AccountView, which: Which): string {
  return which === 'X' ? account.xAddress : which === 'P' ? account.pAddress : which === 'C' ? account.cAddress : account.cBech32Address;
}

/** `network`: the wallet's network, by name; what is sent on another one does not show here. */
export function Receive({ account, network }: { account: AccountView; network: string }) {
  const [which, setWhich] = useState<Which>('X');
  const option = OPTIONS.find((o) => o.which === which)!;
  const address = addressOf(account, which);
  return (
    <div class="receive">
      <h1>Receive</h1>
      <Segmented legend="Address" value={which} options={OPTIONS.map((o) => ({ value: o.which, label: o.label }))} onChange={setWhich} />
      <div class="qr-box">
        <LazyQrCode text={address} label={`QR code of your ${option.label} address`} />
      </div>
      <p class="address mono" data-testid="receive-address">
        {address}
      </p>
      <div class="actions center">
        <CopyButton text={address} what={`${option.label} address`} />
      </div>
      <Muted>{option.note}</Muted>
      <Muted data-testid="receive-network">
        {which === 'C'
          ? `This wallet shows what arrives on ${network}. The same 0x address exists on every EVM chain: funds sent to it on another chain are not shown here.`
          : `On ${network}: funds sent on another network do not arrive here.`}
      </Muted>
    </div>
  );
}
