// @vitest-environment happy-dom
// The node's health above every screen: nothing while it answers; "slow" once a refresh has waited
// SLOW_AFTER_MS; "can't be reached" with since when and the balances' age once refreshes fail.
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeBanner, nodeHealth, SLOW_AFTER_MS } from '../../../src/popup/components/NodeBanner.js';
import { formatClock, formatDateTime } from '../../../src/popup/format.js';
import { balances } from './fixtures.js';
import { g, JsonRpcEndpoint } from '../../../src/core/rpc.js';
import type { WalletError } from '../../../src/core/errors.js';

afterEach(cleanup);

const NOW = Date.UTC(2026, 10, 25, 3, 10, 0);

describe('NodeBanner', () => {
  it('says nothing while the node answers, or while a refresh is young', () => {
    render(<NodeBanner view={balances()} now={NOW} />);
    expect(screen.queryByTestId('node-banner')).toBeNull();
    cleanup();
    render(<NodeBanner view={{ ...balances(), refreshing: true, refreshStartedAt: NOW - SLOW_AFTER_MS + 1 }} now={NOW} />);
    expect(screen.queryByTestId('node-banner')).toBeNull();
  });

  it('calls a node slow once a refresh has waited long enough, with since when and the age of the balances', () => {
    const view = { ...balances(), refreshing: true, refreshStartedAt: NOW - SLOW_AFTER_MS };
    render(<NodeBanner view={view} now={NOW} />);
    const banner = screen.getByTestId('node-banner');
    expect(banner.dataset.state).toBe('slow');
    expect(banner.textContent).toBe(`The node is slow. A refresh started at ${formatClock(NOW - SLOW_AFTER_MS)} is still waiting for it. Balances shown are from ${formatDateTime(view.updatedAt)}.`);
    expect(banner.getAttribute('role')).toBe('status');
  });

  it('says in plain words that the node cannot be reached, since when, with the raw reason one click away', () => {
    const failingSince = NOW - 60_000;
    const view = { ...balances(), error: 'node at http://127.0.0.1:9650/ext/bc/P is unreachable: Failed to fetch', errorCode: 'node-unreachable', failingSince };
    render(<NodeBanner view={view} now={NOW} />);
    const banner = screen.getByTestId('node-banner');
    expect(banner.dataset.state).toBe('unreachable');
    expect(banner.getAttribute('role')).toBe('alert');
    expect(banner.querySelector('p')?.textContent).toBe(
      `The node can't be reached. Check that it is running and that its address in Settings is right. Since ${formatClock(failingSince)}. Balances shown are from ${formatDateTime(view.updatedAt)}.`,
    );
    expect(banner.querySelector('p')?.textContent).not.toContain('http');
    fireEvent.click(screen.getByText('Details'));
    expect(banner.querySelector('details')?.textContent).toContain('http://127.0.0.1:9650');
    // Named apart from the Details of a screen below it (a paused move's).
    expect(banner.querySelector('summary')?.textContent).toBe("Details of the node's failure");
  });

  it('dates since when and the balances when that was another day', () => {
    const failingSince = NOW - 2 * 86_400_000;
    const view = { ...balances(), updatedAt: NOW - 3 * 86_400_000, error: 'timed out', errorCode: 'timeout', failingSince };
    render(<NodeBanner view={view} now={NOW} />);
    expect(screen.getByTestId('node-banner').querySelector('p')?.textContent).toMatch(
      new RegExp(`Since ${formatDateTime(failingSince)}\\. Balances shown are from ${formatDateTime(view.updatedAt)}\\.$`),
    );
    cleanup();
    const slow = { ...balances(), updatedAt: NOW - 3 * 86_400_000, refreshing: true, refreshStartedAt: NOW - 86_400_000 };
    render(<NodeBanner view={slow} now={NOW} />);
    expect(screen.getByTestId('node-banner').textContent).toBe(
      `The node is slow. A refresh started at ${formatDateTime(slow.refreshStartedAt)} is still waiting for it. Balances shown are from ${formatDateTime(slow.updatedAt)}.`,
    );
  });

  it("says a failure of the wallet's own (unreadable storage) is not the node's", () => {
    const view = { ...balances(), error: 'the wallet settings in storage are unreadable', errorCode: 'storage-corrupt', failingSince: NOW - 5_000 };
    render(<NodeBanner view={view} now={NOW} />);
    const banner = screen.getByTestId('node-banner');
    expect(banner.dataset.state).toBe('failing');
    expect(banner.querySelector('strong')?.textContent).toBe("The balances could not be updated: The wallet's saved data could not be read. Nothing was changed.");
  });

  it('says a node that answers "not done bootstrapping" is catching up, not that it cannot be reached', async () => {
    // avalanchego's own answer for a chain still bootstrapping: HTTP 503, plain text (api/server rejectMiddleware).
    const fetch = async () => new Response('API call rejected because chain is not done bootstrapping\n', { status: 503 });
    const failure = await new JsonRpcEndpoint('http://127.0.0.1:9650/ext/bc/X', { fetch }).call('avm.getUTXOs', {}, g.unknown).then(
      () => expect.unreachable(),
      (e: WalletError) => e,
    );
    const view = { ...balances(), error: failure.message, errorCode: failure.code, failingSince: NOW - 60_000 };
    render(<NodeBanner view={view} now={NOW} />);
    const text = screen.getByTestId('node-banner').querySelector('p')?.textContent ?? '';
    expect(text).toMatch(/^The node is still catching up with the network \(bootstrapping\)/);
    expect(text).not.toMatch(/can't be reached|address in Settings/);
    expect(text).toContain(`Since ${formatClock(NOW - 60_000)}. Balances shown are from ${formatDateTime(view.updatedAt)}.`);
    fireEvent.click(screen.getByText('Details'));
    expect(screen.getByTestId('node-banner').querySelector('details')?.textContent).toContain('not done bootstrapping');
    // Still a node that cannot serve (Move holds its retries the same way).
    expect(nodeHealth(view, NOW).state).toBe('unreachable');
  });

  it('keeps calling a failing node unreachable while its next refresh hangs', () => {
    const view = { ...balances(), error: 'timed out', errorCode: 'timeout', failingSince: NOW - 90_000, refreshing: true, refreshStartedAt: NOW - 2 * SLOW_AFTER_MS };
    expect(nodeHealth(view, NOW).state).toBe('unreachable');
    expect(nodeHealth(null, NOW).state).toBe('ok');
  });
});
