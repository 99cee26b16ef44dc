// Every P-Chain tx type a single avalanchego v1.15 (Helicon) node accepts, built by a site with
// avalanchejs 5.2.0 and sent THROUGH THE WALLET's site path (xpc_sendTransaction, or
// xpc_signTransaction when another party must sign too), the user approving what the window shows.
// For each type: the approval describes it (action, details, authorization) and shows as its fee
// exactly what the tx burns; the node commits it; the bytes the node stores hash to the tx ID and
// decode here to the bytes the wallet signed; and the P-Chain state changed as the summary said.
// Afterwards, the reward txs the chain itself issues (type 20 for a delegation, type 42 for an
// auto-renewed validator's cycle) are read back from the node and decoded.
//
// Not here: RegisterL1ValidatorTx (36) and SetL1ValidatorWeightTx (37) need a Warp message signed
// by the L1's validators for its validator manager, which a single test node cannot produce.
import { sha256 } from '@noble/hashes/sha2.js';
import { type Context, L1Validator as AjsL1Validator, PChainOwner as AjsPChainOwner, pvm, pvmSerial } from '@avalabs/avalanchejs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Bytes, concatBytes, fromHex, toHex, utf8 } from '../../src/core/bytes.js';
import { decodeChainTx, decodeSignedTx, encodeSignedTx, rewardAutoRenewedValidatorTxId, rewardValidatorTxId, stakeOf, txId } from '../../src/core/codec/index.js';
import { describeTx } from '../../src/core/describe.js';
import { timeText } from '../../src/core/describe-pvm.js';
import { cb58Encode, formatAddress, formatNodeId, parseAddress, parseId } from '../../src/core/encoding.js';
import type { PFeeContext } from '../../src/core/fees.js';
import { hashForSigning, signDigest } from '../../src/core/keys.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { EMPTY_SIGNATURE } from '../../src/core/tx/sign.js';
import { avalanchejsContextOf } from '../unit/avalanchejs-context.js';
import { AVAX, freshKey, genesisEngine, localNetwork } from './fixture.js';
import { freshBlsKey, freshNodeId, GENESIS_VALIDATOR, hex0x, nodeRpc, nodeTxBytes, nowOnP, pRpc, siteWallet, type SiteWallet, type TxSummary } from './pvm-kit.js';
import { currentValidators, decided, detail, type Sent, siteTxChecks } from './pvm-site-checks.js';

const PRIMARY = cb58Encode(new Uint8Array(32));
/** The auto-renewed validator's cycle: long enough to fit a 20 s subnet validation inside it. */
const CYCLE = 40n;
/** Staking ends this long after P-Chain time (the test network's minimum is 20 s). */
const SHORT_STAKE = 24n;

