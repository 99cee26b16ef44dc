// What an approval shows of each kind of request: a transaction (decoded from its exact unsigned
// bytes), an EVM transaction, a message, typed data, a chain to add or switch to. Pure views over
// the summary the background built; the approval window (approval-window.tsx) places them.
import type { ApprovalSummary } from '../shared/messages.js';
import { ImpactWarnings } from './approval-impact.js';
import { DeployDetails, PermitDetails, SimulationDetails, TokenCallDetails, WatchAssetDetails } from './approval-evm.js';
import { ExactBytes, hexLength, type Summary, TxDetails } from './approval-tx.js';
import { Facts, Muted, MutedText } from './components/Field.js';
import { Term } from './components/Term.js';
import { formatUnits, formatValue, units, WEI_DECIMALS } from './format.js';

/** A chain a site added, named by its ID: the name is only that site's claim. */
const addedChainText = (chainId: string, name: string): string => `chain ID ${chainId}, which the site that added it calls “${name}”`;

function EvmDetails({ summary }: { summary: Summary<'evm-tx'> }) {
  const feeCap = units(summary.gasLimit) * units(summary.maxFeePerGas);
  // What a unit of gas likely costs: the base fee bound plus the tip, never above the cap.
  const likelyPrice = units(summary.baseFeePerGas) + units(summary.maxPriorityFeePerGas);
  const likelyFee = units(summary.expectedGas) * (likelyPrice < units(summary.maxFeePerGas) ? likelyPrice : units(summary.maxFeePerGas));
  // Helicon charges at least half the gas limit: a limit far above what the call uses costs real money.
  const use = summary.estimatedGasUse === undefined ? undefined : units(summary.estimatedGasUse);
  const oversized = use !== undefined && units(summary.expectedGas) > use;
  const hasData = summary.data !== '' && summary.data !== '0x';
  // Gas prices in the chain's own small unit: nAVAX on Avalanche, gwei elsewhere (both 10^-9).
  const gwei = summary.symbol === 'AVAX' ? 'nAVAX' : 'gwei';
  return (
    <div class="stack" data-testid="evm-summary">
      {summary.recipient && <ImpactWarnings warnings={summary.recipient.warnings} />}
      {summary.siteNonce !== undefined && (
        // A site re-sending its waiting tx at the same nonce means to replace it; here it would be a second tx.
        <p class="warn-box" role="note" data-testid="evm-site-nonce">
          The site asked for nonce {summary.siteNonce}; the wallet uses {summary.nonce}. This replaces no waiting transaction: Speed up or Cancel in Activity does that.
        </p>
      )}
      {summary.replacesWaiting && (
        <p class="warn-box" role="note" data-testid="evm-replaces">
          The site set nonce {summary.nonce}, which another transaction of yours already took: if that one still waits, this one takes its place and it never runs; if not, this one is refused.
        </p>
      )}
      {summary.nextNonce !== undefined && (
        <p class="warn-box" role="note" data-testid="evm-nonce-gap">
          The site set nonce {summary.nonce}; your next is {summary.nextNonce}. This one waits until the nonces between are used, and may run much later.
        </p>
      )}
      {summary.siteMaxFeePerGas !== undefined && (
        <p class="warn-box" role="note" data-testid="evm-site-fee">
          The site asked for a fee cap of {formatUnits(summary.siteMaxFeePerGas, 9)} {gwei} per gas, under the network's base fee of now: it would wait, with every later transaction of yours behind it. The wallet uses its own.
        </p>
      )}
      {summary.rpcHost !== undefined && (summary.call || summary.simulation) && (
        // On a chain a site added, the token's words and units and the trial run are its node's word.
        <p class="warn-box" role="note" data-testid="evm-site-node">
          The token and the trial run below are only what {summary.rpcHost}, the site's node, says.
        </p>
      )}
      {summary.deploy && <DeployDetails deploy={summary.deploy} />}
      {summary.call && <TokenCallDetails call={summary.call} />}
      {summary.simulation && <SimulationDetails sim={summary.simulation} />}
      <Facts>
        <Term term="Chain" class="break" data-testid="evm-chain">
          {summary.rpcHost === undefined ? `${summary.chainName} (chain ID ${summary.chainId})` : `${addedChainText(summary.chainId, summary.chainName)}, served by ${summary.rpcHost}`}
        </Term>
        <Term term="From" class="mono break">{summary.from}</Term>
        <Term term="To" class="break">
          {summary.to === '' ? (
            <span class="badge warn">Creates a contract</span>
          ) : (
            <>
              <span class="mono">{summary.to}</span>{' '}
              {summary.recipient?.yours ? (
                <span class="badge verified" data-testid="owner-yours">
                  Yours · {summary.recipient.yours.account}, {summary.recipient.yours.role}
                </span>
              ) : (
                <span class="badge" data-testid="owner-not-yours">
                  Not yours
                </span>
              )}
            </>
          )}
        </Term>
        <Term term="Value" class="amount" data-testid="evm-value">
          {formatValue(summary.valueWei, WEI_DECIMALS, summary.symbol)}
        </Term>
        <Term term="Nonce" data-testid="evm-nonce">{summary.nonce}</Term>
        <Term term="Likely fee" data-testid="fee-likely">
          about {formatValue(likelyFee, WEI_DECIMALS, summary.symbol)}
          <div class="small-text muted">
            {formatUnits(summary.expectedGas, 0)} gas charged (at least half the gas limit is always charged)
          </div>
          {oversized ? (
            <div class="badge warn" data-testid="gas-limit-oversized">
              The gas limit is {formatUnits(summary.gasLimit, 0)}, but this call uses about {formatUnits(use, 0)}: half the limit is charged anyway.
            </div>
          ) : null}
        </Term>
        <Term term="Fee at most" data-testid="fee">
          {formatValue(feeCap, WEI_DECIMALS, summary.symbol)}
          <div class="small-text muted">
            {formatUnits(summary.gasLimit, 0)} gas × {formatUnits(summary.maxFeePerGas, 9)} {gwei}; tip up to {formatUnits(summary.maxPriorityFeePerGas, 9)} {gwei} per gas
          </div>
        </Term>
      </Facts>
      {hasData ? (
        <details class="section" data-testid="evm-data">
          {/* The first 4 bytes select the contract function: shown without opening the details. */}
          <summary>
            Call data ({hexLength(summary.data)} bytes, function <span class="mono">{summary.data.slice(0, 10)}</span>)
          </summary>
          <div class="section-body mono break small-text">{summary.data}</div>
        </details>
      ) : (
        <Muted>No call data</Muted>
      )}
      <ExactBytes hex={summary.unsignedHex} what="EIP-1559 transaction, unsigned: its keccak-256 is what is signed" />
    </div>
  );
}

