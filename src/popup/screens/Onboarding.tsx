// First run (and a forgotten password, from the unlock screen: the wallet made again from its phrase
// or its key): create a wallet (24 words, then a few of them typed back), restore one from 12/24
// words, or import a private key; then a password; the network can be chosen on the first page.
import { useEffect, useState } from 'preact/hooks';
import { useAction, useCall, useRequest } from '../api.js';
import { phraseWords } from '../../core/phrase-words.js';
import { checkName, checkNewPassword, checkPhrase, checkPrivateKey, confirmError } from '../checks.js';
import { FormError, TextField } from '../components/Field.js';
import { PasswordFields } from '../components/PasswordFields.js';
import { PhraseWords } from '../components/PhraseWords.js';
import { AccountsNotSearched, RestoreLossWarning, Screen } from './OnboardingParts.js';
import { BackgroundError } from '../../shared/client.js';
import { type NetworkView, RESTORE_WOULD_DROP, type RestoreLoss, type RestoreResult, type WalletStatus } from '../../shared/messages.js';

/** `replace`: over the wallet stored (a forgotten password), as a restore does. */
type Secret = { mode: 'create' | 'restore'; mnemonic: string } | { mode: 'key'; privateKey: string; name: string; replace: boolean };

type Step =
  | { k: 'welcome' }
  | { k: 'words'; mnemonic: string }
  | { k: 'confirm'; mnemonic: string; positions: number[] }
  /** `phrase`: what was typed, kept when the password step goes back. */
  | { k: 'restore'; phrase?: string }
  | { k: 'import' }
  | { k: 'password'; secret: Secret };

export interface OnboardingProps {
  network: NetworkView;
  onDone: (status: WalletStatus) => void;
  /** Open on the restore form of the phrase or of a key (from the unlock screen); a vault already exists. */
  restoreOnly?: 'phrase' | 'key';
  onCancel?: () => void;
  /** Which words to ask back (tests pass fixed ones). */
  pickPositions?: (count: number) => number[];
}

/** Three distinct word positions (0-based, sorted) from the platform's random source. */
export function randomPositions(count: number, ask = 3): number[] {
  const picked = new Set<number>();
  const buffer = new Uint32Array(1);
  while (picked.size < Math.min(ask, count)) {
    crypto.getRandomValues(buffer);
    picked.add(buffer[0]! % count);
  }
  return [...picked].sort((a, b) => a - b);
}

export function Onboarding(p: OnboardingProps) {
  const [step, setStep] = useState<Step>(p.restoreOnly === 'phrase' ? { k: 'restore' } : p.restoreOnly ? { k: 'import' } : { k: 'welcome' });
  const back = p.restoreOnly ? p.onCancel : () => setStep({ k: 'welcome' });
  const replace = p.restoreOnly !== undefined;
  switch (step.k) {
    case 'welcome':
      return <Welcome network={p.network} onPick={setStep} />;
    case 'words':
      return <ShowWords mnemonic={step.mnemonic} onNext={() => setStep({ k: 'confirm', mnemonic: step.mnemonic, positions: (p.pickPositions ?? randomPositions)(24) })} onBack={back} />;
    case 'confirm':
      return (
        <Screen title="Confirm your recovery phrase">
          <MnemonicConfirm
            words={step.mnemonic.split(' ')}
            positions={step.positions}
            onConfirmed={() => setStep({ k: 'password', secret: { mode: 'create', mnemonic: step.mnemonic } })}
            onBack={() => setStep({ k: 'words', mnemonic: step.mnemonic })}
          />
        </Screen>
      );
    case 'restore':
      return <RestoreForm initial={step.phrase ?? ''} replacing={replace} onNext={(mnemonic) => setStep({ k: 'password', secret: { mode: 'restore', mnemonic } })} onBack={back} />;
    case 'import':
      return <ImportForm replacing={replace} onNext={(privateKey, name) => setStep({ k: 'password', secret: { mode: 'key', privateKey, name, replace } })} onBack={back} />;
    case 'password':
      return (
        <PasswordStep
          secret={step.secret}
          onDone={p.onDone}
          onBack={() => {
            const s = step.secret;
            // Create: back to typing words back, the phrase kept (it is the one written down).
            setStep(s.mode === 'create' ? { k: 'confirm', mnemonic: s.mnemonic, positions: (p.pickPositions ?? randomPositions)(24) } : s.mode === 'key' ? { k: 'import' } : { k: 'restore', phrase: s.mnemonic });
          }}
        />
      );
  }
}

function Welcome({ network, onPick }: { network: NetworkView; onPick: (s: Step) => void }) {
  const call = useCall();
  const action = useAction();
  const create = async () => {
    const r = await action.run(() => call('wallet.generateMnemonic', { words: 24 }));
    if (r) onPick({ k: 'words', mnemonic: r.mnemonic });
  };
  return (
    <Screen title="Welcome to XPC Wallet">
      <p>A wallet for the X-, P- and C-Chains that signs everything itself and talks only to your node.</p>
      <NetworkChooser current={network} />
      <div class="stack">
        <button class="primary" disabled={action.busy} onClick={() => void create()}>
          Create a new wallet
        </button>
        <button onClick={() => onPick({ k: 'restore' })}>Restore from a recovery phrase</button>
        <button onClick={() => onPick({ k: 'import' })}>Import a private key</button>
      </div>
      <FormError error={action.error} />
    </Screen>
  );
}

