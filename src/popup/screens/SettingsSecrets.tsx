// Settings → the secrets behind the password: reveal the recovery phrase, export an imported
// account's private key, change the password.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useAction, useCall } from '../api.js';
import { checkNewPassword } from '../checks.js';
import { CopyButton } from '../components/CopyButton.js';
import { FormError, Muted, TextField } from '../components/Field.js';
import { PasswordFields } from '../components/PasswordFields.js';
import { PhraseWords } from '../components/PhraseWords.js';
import type { AccountView } from '../../shared/messages.js';

/**
 * Forgets a shown secret and a typed password when its Settings section (a <details>) is closed: a
 * closed one keeps its content in the page, and reopening it must ask for the password again.
 * `closes` counts the closings: an answer asked for before one must not be shown after it.
 */
function useForgetOnClose(forget: () => void): { ref: (el: HTMLElement | null) => void; closes: { current: number } } {
  const element = useRef<HTMLElement | null>(null);
  const closes = useRef(0);
  const latest = useRef(forget);
  latest.current = forget;
  useEffect(() => {
    const details = element.current?.closest('details');
    if (!details) return;
    const onToggle = () => {
      if (details.open) return;
      closes.current += 1;
      latest.current();
    };
    details.addEventListener('toggle', onToggle);
    return () => details.removeEventListener('toggle', onToggle);
  }, []);
  const ref = useCallback((el: HTMLElement | null) => {
    element.current ??= el;
  }, []);
  return { ref, closes };
}

/** The password a secret is shown for, and the button that shows it. */
function AskPassword(p: { formRef: (el: HTMLElement | null) => void; submit: (e: Event) => Promise<void>; password: string; setPassword: (v: string) => void; action: { busy: boolean; error: string | undefined }; show: string }) {
  return (
    <form ref={p.formRef} onSubmit={(e) => void p.submit(e)} noValidate>
      <TextField label="Password" type="password" autoComplete="current-password" value={p.password} onInput={p.setPassword} />
      <FormError error={p.action.error} />
      <button type="submit" disabled={p.password === '' || p.action.busy}>
        {p.show}
      </button>
    </form>
  );
}

export function RevealPhrase() {
  const call = useCall();
  const action = useAction();
  const [password, setPassword] = useState('');
  const [words, setWords] = useState<string[] | null>(null);
  const { ref, closes } = useForgetOnClose(() => {
    setWords(null);
    setPassword('');
  });
  const submit = async (e: Event) => {
    e.preventDefault();
    const asked = closes.current;
    const r = await action.run(() => call('wallet.revealMnemonic', { password }));
    setPassword('');
    if (r && closes.current === asked) setWords(r.mnemonic.split(' '));
  };
  if (words) {
    return (
      <div ref={ref}>
        <p class="warn-box">Anyone who sees these words controls your funds.</p>
        <PhraseWords words={words} />
        <button type="button" onClick={() => setWords(null)}>
          Hide
        </button>
      </div>
    );
  }
  return <AskPassword formRef={ref} submit={submit} password={password} setPassword={setPassword} action={action} show="Show recovery phrase" />;
}

export function ExportKey({ account }: { account: AccountView }) {
  const call = useCall();
  const action = useAction();
  const [password, setPassword] = useState('');
  const [key, setKey] = useState<string | null>(null);
  const { ref, closes } = useForgetOnClose(() => {
    setKey(null);
    setPassword('');
  });
  if (account.kind === 'hd') return <Muted>“{account.name}” comes from the recovery phrase: back up the phrase instead.</Muted>;
  const submit = async (e: Event) => {
    e.preventDefault();
    const asked = closes.current;
    const r = await action.run(() => call('wallet.exportPrivateKey', { password, accountId: account.id }));
    setPassword('');
    if (r && closes.current === asked) setKey(r.privateKey);
  };
  if (key) {
    return (
      <div ref={ref}>
        <p class="warn-box">Anyone with this key controls the account “{account.name}”.</p>
        <p class="mono break">{key}</p>
        <div class="row">
          <CopyButton text={key} what="private key" />
          <button type="button" onClick={() => setKey(null)}>
            Hide
          </button>
        </div>
      </div>
    );
  }
  return <AskPassword formRef={ref} submit={submit} password={password} setPassword={setPassword} action={action} show={`Show private key of “${account.name}”`} />;
}

export function ChangePassword() {
  const call = useCall();
  const action = useAction();
  const [old, setOld] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [done, setDone] = useState(false);
  const check = checkNewPassword(password, confirm);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!check.ok || old === '') return;
    if (await action.run(() => call('wallet.changePassword', { oldPassword: old, newPassword: password }))) {
      setOld('');
      setPassword('');
      setConfirm('');
      setDone(true);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <TextField label="Current password" type="password" autoComplete="current-password" value={old} onInput={setOld} error={action.field === 'oldPassword' ? action.error : undefined} />
      <PasswordFields
        label="New password"
        password={password}
        confirm={confirm}
        onPassword={(v) => {
          setPassword(v);
          setDone(false);
        }}
        onConfirm={setConfirm}
        error={action.field === 'newPassword' ? action.error : undefined}
      />
      <FormError error={action.field === 'oldPassword' || action.field === 'newPassword' ? undefined : action.error} />
      {done && <p role="status">Password changed.</p>}
      <button type="submit" disabled={!check.ok || old === '' || action.busy}>
        Change password
      </button>
    </form>
  );
}
