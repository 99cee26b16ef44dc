// Settings → Network: the presets and the user's own nodes, which one is in use, each node's health
// (and whether it is still the network pinned), adding a node (its address checked as typed with the
// background's own rules) and removing one (asked first when moves or sends on it are not settled).
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorInfo, errorText, sentence, useAction, useCall, useRequest } from '../api.js';
import { BackgroundError } from '../../shared/client.js';
import { checkName } from '../checks.js';
import { ErrorDetail, FormError, Muted, MutedText, ScreenReaderText, SmallButton, TextField } from '../components/Field.js';
import { nodeFailure, stillSyncing } from '../components/NodeBanner.js';
import type { PlainError } from '../errors.js';
import type { NetworkView } from '../../shared/messages.js';
import { namespace as checkNamespace, nodeUrl } from '../../shared/validate-fields.js';
import type { SettingsProps } from './Settings.js';

type Health = { healthy: boolean; checks: string[]; passed: number; error?: string; errorCode?: string } | 'checking' | { failed: PlainError };

function HealthLine({ health, name }: { health: Health | undefined; name: string }) {
  if (!health) return null;
  if (health === 'checking') return <MutedText>Checking the node…</MutedText>;
  // The node's own words and address stay behind Details.
  if ('failed' in health || health.error !== undefined) {
    const failed = 'failed' in health ? health.failed : nodeFailure(health.errorCode ?? '', health.error!);
    const otherNetwork = !('failed' in health) && health.errorCode === 'network-mismatch';
    return <span class="error-text">{otherNetwork ? 'Not usable' : 'Not healthy'}: {failed.text}<ErrorDetail detail={failed.detail} about={`of ${name}`} /></span>;
  }
  if (health.healthy) return <span class="ok-text">Healthy ({health.passed} checks pass)</span>;
  // avalanchego's "bootstrapped" check: the node is up, still catching up with the network.
  const syncing = health.checks.includes('bootstrapped') ? ': still catching up with the network' : '';
  return <span class="error-text">Not healthy{syncing}{health.checks.length ? ` (failing checks: ${health.checks.join(', ')})` : ''}</span>;
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

export function Networks({ status, onStatus }: SettingsProps) {
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
    // Busy (a switch, another removal): ignored, not disabled, as Use and Add are.
    if (action.busy) return;
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
    if (action.busy || !nameCheck.ok || urlError !== undefined || namespaceError !== undefined) return;
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
  const nameCheck = checkName(name, 'a network name', (list.data?.networks ?? [status.network]).map((n) => n.name), 'network');
  // "127.0.0.1:9650" parses as no URL, "localhost:9650" as one of scheme "localhost:": say what is missing.
  const urlError = url.trim() !== '' && !/^[a-z][a-z\d+.-]*:\/\//i.test(url.trim()) ? 'Start it with https://, or http:// for a node on this machine' : fieldError(nodeUrl, url);
  const namespaceError = fieldError(checkNamespace, namespace);
  return (
    <>
      {/* Unreadable, the list shows the network in use alone: said, so the others do not look gone. */}
      {list.error && <p class="error-text">The list of networks could not be read: {list.error}</p>}
      <ul class="plain-list">
        {(list.data?.networks ?? [status.network]).map((n) => (
          <li key={n.id} class="network-row">
            <strong>{n.name}</strong>
            <div class="mono small-text break">{n.url}</div>
            <div class="row">
              {/* A button, not a radio: arrow keys must not switch the wallet through every network on the way. */}
              <SmallButton aria-disabled={action.busy || n.id === status.network.id} aria-label={`${n.id === status.network.id ? 'In use' : 'Use'}: ${n.name}`} onClick={() => void select(n.id)}>
                {n.id === status.network.id ? 'In use' : 'Use'}
              </SmallButton>
              <SmallButton onClick={() => void check(n)}>
                Check health<ScreenReaderText> of {n.name}</ScreenReaderText>
              </SmallButton>
              {n.kind === 'custom' && n.id !== status.network.id && (
                <SmallButton aria-disabled={action.busy} onClick={() => void remove(n)}>
                  Remove<ScreenReaderText> {n.name}</ScreenReaderText>
                </SmallButton>
              )}
              <span aria-live="polite">
                <HealthLine health={health[n.id]} name={n.name} />
              </span>
            </div>
          </li>
        ))}
      </ul>
      {/* A live region there before the wait, so the wait is announced. */}
      <Muted role="status">{action.busy ? doing : ''}</Muted>
      <FormError error={action.error && (stillSyncing(action.detail) ?? action.error)} detail={action.detail} about="of the node's answer" />
      {unfinished && (
        <div class="form-error" role="alert">
          <p>{unfinished.text}</p>
          <SmallButton onClick={() => void remove(unfinished.network, true)}>
            Remove {unfinished.network.name} anyway
          </SmallButton>{' '}
          <SmallButton onClick={() => setUnfinished(null)}>
            Keep {unfinished.network.name}
          </SmallButton>
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
