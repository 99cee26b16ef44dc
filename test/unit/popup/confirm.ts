// Confirm on a review, once it can be pressed: a review holds it while a line is still being
// checked (the send reviews' "Sent before", src/popup/components/SentBefore.tsx).
import { fireEvent, screen, waitFor } from '@testing-library/preact';
import { expect } from 'vitest';

export async function clickConfirm(name: string | RegExp = 'Confirm and send'): Promise<void> {
  // Asked anew each time: a review shown again (a fee that rose) renders a new button.
  const confirm = () => screen.getByRole('button', { name }) as HTMLButtonElement;
  await waitFor(() => expect(confirm().disabled).toBe(false), { timeout: 3000 });
  fireEvent.click(confirm());
}
