// The gas limit the wallet signs for a site's call has room over the node's estimate: on the real
// Helicon node, a call whose cost grew between its estimate and its run (another account's call ran
// while the user read the approval) runs out of gas with the bare estimate, and with the room it
// runs, charged what it used.
import { createPublicClient, createWalletClient, defineChain, encodeFunctionData, getAddress, http, type Abi, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import contracts from '../fixtures/contracts.json' with { type: 'json' };
import type { Site } from '../../src/background/provider.js';
import { memoryStores } from '../../src/background/storage.js';
import { toHex } from '../../src/core/bytes.js';
import { generateMnemonic } from '../../src/core/keys.js';
import type { AccountView } from '../../src/shared/messages.js';
import { PROVIDER_CHANNEL, type ProviderResponse } from '../../src/shared/provider-protocol.js';
import { AVAX, GENESIS_KEY, genesisEngine, WEI_PER_NAVAX } from './fixture.js';
import { PASSWORD, type ProviderBackground, providerBackground } from './wallet-fixture.js';

const SITE: Site = { origin: 'https://counter.example' };
const chain = defineChain({ id: 43112, name: 'Test C-Chain', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [] } } });
const costlier = contracts.contracts.TestCostlier;
const TOUCH = encodeFunctionData({ abi: costlier.abi as Abi, functionName: 'touch' });

describe("room over the node's gas estimate", () => {
  let bg: ProviderBackground;
  let account: AccountView;
  let n = 0;
  const reader = () => createPublicClient({ chain, transport: http(`${inject('nodeUrl')}/ext/bc/C/rpc`) });
  const genesis = () => createWalletClient({ chain, transport: http(`${inject('nodeUrl')}/ext/bc/C/rpc`), account: privateKeyToAccount(`0x${toHex(GENESIS_KEY.secret)}`) });

  const call = (method: string, params?: unknown): Promise<ProviderResponse> =>
    bg.provider.handle({ channel: PROVIDER_CHANNEL, requestId: `g${++n}`, method, ...(params !== undefined ? { params } : {}) }, SITE);

  /** Waits for the receipt and for the node's executed state to hold its block (Helicon executes a moment later). */
  async function executed(hash: Hex) {
    const receipt = await reader().waitForTransactionReceipt({ hash });
    for (let i = 0; i < 200 && (await reader().getBlockNumber({ cacheTime: 0 })) < receipt.blockNumber; i++) await new Promise((r) => setTimeout(r, 50));
    return receipt;
  }

  /** The one approval waiting for the user, once it is there. */
  async function waitingApproval() {
    for (let i = 0; i < 200 && (await bg.approvals.list()).length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    const list = await bg.approvals.list();
    expect(list).toHaveLength(1);
    return list[0]!;
  }

  /** A fresh TestCostlier: its first touch() is the cheap one. */
  async function deployCostlier(): Promise<Hex> {
    const deployed = await executed(await genesis().deployContract({ abi: costlier.abi as Abi, bytecode: costlier.bytecode as Hex, gas: 300_000n }));
    return getAddress(deployed.contractAddress!);
  }

  /**
   * The site's touch() of `contract` (with the site's own `gas`, if given) waits for the user while
   * another account's touch() runs; then the user approves. Its approval and receipt.
   */
  async function touchWhileAnotherRuns(contract: Hex, gas?: bigint) {
    const sending = call('eth_sendTransaction', [{ from: account.cAddress, to: contract, data: TOUCH, ...(gas ? { gas: `0x${gas.toString(16)}` } : {}) }]);
    const pending = await waitingApproval();
    const summary = pending.summary as { gasLimit: string; estimatedGasUse: string; expectedGas: string };
    expect((await executed(await genesis().sendTransaction({ to: contract, data: TOUCH, gas: 200_000n }))).status).toBe('success');
    await bg.approvals.decide(pending.id, true);
    const answer = await sending;
    if (!answer.ok) throw new Error(answer.error.message);
    return { summary, estimate: BigInt(summary.estimatedGasUse), receipt: await executed(answer.result as Hex) };
  }

  beforeAll(async () => {
    // The approval window is the test's: it decides when the user says yes.
    bg = await providerBackground(memoryStores(), { openApprovalWindow: () => undefined });
    await bg.wallet.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    const network = await bg.wallet.networks.networksAddCustom({ name: 'Test node', url: inject('nodeUrl') });
    account = (await bg.wallet.networks.networksSelect({ id: network.id })).account!;
    await (await genesisEngine()).sendC(account.cAddress, AVAX * WEI_PER_NAVAX);
    const connecting = call('eth_requestAccounts');
    await bg.approvals.decide((await waitingApproval()).id, true);
    expect((await connecting).ok).toBe(true);
  });

  it("signed with the bare estimate (a site's own limit, as ethers sets it), a call that costs more once another account's call ran meanwhile runs out of gas and is charged in full", async () => {
    const contract = await deployCostlier();
    const estimate = await reader().estimateGas({ account: account.cAddress as Hex, to: contract, data: TOUCH });
    const { summary, receipt } = await touchWhileAnotherRuns(contract, estimate);
    expect(summary.gasLimit).toBe(estimate.toString());
    expect(receipt.status).toBe('reverted');
    expect(receipt.gasUsed).toBe(estimate);
  });

  it('without a limit of the site\'s, the wallet signs 1.5× the estimate: the same call runs, and is charged the gas it used, not the room', async () => {
    const contract = await deployCostlier();
    const { summary, estimate, receipt } = await touchWhileAnotherRuns(contract);
    expect(BigInt(summary.gasLimit)).toBe((estimate * 3n) / 2n);
    // The room costs nothing: the approval's likely charge is the estimate itself.
    expect(summary.expectedGas).toBe(summary.estimatedGasUse);
    expect(receipt.status).toBe('success');
    // It needed more than the node estimated, and the receipt charges what it used (above half the limit, the floor).
    expect(receipt.gasUsed).toBeGreaterThan(estimate);
    expect(receipt.gasUsed).toBeLessThan(BigInt(summary.gasLimit));
    expect(await reader().readContract({ address: contract, abi: costlier.abi as Abi, functionName: 'calls' })).toBe(2n);
  });
});
