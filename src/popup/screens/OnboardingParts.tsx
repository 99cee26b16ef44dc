// The onboarding screens' frame, and what a restore has to say before the wallet opens: what it
// would lose, and the accounts it could not look for.
import type { ComponentChildren } from 'preact';
import { FormError } from '../components/Field.js';
import type { RestoreLoss } from '../../shared/messages.js';

export function Screen({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <main class="screen onboarding">
      <h1>{title}</h1>
      {children}
    </main>
  );
}

/** A restore whose node could not say which of the phrase's accounts were used (none, or only the first ones, were found). */
export function AccountsNotSearched({ onContinue }: { onContinue: () => void }) {
  return (
    <Screen title="Wallet restored">
      <p role="status">
        Your wallet is back, but the node could not be reached, or did not answer in time, so the wallet could not look for all your accounts: some may be
        missing. Add them with “Add account” in Settings: they come back in the same order, with their funds.
      </p>
      <button class="primary" autoFocus onClick={onContinue}>
        Continue
      </button>
    </Screen>
  );
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What a restore over this wallet would drop, before the user confirms it (`again`: shown once more after a refused Confirm). */
export function RestoreLossWarning(p: { loss: RestoreLoss; keyMode: boolean; again?: boolean; busy: boolean; error: string | undefined; onConfirm: () => void; onCancel: () => void }) {
  const { importedKeys, phraseAccounts, phraseUnsure, unfinishedTransfers, undecidedSends, unknown } = p.loss;
  return (
    <Screen title="This restore loses data">
      <div class="warn-box" role="alert">
        {p.again && <p>This has changed since you confirmed: read it again.</p>}
        <p>Restoring replaces the wallet in this browser. The {p.keyMode ? 'private key you entered' : 'recovery phrase'} does not bring these back:</p>
        <ul>
          {phraseAccounts !== undefined && (
            <li>
              {phraseUnsure ? 'The recovery phrase stored now, unless it is the one you entered (the wallet cannot tell while locked)' : p.keyMode ? 'The recovery phrase stored now' : 'The recovery phrase stored now, which is not the one you entered'}: it will be gone from this wallet, with{' '}
              {phraseAccounts > 0 ? `the ${plural(phraseAccounts, 'account', 'accounts')} made from it` : 'every account made from it (none is listed now)'}. Their
              funds stay reachable only with that phrase: make sure you have it written down.
            </li>
          )}
          {importedKeys > 0 && (
            <li>
              {plural(importedKeys, 'account', 'accounts')} from an imported private key{p.keyMode ? ', unless it is the key you entered' : ''}. Its funds stay
              reachable only with that key: make sure you have it written down.
            </li>
          )}
          {unfinishedTransfers > 0 && (
            <li>
              {plural(unfinishedTransfers, 'unfinished cross-chain transfer', 'unfinished cross-chain transfers')}. Their progress is forgotten; funds already
              exported wait on the destination chain and can be imported again with the key that sent them.
            </li>
          )}
          {undecidedSends !== undefined && undecidedSends > 0 && (
            <li>
              {plural(undecidedSends, 'transaction', 'transactions')} not yet decided by the network, or refused but still able to go through. Forgotten, they no longer keep a
              send you make after the restore from paying a second time: better wait until Activity shows them decided.
            </li>
          )}
          {unknown && (
            <li>
              Whatever else the wallet held: its saved list of accounts cannot be read, so it cannot tell whether it holds{' '}
              {p.keyMode ? 'a recovery phrase, ' : ''}accounts from imported private keys or unfinished transfers. If you know the password, unlock instead: that
              rebuilds the list and loses nothing.
            </li>
          )}
        </ul>
      </div>
      <FormError error={p.error} />
      <div class="actions">
        <button type="button" onClick={p.onCancel} disabled={p.busy}>
          Cancel
        </button>
        <button class="primary" type="button" onClick={p.onConfirm} disabled={p.busy}>
          {p.busy ? 'Encrypting…' : 'Restore anyway'}
        </button>
      </div>
    </Screen>
  );
}
