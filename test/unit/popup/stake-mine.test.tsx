// @vitest-environment happy-dom
// My stakes: changing an auto-renewed validator's next cycles. A stopped one may be resumed until
// its cycle ends; the current cycle length is offered as it is; the review says who may change
// it and which address pays the fee. Validate offers auto-renewal only where the network runs it.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { StakeMine } from '../../../src/popup/screens/StakeMine.js';
import { StakeValidate } from '../../../src/popup/screens/StakeValidate.js';
import type { AutoRenewReview, MyStakeView } from '../../../src/shared/messages-staking.js';
import { fakeBackground, renderWith } from './fake-background.js';
import { STAKING_ME as ME, STAKING_PARAMS as PARAMS } from './fixtures.js';

afterEach(cleanup);


function autoRenewed(txID: string, nextPeriod: number): MyStakeView {
  return {
    txID,
    kind: 'auto-renewed',
    state: 'active',
    nodeID: `NodeID-${txID}`,
    amount: '2000000000000',
    start: 1_795_583_100,
    end: 1_795_583_400,
    unlocksAt: null,
    rewardOwner: { addresses: [ME], threshold: 1, yours: true },
    autoRenew: { nextPeriod, restakeShares: 500_000 },
    byWallet: true,
  };
}

/** The background of the last `show`. */
let shown: ReturnType<typeof fakeBackground>;

function show(stakes: MyStakeView[]) {
  const asked: unknown[] = [];
  const bg = fakeBackground({
    'staking.mine': () => ({ chainTime: PARAMS.chainTime, stakes, rewards: [], totals: { staked: '0', potentialReward: '0', rewardsPaid: '0' } }),
    'staking.estimateAutoRenew': (p: { txID: string; period: number; restakeShares: number }): AutoRenewReview => {
      asked.push(p);
      return {
        txID: p.txID,
        nodeID: `NodeID-${p.txID}`,
        current: { period: 0, restakeShares: 0 },
        next: { period: p.period, restakeShares: p.restakeShares },
        takesEffect: 1_795_583_400,
        authority: { addresses: [ME], threshold: 1, yours: true },
        from: ME,
        fee: '12691',
      };
    },
  });
  renderWith(bg, <StakeMine params={PARAMS} selection={undefined} listKey="k" />);
  shown = bg;
  return asked;
}

describe('My stakes: what it lists', () => {
  it('says that delegations made with another wallet are neither listed nor counted, and where their stake shows again', async () => {
    show([]);
    await screen.findByText('No stakes yet.');
    expect(screen.getByTestId('stakes-not-found').textContent).toBe(
      'Delegations made with another wallet (your phrase on another computer, say) are not listed, nor counted as staked. Their stake comes back to your P-Chain balance when they end.',
    );
  });
});

