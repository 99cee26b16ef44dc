// @vitest-environment happy-dom
// A Confirm that fails the same way twice: the button that had focus was disabled meanwhile, so the
// review's heading takes focus again each time, not only when the error's words change.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, expect, it } from 'vitest';
import { Send } from '../../../src/popup/screens/Send.js';
import { fakeBackground, Refuse, renderWith } from './fake-background.js';
import { HRP, UNLOCKED, X_OTHER, balances } from './fixtures.js';

afterEach(cleanup);

it('a second failed Confirm with the same words gives focus back to the review', async () => {
  const bg = fakeBackground({
    'activity.list': () => ({ items: [] }),
    'send.estimate': () => ({ fee: '1000000', maxAmount: '9000000000' }),
    'send.x': () => Promise.reject(new Refuse({ code: 'unreachable', message: 'the wallet background did not answer' })),
  });
  renderWith(bg, <Send status={UNLOCKED} hrp={HRP} balances={balances()} onSent={() => undefined} estimateDelayMs={0} />);
  fireEvent.input(screen.getByLabelText(/^To/), { target: { value: X_OTHER } });
  fireEvent.input(screen.getByLabelText('Amount (AVAX)'), { target: { value: '1.5' } });
  await waitFor(() => expect((screen.getByRole('button', { name: 'Review' }) as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(screen.getByRole('button', { name: 'Review' }));
  await screen.findByRole('heading', { name: 'Review' });
  // Asked anew each time (a review shown again renders new elements); waits allow a loaded machine.
  const confirm = () => screen.getByRole('button', { name: 'Confirm and send' }) as HTMLButtonElement;
  const ready = () => waitFor(() => expect(confirm().disabled).toBe(false), { timeout: 5000 });
  for (let i = 1; i <= 2; i++) {
    await ready();
    confirm().focus();
    fireEvent.click(confirm());
    await waitFor(() => expect(bg.callsOf('send.x')).toHaveLength(i), { timeout: 5000 });
    await ready();
    expect(document.activeElement, `after failure ${i}`).toBe(screen.getByRole('heading', { name: 'Review' }));
  }
}, 20_000);
