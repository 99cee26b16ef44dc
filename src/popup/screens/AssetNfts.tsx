// Assets → NFTs: the NFTs the wallet holds (each with a Send button, or when it unlocks if still
// time-locked) and minting into an NFT family it holds a mint right of. A payload is shown as
// text; a link in it is only a link: nothing is fetched unless the user opens it.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { selectionOf, useCall } from '../api.js';
import { checkAddress, decodePayload, encodePayload, jsonShown, type PayloadKind } from '../checks.js';
import { AddressInput } from '../components/AddressInput.js';
import { AssetLabel } from '../components/AssetLabel.js';
import { FormError, Muted, MutedText, TextField } from '../components/Field.js';
import { Review, useReviewStep } from '../components/Review.js';
import { useSentBefore } from '../components/SentBefore.js';
import { Segmented } from '../components/Segmented.js';
import { AVAX_DECIMALS, formatDateTime, formatValue } from '../format.js';
import type { Amount, MintRightView, NftView, Selection } from '../../shared/messages.js';
import { type AssetsProps, type Holdings, FeeLine, Issued, pinned, rightLabel, NoRights, useMintRight } from './AssetsShared.js';

/** A payload preview: a link stays a link (opened only on click), named by its host; text and JSON are shown as text. */
function PayloadPreview({ kind, text }: { kind: PayloadKind | 'bytes'; text: string }) {
  if (kind === 'bytes') {
    if (text === '') return <pre class="payload-preview mono break">(empty)</pre>;
    return (
      <>
        <p class="small-text muted">Shown as bytes: it is not plain text, or its text has characters that hide or reorder what you read.</p>
        <pre class="payload-preview mono break">hex {text}</pre>
      </>
    );
  }
  const encoded = encodePayload(kind, text);
  if (!encoded.ok) return null;
  if (kind === 'url') {
    // Named by the host it opens: "https://avax.network@other.example/" is other.example's.
    const { href, hostname } = new URL(text.trim());
    return (
      <p class="payload-preview">
        Link to <strong>{hostname}</strong> (not loaded):{' '}
        <a href={href} target="_blank" rel="noreferrer noopener">
          {href}
        </a>
      </p>
    );
  }
  return <pre class="payload-preview">{kind === 'json' ? jsonShown(text) : text}</pre>;
}

/**
 * A payload with characters that hide or reorder its text as shown (bidi controls, zero-width and
 * other invisible characters, C1 controls, line separators; a JSON one's \u escapes once parsed): its hex bytes.
 */
function shownPayload(hex: string): ReturnType<typeof decodePayload> {
  const p = decodePayload(hex);
  const shown = p.kind === 'json' ? jsonShown(p.text) : p.text;
  return /[^\P{C}\n\r\t]|[\u2028\u2029]|\p{Default_Ignorable_Code_Point}/u.test(shown) ? { kind: 'bytes', text: hex } : p;
}

const rightKey = (r: MintRightView) => `${r.assetID}:${r.groupID ?? 0}`;

