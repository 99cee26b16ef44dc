// A staking tx as a staking site builds it (funded from the genesis key on the account's P address,
// built with avalanchejs from the account's UTXOs, unsigned, as hex), what its approval must say,
// and what the wallet then keeps of it.
import { pvm, utils, Utxo as AjsUtxo } from '@avalabs/avalanchejs';
import { expect } from 'vitest';
import { toHex } from '../../src/core/bytes.js';
import { encodeUtxo } from '../../src/core/codec/codec.js';
import { cb58Encode, parseAddress } from '../../src/core/encoding.js';
import { makeOwners } from '../../src/core/tx/context.js';
import type { AccountView } from '../../src/shared/messages.js';
import { AVAX, genesisEngine, localNetwork } from '../integration/fixture.js';
import { avalanchejsContextOf } from '../unit/avalanchejs-context.js';
import type { ApprovalSnapshot } from './dapp.js';
import type { Call } from './harness.js';

/** A genesis validator with a 6.25% fee (another charges 100%: its delegators get nothing). */
export const GENESIS_VALIDATOR = 'NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5';

/** A delegation of `weight` nAVAX to GENESIS_VALIDATOR (or `nodeId`) for a minute, rewards to the account. */
export async function siteBuiltDelegation(account: AccountView, weight: bigint, nodeId = GENESIS_VALIDATOR): Promise<string> {
  const { ctx, client } = await localNetwork();
  const me = parseAddress(account.pAddress).bytes;
  const genesis = await genesisEngine();
  await genesis.issueAndWait(await genesis.buildPSend(weight + AVAX, makeOwners([me])));
  const { utxos } = await client.getAllUtxos('P', [account.pAddress]);
  const siteUtxos = utxos.map((u) => utils.getManagerForVM('PVM').unpack(encodeUtxo(u, 'pvm'), AjsUtxo));
  const start = BigInt(Math.floor(Date.parse(await client.platform.getTimestamp()) / 1000));
  const unsigned = pvm.newAddPermissionlessDelegatorTx(
    {
      feeState: await client.platform.getFeeState(),
      fromAddressesBytes: [me],
      changeAddressesBytes: [me],
      utxos: siteUtxos,
      nodeId,
      start,
      end: start + 60n,
      weight,
      subnetId: cb58Encode(new Uint8Array(32)),
      rewardAddresses: [me],
    },
    avalanchejsContextOf(ctx),
  );
  return `0x${toHex(unsigned.toBytes())}`;
}

/** The approval of that delegation says what is staked, for which node, until when, rewards to whom, and shows the exact bytes. */
export function expectDelegationApproval(shown: ApprovalSnapshot, account: AccountView, transactionHex: string): void {
  expect(shown.testids['tx-what']).toMatch(new RegExp(`^Delegate 25 AVAX to ${GENESIS_VALIDATOR} on the Primary Network until `));
  expect(shown.testids['tx-details']).toContain(account.pAddress);
  expect(shown.testids['outputs']).toContain('Staked');
  expect(shown.testids['exact-bytes']).toBe(transactionHex);
  // Before the bytes, what it does to this wallet: the stake is the account's and comes back, the
  // fee is burned, and every owner shown is labelled as this account's.
  expect(shown.testids['tx-impact']).toContain('What this does to your wallet');
  expect(shown.testids['tx-impact']).toMatch(/Staked, back to you when it ends\s*25 AVAX/);
  expect(shown.testids['tx-impact']).toContain('Burned');
  expect(shown.testids['tx-impact']).not.toContain('not this wallet');
  expect(shown.testids['owner-yours']).toBe(`Yours · ${account.name}, X/P address`);
}

/** Once sent, that delegation is the wallet's as its own stakes are: a delegation in Activity, in My stakes, counted as staked. */
export async function expectSiteStakeKept(call: Call, txID: string, weight: bigint): Promise<void> {
  const { items } = await call('activity.list', {});
  expect(items.find((i) => i.txID === txID)).toMatchObject({ kind: 'delegate', nodeID: GENESIS_VALIDATOR, amount: weight.toString() });
  const mine = await call('staking.mine', {});
  expect(mine.stakes.find((s) => s.txID === txID)).toMatchObject({ kind: 'delegation', state: 'active', nodeID: GENESIS_VALIDATOR, amount: weight.toString(), byWallet: true });
  expect(mine.totals.staked).toBe(weight.toString());
}
