// Settings: networks (presets, custom URL, node health), auto-lock, accounts, connected sites and
// the chains they added (SettingsSites.tsx), the secrets behind the password and the password change
// (SettingsSecrets.tsx), about. Each section is a native <details> (keyboard friendly).
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorInfo, errorText, sentence, useAction, useCall, useRequest } from '../api.js';
import { BackgroundError } from '../../shared/client.js';
import { checkName, checkPrivateKey } from '../checks.js';
import { ErrorDetail, FormError, TextField } from '../components/Field.js';
import type { PlainError } from '../errors.js';
import type { AccountView, NetworkView, WalletStatus } from '../../shared/messages.js';
import { ChangePassword, ExportKey, RevealPhrase } from './SettingsSecrets.js';
import { Sites } from './SettingsSites.js';
import { nodeFailure, stillSyncing } from '../components/NodeBanner.js';
import { namespace as checkNamespace, nodeUrl } from '../../shared/validate-fields.js';

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

// ---- networks ----

type Health = { healthy: boolean; checks: string[]; passed: number; error?: string; errorCode?: string } | 'checking' | { failed: PlainError };

function HealthLine({ health, name }: { health: Health | undefined; name: string }) {
  if (!health) return null;
  if (health === 'checking') return <span class="muted">Checking the node…</span>;
  // The node's own words and address stay behind Details.
  if ('failed' in health || health.error !== undefined) {
    const failed = 'failed' in health ? health.failed : nodeFailure(health.errorCode ?? '', health.error!);
    const otherNetwork = !('failed' in health) && health.errorCode === 'network-mismatch';
    return <span class="error-text">{otherNetwork ? 'Not usable' : 'Not healthy'}: {failed.text}<ErrorDetail detail={failed.detail} about={`of ${name}`} /></span>;
  }
  if (health.healthy) return <span class="ok-text">Healthy ({health.passed} checks pass)</span>;
  return <span class="error-text">Not healthy{health.checks.length ? ` (failing checks: ${health.checks.join(', ')})` : ''}</span>;
}

/** The background's own check of a field as the user types, its reason under the field (refused later, "https://" in it read as "could not do this"). */
function fieldError(check: (value: unknown, field: string) => unknown, text: string): string | undefined {
  try {
    if (text.trim() !== '') check(text.trim(), 'f');
  } catch (e) {
    return sentence((e as Error).message.replace(/^f: /, ''));
  }
  return undefined;
}

