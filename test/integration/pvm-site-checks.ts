// What the P-Chain tx-type suite (pvm-types.test.ts) checks of each tx a site sends through the
// wallet: the node's validators and tx status read raw, the one approval shown, its fee burned, and
// the bytes the node stores (their ID, the approved bytes, every signature by the right key).
import { sha256 } from '@noble/hashes/sha2.js';
import { type Context, pvm, type UnsignedTx as AjsUnsignedTx, utils } from '@avalabs/avalanchejs';
import { expect } from 'vitest';
import { type Bytes, toHex } from '../../src/core/bytes.js';
import { decodeSignedTx, decodeUnsignedTx, encodeSignedTx, type PTx } from '../../src/core/codec/index.js';
import { cb58Encode } from '../../src/core/encoding.js';
import { type PFeeContext, pTxFee } from '../../src/core/fees.js';
import { hashForSigning, recoverSigner } from '../../src/core/keys.js';
import { localNetwork } from './fixture.js';
import { ajsUtxosOf, hex0x, nodeTxBytes, pRpc, type SiteWallet, type TxSummary } from './pvm-kit.js';

export interface Sent {
  txID: string;
  summary: TxSummary;
  tx: PTx;
  /** The signed bytes the node stores. */
  onChain: Bytes;
}

export interface CurrentValidator {
  txID: string;
  nodeID: string;
  startTime: string;
  endTime: string;
  weight: string;
  delegationFee?: string;
  signer?: { publicKey: string };
  validationRewardOwner?: { addresses: string[]; threshold: string };
  delegationRewardOwner?: { addresses: string[]; threshold: string };
  validatorAuthority?: { addresses: string[]; threshold: string };
  nextPeriod?: string;
  autoCompoundRewardShares?: string;
  delegators?: { txID: string; endTime: string; weight: string; rewardOwner?: { addresses: string[] } }[];
}

export async function currentValidators(nodeIDs: string[], subnetID?: string): Promise<CurrentValidator[]> {
  return (await pRpc<{ validators: CurrentValidator[] }>('platform.getCurrentValidators', { nodeIDs, ...(subnetID ? { subnetID } : {}) })).validators;
}

/** Polls platform.getTxStatus until the tx is decided; fails with the node's reason if it is dropped. */
export async function decided(txID: string, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await pRpc<{ status: string; reason?: string }>('platform.getTxStatus', { txID });
    if (r.status === 'Committed' || r.status === 'Aborted') return r.status;
    if (r.status === 'Dropped') throw new Error(`${txID} dropped: ${r.reason ?? 'no reason'}`);
    if (Date.now() > deadline) throw new Error(`${txID} still ${r.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const detail = (label: string, value: string) => ({ label, value });

/** What the suite's beforeAll set up, read when a check runs; `fee` is the node's, as last read. */
export interface SiteTxSuite {
  readonly w: SiteWallet;
  readonly ajs: Context.Context;
  readonly me: Bytes;
  readonly pAddress: string;
  fee: PFeeContext;
}

/** The suite's checks of a site's tx, over what `suite` holds when each runs. */
export function siteTxChecks(suite: SiteTxSuite) {
  /** The props every avalanchejs builder takes: the wallet's P UTXOs and the node's fee state. */
  async function common() {
    const { client, ctx } = await localNetwork();
    const feeState = await client.platform.getFeeState();
    suite.fee = { ...suite.fee, gasPriceNavax: feeState.price };
    return { feeState, fromAddressesBytes: [suite.me], changeAddressesBytes: [suite.me], utxos: await ajsUtxosOf(client, suite.pAddress, ctx) };
  }

  /** The approval the site's request produced: exactly one, for exactly these bytes. */
  function approvalFor(unsignedBytes: Bytes, shownBefore: number, kind: PTx['kind'], action: 'send' | 'sign', complete: boolean): TxSummary {
    expect(suite.w.shown.length, 'one approval per request').toBe(shownBefore + 1);
    const summary = suite.w.shown.at(-1) as TxSummary;
    expect(summary).toMatchObject({ kind: 'tx', chain: 'P', action, complete, unsignedHex: hex0x(unsignedBytes), view: { chain: 'P', kind, networkID: suite.ajs.networkID } });
    return summary;
  }

  /**
   * The fee the window shows is what the tx burns (inputs − outputs − stake − L1 balances, as
   * avalanchejs counts it) and is the ACP-103 fee of the tx at the price it was built for.
   */
  function expectFeeShownIsBurned(summary: TxSummary, unsigned: AjsUnsignedTx, tx: PTx): void {
    const ours = pTxFee(tx, suite.fee);
    expect(BigInt(summary.view.burned), 'fee shown').toBe(ours);
    expect(utils.getBurnedAmountByTx(unsigned.getTx() as Parameters<typeof utils.getBurnedAmountByTx>[0], suite.ajs).get(suite.ajs.avaxAssetID), 'burned (avalanchejs)').toBe(ours);
    expect(pvm.calculateFee(unsigned.getTx(), suite.ajs.platformFeeConfig.weights, suite.fee.gasPriceNavax), 'fee (avalanchejs)').toBe(ours);
  }

  /**
   * The node committed `txID`; the bytes it stores hash to that ID, decode here to the unsigned
   * bytes the user approved plus credentials, re-encode byte for byte, and every signature in
   * them is by `signers[credential]` (default: the wallet's key).
   */
  async function expectOnChain(txID: string, unsignedBytes: Bytes, signers: (c: number) => Bytes = () => suite.me): Promise<{ tx: PTx; onChain: Bytes }> {
    expect(await decided(txID)).toBe('Committed');
    const onChain = await nodeTxBytes(txID);
    expect(cb58Encode(sha256(onChain)), 'the stored bytes hash to the tx ID').toBe(txID);
    const decoded = decodeSignedTx(onChain, 'pvm');
    expect(toHex(onChain.slice(0, decoded.unsignedLength)), 'the approved bytes').toBe(toHex(unsignedBytes));
    expect(toHex(encodeSignedTx(decoded)), 're-encoded').toBe(toHex(onChain));
    const tx = decodeUnsignedTx(unsignedBytes, 'pvm') as PTx;
    expect(decoded.unsigned).toStrictEqual(tx);
    const digest = hashForSigning(unsignedBytes);
    decoded.credentials.forEach((cred, c) => {
      expect(cred.signatures.length).toBeGreaterThan(0);
      for (const sig of cred.signatures) expect(toHex(recoverSigner(digest, sig).shortId), `credential ${c}`).toBe(toHex(signers(c)));
    });
    return { tx, onChain };
  }

  /** The site sends a tx it built; the user approves; the wallet signs and issues it. */
  async function siteSends(unsigned: AjsUnsignedTx, kind: PTx['kind']): Promise<Sent> {
    const unsignedBytes = unsigned.toBytes();
    const before = suite.w.shown.length;
    const { txID } = (await suite.w.request('xpc_sendTransaction', [{ transactionHex: hex0x(unsignedBytes), chainAlias: 'P' }])) as { txID: string };
    const summary = approvalFor(unsignedBytes, before, kind, 'send', true);
    const { tx, onChain } = await expectOnChain(txID, unsignedBytes);
    expect(tx.kind).toBe(kind);
    expectFeeShownIsBurned(summary, unsigned, tx);
    return { txID, summary, tx, onChain };
  }

  return { common, approvalFor, expectFeeShownIsBurned, expectOnChain, siteSends };
}
