// What the approval window says of an EVM call beyond its raw fields: the token operation decoded
// (amounts in the token's units, an unlimited allowance flagged, who receives tokens or rights and
// what the wallet knows of them), a contract deployment, the simulation on the user's node, a
// permit to sign, and a token a site asks to list. Views over the background's summary (docs/tokens.md).
import type { ApprovalSummary, ApprovalTokenView, CounterpartyView, PermitView, SimulationView, TokenCallView } from '../shared/messages.js';
import { ImpactWarnings } from './approval-impact.js';
import { ErrorDetail, Facts, Muted, MutedText } from './components/Field.js';
import { Term } from './components/Term.js';
import { expiryText, formatDeadline, formatValue, untilText } from './format.js';

type Summary<K extends ApprovalSummary['kind']> = Extract<ApprovalSummary, { kind: K }>;

/** A token named by its checked symbol, with every doubt about it said in words. */
export function TokenName({ token }: { token: ApprovalTokenView }) {
  return (
    <span data-testid="token-name">
      <strong>{token.symbol || '(no symbol)'}</strong> <span class="muted small-text">{token.name}</span> <span class="mono break small-text">{token.address}</span>
      {!token.listed && <span class="badge">Not in your token list</span>}
      {token.checks.posesAsNative && (
        <span class="badge warn" data-testid="token-poses-as-native">
          Calls itself AVAX, but it is a contract&apos;s token, not AVAX
        </span>
      )}
      {token.checks.looksLike && (
        <span class="badge warn" data-testid="token-looks-like">
          Reads like your listed token {token.checks.looksLike.symbol} ({token.checks.looksLike.address}), but it is another contract
        </span>
      )}
      {token.checks.otherScripts && (
        <span class="badge warn" data-testid="token-other-scripts">
          Its name or symbol uses letters of other scripts, which can imitate familiar ones
        </span>
      )}
      {token.checks.altered && <span class="badge warn">Its name had hidden characters (removed here) or was too long (cut)</span>}
    </span>
  );
}

function amountOf(amount: string, token: ApprovalTokenView | undefined): string {
  return token ? formatValue(amount, token.decimals, token.symbol || 'tokens') : `${amount} base units of an unknown token`;
}

/** Who gets tokens or a right to take them, and what the wallet knows of that address. */
export function Counterparty({ who, role }: { who: CounterpartyView; role: string }) {
  return (
    <div data-testid="counterparty">
      <span class="mono break">{who.address}</span>{' '}
      {who.yours ? (
        <span class="badge verified">
          Yours · {who.yours.account}, {who.yours.role}
        </span>
      ) : who.isContract === undefined ? (
        <span class="badge warn" data-testid="counterparty-code-unknown">
          Not known whether it is a contract: your node did not answer
        </span>
      ) : who.isContract ? (
        <span class="badge">A contract</span>
      ) : (
        <span class="badge warn" data-testid="counterparty-not-contract">
          An ordinary account, not a contract{role === 'spender' ? ': whoever holds its key can take these tokens at any time' : ''}
        </span>
      )}
      <div class="small-text muted" data-testid="counterparty-site-calls">
        {who.siteCalls === 0 ? 'This site has never had you call this address.' : `This site had you call this address ${who.siteCalls} time${who.siteCalls === 1 ? '' : 's'} before.`}
      </div>
      <ImpactWarnings warnings={who.warnings} />
      {who.checksFailed && <p class="small-text muted">Some checks of this address could not be made (whether it is one of yours, a first payment, how often this site had you call it).</p>}
    </div>
  );
}

function callSentence(c: TokenCallView): string {
  const nft = c.token?.standard === 'erc721' || c.token?.standard === 'erc1155';
  const what = c.tokenId !== undefined ? `token #${c.tokenId}${c.amount !== undefined ? ` (× ${c.amount})` : ''} of ${c.token?.symbol || 'this contract'}` : c.amount !== undefined ? amountOf(c.amount, c.token) : '';
  switch (c.kind) {
    case 'transfer':
    case 'transferFrom':
    case 'safeTransferFrom':
      return `Send ${what}${c.from ? ` from ${c.from}` : ''}`;
    case 'approve':
      if (nft && c.expiration === undefined) return `Let the spender take ${what}`;
      return (
        (c.amount === '0' ? `Take back the spender's allowance of ${c.token?.symbol || 'this token'}` : `Let the spender take ${c.unlimited ? `any amount of ${c.token?.symbol || 'this token'} (unlimited)` : `up to ${what}`}`) +
        // Permit2 takes an expiration of 0 as this block's time: usable at once, in this block.
        (c.expiration === undefined ? '' : ` through Permit2${c.amount === '0' ? '' : c.expiration === '0' ? ', in this block only' : `, ${untilText(c.expiration)}`}`)
      );
    case 'increaseAllowance':
      return `Raise the spender's allowance by ${c.unlimited ? 'an unlimited amount' : what}`;
    case 'setApprovalForAll':
      return c.approved ? `Let the operator take every NFT you hold of ${c.token?.symbol || 'this contract'}, now and later` : `Take back the operator's right over your NFTs of ${c.token?.symbol || 'this contract'}`;
  }
}

