// Settings → Connected sites: the sites connected to which accounts and the chain each sees, the
// chains sites added; disconnecting a site, putting it back on the wallet's network, removing a chain.
import { useAction, useCall, useRequest } from '../api.js';
import { Facts, FormError, Muted, SmallButton } from '../components/Field.js';
import { Term } from '../components/Term.js';
import { formatDateTime } from '../format.js';
import type { AddedChainView, SiteView } from '../../shared/messages.js';

function SiteRow({ site, busy, onRevoke, onResetChain }: { site: SiteView; busy: boolean; onRevoke: () => void; onResetChain: () => void }) {
  return (
    <li class="site-row" data-testid="site">
      <div class="row spread">
        <strong class="break">{site.origin}</strong>
        {site.connectedAt !== undefined && (
          <SmallButton aria-label={`Disconnect ${site.origin}`} disabled={busy} onClick={onRevoke}>
            Disconnect
          </SmallButton>
        )}
      </div>
      <div class="small-text muted">{site.connectedAt !== undefined ? `Connected ${formatDateTime(site.connectedAt)}` : 'Not connected'}</div>
      <div class="row spread small-text" data-testid="site-chain">
        {site.chain ? (
          <>
            <span class="break">
              Sees chain ID {site.chain.chainId} (“{site.chain.name}”)
            </span>
            <SmallButton aria-label={`Use the wallet's network on ${site.origin}`} disabled={busy} onClick={onResetChain}>
              Use the wallet&apos;s network
            </SmallButton>
          </>
        ) : (
          <span>Sees the wallet&apos;s network</span>
        )}
      </div>
      <ul class="plain-list small-text">
        {site.accounts.map((a) => (
          <li key={a.id}>
            {a.name} <span class="mono break">{a.cAddress}</span>
          </li>
        ))}
      </ul>
    </li>
  );
}

function ChainRow({ chain, busy, onRemove }: { chain: AddedChainView; busy: boolean; onRemove: () => void }) {
  return (
    <li class="site-row" data-testid="added-chain">
      <div class="row spread">
        <span>
          <strong>{chain.name}</strong>{' '}
          {chain.usedBy > 0 && <span class="badge verified">{chain.usedBy === 1 ? 'in use by 1 site' : `in use by ${chain.usedBy} sites`}</span>}
        </span>
        <SmallButton aria-label={`Remove ${chain.name} (chain ${chain.chainId})`} disabled={busy} onClick={onRemove}>
          Remove
        </SmallButton>
      </div>
      <Facts>
        <Term term="Chain ID">{chain.chainId}</Term>
        <Term term="RPC URL" class="mono break">{chain.rpcUrl}</Term>
        <Term term="Symbol">{chain.symbol}</Term>
        {chain.explorerUrl !== undefined && <Term term="Explorer" class="mono break">{chain.explorerUrl}</Term>}
      </Facts>
    </li>
  );
}

export function Sites() {
  const call = useCall();
  const list = useRequest('sites.list', {});
  const action = useAction();
  const revoke = async (origin: string) => {
    if (await action.run(() => call('sites.revoke', { origin }))) await list.reload();
  };
  const resetChain = async (origin: string) => {
    if (await action.run(() => call('sites.resetChain', { origin }))) await list.reload();
  };
  const removeChain = async (chainId: string) => {
    if (await action.run(() => call('sites.removeChain', { chainId }))) await list.reload();
  };
  if (!list.data) return <p class={list.error ? 'error-text' : 'muted'}>{list.error ?? 'Loading…'}</p>;
  const { sites, chains } = list.data;
  return (
    <>
      {sites.length === 0 ? (
        <Muted>No site is connected</Muted>
      ) : (
        <ul class="plain-list">
          {sites.map((site) => (
            <SiteRow key={site.origin} site={site} busy={action.busy} onRevoke={() => void revoke(site.origin)} onResetChain={() => void resetChain(site.origin)} />
          ))}
        </ul>
      )}
      <h3>Chains added by sites</h3>
      {chains.length === 0 ? (
        <Muted>None</Muted>
      ) : (
        <ul class="plain-list">
          {chains.map((chain) => (
            <ChainRow key={chain.chainId} chain={chain} busy={action.busy} onRemove={() => void removeChain(chain.chainId)} />
          ))}
        </ul>
      )}
      <FormError error={action.error} />
    </>
  );
}
