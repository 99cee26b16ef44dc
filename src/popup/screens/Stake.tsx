// Staking on the P-Chain: the validators to delegate to, the account's stakes, validating with
// one's own node. Loaded on demand (app.tsx), so the popup's first paint does not carry it.
import { useMemo, useState } from 'preact/hooks';
import { selectionOf, useRequest } from '../api.js';
import { FormError, Muted } from '../components/Field.js';
import { Segmented } from '../components/Segmented.js';
import { AVAX_DECIMALS, formatValue, units } from '../format.js';
import { chainNow } from '../staking.js';
import { StakeDelegate } from './StakeDelegate.js';
import { StakeMine } from './StakeMine.js';
import { StakeValidate } from './StakeValidate.js';
import { StakeValidators } from './StakeValidators.js';
import type { BalancesView, WalletStatus } from '../../shared/messages.js';
import type { ValidatorView } from '../../shared/messages-staking.js';

export interface StakeProps {
  status: WalletStatus;
  hrp: string;
  balances: BalancesView | null;
  onChanged: () => void;
}

type Section = 'validators' | 'mine' | 'validate';

const SECTIONS: { value: Section; label: string }[] = [
  { value: 'validators', label: 'Delegate' },
  { value: 'mine', label: 'My stakes' },
  { value: 'validate', label: 'Validate' },
];

export function Stake({ status, hrp, balances, onChanged }: StakeProps) {
  const [section, setSection] = useState<Section>('validators');
  /** Delegating: to this validator, or (null) to the one the wallet picks. */
  const [delegating, setDelegating] = useState<{ to: ValidatorView | null } | null>(null);
  const key = `${status.network.id}:${status.account?.id}`;
  const params = useRequest('staking.params', {}, key);
  const readAt = useMemo(() => Date.now(), [params.data]);
  const selection = selectionOf(status);
  const pAvax = balances && balances.updatedAt > 0 ? balances.balances.find((b) => b.chain === 'P' && b.verified) : undefined;
  const spendable = balances && balances.updatedAt > 0 ? units(pAvax?.spendable) : undefined;
  // The wallet stakes unlocked AVAX only (docs/staking.md §Fees): locked AVAX the network would let
  // be staked is said so, rather than left to look like missing funds.
  const lockedStakeable = units(pAvax?.lockedStakeable);
  const lockedNote = lockedStakeable > 0n && section !== 'mine' && (
    <Muted data-testid="locked-stakeable">
      {formatValue(lockedStakeable, AVAX_DECIMALS, 'AVAX')} of your P-Chain AVAX is locked until a set time. The network lets such AVAX be staked, but this wallet stakes only unlocked AVAX.
      {units(pAvax?.sharedLocked) > 0n && ' Some locked AVAX another key can also take once it unlocks.'}
    </Muted>
  );

  if (!params.data) {
    return (
      <div class="stake">
        <h1>Stake</h1>
        <FormError error={params.error} />
        {!params.error && <Muted>Reading the network's staking rules…</Muted>}
        {params.error && <button onClick={() => void params.reload()}>Try again</button>}
      </div>
    );
  }
  const now = chainNow(params.data, readAt, Date.now());
  const common = { params: params.data, now, spendable, hrp, selection };

  let body;
  if (delegating) {
    body = (
      <StakeDelegate
        {...common}
        validator={delegating.to}
        onBack={() => {
          setDelegating(null);
          void params.reload();
        }}
        onSent={onChanged}
      />
    );
  } else if (section === 'validators') body = <StakeValidators now={now} onDelegate={(to) => setDelegating({ to })} />;
  else if (section === 'mine') body = <StakeMine params={params.data} selection={selection} listKey={key} />;
  else body = <StakeValidate {...common} onSent={onChanged} />;

  return (
    <div class="stake">
      {!delegating && <Segmented legend="Staking" value={section} options={SECTIONS} onChange={setSection} />}
      {body}
      {lockedNote}
    </div>
  );
}
