// The review lines a delegation and a validation share: the AVAX figures, where the stake comes
// from, when it starts, what leaves now and what comes back. Each screen adds its own lines.
import type { ComponentChildren } from 'preact';
import { NavaxText } from '../components/AmountText.js';
import type { Fact } from '../components/Review.js';
import { units } from '../format.js';
import { arrivalText, unixText } from '../staking.js';
import type { Amount } from '../../shared/messages.js';
import type { ArrivalView, UnixSeconds } from '../../shared/messages-staking.js';

/** An nAVAX amount as the staking reviews show it (rounded, exact one click away). */
/** What a staking review says while its tx is signed, sent and followed. */
export const STAKE_BUSY = 'Signing and sending; waiting for the P-Chain to accept it…';
/** A stake review's last words. */
export const SIGNED_ON_CONFIRM = 'Nothing is signed before you confirm.';

export function avax(value: Amount | bigint): ComponentChildren {
  return <NavaxText value={value} />;
}

interface StakeReview {
  amount: Amount;
  from: string;
  start: UnixSeconds;
  fee: Amount;
  arrives: ArrivalView[];
}

/** The shared lines, by name, for each screen to place in its own order. */
export function stakeFacts(r: StakeReview): Record<'amount' | 'from' | 'starts' | 'fee' | 'leaves' | 'comesBack', Fact> {
  return {
    amount: { term: 'Amount staked', value: avax(r.amount), testid: 'review-amount' },
    from: { term: 'From', value: `Your P-Chain account (${r.from})`, mono: true },
    starts: { term: 'Starts', value: `When the network accepts it (about ${unixText(r.start)})` },
    fee: { term: 'Network fee', value: avax(r.fee), testid: 'review-fee' },
    leaves: { term: 'Leaves now', value: avax(units(r.amount) + units(r.fee)), testid: 'review-total' },
    comesBack: { term: 'Comes back', value: <ul class="plain">{r.arrives.map((a) => <li key={a.what}>{arrivalText(a)}</li>)}</ul>, testid: 'review-arrives' },
  };
}
