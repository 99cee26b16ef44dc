// The NFTs of one listed contract the account holds now (tokens.nfts). An NFT's metadata is read
// only when asked: the URI the contract gives (from the user's node) and, for a data: URI, what it
// says. Metadata on another server is never loaded, nor is any image.
import { useState } from 'preact/hooks';
import { sentence, useAction, useCall, useRequest } from '../api.js';
import { CopyButton } from '../components/CopyButton.js';
import { Facts, FormError, Muted, ScreenReaderText, SmallButton } from '../components/Field.js';
import { Term } from '../components/Term.js';
import { ScanNote } from '../components/TokenTransfers.js';
import { shortenId } from '../format.js';
import { unitName } from '../tokens-format.js';
import type { RequestResult, TokenView } from '../../shared/messages.js';

type Metadata = RequestResult<'tokens.nftMetadata'>;

function NftItem({ token, tokenId, amount, onSend }: { token: TokenView; tokenId: string; amount: string; onSend: (tokenId: string) => void }) {
  // Named with its collection: two contracts can both have an NFT #1.
  const nft = `NFT #${tokenId} of ${token.symbol !== '' ? token.symbol : shortenId(token.address)}`;
  const call = useCall();
  const action = useAction();
  const [meta, setMeta] = useState<Metadata | null>(null);
  const read = async () => {
    const r = await action.run(() => call('tokens.nftMetadata', { address: token.address, tokenId }));
    if (r) setMeta(r);
  };
  return (
    <li class="tx-row" data-testid="nft-item">
      <div class="tx-top">
        <strong>#{tokenId}</strong>
        {amount !== '1' && <span>× {amount}</span>}
      </div>
      <div class="actions">
        <SmallButton onClick={() => onSend(tokenId)}>
          Send<ScreenReaderText> {nft}</ScreenReaderText>
        </SmallButton>
        {!meta && (
          <SmallButton disabled={action.busy} onClick={() => void read()}>
            Details<ScreenReaderText> of {nft}</ScreenReaderText>
          </SmallButton>
        )}
      </div>
      {meta && (
        <Facts>
          {meta.uri !== undefined && (
            <Term term="Metadata address" class="mono break">
              <span title={meta.uri}>{shortenId(meta.uri, 60, 20)}</span> <CopyButton text={meta.uri} what={`metadata address of ${nft}`} />
            </Term>
          )}
          {meta.fetched?.name !== undefined && <Term term="Name">{meta.fetched.name}</Term>}
          {meta.fetched?.description !== undefined && <Term term="Description" class="break">{meta.fetched.description}</Term>}
          {meta.fetched?.image !== undefined && <Term term="Image address (not loaded)" class="mono break">{meta.fetched.image}</Term>}
        </Facts>
      )}
      {meta?.error && <Muted>{sentence(meta.error)}</Muted>}
      <FormError error={action.error} detail={action.detail} />
    </li>
  );
}

export function TokenNfts({ token, listKey, onSend }: { token: TokenView; listKey: string; onSend: (tokenId: string) => void }) {
  const list = useRequest('tokens.nfts', { address: token.address }, `${listKey}:${token.address}`);
  const items = list.data?.items;
  const scan = list.data?.scan;
  const name = unitName(token.symbol, token.address);
  // IDs come from the account's transfer logs: "none" only when every block was read and every transfer kept.
  const whole = scan !== undefined && scan.complete && !scan.error && !scan.cut;
  return (
    <section class="nfts" aria-label={`NFTs of ${name}`}>
      <FormError error={list.error} />
      {!items && !list.error && <Muted>Reading the chain…</Muted>}
      <ScanNote scan={scan} />
      {scan && !whole && (
        <SmallButton disabled={list.loading} onClick={() => void list.reload()}>
          Reload<ScreenReaderText> NFTs of {name}</ScreenReaderText>
        </SmallButton>
      )}
      {items && items.length === 0 && <Muted>{whole ? 'You hold none of these now.' : 'None found in the blocks read so far.'}</Muted>}
      <ul class="tx-list">
        {items?.map((n) => (
          <NftItem key={n.tokenId} token={token} tokenId={n.tokenId} amount={n.amount} onSend={onSend} />
        ))}
      </ul>
    </section>
  );
}
