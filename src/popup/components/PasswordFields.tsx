// New password + confirmation with a strength meter. The parent decides with checkNewPassword.
import { confirmError, passwordStrength } from '../checks.js';
import { TextField } from './Field.js';

export interface PasswordFieldsProps {
  password: string;
  confirm: string;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
  label?: string;
  error?: string | undefined;
  /** The form was submitted: an empty confirmation is named too. */
  tried?: boolean;
}

export function PasswordFields(p: PasswordFieldsProps) {
  const s = passwordStrength(p.password);
  const mismatch = p.confirm !== '' || p.tried ? confirmError(p.password, p.confirm) : undefined;
  return (
    <>
      <TextField
        label={p.label ?? 'Password'}
        type="password"
        autoComplete="new-password"
        value={p.password}
        onInput={p.onPassword}
        error={p.error}
        hint={
          p.password === '' ? (
            'At least 8 characters; longer is stronger.'
          ) : (
            <span class="strength" data-score={s.score}>
              <span class="strength-bar" aria-hidden="true">
                <i />
                <i />
                <i />
                <i />
              </span>
              <span aria-live="polite">
                Strength: <strong>{s.label}</strong>
                {s.hint ? ` · ${s.hint}` : ''}
              </span>
            </span>
          )
        }
      />
      <TextField
        label="Confirm password"
        type="password"
        autoComplete="new-password"
        value={p.confirm}
        onInput={p.onConfirm}
        error={mismatch}
      />
    </>
  );
}
