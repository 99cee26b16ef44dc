// Settings: networks (SettingsNetworks.tsx: presets, custom nodes, node health), auto-lock, accounts, connected sites and
// the chains they added (SettingsSites.tsx), the secrets behind the password and the password change
// (SettingsSecrets.tsx), about. Each section is a native <details> (keyboard friendly).
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useAction, useCall, useRequest } from '../api.js';
import { checkName, checkPrivateKey } from '../checks.js';
import { FormError, MutedText, ReloadButton, ScreenReaderText, SmallButton, TextField } from '../components/Field.js';
import { Term } from '../components/Term.js';
import type { AccountView, NetworkView, WalletStatus } from '../../shared/messages.js';
import { Networks } from './SettingsNetworks.js';
import { ChangePassword, ExportKey, RevealPhrase } from './SettingsSecrets.js';
import { Sites } from './SettingsSites.js';

export interface SettingsProps {
  status: WalletStatus;
  onStatus: (s: WalletStatus) => void;
}

function Section({ title, children, open }: { title: string; children: ComponentChildren; open?: boolean }) {
  return (
    <details class="section" open={open}>
      <summary>{title}</summary>
      <div class="section-body">{children}</div>
    </details>
  );
}

// ---- auto-lock ----

const IDLE_CHOICES: (number | 'never')[] = [1, 5, 15, 30, 60, 240, 1440, 'never'];

function idleLabel(v: number | 'never'): string {
  if (v === 'never') return 'Never (not recommended)';
  if (v < 60) return `${v} minute${v === 1 ? '' : 's'}`;
  return `${v / 60} hour${v === 60 ? '' : 's'}`;
}

function AutoLock({ status, onStatus }: SettingsProps) {
  const call = useCall();
  const action = useAction();
  const [warning, setWarning] = useState<string | undefined>(undefined);
  const current = status.idleLockMinutes;
  const choices = IDLE_CHOICES.includes(current) ? IDLE_CHOICES : [...IDLE_CHOICES, current];
  const set = async (text: string) => {
    // Ignored while busy (the next render puts the choice back), never disabled: focus stays here.
    if (action.busy) return;
    const minutes = text === 'never' ? 'never' : Number(text);
    const r = await action.run(() => call('wallet.setIdleLock', { minutes }));
    if (r) {
      setWarning(r.warning);
      // Read afresh: a network or account switch may have answered meanwhile.
      onStatus(await call('wallet.status', {}).catch(() => ({ ...status, idleLockMinutes: r.minutes })));
    }
  };
  return (
    <div class="field">
      <label for="idle-lock">Lock after this long without use</label>
      <select id="idle-lock" value={String(current)} aria-disabled={action.busy} onChange={(e) => void set(e.currentTarget.value)}>
        {choices.map((c) => (
          <option key={c} value={String(c)}>
            {idleLabel(c)}
          </option>
        ))}
      </select>
      {warning && <p class="warn-box">{warning}</p>}
      <FormError error={action.error} />
    </div>
  );
}

// ---- accounts ----

/** Review → confirm for removing an account: what it costs, then the password. */
function RemoveAccount({ a, onCancel, onRemoved }: { a: AccountView; onCancel: () => void; onRemoved: () => void }) {
  const call = useCall();
  const action = useAction();
  const [password, setPassword] = useState('');
  // What removing costs is read first (focused), before the password is asked for.
  const cost = useRef<HTMLParagraphElement>(null);
  useEffect(() => cost.current?.focus(), []);
  const submit = async (e: Event) => {
    e.preventDefault();
    const r = await action.run(() => call('accounts.remove', { id: a.id, password }));
    setPassword('');
    if (r) onRemoved();
  };
  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label={`Remove ${a.name}`}>
      <p class="warn-box" ref={cost} tabIndex={-1}>
        Removing “{a.name}” deletes its private key from this wallet. Unless you have that key elsewhere (Export private key, below, shows it while this account is selected), you can no longer spend what its addresses hold.
      </p>
      <TextField label={`Password to remove “${a.name}”`} type="password" autoComplete="current-password" value={password} onInput={setPassword} />
      <FormError error={action.error} />
      <div class="row">
        <SmallButton onClick={onCancel}>Keep it</SmallButton>
        <button type="submit" class="small primary" disabled={password === '' || action.busy}>
          Remove “{a.name}”
        </button>
      </div>
    </form>
  );
}