export function TokenCallDetails({ call }: { call: TokenCallView }) {
  const grants = call.spender !== undefined && (call.kind !== 'setApprovalForAll' || call.approved === true) && call.amount !== '0';
  return (
    <section class="section-body stack" data-testid="token-call">
      <h2>What this call does</h2>
      <p data-testid="token-call-what">{callSentence(call)}</p>
      {call.unlimited && grants && (
        <p class="badge warn" data-testid="token-call-unlimited">
          Unlimited: the spender can take all of this token you hold now or later, until you revoke it.
        </p>
      )}
      {call.kind === 'setApprovalForAll' && call.approved && <p class="badge warn">Every NFT of this contract, including ones you receive later.</p>}
      <Facts>
        <Term term="Token">
          {call.token ? (
            <TokenName token={call.token} />
          ) : (
            <MutedText>{call.unread ? 'The node did not answer for this contract' : 'The contract does not answer as a token'}: amounts are in base units.</MutedText>
          )}
        </Term>
        {call.recipient && (
          <Term term="Recipient">
            <Counterparty who={call.recipient} role="recipient" />
          </Term>
        )}
        {call.spender && (
          <Term term={call.kind === 'setApprovalForAll' ? 'Operator' : 'Spender'}>
            <Counterparty who={call.spender} role="spender" />
          </Term>
        )}
      </Facts>
    </section>
  );
}

function signed(delta: string, decimals: number, symbol: string): string {
  const negative = delta.startsWith('-');
  return `${negative ? '−' : '+'}${formatValue(negative ? delta.slice(1) : delta, decimals, symbol)}`;
}

type SimAllowance = NonNullable<SimulationView['approvals']>[number];

const rightGiven = (a: SimAllowance): boolean => (a.all !== undefined ? a.all : a.amount !== '0');

function allowanceSentence(a: SimAllowance): string {
  const token = `${a.symbol || `the unlisted token ${a.token}`}${a.permit2 ? ' through Permit2' : ''}`;
  if (a.all !== undefined) return a.all ? `Gives ${a.spender} the right to take all your NFTs of ${token}, now and later` : `Takes back ${a.spender}'s right over all your NFTs of ${token}`;
  if (a.tokenId !== undefined) return `Gives ${a.spender} the right to take token #${a.tokenId} of ${token}`;
  if (a.amount === '0') return `Takes back ${a.spender}'s allowance of ${token}`;
  if (a.unlimited) return `Gives ${a.spender} the right to take any amount of ${token} (unlimited)`;
  return `Gives ${a.spender} the right to take ${a.symbol ? formatValue(a.amount ?? '0', a.decimals, a.symbol) : `${a.amount} base units of ${token}`}`;
}

