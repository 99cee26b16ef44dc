// @vitest-environment happy-dom
// The network badge: a custom entry whose node turns out to be Mainnet (its addresses are avax1…)
// says Mainnet and looks like it, whatever name it was given; other custom entries keep their name.
import { cleanup, render } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { NetworkBadge } from '../../../src/popup/components/NetworkBadge.js';
import type { NetworkView } from '../../../src/shared/messages.js';

afterEach(cleanup);

const custom = (hrp: string): NetworkView => ({ id: 'c1', kind: 'custom', name: 'Free testnet', url: 'https://node.example', atomicNamespace: 'avax', hrp });

describe('NetworkBadge', () => {
  it('a custom entry on Mainnet says so and is styled as Mainnet; one on another network keeps its name', () => {
    const { container, rerender } = render(<NetworkBadge network={custom('avax')} />);
    const badge = () => container.querySelector('.badge')!;
    expect(badge().textContent).toBe('Free testnet · Mainnet');
    expect(badge().classList.contains('net-mainnet')).toBe(true);
    rerender(<NetworkBadge network={custom('custom')} />);
    expect(badge().textContent).toBe('Free testnet');
    expect(badge().classList.contains('net-custom')).toBe(true);
    rerender(<NetworkBadge network={{ ...custom('avax'), kind: 'mainnet', name: 'Mainnet' }} />);
    expect(badge().textContent).toBe('Mainnet');
  });
});