/** Picks the network before the wallet exists (networks.select checks the node first). */
function NetworkChooser({ current }: { current: NetworkView }) {
  const call = useCall();
  const list = useRequest('networks.list', {});
  const action = useAction();
  const [selected, setSelected] = useState(current.id);
  const choose = async (id: string) => {
    const before = selected;
    setSelected(id);
    const r = await action.run(() => call('networks.select', { id }));
    if (!r) setSelected(before);
  };
  const networks = list.data?.networks ?? [current];
  return (
    <div class="field">
      <label for="onboarding-network">Network</label>
      <select id="onboarding-network" value={selected} disabled={action.busy} onChange={(e) => void choose(e.currentTarget.value)}>
        {networks.map((n) => (
          <option key={n.id} value={n.id}>
            {n.name} ({n.url})
          </option>
        ))}
      </select>
      <p class="field-hint" aria-live="polite">
        {action.busy ? 'Checking the node…' : ''}
      </p>
      <FormError error={action.error} />
    </div>
  );
}

function ShowWords({ mnemonic, onNext, onBack }: { mnemonic: string; onNext: () => void; onBack: (() => void) | undefined }) {
  const words = mnemonic.split(' ');
  return (
    <Screen title="Your recovery phrase">
      <p class="warn-box">
        Write these {words.length} words down, in order, and keep them offline. Anyone with them controls your funds; without them a
        forgotten password cannot be recovered.
      </p>
      <PhraseWords words={words} />
      <div class="actions">
        {onBack && <button onClick={onBack}>Back</button>}
        <button class="primary" onClick={onNext}>
          I wrote them down
        </button>
      </div>
    </Screen>
  );
}

export interface MnemonicConfirmProps {
  words: string[];
  /** 0-based positions to ask for. */
  positions: number[];
  onConfirmed: () => void;
  onBack?: () => void;
}

/** Asks a few words of the phrase back, by number; wrong ones are named. */
export function MnemonicConfirm(p: MnemonicConfirmProps) {
  const positions = p.positions;
  const [typed, setTyped] = useState<string[]>(() => positions.map(() => ''));
  const [errors, setErrors] = useState<(string | undefined)[]>([]);
  const submit = (e: Event) => {
    e.preventDefault();
    const found = positions.map((pos, i) =>
      (typed[i] ?? '').trim().toLowerCase() === p.words[pos] ? undefined : `Word #${pos + 1} does not match your phrase`,
    );
    setErrors(found);
    if (found.every((x) => x === undefined)) p.onConfirmed();
  };
  return (
    <form onSubmit={submit} noValidate>
      <p>Type these words from your phrase to show it is written down correctly.</p>
      {positions.map((pos, i) => (
        <TextField
          key={pos}
          label={`Word #${pos + 1}`}
          value={typed[i] ?? ''}
          mono
          autoFocus={i === 0}
          onInput={(v) => setTyped((t) => t.map((x, j) => (j === i ? v : x)))}
          error={errors[i]}
        />
      ))}
      <div class="actions">
        {p.onBack && (
          <button type="button" onClick={p.onBack}>
            Show the words again
          </button>
        )}
        <button class="primary" type="submit">
          Confirm
        </button>
      </div>
    </form>
  );
}

/** The Back (when there is a way back) and Next of a restore's or an import's first step. */
function BackNext({ onBack, busy }: { onBack: (() => void) | undefined; busy: boolean }) {
  return (
    <div class="actions">
      {onBack && (
        <button type="button" onClick={onBack}>
          Back
        </button>
      )}
      <button class="primary" type="submit" disabled={busy}>
        {busy ? 'Checking…' : 'Next'}
      </button>
    </div>
  );
}

/**
 * The phrase, checked word by word (the BIP-39 list and its checksum, by the background, which
 * stores nothing) before the password step: a wrong word is named here, not after the password.
 */
function RestoreForm({ initial, replacing, onNext, onBack }: { initial: string; replacing: boolean; onNext: (mnemonic: string) => void; onBack: (() => void) | undefined }) {
  const call = useCall();
  const action = useAction();
  const [text, setText] = useState(initial);
  const [tried, setTried] = useState(false);
  const check = checkPhrase(text);
  const count = phraseWords(text).length;
  const submit = async (e: Event) => {
    e.preventDefault();
    setTried(true);
    if (!check.ok) return;
    const checked = await action.run(() => call('wallet.checkPhrase', { mnemonic: check.value }));
    if (checked) onNext(check.value);
  };
  return (
    <Screen title="Restore from a recovery phrase">
      {replacing && <p class="warn-box">Restoring replaces the wallet stored in this browser, and you choose a new password.</p>}
      <form onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label="Recovery phrase (12 to 24 words)"
          multiline
          rows={4}
          mono
          value={text}
          onInput={setText}
          hint={`${count} word${count === 1 ? '' : 's'}`}
          error={tried && !check.ok ? check.error : action.error}
        />
        <BackNext onBack={onBack} busy={action.busy} />
      </form>
    </Screen>
  );
}