export function SimulationDetails({ sim }: { sim: SimulationView }) {
  return (
    <section class="section-body stack" data-testid="simulation" data-method={sim.method}>
      <h2>If it runs now (tried on your node)</h2>
      {sim.reverted !== undefined && (
        <p class="badge warn" data-testid="simulation-reverts">
          It would fail. You would still pay the fee.
        </p>
      )}
      {/* The reason is the contract's words as the node reports them: anyone's text, kept out of the main text. */}
      {sim.reverted && (
        <ErrorDetail detail={`The reason your node reported: “${sim.reverted}”`} about="of why it would fail" />
      )}
      {sim.method === 'trace' && sim.reverted === undefined && sim.partial && (
        <p class="badge warn" data-testid="simulation-partial">
          Too large to follow in full: below is only what was found before the wallet stopped, not everything it changes.
        </p>
      )}
      {sim.method === 'trace' && sim.reverted === undefined && (
        <ul class="plain-list" aria-label="Balance changes" data-testid="simulation-changes">
          {sim.changes.length === 0 && <li class="muted">{sim.partial ? 'No balance change found in the part followed.' : 'No balance change found (besides the fee).'}</li>}
          {sim.changes.map((c) => (
            <li key={`${c.asset}:${c.tokenId ?? ''}`}>
              {c.tokenId !== undefined
                ? `${c.delta.startsWith('-') ? '−' : '+'}${c.delta.replace('-', '')} × token #${c.tokenId} of ${c.symbol || c.asset}`
                : c.symbol
                  ? signed(c.delta, c.decimals, c.symbol)
                  : `${c.delta} base units of the unlisted token ${c.asset}`}
            </li>
          ))}
        </ul>
      )}
      {sim.method === 'trace' && sim.reverted === undefined && sim.approvals && (
        <ul class="plain-list" aria-label="Rights over your tokens" data-testid="simulation-approvals">
          {sim.approvals.map((a) => (
            <li key={`${a.token}:${a.spender}:${a.tokenId ?? ''}:${a.all ?? ''}:${a.permit2 ?? ''}`} class={rightGiven(a) ? 'badge warn' : ''}>
              {allowanceSentence(a)}
            </li>
          ))}
        </ul>
      )}
      {sim.method !== 'trace' && (
        <Muted data-testid="simulation-unknown">
          {sim.method === 'call' ? 'Your node could only check whether it fails, not what it changes.' : 'Your node could not try it: what it changes is not known.'}
        </Muted>
      )}
      <ErrorDetail detail={sim.nodeSaid && `Your node said: ${sim.nodeSaid}`} about="of the trial run" />
      {sim.touched.length > 0 && (
        <details class="section">
          <summary>Contracts it runs ({sim.touched.length})</summary>
          <ul class="section-body plain-list mono small-text">
            {sim.touched.map((a) => (
              <li key={a}>{a}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

export function DeployDetails({ deploy }: { deploy: NonNullable<Summary<'evm-tx'>['deploy']> }) {
  return (
    <section class="section-body stack" data-testid="deploy">
      <h2>Deploy a contract</h2>
      <Facts>
        <Term term="Code size" data-testid="deploy-size">{deploy.codeBytes} bytes</Term>
        <Term term="Code hash (keccak-256)" class="mono break" data-testid="deploy-hash">
          {deploy.codeHash}
        </Term>
        <Term term="New contract's address" class="mono break" data-testid="deploy-address">
          {deploy.contractAddress}
        </Term>
      </Facts>
    </section>
  );
}

export function PermitDetails({ permit }: { permit: PermitView }) {
  const kind = permit.kind === 'eip2612' ? 'a permit (EIP-2612)' : permit.kind === 'permit2-allowance' ? 'a Permit2 allowance' : 'a Permit2 transfer';
  return (
    <section class="section-body stack" data-testid="permit">
      <h2>This signature hands out tokens</h2>
      <p>Signing {kind} lets the spender take, without another approval from you:</p>
      <ul class="plain-list" aria-label="What the spender may take">
        {permit.grants.map((g, i) => (
          <li key={i}>
            {g.unlimited ? (
              <span class="badge warn">Unlimited</span>
            ) : g.tokenView ? (
              formatValue(g.amount, g.tokenView.decimals, g.tokenView.symbol || 'tokens')
            ) : (
              `${g.amount} base units`
            )}{' '}
            of {g.tokenView ? <TokenName token={g.tokenView} /> : <span class="mono break">{g.token}</span>}
            {g.expiration !== undefined && (
              // Permit2 takes an expiration of 0 as the time of the block that uses it: no end before the signature's own.
              <div class="small-text muted">{g.expiration === '0' ? 'Expires in the block that uses it' : expiryText(g.expiration)}</div>
            )}
          </li>
        ))}
      </ul>
      <Facts>
        <Term term="Spender">
          <Counterparty who={permit.spender} role="spender" />
        </Term>
        <Term term="Signature good until" data-testid="permit-deadline">{formatDeadline(permit.deadline)}</Term>
      </Facts>
    </section>
  );
}

export function WatchAssetDetails({ summary }: { summary: Summary<'watch-asset'> }) {
  return (
    <div class="stack" data-testid="watch-asset-summary">
      <p>Add this token to your list. Its name and symbol are what its contract says, read on your node:</p>
      <p>
        <TokenName token={summary.token} />
      </p>
      <p class="small-text muted">
        {summary.token.standard.toUpperCase()} · {summary.token.decimals} decimals
      </p>
      {summary.siteSymbol !== undefined && (
        <p class="badge warn" data-testid="watch-asset-site-symbol">
          The site called it “{summary.siteSymbol}”; the contract says {summary.token.symbol || 'nothing'}.
        </p>
      )}
      {summary.siteDecimals !== undefined && <p class="badge warn">The site said {summary.siteDecimals} decimals; the contract says {summary.token.decimals}.</p>}
      {summary.imageIgnored && <p class="small-text muted">The site sent a picture for it: the wallet does not load it.</p>}
      <p class="small-text muted">Listing a token sends nothing and costs nothing.</p>
    </div>
  );
}
