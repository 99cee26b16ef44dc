// How an approval shows a transaction: decoded from the exact unsigned bytes that would be signed
// (src/core/describe.ts) — what it does, its inputs and outputs with their owners, the stake,
// any authorization it carries, the fee and the memo — and the bytes themselves, one click away.
import type { LegView, OwnersView, TxView } from '../core/describe.js';
import type { ApprovalAssetInfo, ApprovalSummary } from '../shared/messages.js';
import { ImpactSummary, OwnerLabel, YoursContext } from './approval-impact.js';
import { Facts, Muted, MutedText } from './components/Field.js';
import { Term } from './components/Term.js';
import { AVAX_DECIMALS, formatDateTime, formatUnits, formatValue } from './format.js';

export type Summary<K extends ApprovalSummary['kind']> = Extract<ApprovalSummary, { kind: K }>;
type Assets = Record<string, ApprovalAssetInfo>;

const TX_KINDS: Record<string, string> = {
  BaseTx: 'Send',
  ImportTx: 'Import',
  ExportTx: 'Export',
  CreateAssetTx: 'Create an asset',
  OperationTx: 'Mint or NFT operation',
  AddPermissionlessValidatorTx: 'Validate',
  AddPermissionlessDelegatorTx: 'Delegate stake',
  AddAutoRenewedValidatorTx: 'Validate, renewed automatically',
  SetAutoRenewedValidatorConfigTx: 'Change an auto-renewed validator',
  AddValidatorTx: 'Validate (old form)',
  AddDelegatorTx: 'Delegate stake (old form)',
  CreateSubnetTx: 'Create a subnet',
  CreateChainTx: 'Create a chain',
  AddSubnetValidatorTx: 'Add a subnet validator',
  RemoveSubnetValidatorTx: 'Remove a subnet validator',
  TransferSubnetOwnershipTx: 'Transfer subnet ownership',
  TransformSubnetTx: 'Transform a subnet',
  ConvertSubnetToL1Tx: 'Convert a subnet to an L1',
  RegisterL1ValidatorTx: 'Register an L1 validator',
  SetL1ValidatorWeightTx: "Change an L1 validator's weight",
  IncreaseL1ValidatorBalanceTx: "Top up an L1 validator's balance",
  DisableL1ValidatorTx: 'Disable an L1 validator',
  AdvanceTimeTx: 'Advance the chain time',
  RewardValidatorTx: 'Reward a validator',
  RewardAutoRenewedValidatorTx: 'Reward an auto-renewed validator',
};

const OUTPUT_KINDS: Record<string, string> = {
  MintOutput: 'Right to mint',
  NftMintOutput: 'Right to mint NFTs',
  NftTransferOutput: 'NFT',
  PropertyMintOutput: 'Right to mint properties',
  PropertyOwnedOutput: 'Property',
};

function chainText(chain: string): string {
  return `${chain}-Chain`;
}

/** Unix seconds as local date and time, with the raw value for the exact record. */
function timeText(seconds: string): string {
  const n = Number(seconds);
  return Number.isSafeInteger(n) && n * 1000 <= 8.64e15 ? `${formatDateTime(n * 1000)} (${seconds})` : seconds;
}

function Owners({ owners }: { owners: OwnersView }) {
  const n = owners.addresses.length;
  return (
    <div class="owners">
      {owners.addresses.map((a) => (
        <div key={a}>
          <span class="mono break">{a}</span> <OwnerLabel address={a} />
        </div>
      ))}
      {n === 0 && <div class="small-text">No owner: anyone can spend it</div>}
      {(n !== 1 || owners.threshold !== 1) && (
        <div class="small-text" data-testid="threshold">
          {owners.threshold} of {n} signatures
        </div>
      )}
      {owners.locktime !== '0' && (
        <div class="small-text">Locked until {timeText(owners.locktime)}</div>
      )}
    </div>
  );
}

function LegAmount({ leg, assets }: { leg: LegView; assets: Assets }) {
  if (leg.amount === undefined) {
    return (
      <div>
        <div>{OUTPUT_KINDS[leg.kind] ?? leg.kind}</div>
        <AssetName assetID={leg.assetID} info={assets[leg.assetID]} />
        {leg.payloadHex !== undefined && <div class="mono break small-text">Payload 0x{leg.payloadHex}</div>}
      </div>
    );
  }
  const info = assets[leg.assetID];
  return (
    <div>
      <div class="amount">
        {info ? formatValue(leg.amount, info.denomination, info.symbol) : `${formatUnits(leg.amount, 0)} base units`}
      </div>
      <AssetName assetID={leg.assetID} info={info} />
      {leg.stakeableUntil !== undefined && <div class="small-text">Locked for staking until {timeText(leg.stakeableUntil)}</div>}
    </div>
  );
}

function AssetName({ assetID, info }: { assetID: string; info: ApprovalAssetInfo | undefined }) {
  if (info?.verified) {
    return (
      <span class="badge verified" title="The network's own AVAX asset">
        ✓ Verified {info.symbol}
      </span>
    );
  }
  return (
    <div class="small-text">
      {info ? `${info.symbol}, not AVAX · ` : 'Unknown asset · '}
      <span class="mono break">ID {assetID}</span>
    </div>
  );
}