describe('every P-Chain tx type a single node accepts, through the wallet’s site path', () => {
  let w: SiteWallet;
  let ajs: Context.Context;
  let me: Bytes;
  let pAddress: string;
  let fee: PFeeContext;
  let hrp: string;
  const rewardKey = freshKey();
  const feeKey = freshKey();
  /** A key only the site holds: the L1 validator's deactivation owner, then the subnet's new owner. */
  const siteKey = freshKey();
  const pAddr = (b: Bytes) => formatAddress('P', hrp, b);

  // What the tests below create, in order.
  let ownNodeID: string;
  let autoRenewedTxID: string;
  let cycleEnd: bigint;
  let subnetID: string;
  let chainID: string;
  let validationID: string;
  let autoRenewed: Sent;
  let delegation: Sent;
  let validation: Sent;

  beforeAll(async () => {
    const { ctx, client } = await localNetwork();
    hrp = ctx.hrp;
    ajs = avalanchejsContextOf(ctx);
    // The node's fee weights are the ones avalanchejs and our fee formula use.
    const config = await client.platform.getFeeConfig();
    expect(config.weights).toEqual([1n, 1000n, 1000n, 4n]);
    w = await siteWallet();
    pAddress = w.account.pAddress;
    me = parseAddress(pAddress).bytes;
    const genesis = await genesisEngine();
    // Two validators' stakes, a delegation, L1 balances and the fees.
    await genesis.issueAndWait(await genesis.buildPSend(4_100n * AVAX, makeOwners([me])));
    fee = { weights: config.weights, gasPriceNavax: 1n };
  });

  // The checks (pvm-site-checks.ts) read these when they run, after beforeAll has set them.
  const suite = { get w() { return w; }, get ajs() { return ajs; }, get me() { return me; }, get pAddress() { return pAddress; }, get fee() { return fee; }, set fee(next: PFeeContext) { fee = next; } };
  const { common, approvalFor, expectFeeShownIsBurned, expectOnChain, siteSends } = siteTxChecks(suite);

  it('40 AddAutoRenewedValidatorTx: the node itself, BLS key from info.getNodeID; cycle, restaked share and authority shown and set', async () => {
    const info = await nodeRpc<{ nodeID: string; nodePOP: { publicKey: string; proofOfPossession: string } }>('/ext/info', 'info.getNodeID');
    ownNodeID = info.nodeID;
    const publicKey = fromHex(info.nodePOP.publicKey.slice(2));
    const unsigned = pvm.newAddAutoRenewedValidatorTx(
      {
        ...(await common()),
        nodeId: ownNodeID,
        publicKey,
        signature: fromHex(info.nodePOP.proofOfPossession.slice(2)),
        weight: 2_000n * AVAX,
        shares: 20_000,
        rewardAddresses: [rewardKey.shortId],
        delegatorRewardsOwner: [feeKey.shortId],
        ownerAddresses: [me],
        autoCompoundRewardShares: 500_000,
        period: CYCLE,
      },
      ajs,
    );
    autoRenewed = await siteSends(unsigned, 'AddAutoRenewedValidatorTx');
    const { txID, summary } = autoRenewed;
    autoRenewedTxID = txID;
    const view = summary.view;
    expect(view.action).toBe(`Validate the Primary Network with ${ownNodeID}, staking 2,000 AVAX in cycles of 40 s that renew until stopped, restaking 50% of the rewards`);
    expect(view.details).toEqual(
      expect.arrayContaining([
        detail('Node', ownNodeID),
        detail('Cycle', '40 s, renewed at the end of each cycle until stopped'),
        detail('Restaked share of rewards', '50%'),
        detail('Delegation fee', '2%'),
        detail('Validation rewards go to', pAddr(rewardKey.shortId)),
        detail('Delegation fees go to', pAddr(feeKey.shortId)),
        detail('Can change or stop it', pAddress),
        detail('BLS key', `${info.nodePOP.publicKey} (with proof of possession)`),
      ]),
    );
    const staked = view.outputs.filter((o) => o.staked);
    expect(staked.reduce((s, o) => s + BigInt(o.amount!), 0n)).toBe(2_000n * AVAX);
    expect(staked.every((o) => o.owners?.addresses.join() === pAddress)).toBe(true);
    expect(view.inputs.length).toBeGreaterThan(0);
    expect(view.inputs.every((i) => i.owners?.addresses.join() === pAddress && !i.unknownUtxo)).toBe(true);

    const [v] = await currentValidators([ownNodeID]);
    expect(v).toMatchObject({ txID, nodeID: ownNodeID, weight: (2_000n * AVAX).toString(), nextPeriod: '40', autoCompoundRewardShares: '500000' });
    expect(v!.validatorAuthority?.addresses).toEqual([pAddress]);
    expect(v!.validationRewardOwner?.addresses).toEqual([pAddr(rewardKey.shortId)]);
    expect(v!.signer?.publicKey).toBe(info.nodePOP.publicKey);
    cycleEnd = BigInt(v!.endTime);
    expect(cycleEnd - BigInt(v!.startTime)).toBe(CYCLE);
  });

  it('41 SetAutoRenewedValidatorConfigTx: the validator authority (read from the 40 on the node) signs; a change, then a stop', async () => {
    const change = pvm.newSetAutoRenewedValidatorConfigTx({ ...(await common()), validatorTxId: autoRenewedTxID, auth: [0], autoCompoundRewardShares: 250_000, period: 30n }, ajs);
    const changed = await siteSends(change, 'SetAutoRenewedValidatorConfigTx');
    expect(changed.summary.view.action).toBe(`Change the auto-renewed validator added by ${autoRenewedTxID}: restaking 25% of the rewards, the current cycle's included, and cycles of 30 s from its next cycle`);
    expect(changed.summary.view.authorization).toEqual({
      by: 'validator authority',
      of: autoRenewedTxID,
      sigIndices: [0],
      owners: { addresses: [pAddress], threshold: 1 },
      signers: [pAddress],
    });
    // One credential per input, then the authority's.
    expect(decodeSignedTx(changed.onChain, 'pvm').credentials).toHaveLength(changed.tx.inputs.length + 1);
    expect(await currentValidators([ownNodeID])).toEqual([expect.objectContaining({ txID: autoRenewedTxID, nextPeriod: '30', autoCompoundRewardShares: '250000' })]);

    const stop = pvm.newSetAutoRenewedValidatorConfigTx({ ...(await common()), validatorTxId: autoRenewedTxID, auth: [0], autoCompoundRewardShares: 0, period: 0n }, ajs);
    const stopped = await siteSends(stop, 'SetAutoRenewedValidatorConfigTx');
    expect(stopped.summary.view.action).toBe(`Stop the auto-renewed validator added by ${autoRenewedTxID} at the end of its current cycle`);
    expect(stopped.summary.view.details).toContainEqual(detail('Next cycle', 'none: the validator stops at the end of its current cycle'));
    const [v] = await currentValidators([ownNodeID]);
    expect(v).toMatchObject({ txID: autoRenewedTxID, autoCompoundRewardShares: '0' });
    expect(v!.nextPeriod ?? '0').toBe('0');
    expect(BigInt(v!.endTime), 'the current cycle is unchanged').toBe(cycleEnd);
  });

  it('16 CreateSubnetTx, 15 CreateChainTx, 13 AddSubnetValidatorTx (the node, inside its cycle), 23 RemoveSubnetValidatorTx', async () => {
    const created = await siteSends(pvm.newCreateSubnetTx({ ...(await common()), subnetOwners: [me], threshold: 1 }, ajs), 'CreateSubnetTx');
    subnetID = created.txID;
    expect(created.summary.view.action).toBe(`Create a subnet owned by ${pAddress}`);
    expect(created.summary.view.details).toEqual([detail('Owner', pAddress)]);
    expect(await pRpc('platform.getSubnet', { subnetID })).toMatchObject({ isPermissioned: true, controlKeys: [pAddress], threshold: '1' });

    const vmId = cb58Encode(sha256(utf8.encode('xpc wallet test vm')));
    const genesisData = { note: 'pvm-types.test.ts' };
    const chain = await siteSends(
      pvm.newCreateChainTx({ ...(await common()), subnetId: subnetID, chainName: 'xpcTestChain', vmId, fxIds: [], genesisData, subnetAuth: [0] }, ajs),
      'CreateChainTx',
    );
    chainID = chain.txID;
    expect(chain.summary.view.action).toBe(`Create the blockchain "xpcTestChain" on subnet ${subnetID}, running VM ${vmId}`);
    expect(chain.summary.view.details).toContainEqual(detail('Genesis', `${utf8.encode(JSON.stringify(genesisData)).length} bytes`));
    const subnetOwner = { by: 'subnet owner', of: subnetID, sigIndices: [0], owners: { addresses: [pAddress], threshold: 1 }, signers: [pAddress] };
    expect(chain.summary.view.authorization).toMatchObject(subnetOwner);
    expect(await pRpc('platform.validatedBy', { blockchainID: chainID })).toEqual({ subnetID });

    // The node validates the Primary Network (test 40) until cycleEnd: the subnet validation fits
    // inside. A second subnet, with no chain: a node that validates a subnet tries to run its
    // chains, and the test chain's VM does not exist (the node would report itself unhealthy).
    const validated = (await siteSends(pvm.newCreateSubnetTx({ ...(await common()), subnetOwners: [me], threshold: 1 }, ajs), 'CreateSubnetTx')).txID;
    const validatedOwner = { ...subnetOwner, of: validated };
    const start = await nowOnP();
    expect(cycleEnd - start, 'time left in the cycle for a 20 s subnet validation').toBeGreaterThanOrEqual(21n);
    const added = await siteSends(
      pvm.newAddSubnetValidatorTx({ ...(await common()), nodeId: ownNodeID, start, end: cycleEnd, weight: 7n, subnetId: validated, subnetAuth: [0] }, ajs),
      'AddSubnetValidatorTx',
    );
    expect(added.summary.view.action).toBe(`Add ${ownNodeID} as a validator of subnet ${validated} with weight 7 until ${timeText(cycleEnd)}`);
    expect(added.summary.view.authorization).toMatchObject(validatedOwner);
    expect(await currentValidators([ownNodeID], validated)).toEqual([expect.objectContaining({ txID: added.txID, nodeID: ownNodeID, weight: '7', endTime: cycleEnd.toString() })]);

    const removed = await siteSends(pvm.newRemoveSubnetValidatorTx({ ...(await common()), nodeId: ownNodeID, subnetId: validated, subnetAuth: [0] }, ajs), 'RemoveSubnetValidatorTx');
    expect(removed.summary.view.action).toBe(`Remove ${ownNodeID} from the validators of subnet ${validated}`);
    expect(removed.summary.view.authorization).toMatchObject(validatedOwner);
    expect(await currentValidators([ownNodeID], validated)).toEqual([]);
  });

  it('35 ConvertSubnetToL1Tx, 38 IncreaseL1ValidatorBalanceTx, 39 DisableL1ValidatorTx (the site adds the deactivation owner’s signature), 33 TransferSubnetOwnershipTx', async () => {
    const l1Node = formatNodeId(freshNodeId());
    const bls = freshBlsKey();
    const manager = new Uint8Array(20).fill(0x5a);
    const converted = await siteSends(
      pvm.newConvertSubnetToL1Tx(
        {
          ...(await common()),
          subnetId: subnetID,
          chainId: chainID,
          address: manager,
          validators: [
            AjsL1Validator.fromNative(l1Node, 100n, 1n * AVAX, new pvmSerial.ProofOfPossession(bls.publicKey, bls.proofOfPossession), AjsPChainOwner.fromNative([me], 1), AjsPChainOwner.fromNative([siteKey.shortId], 1)),
          ],
          subnetAuth: [0],
        },
        ajs,
      ),
      'ConvertSubnetToL1Tx',
    );
    const view = converted.summary.view;
    expect(view.action).toBe(`Convert subnet ${subnetID} into an L1 whose validators are managed by 0x${'5a'.repeat(20)} on chain ${chainID}, with 1 initial validator funded with 1 AVAX`);
    expect(view.details).toEqual(
      expect.arrayContaining([
        detail('Validator 1', `${l1Node}, weight 100, fee balance 1 AVAX`),
        detail('Validator 1 balance left goes to', pAddress),
        detail('Validator 1 can be disabled by', pAddr(siteKey.shortId)),
      ]),
    );
    expect(view.authorization).toMatchObject({ by: 'subnet owner', of: subnetID, signers: [pAddress] });
    const subnet = await pRpc<{ managerChainID?: string; managerAddress?: string; conversionID?: string }>('platform.getSubnet', { subnetID });
    expect(subnet).toMatchObject({ managerChainID: chainID, managerAddress: hex0x(manager) });
    // The L1 validator is the subnet's first: validation ID sha256(subnetID ‖ u32 0).
    validationID = cb58Encode(sha256(concatBytes(parseId(subnetID), new Uint8Array(4))));
    type L1Validator = { subnetID: string; nodeID: string; weight: string; balance: string };
    const l1 = await pRpc<L1Validator>('platform.getL1Validator', { validationID });
    expect(l1).toMatchObject({ subnetID, nodeID: l1Node, weight: '100' });
    expect(BigInt(l1.balance)).toBeGreaterThan(0n);
    expect(BigInt(l1.balance)).toBeLessThanOrEqual(1n * AVAX);

    const increased = await siteSends(pvm.newIncreaseL1ValidatorBalanceTx({ ...(await common()), balance: 2n * AVAX, validationId: validationID }, ajs), 'IncreaseL1ValidatorBalanceTx');
    expect(increased.summary.view.action).toBe(`Add 2 AVAX to the fee balance of L1 validator ${validationID}`);
    const topped = BigInt((await pRpc<L1Validator>('platform.getL1Validator', { validationID })).balance);
    // Raised by 2 AVAX, less the few seconds of continuous fee since the first reading.
    expect(topped - BigInt(l1.balance)).toBeGreaterThan(2n * AVAX - 1_000_000n);
    expect(topped - BigInt(l1.balance)).toBeLessThanOrEqual(2n * AVAX);

    // Disabling needs the deactivation owner (the site's key, read from the chain's state): the
    // wallet signs the fee inputs, leaves that slot empty and says the tx is not complete; the site
    // signs it and issues.
    const disable = pvm.newDisableL1ValidatorTx({ ...(await common()), validationId: validationID, disableAuth: [0] }, ajs);
    const unsignedBytes = disable.toBytes();
    const before = w.shown.length;
    const partial = (await w.request('xpc_signTransaction', [{ transactionHex: hex0x(unsignedBytes), chainAlias: 'P' }])) as { signedTransactionHex: string; txID: string; complete: boolean };
    expect(partial.complete).toBe(false);
    const summary = approvalFor(unsignedBytes, before, 'DisableL1ValidatorTx', 'sign', false);
    expect(summary.view.action).toBe(`Disable L1 validator ${validationID}; its remaining fee balance goes to its remaining balance owner`);
    expect(summary.view.authorization).toMatchObject({ by: 'L1 validator deactivation owner', of: validationID, sigIndices: [0], owners: { addresses: [pAddr(siteKey.shortId)], threshold: 1 }, signers: [pAddr(siteKey.shortId)] });
    const walletSigned = decodeSignedTx(fromHex(partial.signedTransactionHex.slice(2)), 'pvm');
    expect(txId(fromHex(partial.signedTransactionHex.slice(2)))).toBe(partial.txID);
    expect(walletSigned.credentials.at(-1)!.signatures).toEqual([EMPTY_SIGNATURE]);
    const credentials = walletSigned.credentials.map((c, i, all) => (i === all.length - 1 ? { ...c, signatures: [signDigest(siteKey.secret, hashForSigning(unsignedBytes))] } : c));
    const complete = encodeSignedTx({ unsigned: walletSigned.unsigned, credentials });
    const { client } = await localNetwork();
    const disabledID = await client.platform.issueTx(complete);
    expect(disabledID).toBe(txId(complete));
    const last = credentials.length - 1;
    const { tx } = await expectOnChain(disabledID, unsignedBytes, (c) => (c === last ? siteKey.shortId : me));
    expectFeeShownIsBurned(summary, disable, tx);
    expect(await pRpc<L1Validator>('platform.getL1Validator', { validationID })).toMatchObject({ balance: '0' });

    // Ownership may move after the conversion too (the new owner is the site's key).
    const transferred = await siteSends(
      pvm.newTransferSubnetOwnershipTx({ ...(await common()), subnetId: subnetID, subnetAuth: [0], subnetOwners: [siteKey.shortId], threshold: 1 }, ajs),
      'TransferSubnetOwnershipTx',
    );
    expect(transferred.summary.view.action).toBe(`Transfer ownership of subnet ${subnetID} to ${pAddr(siteKey.shortId)}`);
    expect(transferred.summary.view.authorization).toMatchObject({ by: 'subnet owner', of: subnetID, signers: [pAddress] });
    expect(await pRpc('platform.getSubnet', { subnetID })).toMatchObject({ controlKeys: [pAddr(siteKey.shortId)], threshold: '1' });

    // After the transfer the owner shown and signed for is the current one (the site's key): the
    // wallet's key, the creation-time owner, no longer signs that slot.
    const again = pvm.newTransferSubnetOwnershipTx({ ...(await common()), subnetId: subnetID, subnetAuth: [0], subnetOwners: [me], threshold: 1 }, ajs);
    const shownBefore = w.shown.length;
    const back = (await w.request('xpc_signTransaction', [{ transactionHex: hex0x(again.toBytes()), chainAlias: 'P' }])) as { signedTransactionHex: string; complete: boolean };
    expect(back.complete).toBe(false);
    const shownAgain = approvalFor(again.toBytes(), shownBefore, 'TransferSubnetOwnershipTx', 'sign', false);
    expect(shownAgain.view.authorization).toMatchObject({ by: 'subnet owner', signers: [pAddr(siteKey.shortId)] });
    expect(decodeSignedTx(fromHex(back.signedTransactionHex.slice(2)), 'pvm').credentials.at(-1)!.signatures).toEqual([EMPTY_SIGNATURE]);
  });

  it('26 AddPermissionlessDelegatorTx to a genesis validator, 25 AddPermissionlessValidatorTx for a fresh NodeID with its BLS key', async () => {
    const start = await nowOnP();
    const end = start + SHORT_STAKE;
    delegation = await siteSends(
      pvm.newAddPermissionlessDelegatorTx({ ...(await common()), nodeId: GENESIS_VALIDATOR, start, end, weight: 25n * AVAX, subnetId: PRIMARY, rewardAddresses: [rewardKey.shortId] }, ajs),
      'AddPermissionlessDelegatorTx',
    );
    const delegatorTxID = delegation.txID;
    expect(delegation.summary.view.action).toBe(`Delegate 25 AVAX to ${GENESIS_VALIDATOR} on the Primary Network until ${timeText(end)}`);
    expect(delegation.summary.view.details).toEqual(
      expect.arrayContaining([detail('Node', GENESIS_VALIDATOR), detail('Network', 'the Primary Network'), detail('Until', timeText(end)), detail('Rewards go to', pAddr(rewardKey.shortId))]),
    );
    expect(delegation.summary.view.outputs.filter((o) => o.staked).map((o) => o.amount)).toEqual([(25n * AVAX).toString()]);
    const [genesisValidator] = await currentValidators([GENESIS_VALIDATOR]);
    expect(genesisValidator?.delegationFee).toBe('6.2500');
    // What the page's choice of validator means: its fee proven by its own staking tx, its end, its uptime.
    expect(delegation.summary.view.details).toEqual(
      expect.arrayContaining([detail('Validator keeps', '6.25% of the reward (proven by its staking transaction)'), detail('Validator validates until', timeText(BigInt(genesisValidator!.endTime)))]),
    );
    expect(delegation.summary.view.details?.find((d) => d.label === 'Validator uptime')?.value).toMatch(/^\d+(\.\d+)?%, as the node reports it(; not connected now)?$/);
    expect(delegation.summary.view.details?.map((d) => d.label)).not.toContain('Ends after the validator');
    // To a node that validates nothing: said before anything is signed.
    const nowhere = pvm.newAddPermissionlessDelegatorTx({ ...(await common()), nodeId: formatNodeId(freshNodeId()), start, end, weight: 25n * AVAX, subnetId: PRIMARY, rewardAddresses: [rewardKey.shortId] }, ajs);
    await w.request('xpc_signTransaction', [{ transactionHex: hex0x(nowhere.toBytes()), chainAlias: 'P' }]);
    expect((w.shown.at(-1) as TxSummary).view.details).toContainEqual(detail('Validator', 'not validating now: the chain refuses a delegation to it'));
    expect(genesisValidator?.delegators).toContainEqual(
      expect.objectContaining({ txID: delegatorTxID, weight: (25n * AVAX).toString(), endTime: end.toString(), rewardOwner: expect.objectContaining({ addresses: [pAddr(rewardKey.shortId)] }) }),
    );

    const nodeID = formatNodeId(freshNodeId());
    const bls = freshBlsKey();
    const validatorEnd = (await nowOnP()) + SHORT_STAKE;
    validation = await siteSends(
      pvm.newAddPermissionlessValidatorTx(
        {
          ...(await common()),
          nodeId: nodeID,
          start: validatorEnd - SHORT_STAKE,
          end: validatorEnd,
          weight: 2_000n * AVAX,
          subnetId: PRIMARY,
          shares: 62_500,
          rewardAddresses: [rewardKey.shortId],
          delegatorRewardsOwner: [feeKey.shortId],
          publicKey: bls.publicKey,
          signature: bls.proofOfPossession,
        },
        ajs,
      ),
      'AddPermissionlessValidatorTx',
    );
    const view = validation.summary.view;
    expect(view.action).toBe(`Validate the Primary Network with ${nodeID} until ${timeText(validatorEnd)}, staking 2,000 AVAX`);
    expect(view.details).toEqual(
      expect.arrayContaining([
        detail('Node', nodeID),
        detail('Delegation fee', '6.25%'),
        detail('BLS key', `${hex0x(bls.publicKey)} (with proof of possession)`),
        detail('Validation rewards go to', pAddr(rewardKey.shortId)),
        detail('Delegation fees go to', pAddr(feeKey.shortId)),
      ]),
    );
    expect(view.outputs.filter((o) => o.staked).reduce((s, o) => s + BigInt(o.amount!), 0n)).toBe(2_000n * AVAX);
    expect(await currentValidators([nodeID])).toEqual([
      expect.objectContaining({ txID: validation.txID, nodeID, weight: (2_000n * AVAX).toString(), endTime: validatorEnd.toString(), delegationFee: '6.2500', signer: expect.objectContaining({ publicKey: hex0x(bls.publicKey) }) }),
    ]);
  });

  it('history: the reward txs the chain issues when stakes end (20 for the delegation and the validator, 42 for the auto-renewed cycle) decode from the node, and their UTXOs are where the IDs say', async () => {
    const { ctx, client } = await localNetwork();
    const rewardUtxos = async () => (await client.getAllUtxos('P', [pAddr(rewardKey.shortId)])).utxos;
    /** Where a staker's reward lands: the staker tx's ID, at the index after its outputs and stake (wire §6.5). */
    const rewardIndex = (sent: Sent) => sent.tx.outputs.length + stakeOf(sent.tx).length;

    for (const sent of [delegation, validation]) {
      const rewardTxID = rewardValidatorTxId(sent.txID);
      // Committed when rewarded. Aborted when not: the fresh NodeID never ran, and the genesis
      // validators are never connected, so their uptime soon falls below the 90% Helicon asks.
      const status = await decided(rewardTxID, 60_000);
      expect(['Committed', 'Aborted']).toContain(status);
      const bytes = await nodeTxBytes(rewardTxID);
      expect(txId(bytes)).toBe(rewardTxID);
      const decoded = decodeChainTx(bytes, 'pvm');
      expect(decoded).toMatchObject({ unsigned: { vm: 'pvm', kind: 'RewardValidatorTx', txID: parseId(sent.txID) }, credentials: [] });
      expect(toHex(encodeSignedTx(decoded))).toBe(toHex(bytes));
      expect(describeTx(decoded.unsigned, ctx, []).action).toBe(`The staking of ${sent.txID} ended: its stake is returned, and rewards paid if earned (issued by the chain)`);
      const paid = (await rewardUtxos()).some((u) => cb58Encode(u.txID) === sent.txID && u.outputIndex === rewardIndex(sent));
      expect(paid, `reward of ${sent.summary.view.kind} paid`).toBe(status === 'Committed');
    }

    // The node's own validator was up all cycle: rewarded, and (stopped by the 41) gone.
    const rewardTxID = rewardAutoRenewedValidatorTxId(autoRenewedTxID, cycleEnd);
    expect(await decided(rewardTxID, 60_000)).toBe('Committed');
    const bytes = await nodeTxBytes(rewardTxID);
    expect(txId(bytes)).toBe(rewardTxID);
    const decoded = decodeChainTx(bytes, 'pvm');
    expect(decoded).toMatchObject({ unsigned: { vm: 'pvm', kind: 'RewardAutoRenewedValidatorTx', txID: parseId(autoRenewedTxID), timestamp: cycleEnd }, credentials: [] });
    expect(toHex(encodeSignedTx(decoded))).toBe(toHex(bytes));
    expect(describeTx(decoded.unsigned, ctx, []).action).toBe(`A cycle of the auto-renewed validator added by ${autoRenewedTxID} ended at ${timeText(cycleEnd)}: rewards paid or restaked (issued by the chain)`);
    expect(await currentValidators([ownNodeID])).toEqual([]);
    // Its validation reward carries the reward tx's ID, from index 0; the stake comes back after the outputs.
    expect((await rewardUtxos()).some((u) => cb58Encode(u.txID) === rewardTxID && u.outputIndex === 0)).toBe(true);
    const back = (await client.getAllUtxos('P', [pAddress])).utxos.filter((u) => cb58Encode(u.txID) === autoRenewedTxID && u.outputIndex >= autoRenewed.tx.outputs.length);
    expect(back.map((u) => u.outputIndex)).toEqual([autoRenewed.tx.outputs.length]);
    expect(back.map((u) => (u.output.kind === 'TransferOutput' ? u.output.amount : 0n))).toEqual([2_000n * AVAX]);
  });
});
