// A send's fee as its form and review show it.
import type { Amount, ChainName } from '../../shared/messages.js';
import { units, WEI_DECIMALS } from '../format.js';
import { AmountText, NavaxText } from './AmountText.js';

/** The fee of a send as shown: the C-Chain's a ceiling in wei (rounded, exact one click away). */
export function SendFee({ chain, fee, gasLimit }: { chain: ChainName; fee: Amount; gasLimit?: Amount | undefined }) {
  if (chain === 'C') {
    const gas = units(gasLimit ?? '21000');
    return (
      <>
        <AmountText up prefix="at most " value={fee} denomination={WEI_DECIMALS} symbol="AVAX" /> ({gas.toLocaleString('en-US')} gas at the current max fee per gas
        {gas > 21_000n ? ', as the recipient is a contract' : ''}; usually less is paid)
      </>
    );
  }
  // nAVAX: shown whole, to the last digit.
  return <NavaxText value={fee} />;
}
