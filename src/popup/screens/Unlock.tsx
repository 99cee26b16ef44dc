// The locked wallet: the password opens it; a forgotten password leads to making it again from the
// phrase or, for a wallet made from a key, from that key (offered only where that can happen: the
// popup, not the approval window).
import { useState } from 'preact/hooks';
import { useAction, useCall } from '../api.js';
import { FormError, Muted, TextField } from '../components/Field.js';
import type { NetworkView, WalletStatus } from '../../shared/messages.js';
import { NetworkBadge } from '../components/NetworkBadge.js';

export interface UnlockProps {
  network: NetworkView;
  onUnlocked: (s: WalletStatus) => void;
  onRestore?: (from: 'phrase' | 'key') => void;
  /** Why the password is asked for here, under "The wallet is locked." */
  note?: string;
}

export function Unlock({ network, onUnlocked, onRestore, note }: UnlockProps) {
  const call = useCall();
  const action = useAction();
  const [password, setPassword] = useState('');
  const submit = async (e: Event) => {
    e.preventDefault();
    if (password === '') return;
    const status = await action.run(() => call('wallet.unlock', { password }));
    if (status) onUnlocked(status);
    else setPassword('');
  };
  // The password itself refused: said at its field (marked invalid), not only for the form.
  const wrong = action.field === 'password';
  return (
    <main class="screen unlock">
      <div class="unlock-head">
        <h1>XPC Wallet</h1>
        <NetworkBadge network={network} />
      </div>
      <p>The wallet is locked.</p>
      {note !== undefined && <Muted>{note}</Muted>}
      <form onSubmit={(e) => void submit(e)} noValidate>
        <TextField label="Password" type="password" autoComplete="current-password" autoFocus value={password} onInput={setPassword} error={wrong ? action.error : undefined} />
        {/* The field's error is not announced by itself: said at once here too, unseen. */}
        {wrong && action.error && (
          <p class="sr-only" role="alert">
            {action.error}
          </p>
        )}
        <FormError error={wrong ? undefined : action.error} />
        <button class="primary wide" type="submit" disabled={action.busy || password === ''}>
          {action.busy ? 'Unlocking…' : 'Unlock'}
        </button>
      </form>
      {onRestore && (
        <p class="muted small-text">
          Forgot the password?{' '}
          <button type="button" class="link" onClick={() => onRestore('phrase')}>
            Restore from your recovery phrase
          </button>{' '}
          or{' '}
          <button type="button" class="link" onClick={() => onRestore('key')}>
            start again with a private key
          </button>
        </p>
      )}
    </main>
  );
}
