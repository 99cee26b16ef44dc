// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MnemonicConfirm, Onboarding } from '../../../src/popup/screens/Onboarding.js';
import { RestoreLossWarning } from '../../../src/popup/screens/OnboardingParts.js';
import { Unlock } from '../../../src/popup/screens/Unlock.js';
import { fakeBackground, Refuse, renderWith } from './fake-background.js';
import { NETWORK, UNLOCKED } from './fixtures.js';

afterEach(cleanup);

const WORDS = Array.from({ length: 24 }, (_, i) => 'word' + String.fromCharCode(97 + i));
const MNEMONIC = WORDS.join(' ');

function type(label: string | RegExp, value: string) {
  fireEvent.input(screen.getByLabelText(label), { target: { value } });
}

/** The restore form filled in with `phrase` and a good password, and submitted. */
async function restoreWithPassword(phrase: string): Promise<void> {
  type(/Recovery phrase/, phrase);
  fireEvent.click(screen.getByRole('button', { name: 'Next' }));
  await screen.findByLabelText('Password');
  type('Password', 'kj8Lm2qz!x');
  type('Confirm password', 'kj8Lm2qz!x');
  fireEvent.click(screen.getByRole('button', { name: 'Restore wallet' }));
}

describe('MnemonicConfirm', () => {
  it('names each word that does not match and confirms only when all do', () => {
    const onConfirmed = vi.fn();
    render(<MnemonicConfirm words={WORDS} positions={[2, 10, 20]} onConfirmed={onConfirmed} />);
    expect(screen.getByLabelText('Word #3')).toBeTruthy();
    type('Word #3', WORDS[2]!);
    type('Word #11', 'nope');
    type('Word #21', ` ${WORDS[20]!.toUpperCase()} `);
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(onConfirmed).not.toHaveBeenCalled();
    expect(screen.getByText('Word #11 does not match your phrase')).toBeTruthy();
    expect(screen.queryByText('Word #3 does not match your phrase')).toBeNull();
    type('Word #11', WORDS[10]!);
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(onConfirmed).toHaveBeenCalledOnce();
  });
});

