// @vitest-environment happy-dom
// A move's progress on the Move screen: how it ended, and why one under way waits.
import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { TransferProgress } from '../../../src/popup/screens/Move.js';
import type { TransferView } from '../../../src/shared/messages.js';

afterEach(cleanup);

const base: TransferView = { id: 'm', from: 'X', to: 'P', amount: '1000000000', state: 'pending', importTxIDs: [] };

function progress(t: TransferView) {
  render(
    <ul>
      <TransferProgress t={t} />
    </ul>,
  );
}

describe('a finished move', () => {
  it('whose funds another import took says they are not lost, and is not shown as waiting', () => {
    progress({ ...base, state: 'completed', exportTxID: 'e', importTxIDs: ['i'], error: 'its funds were imported by another import, not its own' });
    expect(screen.getByTestId('transfer-elsewhere').textContent).toBe("Another import, not this move's own, brought its funds into the P-Chain: they are not lost.");
    expect(screen.queryByTestId('transfer-paused')).toBeNull();
    cleanup();
    progress({ ...base, state: 'completed', exportTxID: 'e', importTxIDs: ['i'] });
    expect(screen.queryByTestId('transfer-elsewhere')).toBeNull();
  });
});