function MessageDetails({ summary }: { summary: Summary<'sign-message'> }) {
  return (
    <div class="stack" data-testid="message-summary">
      {summary.signInElsewhere && (
        <p class="badge warn">
          Signs you in to another site: the site asking could sign in there as you.
        </p>
      )}
      {summary.encoding === 'hex' && summary.bytesHex.length === 66 && (
        // 32 bytes: a hash of something else, which a contract (a Safe, a meta-transaction) may take as the user's approval of it.
        <p class="badge warn" data-testid="message-hash">
          32 bytes, likely a hash: a contract may take this signature as your approval of whatever it hashes, which the wallet cannot see.
        </p>
      )}
      <p>Sign this message{summary.encoding === 'hex' ? ' (binary, shown as hex)' : ''}:</p>
      <pre class="message mono break">{summary.encoding === 'hex' ? `0x${summary.message.replace(/^0x/, '')}` : summary.message}</pre>
      <Facts>
        <Term term="Format" data-testid="message-format">{summary.format === 'personal' ? 'Ethereum personal message (EIP-191)' : 'Avalanche signed message'}</Term>
        <Term term="Signed by" class="mono break">{summary.signer}</Term>
      </Facts>
      <ExactBytes
        hex={summary.bytesHex}
        digest={summary.digestHex}
        what={
          summary.format === 'personal'
            ? 'The message bytes. The key signs their EIP-191 hash: keccak-256 of "\\x19Ethereum Signed Message:\\n", the length and the bytes.'
            : 'The message bytes. The key signs sha256 of "\\x1AAvalanche Signed Message:\\n", the length (4 bytes) and the bytes.'
        }
      />
    </div>
  );
}

function TypedDataDetails({ summary }: { summary: Summary<'sign-typed-data'> }) {
  return (
    <div class="stack" data-testid="typed-data-summary">
      {summary.permit && summary.rpcHost !== undefined && (
        // On a chain a site added, the token's words and units, and whether the spender is a contract, are its node's word.
        <p class="warn-box" role="note" data-testid="typed-site-node">
          The token and the spender below are only what {summary.rpcHost}, the site's node, says.
        </p>
      )}
      {summary.permit ? (
        <PermitDetails permit={summary.permit} />
      ) : (
        /"verifyingContract"/.test(summary.domainJson) && (
          <p class="warn-box" role="note" data-testid="typed-unknown">
            An unknown kind of signature: the contract in the domain may take it as your approval (an order, a permit). Sign only if you know what it does.
          </p>
        )
      )}
      <p>Sign this structured data (EIP-712):</p>
      <Facts>
        <Term term="Type" class="mono break">{summary.primaryType}</Term>
        <Term term="Signed by" class="mono break">{summary.signer}</Term>
        {summary.chainId !== undefined && <Term term="Chain ID">{summary.chainId}</Term>}
      </Facts>
      {summary.hiddenCharacters && (
        <p class="warn-box" role="note">
          Some of this text holds characters that hide or reorder what it says (direction marks, zero-width or control characters). They are shown below as \u codes: read them as part of what you sign.
        </p>
      )}
      <h2>Domain</h2>
      <pre class="message mono break" data-testid="typed-domain">
        {summary.domainJson}
      </pre>
      <h2>Message</h2>
      <pre class="message mono break" data-testid="typed-message">
        {summary.messageJson}
      </pre>
      <details class="section">
        <summary>Type definitions</summary>
        <pre class="section-body message mono break small-text" data-testid="typed-types">
          {summary.typesJson}
        </pre>
      </details>
    </div>
  );
}