function Networks({ status, onStatus }: SettingsProps) {
  const call = useCall();
  const list = useRequest('networks.list', {}, status.network.id);
  const action = useAction();
  const [health, setHealth] = useState<Record<string, Health>>({});
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [namespace, setNamespace] = useState('');
  const check = async (n: NetworkView) => {
    setHealth((h) => ({ ...h, [n.id]: 'checking' }));
    try {
      const r = await call('networks.health', { id: n.id });
      setHealth((h) => ({ ...h, [n.id]: r }));
    } catch (e) {
      setHealth((h) => ({ ...h, [n.id]: { failed: errorInfo(e) } }));
    }
  };
  const select = async (id: string) => {
    // Ignored, not disabled, while busy: a disabled button would drop keyboard focus to the page.
    if (action.busy || id === status.network.id) return;
    setDoing('Checking the node before switching…');
    const s = await action.run(() => call('networks.select', { id }));
    if (s) onStatus(s);
  };
  /** A network with unfinished moves, asked about before it goes. */
  const [unfinished, setUnfinished] = useState<{ network: NetworkView; text: string } | null>(null);
  const remove = async (n: NetworkView, confirmLoss = false) => {
    setUnfinished(null);
    setDoing('Removing the network…');
    const removed = await action.run(() =>
      call('networks.remove', { id: n.id, ...(confirmLoss ? { confirmLoss } : {}) }).catch((e: unknown) => {
        if (!(e instanceof BackgroundError && (e.code === 'network-has-moves' || e.code === 'network-has-sends'))) throw e;
        setUnfinished({ network: n, text: errorText(e) });
      }),
    );
    if (removed) await list.reload();
  };
  /** What the wait is for, said while busy. */
  const [doing, setDoing] = useState('');
  /** The network just added: said, and focused (the emptied form's button is disabled, which would drop focus to the page). */
  const [added, setAdded] = useState<string | undefined>(undefined);
  const addedRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => void (added !== undefined && addedRef.current?.focus()), [added]);
  const add = async (e: Event) => {
    e.preventDefault();
    // Busy: ignored, not disabled (as Use): the focused button keeps focus.
    if (action.busy || urlError !== undefined || namespaceError !== undefined) return;
    setDoing('Checking the node before adding it…');
    setAdded(undefined);
    const r = await action.run(() => call('networks.addCustom', { name: name.trim(), url: url.trim(), ...(namespace.trim() ? { atomicNamespace: namespace.trim() } : {}) }));
    if (r) {
      setName('');
      setUrl('');
      setNamespace('');
      await list.reload();
      setAdded(r.name);
    }
  };
  const nameCheck = checkName(name, 'a network name');
  // "127.0.0.1:9650" parses as no URL, "localhost:9650" as one of scheme "localhost:": say what is missing.
  const urlError = url.trim() !== '' && !/^[a-z][a-z\d+.-]*:\/\//i.test(url.trim()) ? 'Start it with https://, or http:// for a node on this machine' : fieldError(nodeUrl, url);
  const namespaceError = fieldError(checkNamespace, namespace);
  return (
    <>
      <ul class="plain-list">
        {(list.data?.networks ?? [status.network]).map((n) => (
          <li key={n.id} class="network-row">
            <strong>{n.name}</strong>
            <div class="mono small-text break">{n.url}</div>
            <div class="row">
              {/* A button, not a radio: arrow keys must not switch the wallet through every network on the way. */}
              <button type="button" class="small" aria-disabled={action.busy || n.id === status.network.id} aria-label={`${n.id === status.network.id ? 'In use' : 'Use'}: ${n.name}`} onClick={() => void select(n.id)}>
                {n.id === status.network.id ? 'In use' : 'Use'}
              </button>
              <button type="button" class="small" onClick={() => void check(n)}>
                Check health<span class="sr-only"> of {n.name}</span>
              </button>
              {n.kind === 'custom' && n.id !== status.network.id && (
                <button type="button" class="small" onClick={() => void remove(n)}>
                  Remove<span class="sr-only"> {n.name}</span>
                </button>
              )}
              <span aria-live="polite">
                <HealthLine health={health[n.id]} name={n.name} />
              </span>
            </div>
          </li>
        ))}
      </ul>
      {action.busy && <p class="muted">{doing}</p>}
      <FormError error={action.error && (stillSyncing(action.detail) ?? action.error)} detail={action.detail} about="of the node's answer" />
      {unfinished && (
        <div class="form-error" role="alert">
          <p>{unfinished.text}</p>
          <button type="button" class="small" onClick={() => void remove(unfinished.network, true)}>
            Remove {unfinished.network.name} anyway
          </button>{' '}
          <button type="button" class="small" onClick={() => setUnfinished(null)}>
            Keep {unfinished.network.name}
          </button>
        </div>
      )}
      <form onSubmit={(e) => void add(e)} noValidate>
        <h3>Add a custom node</h3>
        <TextField label="Name" value={name} onInput={setName} error={name !== '' && !nameCheck.ok ? nameCheck.error : undefined} />
        <TextField label="Node URL" type="url" value={url} onInput={setUrl} placeholder="https://node.example.org" mono error={urlError} />
        <TextField label="C-Chain atomic API namespace (optional)" value={namespace} onInput={setNamespace} placeholder="avax" mono error={namespaceError} />
        <button type="submit" disabled={!nameCheck.ok || url.trim() === '' || urlError !== undefined || namespaceError !== undefined} aria-disabled={action.busy}>
          Add network
        </button>
        {added !== undefined && (
          <p class="ok-text" tabIndex={-1} ref={addedRef}>
            Added {added}. Its Use button, in the list above, switches to it.
          </p>
        )}
      </form>
    </>
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

function AccountRow({ a, onRenamed }: { a: AccountView; onRenamed: () => void }) {
  const call = useCall();
  const action = useAction();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(a.name);
  const check = checkName(name, 'an account name');
  const save = async (e: Event) => {
    e.preventDefault();
    if (!check.ok) return;
    if (await action.run(() => call('accounts.rename', { id: a.id, name: check.value }))) {
      setEditing(false);
      onRenamed();
    }
  };
  return (
    <li class="account-row">
      {editing ? (
        <form onSubmit={(e) => void save(e)} noValidate>
          <TextField label="Account name" value={name} onInput={setName} autoFocus error={check.ok ? action.error : check.error} />
          <div class="row">
            <button type="button" class="small" onClick={() => setEditing(false)}>
              Cancel
            </button>
            <button type="submit" class="small primary" disabled={!check.ok || action.busy}>
              Save
            </button>
          </div>
        </form>
      ) : (
        <div class="row spread">
          <span>
            <strong>{a.name}</strong> <span class="muted">{a.kind === 'hd' ? `HD #${a.index ?? 0}` : 'imported key'}</span>
          </span>
          <button type="button" class="small" aria-label={`Rename ${a.name}`} onClick={() => setEditing(true)}>
            Rename
          </button>
        </div>
      )}
    </li>
  );
}

function Accounts({ status, onStatus }: SettingsProps) {
  const call = useCall();
  const list = useRequest('accounts.list', {});
  const action = useAction();
  const [mode, setMode] = useState<'none' | 'add' | 'import'>('none');
  const [name, setName] = useState('');
  const [key, setKey] = useState('');
  const nameCheck = checkName(name, 'an account name');
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
      <ul class="plain-list">
        {list.data?.accounts.map((a) => (
          <AccountRow key={a.id} a={a} onRenamed={() => void afterChange()} />
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
      <dt>Version</dt>
      <dd>{m.version ?? 'unknown'}</dd>
      <dt>Source</dt>
      <dd>
        {m.homepage_url ? (
          <a href={m.homepage_url} target="_blank" rel="noreferrer noopener">
            {m.homepage_url}
          </a>
        ) : (
          'no source address in this build'
        )}
      </dd>
      <dt>Explorer ({network.name})</dt>
      <dd>
        {explorer ? (
          <a href={explorer} target="_blank" rel="noreferrer noopener">
            {explorer}
          </a>
        ) : (
          'none for this network'
        )}
      </dd>
      <dt>Node</dt>
      <dd class="mono break">{network.url}</dd>
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
