// @vitest-environment happy-dom
// The Delegate section's screens driven as a user does: the validator list searched by NodeID and
// filtered (a filter the background would refuse the whole list for is named at its field), the
// "Pick for me" form submitted with Enter, and a review that says when the reward is at risk.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { Stake } from '../../../src/popup/screens/Stake.js';
import { StakeDelegate } from '../../../src/popup/screens/StakeDelegate.js';
import { StakeValidators } from '../../../src/popup/screens/StakeValidators.js';
import { END_MARGIN_SECONDS, unixText } from '../../../src/popup/staking.js';
import type { DelegationReview, ValidatorView } from '../../../src/shared/messages-staking.js';
import { fakeBackground, Refuse, renderWith } from './fake-background.js';
import { avax, balances, STAKING_ME as ME, STAKING_NOW as NOW, STAKING_PARAMS as PARAMS, UNLOCKED } from './fixtures.js';

afterEach(cleanup);

const NODE = 'NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5';

function validator(over: Partial<ValidatorView> = {}): ValidatorView {
  return {
    nodeID: NODE,
    txID: '2kV1vFS2bSUGnPHBqbxj3H4C8p1qvhYpnXCmq4pdE7mAFeYUHY',
    stake: '2000000000000',
    delegated: '0',
    delegatorCount: 0,
    freeSpace: '8000000000000',
    delegationFee: 62_500,
    uptime: 99.5,
    uptimeRequirement: 80,
    connected: true,
    start: NOW - 86_400,
    end: NOW + 30 * 86_400,
    potentialReward: '1000',
    score: 90,
    yours: false,
    ...over,
  };
}

describe('Validators: search and filters', () => {
  const list = () => {
    const bg = fakeBackground({ 'staking.validators': () => ({ chainTime: NOW, total: 1, matching: 1, validators: [validator()] }) });
    renderWith(bg, <StakeValidators now={NOW} onDelegate={() => {}} />);
    return bg;
  };

  it('a list that could not be read says so (not "Loading" beside the error) and is read again on Reload', async () => {
    let fail = true;
    const bg = fakeBackground({
      'staking.validators': () => {
        if (fail) throw new Refuse({ code: 'node-unreachable', message: 'the node did not answer' });
        return { chainTime: NOW, total: 1, matching: 1, validators: [validator()] };
      },
    });
    renderWith(bg, <StakeValidators now={NOW} onDelegate={() => {}} />);
    await waitFor(() => expect(screen.getByTestId('validator-count').textContent).toBe('No validators shown: they could not be read.'));
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Reload the validators' }));
    await screen.findByTestId('validator');
    expect(bg.callsOf('staking.validators')).toHaveLength(2);
  });

  it('finds validators by part of their NodeID, submitted from the keyboard', async () => {
    const bg = list();
    await screen.findByTestId('validator');
    const search = screen.getByRole('search', { name: 'Validators' });
    fireEvent.input(within(search).getByLabelText('NodeID contains'), { target: { value: ' P7oB ' } });
    fireEvent.submit(search);
    await waitFor(() => expect(bg.callsOf('staking.validators').at(-1)?.filter).toEqual({ nodeID: 'P7oB' }));
  });

  it('a number of days no validator can have left is named at its field, and the list stays as it was', async () => {
    const bg = list();
    await screen.findByTestId('validator');
    const days = screen.getByLabelText('Validates at least (days)');
    fireEvent.input(days, { target: { value: '400' } });
    fireEvent.submit(days.closest('form')!);
    expect(document.getElementById(days.getAttribute('aria-describedby')!.split(' ').at(-1)!)?.textContent).toBe('At most 365 days: no validator validates longer');
    expect(bg.callsOf('staking.validators').every((p) => p.filter?.minRemainingSeconds === undefined)).toBe(true);
    expect(screen.getAllByTestId('validator')).toHaveLength(1);
  });

  it('rounded amounts are toggles, each named by its validator: the exact value one key away, not only on hover', async () => {
    const other = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';
    const odd = { stake: '2000000000001', freeSpace: '2000000000001', delegated: '2000000000001' };
    const bg = fakeBackground({ 'staking.validators': () => ({ chainTime: NOW, total: 2, matching: 2, validators: [validator(odd), validator({ ...odd, nodeID: other })] }) });
    renderWith(bg, <StakeValidators now={NOW} onDelegate={() => {}} />);
    const [first] = await screen.findAllByTestId('validator');
    const stake = within(first!).getByRole('button', { name: /^Stake of NodeID-P7oB…xDE5: ≈ 2,000 AVAX \(exactly 2,000\.000000001 AVAX\)$/ });
    expect(within(first!).getByRole('button', { name: /^Room at NodeID-P7oB…xDE5: / })).toBeTruthy();
    expect(within(first!).getByRole('button', { name: /^Delegated to NodeID-P7oB…xDE5: / })).toBeTruthy();
    // No two toggles on the list share a name.
    const names = screen.getAllByRole('button', { pressed: false }).map((b) => b.getAttribute('aria-label'));
    expect(names).toHaveLength(6);
    expect(new Set(names).size).toBe(6);
    fireEvent.click(stake);
    expect(stake.getAttribute('aria-pressed')).toBe('true');
    expect(stake.textContent).toBe('2,000.000000001 AVAX');
  });
});