function AccountRow({ a, others, removable, onChanged, onRemoved }: { a: AccountView; others: string[]; removable: boolean; onChanged: () => void; onRemoved: () => void }) {
  const call = useCall();
  const action = useAction();
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const removeButton = useRef<HTMLButtonElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  // Kept after all: focus back where the user left from.
  const keep = () => {
    setRemoving(false);
    requestAnimationFrame(() => removeButton.current?.focus());
  };
  // Renamed or not: focus back on the row's Rename, not at the top of the screen.
  const stopEditing = () => {
    setEditing(false);
    requestAnimationFrame(() => renameButton.current?.focus());
  };
  const [name, setName] = useState(a.name);
  const check = checkName(name, 'an account name', others);
  const save = async (e: Event) => {
    e.preventDefault();
    if (!check.ok) return;
    if (await action.run(() => call('accounts.rename', { id: a.id, name: check.value }))) {
      stopEditing();
      onChanged();
    }
  };
  if (removing) {
    return (
      <li class="account-row">
        <RemoveAccount a={a} onCancel={keep} onRemoved={onRemoved} />
      </li>
    );
  }
  return (
    <li class="account-row">
      {editing ? (
        <form onSubmit={(e) => void save(e)} noValidate>
          {/* Named by the account: another row's rename, or Add account, may be open beside it. */}
          <TextField label={<>Account name<ScreenReaderText> (renaming {a.name})</ScreenReaderText></>} value={name} onInput={setName} autoFocus error={check.ok ? action.error : check.error} />
          <div class="row">
            <SmallButton aria-label={`Cancel renaming ${a.name}`} onClick={stopEditing}>
              Cancel
            </SmallButton>
            <button type="submit" class="small primary" aria-label={`Save the name of ${a.name}`} disabled={!check.ok || action.busy}>
              Save
            </button>
          </div>
        </form>
      ) : (
        <div class="row spread">
          <span>
            <strong>{a.name}</strong> <MutedText>{a.kind === 'hd' ? `HD #${a.index ?? 0}` : 'imported key'}</MutedText>
          </span>
          <span class="row">
            <button type="button" class="small" ref={renameButton} aria-label={`Rename ${a.name}`} onClick={() => setEditing(true)}>
              Rename
            </button>
            {removable && (
              <button type="button" class="small" ref={removeButton} aria-label={`Remove ${a.name}…`} onClick={() => setRemoving(true)}>
                Remove…
              </button>
            )}
          </span>
        </div>
      )}
    </li>
  );
}