describe('My stakes: auto-renewal', () => {
  it('a stopped validator can be resumed before its cycle ends; the review names the authority and the paying address', async () => {
    const asked = show([autoRenewed('stopped', 0)]);
    fireEvent.click(await screen.findByRole('button', { name: 'Change auto-renewal of NodeID-stopped' }));
    const next = screen.getByLabelText('Next cycles (for NodeID-stopped)') as HTMLSelectElement;
    // Stopped, it stays so unless another choice is made (a change of the share alone must not resume it).
    expect(next.selectedOptions[0]!.textContent).toBe('Stop at the end of this cycle');
    expect(screen.queryByLabelText('Rewards restaked (%) (for NodeID-stopped)')).toBeNull();
    fireEvent.change(next, { target: { value: '0' } });
    await screen.findByLabelText('Rewards restaked (%) (for NodeID-stopped)');
    fireEvent.click(screen.getByRole('button', { name: 'Review the change (for NodeID-stopped)' }));
    const review = await screen.findByRole('region', { name: 'Review the change (for NodeID-stopped)' });
    expect(asked).toEqual([{ txID: 'stopped', period: 20, restakeShares: 500_000 }]);
    expect(within(review).getByText('May change or stop it').nextElementSibling!.textContent).toBe(`${ME} — yours`);
    expect(within(review).getByText('Fee paid from').nextElementSibling!.textContent).toBe(`Your P-Chain account (${ME})`);
    // Confirm names the cycle end the review was made for: the background refuses the change if the validator renewed since.
    fireEvent.click(within(review).getByRole('button', { name: 'Confirm the change (for NodeID-stopped)' }));
    await waitFor(() => expect(shown.callsOf('staking.setAutoRenew')).toEqual([{ txID: 'stopped', period: 20, restakeShares: 500_000, takesEffect: 1_795_583_400, maxFee: '12691' }]));
  });

  it('keeps the current cycle length chosen, even one that is none of the usual lengths, when only the restaked share changes', async () => {
    const asked = show([autoRenewed('odd', 45)]);
    fireEvent.click(await screen.findByRole('button', { name: 'Change auto-renewal of NodeID-odd' }));
    expect((screen.getByLabelText('Next cycles (for NodeID-odd)') as HTMLSelectElement).selectedOptions[0]!.textContent).toBe('45 seconds (as now)');
    fireEvent.input(screen.getByLabelText('Rewards restaked (%) (for NodeID-odd)'), { target: { value: '25' } });
    fireEvent.click(screen.getByRole('button', { name: 'Review the change (for NodeID-odd)' }));
    await waitFor(() => expect(asked).toEqual([{ txID: 'odd', period: 45, restakeShares: 250_000 }]));
  });

  it('is not offered for a validator whose auto-renew authority is not this account: it says who may change it instead', async () => {
    const theirs = autoRenewed('theirs', 45);
    theirs.autoRenew!.yours = false;
    const asked = show([theirs, autoRenewed('ours', 45)]);
    const [other, own] = await screen.findAllByTestId('my-stake');
    expect(within(other!).queryByRole('button', { name: /Change auto-renewal/ })).toBeNull();
    expect(within(other!).getByText('Only its auto-renewal authority can change it.')).toBeTruthy();
    // Its settings are still shown; the account's own validator keeps its action.
    expect(within(other!).getByText('Auto-renewal').nextElementSibling!.textContent).toContain('next cycles 45 seconds');
    expect(within(own!).getByRole('button', { name: 'Change auto-renewal of NodeID-ours' })).toBeTruthy();
    expect(asked).toEqual([]);
  });

  it('names each validator\'s form and review apart, two open side by side', async () => {
    show([autoRenewed('first', 45), autoRenewed('second', 45)]);
    fireEvent.click(await screen.findByRole('button', { name: 'Change auto-renewal of NodeID-first' }));
    fireEvent.click(screen.getByRole('button', { name: 'Change auto-renewal of NodeID-second' }));
    for (const node of ['first', 'second']) {
      expect(screen.getByLabelText(`Next cycles (for NodeID-${node})`)).toBeTruthy();
      expect(screen.getByLabelText(`Rewards restaked (%) (for NodeID-${node})`)).toBeTruthy();
    }
    fireEvent.click(screen.getByRole('button', { name: 'Review the change (for NodeID-first)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Review the change (for NodeID-second)' }));
    await screen.findByRole('region', { name: 'Review the change (for NodeID-first)' });
    await screen.findByRole('region', { name: 'Review the change (for NodeID-second)' });
    const named = (name: RegExp) => screen.getAllByRole('button', { name }).map((b) => b.textContent);
    expect(named(/^(Edit|Confirm the change)/)).toEqual(['Edit (for NodeID-first)', 'Confirm the change (for NodeID-first)', 'Edit (for NodeID-second)', 'Confirm the change (for NodeID-second)']);
  });

  it('stopping does not ask for a restaked share (its field is hidden then): one left unreadable does not block the review, and the current share is sent', async () => {
    const asked = show([autoRenewed('leaving', 45)]);
    fireEvent.click(await screen.findByRole('button', { name: 'Change auto-renewal of NodeID-leaving' }));
    fireEvent.input(screen.getByLabelText('Rewards restaked (%) (for NodeID-leaving)'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Next cycles (for NodeID-leaving)'), { target: { value: 'stop' } });
    expect(screen.queryByLabelText('Rewards restaked (%) (for NodeID-leaving)')).toBeNull();
    const review = screen.getByRole('button', { name: 'Review the change (for NodeID-leaving)' }) as HTMLButtonElement;
    expect(review.disabled).toBe(false);
    fireEvent.click(review);
    await waitFor(() => expect(asked).toEqual([{ txID: 'leaving', period: 0, restakeShares: 500_000 }]));
  });

  it('says the new restaked share splits this cycle’s rewards at its end, and only the length waits for the next cycle (as the node applies them)', async () => {
    show([autoRenewed('running', 45)]);
    const row = await screen.findByTestId('my-stake');
    expect(within(row).getByText('Auto-renewal').nextElementSibling!.textContent).toBe('50% of this cycle’s rewards restaked when it ends; next cycles 45 seconds');
    fireEvent.click(screen.getByRole('button', { name: 'Change auto-renewal of NodeID-running' }));
    fireEvent.input(screen.getByLabelText('Rewards restaked (%) (for NodeID-running)'), { target: { value: '25' } });
    fireEvent.click(screen.getByRole('button', { name: 'Review the change (for NodeID-running)' }));
    const review = await screen.findByRole('region', { name: 'Review the change (for NodeID-running)' });
    const fact = (term: string) => within(review).getByText(term).nextElementSibling!.textContent;
    expect(fact('Restaked when this cycle ends')).toBe('25% of this cycle’s rewards, and of each later cycle’s');
    expect(fact('From the next cycle')).toBe('cycles of 45 seconds');
    expect(fact('This cycle ends')).toBeTruthy();
    expect(within(review).queryByText('Takes effect')).toBeNull();
  });
});

describe('Validate: auto-renewal', () => {
  const validate = (autoRenew: boolean) =>
    renderWith(fakeBackground({}), <StakeValidate params={{ ...PARAMS, autoRenew }} now={PARAMS.chainTime} spendable={undefined} hrp="custom" selection={undefined} onSent={() => {}} />);

  it('is offered where the network runs Helicon', () => {
    validate(true);
    fireEvent.click(screen.getByRole('radio', { name: 'Auto-renew' }));
    // Its error, when the background names this field, is the select's description.
    const cycle = screen.getByLabelText('Cycle length');
    expect(document.getElementById(cycle.getAttribute('aria-describedby')!)?.className).toBe('field-error');
  });

  it('is not offered on a network without it: only an end date', () => {
    validate(false);
    expect(screen.queryByRole('radio', { name: 'Auto-renew' })).toBeNull();
    expect(screen.queryByLabelText('Cycle length')).toBeNull();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Validate with your node');
  });
});

describe('My stakes: a finished stake', () => {
  it('whose reward went to another address says so, not "paid (below)": the list below has only what was paid to this account', async () => {
    const other = 'P-custom1q9fcde2yflazzvsgwgvj5j64u8hdvhecc2q66h';
    const finished: MyStakeView = { ...autoRenewed('done', 0), kind: 'delegation', state: 'finished', unlocksAt: 1_795_583_400, rewardOwner: { addresses: [other], threshold: 1, yours: false }, reward: 'paid' };
    delete finished.autoRenew;
    show([finished, { ...finished, txID: 'mine', rewardOwner: { addresses: [ME], threshold: 1, yours: true } }]);
    const [theirs, ours] = await screen.findAllByTestId('my-stake');
    expect(within(theirs!).getByText('Reward').nextElementSibling!.textContent).toBe('paid, to an address that is not yours');
    expect(within(ours!).getByText('Reward').nextElementSibling!.textContent).toBe('paid (below)');
  });
});

describe('Validate: the review', () => {
  it('of an auto-renewed validation says the stake stays locked until the renewal is stopped, not "until the end"', async () => {
    const key = { nodeID: 'NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5', publicKey: `0x${'a'.repeat(96)}`, proofOfPossession: `0x${'b'.repeat(192)}` };
    const bg = fakeBackground({
      'staking.nodeKey': () => key,
      'staking.estimateValidation': (p) => ({
        ...key,
        amount: p.amount,
        from: ME,
        start: PARAMS.chainTime,
        end: PARAMS.chainTime + 20,
        ...(p.autoRenew ? { autoRenew: p.autoRenew, authority: { addresses: [ME], threshold: 1, yours: true } } : {}),
        delegationFee: p.delegationFee,
        rewardOwner: { addresses: [ME], threshold: 1, yours: true },
        delegationFeeOwner: { addresses: [ME], threshold: 1, yours: true },
        fee: '12691',
        estimatedReward: '1000',
        arrives: [],
      }),
    });
    renderWith(bg, <StakeValidate params={PARAMS} now={PARAMS.chainTime} spendable={undefined} hrp="custom" selection={undefined} onSent={() => {}} />);
    fireEvent.input(screen.getByLabelText("Your node's URL"), { target: { value: 'http://127.0.0.1:9650' } });
    fireEvent.click(screen.getByRole('button', { name: "Get the node's ID" }));
    await screen.findByTestId('validate-node');
    fireEvent.input(screen.getByLabelText(/^Amount/), { target: { value: '2000' } });
    fireEvent.click(screen.getByRole('radio', { name: 'Auto-renew' }));
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    const review = await screen.findByRole('region', { name: 'Review the validation' });
    expect(review.textContent).toContain('The stake stays locked until you stop the renewal and the cycle then running ends');
    expect(review.textContent).not.toContain('locked until the end');
  });
});

describe('My stakes: the CSV of everything', () => {
  it('says when Activity no longer holds older items, so the file is not taken for all of them', async () => {
    const bg = fakeBackground({
      'staking.mine': () => ({ chainTime: PARAMS.chainTime, stakes: [], rewards: [], totals: { staked: '0', potentialReward: '0', rewardsPaid: '0' } }),
      'staking.rewardsCsv': () => ({ csv: 'date,txID,kind,amount,asset,fee\r\n', rows: 0, trimmed: { received: new Date(2026, 0, 2, 10, 30).getTime() } }),
    });
    renderWith(bg, <StakeMine params={PARAMS} selection={undefined} listKey="k" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Export all activity (CSV)' }));
    expect((await screen.findByRole('status')).textContent).toContain('Activity no longer holds older items, to keep its size: funds received from 2026-01-02 10:30 and before.');
  });
});

describe('My stakes: one seen among the validators', () => {
  it('says when its stake unlocks, not that it comes back to the account (its stake may be owned by another key)', async () => {
    show([{ ...autoRenewed('found', 0), kind: 'validation', byWallet: false, unlocksAt: 1_795_583_400 }, { ...autoRenewed('mine', 0), kind: 'validation', unlocksAt: 1_795_583_400 }]);
    const [found, mine] = await screen.findAllByTestId('my-stake');
    expect(within(found!).queryByText('Comes back')).toBeNull();
    expect(within(found!).getByText('Stake unlocks')).toBeTruthy();
    expect(within(mine!).getByText('Comes back')).toBeTruthy();
  });
});
