// Adds a token by its contract address: first what the contract says of itself (tokens.inspect:
// standard, name, symbol, decimals, the account's balance and the wallet's checks on those words),
// then, only if the user wants it, tokens.add. Nothing is sent on chain.
import { useEffect, useRef, useState } from 'preact/hooks';
import { useAction, useCall } from '../api.js';
import { checkAddress } from '../checks.js';
import { AddressInput } from '../components/AddressInput.js';
import { FormError, Muted, SmallButton } from '../components/Field.js';
import { Term } from '../components/Term.js';
import { standardLabel, tokenBalanceText, tokenFlags } from '../tokens-format.js';
import type { Selection, TokenView } from '../../shared/messages.js';

/** `selection`: the account and network the token was looked up on; it is listed there or not at all. */
export function TokenAdd({ hrp, selection, onAdded, onCancel }: { hrp: string; selection: Selection | undefined; onAdded: () => void; onCancel: () => void }) {
  const call = useCall();
  const action = useAction();
  const [address, setAddress] = useState('');
  const [found, setFound] = useState<{ token: TokenView; listed: boolean } | null>(null);
  const check = checkAddress(address, 'C-evm', hrp);
  // What the contract says appears below the form: focus goes to it, so a screen reader reads it and Tab reaches Add next.
  const foundHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (found) foundHeading.current?.focus();
  }, [found]);

  const inspect = async (e: Event) => {
    e.preventDefault();
    if (!check.ok) return;
    setFound(null);
    const r = await action.run(() => call('tokens.inspect', { address: check.value }));
    if (r) setFound(r);
  };
  const add = async () => {
    if (!found) return;
    if (await action.run(() => call('tokens.add', { address: found.token.address }, selection))) onAdded();
  };

  const t = found?.token;
  const flags = t ? tokenFlags(t.checks) : [];
  return (
    <form class="token-add" noValidate onSubmit={(e) => void inspect(e)}>
      <div class="title-row">
        <h1>Add a token</h1>
        <SmallButton onClick={onCancel}>
          Back
        </SmallButton>
      </div>
      <Muted>The token's contract address on the C-Chain. The wallet asks your node what the contract says; nothing is sent.</Muted>
      <AddressInput
        label="Token contract address"
        kind="C-evm"
        hrp={hrp}
        value={address}
        onInput={(v) => {
          setAddress(v);
          setFound(null);
          action.clear();
        }}
      />
      <button type="submit" class="wide" disabled={!check.ok || action.busy}>
        {action.busy && !found ? 'Reading the contract…' : 'Look it up'}
      </button>
      {t && (
        <section class="review" aria-labelledby="token-found" data-testid="token-found">
          <h2 id="token-found" tabIndex={-1} ref={foundHeading}>
            What the contract says
          </h2>
          <dl class="facts">
            <Term term="Name">{t.name || '(none)'}</Term>
            <Term term="Symbol">{t.symbol || '(none)'}</Term>
            <Term term="Kind">{standardLabel(t.standard)}</Term>
            {t.standard === 'erc20' && <Term term="Decimals">{t.decimals}</Term>}
            <Term term="Your balance" data-testid="token-found-balance">{tokenBalanceText(t)}</Term>
            <Term term="Contract" class="mono break">{t.address}</Term>
          </dl>
          <Muted>A name and symbol are only what the contract says of itself: anyone can deploy a token called anything. The address is what identifies it.</Muted>
          {flags.map((f) => (
            <p key={f} class="badge warn" role="note">
              {f}
            </p>
          ))}
          {found.listed ? (
            <p role="status">Already in your list.</p>
          ) : (
            <div class="actions">
              <button type="button" class="primary" disabled={action.busy} onClick={() => void add()}>
                Add {t.symbol || 'this token'} to my list
              </button>
            </div>
          )}
        </section>
      )}
      <FormError error={action.error} detail={action.detail} />
    </form>
  );
}