export function MintNft({ status, hrp, onChanged, h }: AssetsProps & { h: Holdings }) {
  const call = useCall();
  const rights = h.rights.data?.rights.filter((r) => r.kind === 'nft') ?? [];
  const [picked, setPicked] = useState('');
  const [kind, setKind] = useState<PayloadKind>('text');
  const [payload, setPayload] = useState('');
  const [to, setTo] = useState(status.account?.xAddress ?? '');
  const step = useReviewStep();
  const [done, setDone] = useState<{ txID: string; fee: Amount } | null>(null);
  // The group picked, or reviewed: once its right is gone (a mint refused), none is picked for the
  // user (another group's would mint the same NFT again with another right, for good).
  const right = picked === '' ? rights[0] : rights.find((r) => rightKey(r) === picked);
  const encoded = encodePayload(kind, payload);
  const toCheck = checkAddress(to, 'X', hrp);
  const maxFee = h.fees.data?.operation;
  const ready = right !== undefined && encoded.ok && toCheck.ok && maxFee !== undefined;
  const used = useMintRight(h);
  const mintedBefore = useSentBefore(step.reviewing && ready ? { kind: 'nft-mint', chain: 'X', assetID: right.assetID, payloadHex: encoded.value, to: toCheck.value, sending: step.props.busy } : undefined);
  const mint = () =>
    step.confirm(async () => {
      if (!ready) return;
      setPicked(rightKey(right));
      const r = await used.run(call('assets.mintNft', { assetID: right.assetID, utxoID: right.utxoID, groupID: right.groupID ?? 0, payloadHex: encoded.value, to: [{ addresses: [toCheck.value], threshold: 1 }], maxFee }, selectionOf(status)));
      if (!r) return;
      setDone(r);
      onChanged();
    });
  // Minted, its group's right is used up: the next mint starts from the first group there is.
  const again = () => {
    setDone(null);
    setPicked('');
  };
  if (done) return <Issued txID={done.txID} fee={done.fee} onAgain={again} />;
  if (rights.length === 0) return <NoRights what="of an NFT group" h={h} />;
  if (step.reviewing && ready) {
    return (
      <Review
        level={2}
        title="Review the NFT"
        facts={[
          { term: 'Family and group', value: rightLabel(right) },
          // As its bytes will show to anyone (hidden or reordering characters: as hex), not as typed.
          { term: 'Payload', value: <PayloadPreview {...shownPayload(encoded.value)} /> },
          { term: 'Owner', value: toCheck.value, mono: true, testid: 'review-to' },
          { term: 'Paid from', value: "Your X-Chain account (the group's mint right is used up)" },
          { term: 'Network fee', value: formatValue(maxFee, AVAX_DECIMALS, 'AVAX'), testid: 'review-fee' },
          ...mintedBefore,
        ]}
        {...step.props}
        busyText="Minting; waiting for the X-Chain to accept it…"
        confirmLabel="Confirm and mint NFT"
        onConfirm={() => void mint()}
      />
    );
  }
  return (
    <form onSubmit={pinned(right && rightKey(right), setPicked, step.submit(ready))} noValidate>
      <h2>Mint an NFT</h2>
      <div class="field">
        <label for="nft-group">NFT family and group</label>
        <select id="nft-group" value={right ? rightKey(right) : ''} onChange={(e) => setPicked(e.currentTarget.value)}>
          {!right && (
            <option value="" disabled>
              Choose a group
            </option>
          )}
          {rights.map((r) => (
            <option key={rightKey(r)} value={rightKey(r)}>
              {rightLabel(r)}
            </option>
          ))}
        </select>
        <p class="field-hint">Minting uses up this group's mint right.</p>
      </div>
      <Segmented
        legend="Payload kind"
        value={kind}
        options={[
          { value: 'text', label: 'Text' },
          { value: 'json', label: 'JSON' },
          { value: 'url', label: 'Image URL' },
        ]}
        onChange={setKind}
      />
      <TextField
        label="Payload"
        multiline
        rows={3}
        mono={kind !== 'text'}
        value={payload}
        onInput={setPayload}
        error={payload !== '' && !encoded.ok ? encoded.error : undefined}
        hint={encoded.ok ? `${encoded.value.length / 2} / 1024 bytes` : undefined}
      />
      {encoded.ok && <PayloadPreview {...shownPayload(encoded.value)} />}
      <AddressInput label="Owner (X-Chain address)" kind="X" hrp={hrp} value={to} onInput={setTo} />
      <FeeLine fees={h.fees} kind="operation" />
      {used.note}
      <button class="primary wide" type="submit" disabled={!ready}>
        Mint NFT
      </button>
    </form>
  );
}

