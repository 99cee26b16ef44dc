// What the staking UI tests share (chromium-staking, firefox-staking): the amounts, funding the new
// wallet's P address straight from the genesis key, and the checks made on the node and the CSV.
import { expect } from 'vitest';
import { parseAddress } from '../../src/core/encoding.js';
import { makeOwners } from '../../src/core/tx/context.js';
import type { AccountView } from '../../src/shared/messages.js';
import { AVAX, genesisEngine, localNetwork } from '../integration/fixture.js';
import { shortNode } from '../../src/popup/screens/StakeValidators.js';
import type { Call } from './harness.js';
import { GENESIS_VALIDATOR } from './staking.js';

export { GENESIS_VALIDATOR };
/** The name of the genesis validator's "Delegate to …" button. */
export const DELEGATE_BUTTON = `Delegate to ${shortNode(GENESIS_VALIDATOR)}`;
/** What the new wallet's P address gets, nAVAX: room for the delegation and its fee. */
export const P_FUNDING = 30n * AVAX + 123_456_789n;
/** The delegation: the test network's minimum, 25 AVAX (typed as "25"). */
export const DELEGATION = 25n * AVAX;
/** Below the minimum: refused in words, nothing sent. */
export const TOO_LITTLE = '1';
export const TOO_LITTLE_SENTENCE = 'A delegation needs at least 25 AVAX; this one is 1 AVAX.';

/** Sends P_FUNDING on the P-Chain from the genesis key to the account's P address. */
export async function fundP(account: AccountView): Promise<void> {
  const genesis = await genesisEngine();
  await genesis.issueAndWait(await genesis.buildPSend(P_FUNDING, makeOwners([parseAddress(account.pAddress).bytes])));
}

/** The wallet issued no staking tx (activity has no delegation). */
export async function expectNoStakingSent(call: Call): Promise<void> {
  const { items } = await call('activity.list', {});
  expect(items.filter((i) => i.kind === 'delegate' || i.kind === 'validate')).toEqual([]);
}

/** The delegation the wallet lists is committed on the node, to the genesis validator, for DELEGATION. */
export async function expectDelegationCommitted(call: Call): Promise<string> {
  const mine = await call('staking.mine', {});
  const stake = mine.stakes.find((s) => s.kind === 'delegation');
  expect(stake).toMatchObject({ nodeID: GENESIS_VALIDATOR, amount: DELEGATION.toString(), byWallet: true });
  const { client } = await localNetwork();
  expect((await client.platform.getTxStatus(stake!.txID)).status).toBe('Committed');
  return stake!.txID;
}

/** The exported CSV: its header, and the delegation's line (kind, exact amount). */
export function expectCsv(csv: string, delegationTxID: string): void {
  const lines = csv.split('\r\n');
  expect(lines[0]).toBe('date,txID,kind,amount,asset,fee');
  const line = lines.find((l) => l.includes(delegationTxID));
  expect(line, 'the delegation in the CSV').toMatch(/,delegate,25,AVAX,/);
}