describe('Delegate', () => {
  const delegate = (picked: ValidatorView | null, review?: DelegationReview, pick = validator()) => {
    const bg = fakeBackground({
      'staking.pick': () => ({ validator: pick, reasons: ['It is up.'] }),
      ...(review ? { 'staking.estimateDelegation': () => review } : {}),
    });
    renderWith(bg, <StakeDelegate params={PARAMS} now={NOW} validator={picked} spendable={undefined} hrp="custom" selection={undefined} onBack={() => {}} onSent={() => {}} />);
    return bg;
  };

  it('"Pick for me" runs when the form is submitted with Enter, as its primary button says', async () => {
    const bg = delegate(null);
    fireEvent.input(screen.getByLabelText(/^Amount/), { target: { value: '25' } });
    fireEvent.submit(screen.getByRole('heading', { name: 'Delegate' }).closest('form')!);
    await screen.findByTestId('pick-reasons');
    expect(bg.callsOf('staking.pick')).toEqual([{ amount: '25000000000', end: NOW + 80 }]);
  });

  it('after a pick, choosing "Until the validator stops" keeps that time when the pick is dropped, not whichever length takes its place in the list', async () => {
    const bg = delegate(null, undefined, validator({ end: NOW + 60 * 86_400 }));
    fireEvent.input(screen.getByLabelText(/^Amount/), { target: { value: '25' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pick for me' }));
    await screen.findByTestId('pick-reasons');
    const ends = screen.getByLabelText('Ends') as HTMLSelectElement;
    const until = [...ends.options].find((o) => o.textContent!.startsWith('Until the validator stops'))!;
    fireEvent.change(ends, { target: { value: until.value } });
    // The pick is gone (a new end may need another validator); the end chosen stays.
    expect(screen.queryByTestId('pick-reasons')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Pick for me' }));
    await waitFor(() => expect(bg.callsOf('staking.pick').at(-1)).toEqual({ amount: '25000000000', end: NOW + 60 * 86_400 }));
  });

  it('to an auto-renewed validator that renews, the last end offered is its current cycle’s, not when it stops', () => {
    delegate(validator({ end: NOW + 60 * 86_400, autoRenew: { nextPeriod: 30 * 86_400, restakeShares: 0 } }));
    const labels = [...(screen.getByLabelText('Ends') as HTMLSelectElement).options].map((o) => o.textContent);
    expect(labels).toContain(`Until its current cycle ends (${unixText(NOW + 60 * 86_400)})`);
    expect(labels.some((l) => l!.startsWith('Until the validator stops'))).toBe(false);
    cleanup();
    // A cycle that ends before the shortest delegation could: said of the cycle too.
    delegate(validator({ end: NOW + 30, autoRenew: { nextPeriod: 30 * 86_400, restakeShares: 0 } }));
    expect(screen.getByText(/^No end fits/).textContent).toBe('No end fits: its current cycle ends too soon for a delegation.');
  });

  it('the earliest end the hint shows, to the minute, is one the rule takes: the shortest stake with its margin, rounded up', () => {
    delegate(validator());
    const hint = screen.getByText(/^Between /);
    // NOW is 40 s into a minute: the shortest end plus the margin falls on a whole minute.
    const earliest = NOW + 20 + END_MARGIN_SECONDS;
    expect(earliest % 60).toBe(0);
    expect(hint.textContent).toBe(`Between ${unixText(earliest)} and ${unixText(NOW + 30 * 86_400)}. Staking starts when the network accepts it.`);
  });

  const reviewOf = (v: ValidatorView): DelegationReview => ({
    nodeID: v.nodeID,
    amount: '25000000000',
    from: ME,
    start: NOW,
    end: NOW + 80,
    rewardOwner: { addresses: [ME], threshold: 1, yours: true },
    fee: '8299',
    estimatedReward: '6945',
    validatorFee: '142',
    validator: v,
    arrives: [],
  });
  const review = async (v: ValidatorView) => {
    delegate(v, reviewOf(v));
    fireEvent.input(screen.getByLabelText(/^Amount/), { target: { value: '25' } });
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    return screen.findByRole('region', { name: 'Review the delegation' });
  };

  it('the review says the reward is at risk when the validator was up less than rewards need, or is not connected', async () => {
    const shown = await review(validator({ uptime: 61.5, connected: false }));
    expect(within(shown).getByTestId('review-reward-risk').textContent).toBe(' Careful: so far it was up only 61.5% of the time and it is not connected now; if it ends below 80%, no reward is paid.');
  });

  it('says so when the node does not report how long the validator was up, never "0%"', async () => {
    const shown = await review(validator({ uptime: null }));
    expect(within(shown).getByTestId('review-reward-risk').textContent).toBe(' Careful: your node does not report how long it was up; if it ends below 80%, no reward is paid.');
  });

  it('and says nothing of the kind for a validator up and connected', async () => {
    const shown = await review(validator());
    expect(within(shown).queryByTestId('review-reward-risk')).toBeNull();
    expect(within(shown).getByTestId('review-reward').textContent).toContain('if it stays up 80% of the time');
  });
});

describe('Stake: AVAX locked until a set time', () => {
  const stake = (lockedStakeable: string, sharedLocked?: string) => {
    const bg = fakeBackground({ 'staking.params': () => PARAMS, 'staking.validators': () => ({ chainTime: NOW, total: 0, matching: 0, validators: [] }) });
    const view = balances({ balances: [avax('P', '5000000000', { lockedStakeable, ...(sharedLocked ? { sharedLocked } : {}) })] });
    renderWith(bg, <Stake status={UNLOCKED} hrp="local" balances={view} onChanged={() => {}} />);
  };

  it('is said to be left out of staking, not left to look like missing funds', async () => {
    stake('3000000000000');
    expect((await screen.findByTestId('locked-stakeable')).textContent).toBe(
      '3,000 AVAX of your P-Chain AVAX is locked until a set time. The network lets such AVAX be staked, but this wallet stakes only unlocked AVAX.',
    );
  });

  it('says when some locked AVAX another key can also take: not all of it is only yours', async () => {
    stake('3000000000000', '1000000000000');
    expect((await screen.findByTestId('locked-stakeable')).textContent).toMatch(/only unlocked AVAX\. Some locked AVAX another key can also take once it unlocks\.$/);
  });

  it('says nothing when there is none', async () => {
    stake('0');
    await screen.findByRole('heading', { name: 'Validators' });
    expect(screen.queryByTestId('locked-stakeable')).toBeNull();
  });
});