function Legs({ title, legs, assets, testid }: { title: string; legs: LegView[]; assets: Assets; testid: string }) {
  return (
    <section class="legs" data-testid={testid}>
      <h2>
        {title} ({legs.length})
      </h2>
      {legs.length === 0 ? (
        <Muted>None</Muted>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Chain</th>
              <th scope="col">{title === 'Inputs' ? 'Spent from' : 'Paid to'}</th>
              <th scope="col">Amount</th>
            </tr>
          </thead>
          <tbody>
            {legs.map((leg, i) => (
              <tr key={`${leg.utxoID ?? ''}${i}`}>
                <td>{leg.chain}</td>
                <td>
                  {leg.staked && (
                    <div class="badge" data-testid="staked">
                      Staked: locked while staking, then returned to
                    </div>
                  )}
                  {leg.evmAddress !== undefined && (
                    <div>
                      <span class="mono break">{leg.evmAddress}</span> <OwnerLabel address={leg.evmAddress} />
                    </div>
                  )}
                  {leg.owners && <Owners owners={leg.owners} />}
                  {leg.unknownUtxo && (
                    <div class="badge warn" role="note">
                      Unknown UTXO: the wallet cannot see what this input spends or who owns it
                    </div>
                  )}
                </td>
                <td>
                  <LegAmount leg={leg} assets={assets} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function hexLength(hex: string): number {
  return Math.floor(hex.replace(/^0x/, '').length / 2);
}

function TxAction({ summary }: { summary: Summary<'tx'> }) {
  // What happens after Approve matters as much as what is signed: say it before anything else.
  const text = !summary.complete
    ? 'Partly signed: the site gets it back to collect the other signatures'
    : summary.action === 'send'
      ? 'Your signatures complete this transaction: the wallet sends it'
      : 'Signed and handed back to the site (not sent by the wallet)';
  return (
    <p class={`action-line${summary.action === 'send' && summary.complete ? ' sends' : ''}`} data-testid="tx-action">
      {text}
    </p>
  );
}

/** The bytes a signature covers, folded: what a careful user (or another tool) can check. */
export function ExactBytes({ hex, what, digest }: { hex: string; what?: string; digest?: string }) {
  return (
    <details class="section">
      <summary>Exact bytes ({hexLength(hex)} bytes)</summary>
      <div class="section-body small-text">
        {what && <Muted>{what}</Muted>}
        <div class="mono break" data-testid="exact-bytes">
          {hex}
        </div>
        {digest !== undefined && (
          <p>
            Hash the key signs: <span class="mono break" data-testid="signed-digest">{digest}</span>
          </p>
        )}
      </div>
    </details>
  );
}

/** A P-Chain authorization the tx carries: whose, for what, and which of their keys sign. */
function Authorization({ auth }: { auth: NonNullable<TxView['authorization']> }) {
  return (
    <section class="section-body" data-testid="tx-authorization">
      <h2>Authorization</h2>
      <p>
        As the {auth.by} of <span class="mono break">{auth.of}</span>
      </p>
      {auth.owners ? (
        <Owners owners={{ ...auth.owners, locktime: '0' }} />
      ) : (
        <p class="badge warn" role="note">
          The wallet cannot see who this owner is
        </p>
      )}
      {auth.signers && auth.signers.length > 0 && (
        <p>
          Signed by: <span class="mono break">{auth.signers.join(', ')}</span>
        </p>
      )}
      {auth.note !== undefined && <Muted>{auth.note}</Muted>}
      {/* One signature covers the whole tx, so any signature of a key that is this owner serves here. */}
      <p class="badge warn" role="note" data-testid="authorization-warning">
        Your signature covers the whole transaction: if any of your addresses is this owner, it authorizes this too. Approve only if you mean to.
      </p>
    </section>
  );
}

export function TxDetails({ summary }: { summary: Summary<'tx'> }) {
  const view: TxView = summary.view;
  const avaxAssetID = Object.entries(summary.assets).find(([, info]) => info.verified)?.[0];
  return (
    <YoursContext.Provider value={summary.impact.yours}>
      <div class="stack" data-testid="tx-summary">
        <TxAction summary={summary} />
        <ImpactSummary impact={summary.impact} assets={summary.assets} signsNothing={summary.signsNothing === true} avaxAssetID={avaxAssetID} />
        <Facts>
          <Term term="Chain">{chainText(summary.chain)}</Term>
          <Term term="Kind">
            {TX_KINDS[view.kind] ?? view.kind} <MutedText>({view.kind})</MutedText>
          </Term>
          <Term term="Network ID">{view.networkID}</Term>
        </Facts>
        {view.action !== undefined && (
          <p class="action-line break" data-testid="tx-what">
            {view.action}
          </p>
        )}
        {view.details !== undefined && view.details.length > 0 && (
          <Facts data-testid="tx-details">
            {view.details.map((d, i) => (
              <Term key={i} term={d.label} class="break">{d.value}</Term>
            ))}
          </Facts>
        )}
        {view.authorization && <Authorization auth={view.authorization} />}
        {view.asset && (
          <Facts data-testid="new-asset">
            <Term term="New asset">{view.asset.name}</Term>
            <Term term="Symbol">{view.asset.symbol}</Term>
            <Term term="Denomination">{view.asset.denomination}</Term>
          </Facts>
        )}
        <Legs title="Inputs" legs={view.inputs} assets={summary.assets} testid="inputs" />
        <Legs title="Outputs" legs={view.outputs} assets={summary.assets} testid="outputs" />
        {view.operations.map((op, i) => (
          <Legs key={i} title={`Operation: ${op.kind}`} legs={op.outputs} assets={summary.assets} testid={`operation-${i}`} />
        ))}
        <Facts>
          <Term term="Fee" data-testid="fee">{formatValue(view.burned, AVAX_DECIMALS, 'AVAX')} burned</Term>
          <Term term="Memo" data-testid="memo" class="break">
            {view.memoText !== undefined ? view.memoText : view.memoHex !== undefined ? <span class="mono">0x{view.memoHex} (hex)</span> : <MutedText>None</MutedText>}
          </Term>
        </Facts>
        <ExactBytes hex={summary.unsignedHex} />
      </div>
    </YoursContext.Provider>
  );
}
