// C-Chain tokens of the account: the listed tokens with balances read now from the node (the
// contract's words cleaned, and flagged in words when they pose as AVAX or as another token),
// Add by address, Remove, the NFTs held, Send, the allowances, and the C-Chain txs still waiting.
// Loaded on demand (lazy.tsx): none of it weighs on the popup's first paint.
import { useEffect, useRef, useState } from 'preact/hooks';
import { useAction, useCall, useRequest } from '../api.js';
import { FormError, Muted, MutedText, ReloadButton, ScreenReaderText, SmallButton } from '../components/Field.js';
import { AmountText } from '../components/AmountText.js';
import { PendingEvm } from '../components/PendingEvm.js';
import { TokenTransfers } from '../components/TokenTransfers.js';
import { standardLabel, tokenBalanceText, tokenFlags, unitName } from '../tokens-format.js';
import type { Selection, TokenView, WalletStatus } from '../../shared/messages.js';
import { Allowances } from './Allowances.js';
import { TokenAdd } from './TokenAdd.js';
import { TokenNfts } from './TokenNfts.js';
import { TokenSend } from './TokenSend.js';

export interface TokensProps {
  status: WalletStatus;
  hrp: string;
  selection: Selection | undefined;
  /** The network and account shown; another one reloads everything. */
  listKey: string;
}

type View = { k: 'list' } | { k: 'add' } | { k: 'allowances' } | { k: 'send'; token: TokenView; tokenId?: string };

function TokenRow({ t, listKey, selection, onSend, onRemoved }: { t: TokenView; listKey: string; selection: Selection | undefined; onSend: (tokenId?: string) => void; onRemoved: () => void }) {
  const call = useCall();
  const action = useAction();
  const [showNfts, setShowNfts] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  // The button pressed goes away with the question: focus stays in this row (Keep, the safe answer; then Remove again), not at the top of the screen.
  const keep = useRef<HTMLButtonElement>(null);
  const removeButton = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (confirmRemove) keep.current?.focus();
    else if (asked.current) removeButton.current?.focus();
    asked.current ||= confirmRemove;
  }, [confirmRemove]);
  const name = unitName(t.symbol, t.address);
  const flags = tokenFlags(t.checks);
  const remove = async () => {
    // On the network the list was shown for: switched in another window, nothing is removed there.
    if (await action.run(() => call('tokens.remove', { address: t.address }, selection))) onRemoved();
  };
  return (
    <li class="asset-row" data-testid={`token-${t.address.toLowerCase()}`}>
      <div class="asset-main">
        <span>
          <strong>{name}</strong> <MutedText>{t.name}</MutedText>
        </span>
        <span class="amount" data-testid="token-balance">
          {/* Rounded as AVAX is, the exact amount one click away. */}
          {t.standard === 'erc20' && t.balance !== undefined && !t.balanceError ? <AmountText value={t.balance} denomination={t.decimals} symbol={name} label={`${name} balance`} /> : tokenBalanceText(t)}
        </span>
      </div>
      <p class="muted small-text break">
        {standardLabel(t.standard)} · <span class="mono">{t.address}</span>
        {t.addedBy !== 'wallet' ? ` · added at the request of ${t.addedBy}` : ''}
      </p>
      {flags.map((f) => (
        <p key={f} class="badge warn" role="note">
          {f}
        </p>
      ))}
      <div class="actions">
        {t.standard === 'erc20' && (
          <SmallButton onClick={() => onSend()}>
            Send<ScreenReaderText> {name}</ScreenReaderText>
          </SmallButton>
        )}
        {t.standard !== 'erc20' && (
          <SmallButton aria-expanded={showNfts} onClick={() => setShowNfts(!showNfts)}>
            {showNfts ? 'Hide NFTs' : 'Show NFTs'}
            <ScreenReaderText> of {name}</ScreenReaderText>
          </SmallButton>
        )}
        {confirmRemove ? (
          <>
            <SmallButton disabled={action.busy} onClick={() => void remove()}>
              Yes, remove<ScreenReaderText> {name}</ScreenReaderText>
            </SmallButton>
            <button type="button" class="small" ref={keep} onClick={() => setConfirmRemove(false)}>
              Keep<ScreenReaderText> {name}</ScreenReaderText>
            </button>
          </>
        ) : (
          <button type="button" class="small" ref={removeButton} onClick={() => setConfirmRemove(true)}>
            Remove<ScreenReaderText> {name}</ScreenReaderText>
          </button>
        )}
      </div>
      {confirmRemove && <Muted>Only your list changes: the tokens stay yours on the chain, and you can add it again.</Muted>}
      <FormError error={action.error} detail={action.detail} />
      {showNfts && <TokenNfts token={t} listKey={listKey} onSend={(id) => onSend(id)} />}
    </li>
  );
}

export function Tokens(p: TokensProps) {
  const [view, setView] = useState<View>({ k: 'list' });
  const list = useRequest('tokens.list', {}, p.listKey);
  const from = p.status.account?.cAddress ?? '';
  const back = () => {
    setView({ k: 'list' });
    void list.reload();
  };
  if (view.k === 'add') return <TokenAdd hrp={p.hrp} selection={p.selection} onAdded={back} onCancel={back} />;
  if (view.k === 'allowances') return <Allowances from={from} selection={p.selection} listKey={p.listKey} onBack={back} />;
  if (view.k === 'send') return <TokenSend token={view.token} from={from} hrp={p.hrp} selection={p.selection} onBack={back} {...(view.tokenId !== undefined ? { tokenId: view.tokenId } : {})} />;

  const tokens = list.data?.tokens;
  return (
    <div class="tokens">
      <div class="title-row">
        <h1>Tokens</h1>
        <ReloadButton list={list} busy="Reading…" label="Reload tokens" />
      </div>
      <Muted>C-Chain tokens of this account, read from your node.</Muted>
      <PendingEvm selection={p.selection} listKey={p.listKey} />
      <div class="action-row">
        <button type="button" onClick={() => setView({ k: 'add' })}>
          Add token
        </button>
        <button type="button" onClick={() => setView({ k: 'allowances' })}>
          Allowances
        </button>
      </div>
      <FormError error={list.error} />
      {tokens && tokens.length === 0 && <Muted>No tokens in your list yet. Add one by its contract address.</Muted>}
      <ul class="assets">
        {tokens?.map((t) => (
          <TokenRow key={t.address} t={t} listKey={p.listKey} selection={p.selection} onSend={(tokenId) => setView({ k: 'send', token: t, ...(tokenId !== undefined ? { tokenId } : {}) })} onRemoved={() => void list.reload()} />
        ))}
      </ul>
      <TokenTransfers listKey={p.listKey} />
    </div>
  );
}