function Accounts({ status, onStatus }: SettingsProps) {
  const call = useCall();
  const listRef = useRef<HTMLUListElement>(null);
  const list = useRequest('accounts.list', {});
  const action = useAction();
  const [mode, setMode] = useState<'none' | 'add' | 'import'>('none');
  const [name, setName] = useState('');
  const [key, setKey] = useState('');
  const names = list.data?.accounts.map((a) => a.name) ?? [];
  const nameCheck = checkName(name, 'an account name', names);
  const keyCheck = checkPrivateKey(key);
  const afterChange = async () => {
    await list.reload();
    // The header's switcher follows the status (name of the selected account).
    onStatus(await call('wallet.status', {}));
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!nameCheck.ok) return;
    const accountName = nameCheck.value;
    let r;
    if (mode === 'import') {
      if (!keyCheck.ok) return;
      const privateKey = keyCheck.value;
      r = await action.run(() => call('accounts.importKey', { name: accountName, privateKey }));
    } else {
      r = await action.run(() => call('accounts.add', { name: accountName }));
    }
    if (r) {
      setMode('none');
      setName('');
      setKey('');
      await afterChange();
    }
  };
  const hasHd = list.data?.accounts.some((a) => a.kind === 'hd') ?? status.account?.kind === 'hd';
  return (
    <>
      {/* Unread, the list would look empty: said, with a way to read it again. */}
      {list.error && (
        <div class="error-text" role="alert">
          <p>Your accounts could not be read: {list.error}</p>
          <ReloadButton list={list} label="Reload the accounts" />
        </div>
      )}
      {/* Focused after a removal: the row the user was on is gone. */}
      <ul class="plain-list" ref={listRef} tabIndex={-1} aria-label="Your accounts">
        {list.data?.accounts.map((a) => (
          <AccountRow key={a.id} a={a} others={list.data!.accounts.filter((x) => x.id !== a.id).map((x) => x.name)} removable={a.kind === 'imported' && (list.data?.accounts.length ?? 0) > 1} onChanged={() => void afterChange()} onRemoved={() => void afterChange().then(() => listRef.current?.focus(), () => undefined)} />
        ))}
      </ul>
      {mode === 'none' ? (
        <div class="row">
          {hasHd && (
            <button type="button" onClick={() => setMode('add')}>
              Add account
            </button>
          )}
          <button type="button" onClick={() => setMode('import')}>
            Import a key
          </button>
        </div>
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate>
          <TextField label="New account name" value={name} onInput={setName} autoFocus error={name !== '' && !nameCheck.ok ? nameCheck.error : undefined} />
          {mode === 'import' && <TextField label="Private key" type="password" mono value={key} onInput={setKey} error={key !== '' && !keyCheck.ok ? keyCheck.error : undefined} />}
          <FormError error={action.error} />
          <div class="row">
            <button type="button" onClick={() => setMode('none')}>
              Cancel
            </button>
            <button type="submit" class="primary" disabled={action.busy || !nameCheck.ok || (mode === 'import' && !keyCheck.ok)}>
              {mode === 'import' ? 'Import' : 'Add'}
            </button>
          </div>
        </form>
      )}
    </>
  );
}

// ---- about ----

interface ManifestInfo {
  version?: string;
  homepage_url?: string;
}

function manifest(): ManifestInfo {
  const g = globalThis as { chrome?: { runtime?: { getManifest?: () => ManifestInfo } } };
  try {
    return g.chrome?.runtime?.getManifest?.() ?? {};
  } catch {
    return {};
  }
}

function About({ network }: { network: NetworkView }) {
  const m = manifest();
  const explorer = network.explorerUrl;
  return (
    <dl class="facts">
      <Term term="Version">{m.version ?? 'unknown'}</Term>
      <Term term="Source">
        {m.homepage_url ? (
          <a href={m.homepage_url} target="_blank" rel="noreferrer noopener">
            {m.homepage_url}
          </a>
        ) : (
          'no source address in this build'
        )}
      </Term>
      <Term term={<>Explorer ({network.name})</>}>
        {explorer ? (
          <a href={explorer} target="_blank" rel="noreferrer noopener">
            {explorer}
          </a>
        ) : (
          'none for this network'
        )}
      </Term>
      <Term term="Node" class="mono break">{network.url}</Term>
    </dl>
  );
}

export function Settings({ status, onStatus }: SettingsProps) {
  return (
    <div class="settings">
      <h1>Settings</h1>
      <Section title="Network">
        <Networks status={status} onStatus={onStatus} />
      </Section>
      <Section title="Auto-lock">
        <AutoLock status={status} onStatus={onStatus} />
      </Section>
      <Section title="Accounts">
        <Accounts status={status} onStatus={onStatus} />
      </Section>
      <Section title="Connected sites">
        <Sites />
      </Section>
      <Section title="Recovery phrase">
        <RevealPhrase />
      </Section>
      {status.account && (
        <Section title="Export private key">
          <ExportKey key={status.account.id} account={status.account} />
        </Section>
      )}
      <Section title="Change password">
        <ChangePassword />
      </Section>
      <Section title="About">
        <About network={status.network} />
      </Section>
    </div>
  );
}