/** The key, checked whole by the background (which stores nothing) before the password step, as a phrase is. */
function ImportForm({ replacing, onNext, onBack }: { replacing: boolean; onNext: (key: string, name: string) => void; onBack: (() => void) | undefined }) {
  const call = useCall();
  const action = useAction();
  const [key, setKey] = useState('');
  const [name, setName] = useState('Imported account');
  const [tried, setTried] = useState(false);
  const keyCheck = checkPrivateKey(key);
  const nameCheck = checkName(name, 'an account name');
  const submit = async (e: Event) => {
    e.preventDefault();
    setTried(true);
    if (!keyCheck.ok || !nameCheck.ok) return;
    if (await action.run(() => call('wallet.checkKey', { privateKey: keyCheck.value }))) onNext(keyCheck.value, nameCheck.value);
  };
  return (
    <Screen title={replacing ? 'Start again with a private key' : 'Import a private key'}>
      {replacing && <p class="warn-box">This replaces the wallet stored in this browser with one made from this key, and you choose a new password.</p>}
      <form onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label="Private key"
          type="password"
          mono
          value={key}
          onInput={setKey}
          hint="PrivateKey-… or 64 hex digits. The wallet will have no recovery phrase: back the key up."
          error={tried && !keyCheck.ok ? keyCheck.error : action.error}
        />
        <TextField label="Account name" value={name} onInput={setName} error={!nameCheck.ok ? nameCheck.error : undefined} />
        <BackNext onBack={onBack} busy={action.busy} />
      </form>
    </Screen>
  );
}

function PasswordStep({ secret, onDone, onBack }: { secret: Secret; onDone: (s: WalletStatus) => void; onBack: () => void }) {
  const call = useCall();
  const action = useAction();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [tried, setTried] = useState(false);
  /** Set when the background refused a restore that would drop something: it waits for the user's word. */
  const [loss, setLoss] = useState<{ loss: RestoreLoss; again: boolean } | undefined>(undefined);
  /** A restore whose other accounts could not be looked for: said before the wallet opens. */
  const [unsearched, setUnsearched] = useState<WalletStatus | undefined>(undefined);
  const check = checkNewPassword(password, confirm);
  const { clear } = action;
  useEffect(() => {
    clear();
    setLoss(undefined);
  }, [clear, password, confirm]);
  /** `confirmLoss`: what the warning showed, sent back so that the restore holds for that only. */
  const send = (confirmLoss?: string[]): Promise<RestoreResult> => {
    const confirm = confirmLoss ? { confirmLoss } : {};
    if (secret.mode !== 'key') return secret.mode === 'create' ? call('wallet.create', { password, mnemonic: secret.mnemonic }) : call('wallet.restore', { password, mnemonic: secret.mnemonic, ...confirm });
    const key = { password, privateKey: secret.privateKey, name: secret.name };
    return secret.replace ? call('wallet.restore', { ...key, ...confirm }) : call('wallet.createFromKey', key);
  };
  const finish = async (confirmLoss?: string[]) => {
    const status = await action.run(async () => {
      try {
        return await send(confirmLoss);
      } catch (e) {
        if (e instanceof BackgroundError && e.code === RESTORE_WOULD_DROP && e.restoreLoss) {
          setLoss({ loss: e.restoreLoss, again: !!confirmLoss });
          return undefined;
        }
        throw e;
      }
    });
    if (status?.accountsNotSearched) setUnsearched(status);
    else if (status) onDone(status);
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    setTried(true);
    if (!check.ok) return;
    await finish();
  };
  if (unsearched) return <AccountsNotSearched onContinue={() => onDone(unsearched)} />;
  if (loss) return <RestoreLossWarning {...loss} keyMode={secret.mode === 'key'} busy={action.busy} error={action.error} onConfirm={() => void finish(loss.loss.names)} onCancel={() => setLoss(undefined)} />;
  return (
    <Screen title="Choose a password">
      <p>It unlocks this wallet in this browser. It cannot be recovered; your {secret.mode === 'key' ? 'private key' : 'recovery phrase'} can.</p>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <PasswordFields
          password={password}
          confirm={confirm}
          onPassword={setPassword}
          onConfirm={setConfirm}
          tried={tried}
          error={tried && !check.ok && check.error !== confirmError(password, confirm) ? check.error : undefined}
        />
        <FormError error={action.error} />
        <div class="actions">
          <button type="button" onClick={onBack} disabled={action.busy}>
            Back
          </button>
          <button class="primary" type="submit" disabled={action.busy}>
            {action.busy ? 'Encrypting…' : secret.mode === 'create' ? 'Create wallet' : secret.mode === 'restore' || (secret.mode === 'key' && secret.replace) ? 'Restore wallet' : 'Import key'}
          </button>
        </div>
      </form>
    </Screen>
  );
}