describe('Onboarding', () => {
  const networks = { networks: [NETWORK], selectedId: NETWORK.id };

  it('creates a wallet: 24 words, three typed back, then a confirmed password', async () => {
    const bg = fakeBackground({
      'networks.list': () => networks,
      'wallet.generateMnemonic': () => ({ mnemonic: MNEMONIC }),
      'wallet.create': () => UNLOCKED,
    });
    const onDone = vi.fn();
    renderWith(bg, <Onboarding network={NETWORK} onDone={onDone} pickPositions={() => [0, 11, 23]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Create a new wallet' }));
    const list = await screen.findByRole('list', { name: 'Recovery phrase' });
    expect(list.querySelectorAll('li')).toHaveLength(24);
    expect(bg.callsOf('wallet.generateMnemonic')).toEqual([{ words: 24 }]);
    fireEvent.click(screen.getByRole('button', { name: 'I wrote them down' }));
    type('Word #1', WORDS[0]!);
    type('Word #12', WORDS[11]!);
    type('Word #24', WORDS[23]!);
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));

    await screen.findByRole('heading', { name: 'Choose a password' });
    type('Password', 'password');
    type('Confirm password', 'password');
    fireEvent.click(screen.getByRole('button', { name: 'Create wallet' }));
    expect(await screen.findByText(/Choose a stronger password/)).toBeTruthy();
    expect(bg.callsOf('wallet.create')).toEqual([]);

    type('Password', 'correct horse battery staple');
    type('Confirm password', 'correct horse battery');
    fireEvent.click(screen.getByRole('button', { name: 'Create wallet' }));
    expect(screen.getByText('The two passwords do not match')).toBeTruthy();
    expect(bg.callsOf('wallet.create')).toEqual([]);

    type('Confirm password', 'correct horse battery staple');
    fireEvent.click(screen.getByRole('button', { name: 'Create wallet' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(UNLOCKED));
    expect(bg.callsOf('wallet.create')).toEqual([{ password: 'correct horse battery staple', mnemonic: MNEMONIC }]);
  });

  it('restores from 12 words: a bad word or checksum is named before the password step, and Back keeps the words', async () => {
    const twelve = 'abandon '.repeat(11) + 'about';
    const bg = fakeBackground({
      'networks.list': () => networks,
      'wallet.checkPhrase': ({ mnemonic }) => {
        if (mnemonic !== twelve) throw new Refuse({ code: 'validation', message: 'mnemonic: the recovery phrase checksum does not match: a word is wrong or out of order', field: 'mnemonic' });
        return { ok: true as const };
      },
      'wallet.restore': () => UNLOCKED,
    });
    const onDone = vi.fn();
    renderWith(bg, <Onboarding network={NETWORK} onDone={onDone} />);
    fireEvent.click(screen.getByRole('button', { name: 'Restore from a recovery phrase' }));
    type(/Recovery phrase/, 'one two three');
    expect(screen.getByText('3 words')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('A recovery phrase has 12, 15, 18, 21 or 24 words; this one has 3')).toBeTruthy();
    expect(bg.callsOf('wallet.checkPhrase')).toEqual([]);
    // Twelve words, one wrong: named on this screen, before any password is asked.
    const wrong = 'abandon '.repeat(11) + 'abandon';
    type(/Recovery phrase/, wrong);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('The recovery phrase checksum does not match: a word is wrong or out of order')).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();
    type(/Recovery phrase/, twelve);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByLabelText('Password');
    // Back from the password step: the words are still there.
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect((screen.getByLabelText(/Recovery phrase/) as HTMLTextAreaElement).value).toBe(twelve);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByLabelText('Password');
    type('Password', 'kj8Lm2qz!x');
    type('Confirm password', 'kj8Lm2qz!x');
    fireEvent.click(screen.getByRole('button', { name: 'Restore wallet' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(bg.callsOf('wallet.restore')).toEqual([{ password: 'kj8Lm2qz!x', mnemonic: twelve }]);
    expect(bg.callsOf('wallet.checkPhrase')).toHaveLength(3);
  });

  it('restoring over a wallet: lists what would be lost, and restores only once the user confirms', async () => {
    const twelve = 'abandon '.repeat(11) + 'about';
    const bg = fakeBackground({
      'wallet.checkPhrase': () => ({ ok: true as const }),
      'wallet.restore': (p) => {
        if (p.confirmLoss) return UNLOCKED;
        throw new Refuse({ code: 'restore-would-drop', message: 'restoring replaces this wallet…', restoreLoss: { importedKeys: 2, unfinishedTransfers: 1, names: ['key a', 'key b', 'move c'] } });
      },
    });
    const onDone = vi.fn();
    renderWith(bg, <Onboarding network={NETWORK} onDone={onDone} restoreOnly="phrase" onCancel={vi.fn()} />);
    await restoreWithPassword(twelve);

    const warning = await screen.findByRole('alert');
    expect(screen.getByRole('heading', { name: 'This restore loses data' })).toBeTruthy();
    expect(warning.textContent).toContain('2 accounts from an imported private key');
    expect(warning.textContent).toContain('1 unfinished cross-chain transfer.');
    expect(onDone).not.toHaveBeenCalled();

    // Cancel goes back to the password form; nothing was restored.
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Restore wallet' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Restore anyway' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(UNLOCKED));
    expect(bg.callsOf('wallet.restore')).toEqual([
      { password: 'kj8Lm2qz!x', mnemonic: twelve },
      { password: 'kj8Lm2qz!x', mnemonic: twelve },
      // The Confirm sends back what the warning showed: the restore holds for that only.
      { password: 'kj8Lm2qz!x', mnemonic: twelve, confirmLoss: ['key a', 'key b', 'move c'] },
    ]);
  });

  it('a Confirm refused because more was added since says so above the list shown again, and the next Confirm restores', async () => {
    const twelve = 'abandon '.repeat(11) + 'about';
    let confirms = 0;
    const bg = fakeBackground({
      'wallet.checkPhrase': () => ({ ok: true as const }),
      'wallet.restore': (p) => {
        if (p.confirmLoss && ++confirms > 1) return UNLOCKED;
        throw new Refuse({ code: 'restore-would-drop', message: 'restoring replaces this wallet…', restoreLoss: { importedKeys: 1, unfinishedTransfers: 0, names: [`key ${confirms}`] } });
      },
    });
    const onDone = vi.fn();
    renderWith(bg, <Onboarding network={NETWORK} onDone={onDone} restoreOnly="phrase" onCancel={vi.fn()} />);
    await restoreWithPassword(twelve);
    const changed = 'This has changed since you confirmed: read it again.';
    expect((await screen.findByRole('alert')).textContent).not.toContain(changed);
    fireEvent.click(screen.getByRole('button', { name: 'Restore anyway' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain(changed));
    expect(screen.getByRole('alert').textContent).toContain('1 account from an imported private key');
    expect(onDone).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Restore anyway' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(UNLOCKED));
    // Each Confirm sends back what its warning showed, the second what was shown again.
    expect(bg.callsOf('wallet.restore').map((c) => c.confirmLoss)).toEqual([undefined, ['key 0'], ['key 1']]);
  });

  it('restoring over a wallet whose account list cannot be read: says what it cannot tell, and that unlocking loses nothing', async () => {
    const twelve = 'abandon '.repeat(11) + 'about';
    const bg = fakeBackground({
      'wallet.checkPhrase': () => ({ ok: true as const }),
      'wallet.restore': () => {
        throw new Refuse({ code: 'restore-would-drop', message: 'restoring replaces this wallet…', restoreLoss: { importedKeys: 0, unfinishedTransfers: 0, unknown: true, names: ['unknown'] } });
      },
    });
    renderWith(bg, <Onboarding network={NETWORK} onDone={vi.fn()} restoreOnly="phrase" onCancel={vi.fn()} />);
    await restoreWithPassword(twelve);
    const warning = await screen.findByRole('alert');
    expect(warning.textContent).toContain('cannot tell whether it holds accounts from imported private keys');
    expect(warning.textContent).toContain('unlock instead');
    expect(warning.textContent).not.toContain('0 accounts');
  });

  it('imports a private key with an account name', async () => {
    const bg = fakeBackground({ 'networks.list': () => networks, 'wallet.checkKey': () => ({ ok: true as const }), 'wallet.createFromKey': () => UNLOCKED });
    const onDone = vi.fn();
    renderWith(bg, <Onboarding network={NETWORK} onDone={onDone} />);
    fireEvent.click(screen.getByRole('button', { name: 'Import a private key' }));
    type('Private key', 'not a key');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('A private key is PrivateKey-… or 64 hex digits')).toBeTruthy();
    const key = '0x' + '1'.repeat(64);
    type('Private key', key);
    type('Account name', 'Cold');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('heading', { name: 'Choose a password' });
    type('Password', 'kj8Lm2qz!x');
    type('Confirm password', 'kj8Lm2qz!x');
    fireEvent.click(screen.getByRole('button', { name: 'Import key' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(bg.callsOf('wallet.createFromKey')).toEqual([{ password: 'kj8Lm2qz!x', privateKey: key, name: 'Cold' }]);
  });

  it('switches the network before creating, and keeps the old one when the node is unreachable', async () => {
    const fuji = { ...NETWORK, id: 'fuji', kind: 'fuji' as const, name: 'Fuji testnet', url: 'https://api.avax-test.network' };
    const bg = fakeBackground({
      'networks.list': () => ({ networks: [NETWORK, fuji], selectedId: 'local' }),
      'networks.select': () => {
        throw new Refuse({ code: 'node-unreachable', message: 'could not reach https://api.avax-test.network' });
      },
    });
    renderWith(bg, <Onboarding network={NETWORK} onDone={vi.fn()} />);
    await screen.findByRole('option', { name: /Fuji testnet/ });
    fireEvent.change(screen.getByLabelText('Network'), { target: { value: 'fuji' } });
    // In plain words: the node's URL is not in the sentence.
    expect((await screen.findByRole('alert')).textContent).toBe("The node can't be reached. Check that it is running and that its address in Settings is right.");
    expect(bg.callsOf('networks.select')).toEqual([{ id: 'fuji' }]);
    expect((screen.getByLabelText('Network') as HTMLSelectElement).value).toBe('local');
  });

  it('Create wallet with the confirmation left empty says so; Back from the password goes to typing words back, the phrase kept', async () => {
    const bg = fakeBackground({ 'networks.list': () => networks, 'wallet.generateMnemonic': () => ({ mnemonic: MNEMONIC }), 'wallet.create': () => UNLOCKED });
    const onDone = vi.fn();
    renderWith(bg, <Onboarding network={NETWORK} onDone={onDone} pickPositions={() => [0, 1, 2]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Create a new wallet' }));
    const confirmWords = async () => {
      await screen.findByRole('heading', { name: 'Confirm your recovery phrase' });
      WORDS.slice(0, 3).forEach((w, i) => type(`Word #${i + 1}`, w));
      fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
      await screen.findByRole('heading', { name: 'Choose a password' });
    };
    fireEvent.click(await screen.findByRole('button', { name: 'I wrote them down' }));
    await confirmWords();
    type('Password', 'correct horse battery staple');
    fireEvent.click(screen.getByRole('button', { name: 'Create wallet' }));
    expect(await screen.findByText('Confirm your password')).toBeTruthy();
    expect(bg.callsOf('wallet.create')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await confirmWords();
    type('Password', 'correct horse battery staple');
    type('Confirm password', 'correct horse battery staple');
    fireEvent.click(screen.getByRole('button', { name: 'Create wallet' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(UNLOCKED));
    expect(bg.callsOf('wallet.generateMnemonic')).toHaveLength(1);
    expect(bg.callsOf('wallet.create')).toEqual([{ password: 'correct horse battery staple', mnemonic: MNEMONIC }]);
  });

  it('checks an imported key whole before the password step: a typo is said there, in words', async () => {
    const bg = fakeBackground({
      'networks.list': () => networks,
      'wallet.checkKey': ({ privateKey }) => {
        if (privateKey.endsWith('M')) throw new Refuse({ code: 'validation', message: 'privateKey: this private key has a typo: a character is wrong, missing or extra', field: 'privateKey' });
        return { ok: true as const };
      },
    });
    renderWith(bg, <Onboarding network={NETWORK} onDone={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Import a private key' }));
    type('Private key', 'PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNM');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('This private key has a typo: a character is wrong, missing or extra')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Import a private key' })).toBeTruthy();
    type('Private key', 'PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('heading', { name: 'Choose a password' });
  });

  it('starts again from a private key over the stored wallet: warns of what goes, and restores once confirmed', async () => {
    const key = '0x' + '1'.repeat(64);
    const bg = fakeBackground({
      'networks.list': () => networks,
      'wallet.checkKey': () => ({ ok: true as const }),
      'wallet.restore': (p) => {
        if (p.confirmLoss) return UNLOCKED;
        throw new Refuse({ code: 'restore-would-drop', message: 'restoring replaces this wallet…', restoreLoss: { importedKeys: 1, phraseAccounts: 2, unfinishedTransfers: 0, names: ['key', 'phrase 2'] } });
      },
    });
    const onDone = vi.fn();
    renderWith(bg, <Onboarding network={NETWORK} onDone={onDone} restoreOnly="key" onCancel={vi.fn()} />);
    expect(screen.getByRole('heading', { name: 'Start again with a private key' })).toBeTruthy();
    type('Private key', key);
    type('Account name', 'Mine');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('heading', { name: 'Choose a password' });
    type('Password', 'kj8Lm2qz!x');
    type('Confirm password', 'kj8Lm2qz!x');
    fireEvent.click(screen.getByRole('button', { name: 'Restore wallet' }));
    const warning = await screen.findByRole('alert');
    expect(warning.textContent).toContain('The recovery phrase stored now: it will be gone from this wallet, with the 2 accounts made from it.');
    expect(warning.textContent).toContain('unless it is the key you entered');
    fireEvent.click(screen.getByRole('button', { name: 'Restore anyway' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(UNLOCKED));
    expect(bg.callsOf('wallet.restore')).toEqual([
      { password: 'kj8Lm2qz!x', privateKey: key, name: 'Mine' },
      { password: 'kj8Lm2qz!x', privateKey: key, name: 'Mine', confirmLoss: ['key', 'phrase 2'] },
    ]);
    expect(bg.callsOf('wallet.createFromKey')).toEqual([]);
  });

  it('starting again from a key over a phrase wallet with no phrase account listed still says the phrase goes', () => {
    render(<RestoreLossWarning loss={{ importedKeys: 1, phraseAccounts: 0, unfinishedTransfers: 0, names: [] }} keyMode busy={false} error={undefined} onConfirm={vi.fn()} onCancel={vi.fn()} />);
    const warning = screen.getByRole('alert').textContent!;
    expect(warning).toContain('The recovery phrase stored now: it will be gone from this wallet, with every account made from it (none is listed now).');
    expect(warning).toContain('1 account from an imported private key, unless it is the key you entered');
    cleanup();
    // From another phrase: said to be another one; from a phrase the locked wallet cannot tell apart from its own: "unless".
    render(<RestoreLossWarning loss={{ importedKeys: 0, phraseAccounts: 3, unfinishedTransfers: 0, names: [] }} keyMode={false} busy={false} error={undefined} onConfirm={vi.fn()} onCancel={vi.fn()} />);
    expect(screen.getByRole('alert').textContent).toContain('The recovery phrase stored now, which is not the one you entered: it will be gone from this wallet, with the 3 accounts made from it.');
    cleanup();
    render(<RestoreLossWarning loss={{ importedKeys: 0, phraseAccounts: 3, phraseUnsure: true, unfinishedTransfers: 0, names: [] }} keyMode={false} busy={false} error={undefined} onConfirm={vi.fn()} onCancel={vi.fn()} />);
    expect(screen.getByRole('alert').textContent).toContain('The recovery phrase stored now, unless it is the one you entered (the wallet cannot tell while locked): it will be gone');
    cleanup();
    render(<RestoreLossWarning loss={{ importedKeys: 0, unfinishedTransfers: 0, undecidedSends: 2, names: [] }} keyMode={false} busy={false} error={undefined} onConfirm={vi.fn()} onCancel={vi.fn()} />);
    expect(screen.getByRole('alert').textContent).toContain('2 transactions not yet decided by the network, or refused but still able to go through.');
    cleanup();
    render(<RestoreLossWarning loss={{ importedKeys: 0, unfinishedTransfers: 0, unknown: true, names: [] }} keyMode busy={false} error={undefined} onConfirm={vi.fn()} onCancel={vi.fn()} />);
    expect(screen.getByRole('alert').textContent).toContain('cannot tell whether it holds a recovery phrase, accounts from imported private keys');
  });

  it('after a restore whose node could not be asked, says the other accounts come back with "Add account"', async () => {
    const bg = fakeBackground({ 'networks.list': () => networks, 'wallet.checkPhrase': () => ({ ok: true as const }), 'wallet.restore': () => ({ ...UNLOCKED, accountsNotSearched: true as const }) });
    const onDone = vi.fn();
    renderWith(bg, <Onboarding network={NETWORK} onDone={onDone} restoreOnly="phrase" onCancel={vi.fn()} />);
    await restoreWithPassword(Array.from({ length: 12 }, () => 'abandon').join(' '));
    expect(await screen.findByRole('heading', { name: 'Wallet restored' })).toBeTruthy();
    // Never "Account 1 is back": the accounts found before the node stopped answering are back too.
    expect(screen.getByRole('status').textContent).toMatch(/^Your wallet is back, but the node could not be reached, or did not answer in time, .*some may be missing\. Add them with “Add account”/);
    expect(onDone).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(onDone).toHaveBeenCalledWith(expect.objectContaining({ vault: 'unlocked' }));
  });
});

describe('Unlock', () => {
  it('offers both ways back after a forgotten password, each by its own name', () => {
    const onRestore = vi.fn();
    render(<Unlock network={NETWORK} onUnlocked={vi.fn()} onRestore={onRestore} />);
    fireEvent.click(screen.getByRole('button', { name: 'Restore from your recovery phrase' }));
    fireEvent.click(screen.getByRole('button', { name: 'start again with a private key' }));
    expect(onRestore.mock.calls).toEqual([['phrase'], ['key']]);
  });

  it('a wrong password marks the field invalid, the error tied to it (and announced); another failure stays the form\'s', async () => {
    let refusal = new Refuse({ code: 'wrong-password', message: 'the password is not correct', field: 'password' });
    renderWith(
      fakeBackground({
        'wallet.unlock': () => {
          throw refusal;
        },
      }),
      <Unlock network={NETWORK} onUnlocked={vi.fn()} />,
    );
    const field = screen.getByLabelText('Password');
    expect(field.getAttribute('aria-invalid')).toBeNull();
    type('Password', 'wrong');
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The password is not correct');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    const described = field.getAttribute('aria-describedby')!.split(' ').map((id) => document.getElementById(id)!.textContent);
    expect(described).toEqual(['The password is not correct']);
    // Said once on screen.
    expect(screen.getAllByText('The password is not correct').filter((e) => !e.closest('.sr-only'))).toHaveLength(1);

    refusal = new Refuse({ code: 'storage-corrupt', message: 'the vault record is damaged' });
    type('Password', 'again');
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBeNull());
    expect((await screen.findByRole('alert')).textContent).not.toContain('password is not correct');
    expect(field.getAttribute('aria-describedby')).toBeNull();
  });
});