function AddChainDetails({ summary }: { summary: Summary<'add-chain'> }) {
  return (
    <div class="stack" data-testid="add-chain-summary">
      {/* The chain is its ID and the node that serves it; the site's name for it is only its claim. */}
      <p data-testid="add-chain-what">
        Add the EVM chain with chain ID <strong>{summary.chainId}</strong>, served by <strong class="break">{summary.rpcHost}</strong>, to the wallet.
      </p>
      <p data-testid="add-chain-no-switch">Adding it does not switch to it: you are asked next whether this site should use it.</p>
      <Facts>
        <Term term="The site calls it" class="break">
          <span data-testid="add-chain-name">“{summary.chainName}”</span>
          {summary.nameAltered && (
            <div class="badge warn" data-testid="add-chain-name-altered">
              The site&apos;s name had hidden characters (removed here) or was too long (cut).
            </div>
          )}
          {summary.looksLike && (
            <div class="badge warn" data-testid="add-chain-lookalike">
              {`This name looks like ${summary.looksLike.name} (chain ID ${summary.looksLike.chainId}), but this is chain ID ${summary.chainId}: another chain.`}
            </div>
          )}
          {summary.knownAs && (
            <div class="badge warn">
              {`Chain ID ${summary.chainId} is ${summary.knownAs}, whatever the site calls it.`}
            </div>
          )}
        </Term>
        <Term term="RPC URL" class="mono break" data-testid="add-chain-rpc">
          {summary.rpcUrl}
        </Term>
        <Term term="Symbol">
          {summary.symbol} <MutedText>({summary.decimals} decimals)</MutedText>
        </Term>
        <Term term="Explorer" class="mono break">{summary.explorerUrl ?? <MutedText>None</MutedText>}</Term>
      </Facts>
      <p class="warn-box" role="note">
        The RPC URL&apos;s operator sees your addresses and what you do on this chain, and could answer with false data: add only chains you trust. An
        added chain is EVM-only: the X-Chain and P-Chain are not on it.
      </p>
    </div>
  );
}

function SwitchDetails({ summary }: { summary: Summary<'switch-chain'> }) {
  const siteOnly = summary.scope === 'site';
  return (
    <div class="stack" data-testid="switch-summary">
      {summary.afterAdd && <p data-testid="switch-after-add">The chain was added. Whether this site uses it is a separate choice.</p>}
      <p data-testid="switch-what">
        {siteOnly ? 'Switch this site' : "Switch the wallet's network"} to chain ID <strong>{summary.chainId}</strong>
        {summary.rpcHost !== undefined && (
          <>
            , served by <strong class="break">{summary.rpcHost}</strong>
          </>
        )}
        ?
      </p>
      {summary.addedBy !== undefined && (
        <p class="warn-box" role="note" data-testid="switch-added-by">
          Another site, {summary.addedBy}, added this chain and chose its RPC node.
        </p>
      )}
      <Facts>
        <Term term="From" class="break">{summary.fromName}</Term>
        <Term term="To" class="break" data-testid="switch-to">
          {summary.rpcHost !== undefined ? addedChainText(summary.chainId, summary.toName) : summary.toName}
        </Term>
      </Facts>
      <p class="muted small-text" data-testid="switch-scope">
        {siteOnly
          ? `Only this site changes: other sites keep their chain. Reject keeps this site on ${summary.fromName}${summary.afterAdd ? '; the chain stays added' : ''}.`
          : 'The wallet itself (X-Chain and P-Chain too) and every site that follows its network change; sites that switched to a chain of their own keep it.'}
      </p>
    </div>
  );
}

export function SummaryDetails({ summary }: { summary: ApprovalSummary }) {
  switch (summary.kind) {
    case 'connect':
      return (
        <div class="stack" data-testid="connect-summary">
          <p>
            Connect to this wallet with the account <strong data-testid="connect-account">{summary.accountName}</strong>. The site will see its name and these addresses:
          </p>
          <ul class="plain-list">
            {summary.accounts.map((a) => (
              <li key={a} class="mono break">
                {a}
              </li>
            ))}
          </ul>
          <p class="muted small-text">Every signature it asks for later still needs your approval.</p>
        </div>
      );
    case 'sign-message':
      return <MessageDetails summary={summary} />;
    case 'sign-typed-data':
      return <TypedDataDetails summary={summary} />;
    case 'tx':
      return <TxDetails summary={summary} />;
    case 'evm-tx':
      return <EvmDetails summary={summary} />;
    case 'switch-chain':
      return <SwitchDetails summary={summary} />;
    case 'add-chain':
      return <AddChainDetails summary={summary} />;
    case 'watch-asset':
      return <WatchAssetDetails summary={summary} />;
    default:
      return <p class="error-text">This request cannot be shown; reject it.</p>;
  }
}