function SendNft({ nft, hrp, fees, selection, onSent, onCancel }: { nft: NftView; hrp: string; fees: Holdings['fees']; selection: Selection | undefined; onSent: () => void; onCancel: () => void }) {
  const call = useCall();
  const [to, setTo] = useState('');
  const step = useReviewStep();
  const [done, setDone] = useState<{ txID: string; fee: Amount } | null>(null);
  const toCheck = checkAddress(to, 'X', hrp);
  const maxFee = fees.data?.operation;
  const ready = toCheck.ok && maxFee !== undefined;
  const form = useRef<HTMLFormElement>(null);
  // The Send button that opened it is gone: focus goes to the address, before it can fall to the page.
  useLayoutEffect(() => form.current?.querySelector('textarea')?.focus(), []);
  const send = () =>
    step.confirm(async () => {
      if (!ready) return;
      setDone(await call('assets.transferNft', { utxoID: nft.utxoID, to: { addresses: [toCheck.value], threshold: 1 }, maxFee }, selection));
    });
  if (done) return <Issued txID={done.txID} fee={done.fee} onAgain={onSent} />;
  if (step.reviewing && ready) {
    const shown = shownPayload(nft.payloadHex);
    return (
      <Review
        level={3}
        title="Review the NFT send"
        facts={[
          {
            term: 'NFT',
            value: (
              <>
                <AssetLabel asset={{ assetID: nft.assetID, name: nft.name, symbol: nft.symbol, verified: false }} /> · group {nft.groupID}
              </>
            ),
          },
          { term: 'Payload', value: <PayloadPreview kind={shown.kind} text={shown.text} /> },
          { term: 'To', value: toCheck.value, mono: true, testid: 'review-to' },
          { term: 'Paid from', value: 'Your X-Chain account (the NFT leaves it)' },
          { term: 'Network fee', value: formatValue(maxFee, AVAX_DECIMALS, 'AVAX'), testid: 'review-fee' },
        ]}
        {...step.props}
        busyText="Sending; waiting for the X-Chain to accept it…"
        confirmLabel="Confirm and send NFT"
        onConfirm={() => void send()}
      />
    );
  }
  return (
    <form ref={form} onSubmit={step.submit(ready)} noValidate>
      <AddressInput kind="X" hrp={hrp} value={to} onInput={setTo} />
      <FeeLine fees={fees} kind="operation" />
      <div class="row">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button class="primary" type="submit" disabled={!ready}>
          Send NFT
        </button>
      </div>
    </form>
  );
}

export function NftList({ status, hrp, onChanged, h }: AssetsProps & { h: Holdings }) {
  const [sending, setSending] = useState<string | null>(null);
  /** The NFT whose send was cancelled: its Send button takes focus back. */
  const back = useRef<string | null>(null);
  const nfts = h.nfts.data?.nfts;
  // The list is read again once the first lock ends, so an NFT that unlocks while it is open gets its Send button.
  const unlocks = Math.min(...(nfts ?? []).flatMap((n) => (n.lockedUntil !== undefined ? [n.lockedUntil * 1000] : [])));
  useEffect(() => {
    if (!Number.isFinite(unlocks)) return;
    const t = setTimeout(() => void h.nfts.reload(), Math.min(Math.max(unlocks - Date.now(), 0) + 1000, 2 ** 31 - 1));
    return () => clearTimeout(t);
  }, [unlocks]);
  return (
    <section aria-labelledby="my-nfts">
      <h2 id="my-nfts">Your NFTs</h2>
      {h.nfts.error && <FormError error={h.nfts.error} />}
      {/* Anyone can mint an NFT to this address: its words must not read as the wallet's. */}
      {nfts && nfts.length > 0 && <Muted>What an NFT says is written by whoever minted it, and anyone can send you one: it is not a message from this wallet.</Muted>}
      {!nfts && !h.nfts.error && <Muted>Loading your NFTs…</Muted>}
      {nfts?.length === 0 && <Muted>No NFTs on the X-Chain yet.</Muted>}
      <ul class="plain-list">
        {nfts?.map((n, i) => {
          const shown = shownPayload(n.payloadHex);
          return (
            <li key={n.utxoID} class="nft" data-testid="nft">
              <AssetLabel asset={{ assetID: n.assetID, name: n.name, symbol: n.symbol, verified: false }} />
              <MutedText> · group {n.groupID}</MutedText>
              <PayloadPreview kind={shown.kind} text={shown.text} />
              {n.shared && <p class="warn-box">Shared: another key can also send this NFT, at any time, so it is yours only until that key moves it.</p>}
              {n.lockedUntil !== undefined ? (
                <Muted>Locked until {formatDateTime(n.lockedUntil * 1000)}</Muted>
              ) : sending === n.utxoID ? (
                <SendNft
                  nft={n}
                  hrp={hrp}
                  fees={h.fees}
                  selection={selectionOf(status)}
                  onCancel={() => {
                    back.current = n.utxoID;
                    setSending(null);
                  }}
                  onSent={() => {
                    setSending(null);
                    onChanged();
                  }}
                />
              ) : (
                <button
                  type="button"
                  class="small"
                  // Unique by its place in the list, not by a 50-character UTXO ID read aloud.
                  aria-label={`Send NFT ${i + 1}: ${n.symbol}, group ${n.groupID}`}
                  ref={(b) => {
                    if (b && back.current === n.utxoID) {
                      back.current = null;
                      b.focus();
                    }
                  }}
                  onClick={() => setSending(n.utxoID)}
                >
                  Send
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
