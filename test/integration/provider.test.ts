// The provider's background handlers against the real local network: a site connects, signs and
// sends (EVM, X, and a cross-chain export through the X/P methods), with the user's approvals
// answered programmatically, and every rejection path answered with its EIP-1193 code.
import { avm, TransferableOutput as AjsTransferableOutput, utils, Utxo as AjsUtxo } from '@avalabs/avalanchejs';
import { eip191Signer, recoverAddressTyped, Transaction } from 'micro-eth-signer';
import { recoverAddress } from 'viem';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { requestKeyOf } from '../../src/background/provider.js';
import { memoryStores, type MemoryStores } from '../../src/background/storage.js';
import { fromHex, toHex } from '../../src/core/bytes.js';
import { decodeSignedTx, encodeUtxo } from '../../src/core/codec/codec.js';
import { cb58Decode, cb58Encode, formatAddress, formatNodeId, parseAddress } from '../../src/core/encoding.js';
import { signExternalTx } from '../../src/core/external-tx.js';
import { keyPairFromSecret, recoverSigner } from '../../src/core/keys.js';
import { avalancheMessageSigner } from '../../src/core/message.js';
import { keychainOf } from '../../src/core/tx/sign.js';
import { makeOwners } from '../../src/core/tx/context.js';
import type { AccountView } from '../../src/shared/messages.js';
import { avalanchejsContextOf } from '../unit/avalanchejs-context.js';
import { GENESIS_VALIDATOR, siteBuiltDelegation } from '../e2e/staking.js';
import { AVAX, genesisEngine, localNetwork } from './fixture.js';
import { approveAll, type Background, call, fails, fundedAccount, lastSummary, ok, PASSWORD, SITE, siteBackground, type User } from './provider-site.js';

/** Added to the provider's clock: a test can let the cooldown after a closed window pass. */
let clockSkewMs = 0;

/** The background as a (re)started worker builds it, over storage that survives, on the clock above. */
const startBackground = (stores: MemoryStores, user: User): Promise<Background> => siteBackground(stores, user, () => Date.now() + clockSkewMs);

describe('the provider against the real node', () => {
  let bg: Background;
  let account: AccountView;
  const net = localNetwork();

  beforeAll(async () => {
    bg = await startBackground(memoryStores(), approveAll());
    account = await fundedAccount(bg);
  });

  it('answers the chain, hides accounts until the user connects, and connects on approval', async () => {
    const { identity } = await net;
    expect(await ok(bg, 'eth_chainId')).toBe(`0x${identity.evmChainID.toString(16)}`);
    expect(await ok(bg, 'net_version')).toBe(String(identity.evmChainID));
    expect(await ok(bg, 'eth_accounts')).toEqual([]);
    expect(await ok(bg, 'eth_coinbase')).toBeNull();
    expect(await ok(bg, 'wallet_getPermissions')).toEqual([]);
    await fails(bg, 'personal_sign', ['0x68656c6c6f', account.cAddress], 4100);
    await fails(bg, 'xpc_getAddresses', [], 4100);

    bg.user.answer = () => false;
    await fails(bg, 'eth_requestAccounts', [], 4001);
    expect(await ok(bg, 'eth_accounts')).toEqual([]);

    bg.user.answer = () => true;
    expect(await ok(bg, 'eth_requestAccounts')).toEqual([account.cAddress]);
    expect(lastSummary(bg)).toEqual({ kind: 'connect', accountName: account.name, accounts: [account.cAddress, account.xAddress, account.pAddress, account.cBech32Address] });
    expect(bg.notified).toBeGreaterThan(0);
    expect(await ok(bg, 'eth_accounts')).toEqual([account.cAddress]);
    expect(await ok(bg, 'eth_coinbase')).toBe(account.cAddress);
    const [permission] = (await ok(bg, 'wallet_getPermissions')) as { parentCapability: string; invoker: string; caveats: unknown[] }[];
    expect(permission).toMatchObject({ parentCapability: 'eth_accounts', invoker: SITE.origin, caveats: [{ type: 'restrictReturnedAccounts', value: [account.cAddress] }] });
    // Already connected: no second approval.
    const asked = bg.user.seen.length;
    expect(await ok(bg, 'eth_requestAccounts')).toEqual([account.cAddress]);
    expect(bg.user.seen.length).toBe(asked);
    // Another origin, and a frame of another origin inside this one, are not connected.
    expect(await ok(bg, 'eth_accounts', [], { origin: 'https://other.example' })).toEqual([]);
    expect(await ok(bg, 'eth_accounts', [], { origin: SITE.origin, frameOrigin: 'https://ads.example' })).toEqual([]);
    expect(await ok(bg, 'xpc_getAddresses')).toEqual({ X: account.xAddress, P: account.pAddress, C: account.cAddress, CBech32: account.cBech32Address });
  });

  it('signs personal messages and EIP-712 typed data the user approved, with the connected key', async () => {
    const signature = (await ok(bg, 'personal_sign', ['0x48656c6c6f2c20646170700a', account.cAddress])) as string;
    expect(eip191Signer.recoverAddress(signature, new TextEncoder().encode('Hello, dapp\n'))).toBe(account.cAddress);
    // personal_ecRecover gives the signer back, with no approval.
    const asked = bg.user.seen.length;
    expect(await ok(bg, 'personal_ecRecover', ['0x48656c6c6f2c20646170700a', signature])).toBe(account.cAddress);
    expect(await ok(bg, 'personal_ecRecover', ['Hello, dapp\n', signature])).toBe(account.cAddress);
    expect(bg.user.seen.length).toBe(asked);
    const personal = lastSummary(bg);
    expect(personal).toMatchObject({ kind: 'sign-message', format: 'personal', encoding: 'text', message: 'Hello, dapp\n', bytesHex: '0x48656c6c6f2c20646170700a', signer: account.cAddress });
    // The hash the window showed is the one the signature covers (viem recovers the signer from it).
    if (personal.kind !== 'sign-message') throw new Error(personal.kind);
    expect(await recoverAddress({ hash: personal.digestHex as `0x${string}`, signature: signature as `0x${string}` })).toBe(account.cAddress);

    const { identity } = await net;
    const typed = {
      types: {
        EIP712Domain: [{ name: 'name', type: 'string' }, { name: 'chainId', type: 'uint256' }],
        Order: [{ name: 'maker', type: 'address' }, { name: 'amount', type: 'uint256' }],
      },
      primaryType: 'Order',
      domain: { name: 'Test Exchange', chainId: identity.evmChainID },
      message: { maker: account.cAddress, amount: '1000' },
    };
    const typedSig = (await ok(bg, 'eth_signTypedData_v4', [account.cAddress, JSON.stringify(typed)])) as string;
    expect(recoverAddressTyped(typedSig, typed as unknown as Parameters<typeof recoverAddressTyped>[1])).toBe(account.cAddress);
    expect(lastSummary(bg)).toMatchObject({ kind: 'sign-typed-data', primaryType: 'Order', signer: account.cAddress, chainId: String(identity.evmChainID), typesJson: JSON.stringify(typed.types, null, 2) });
    // v3 (no lists, every field given) is the same approval and the same signature.
    const seenBeforeV3 = bg.user.seen.length;
    expect(await ok(bg, 'eth_signTypedData_v3', [account.cAddress, JSON.stringify(typed)])).toBe(typedSig);
    expect(bg.user.seen.length).toBe(seenBeforeV3 + 1);
    expect(lastSummary(bg)).toMatchObject({ kind: 'sign-typed-data', primaryType: 'Order', signer: account.cAddress });

    // A domain for another chain, an address the site is not connected to, a rejection.
    const e = await fails(bg, 'eth_signTypedData_v4', [account.cAddress, JSON.stringify({ ...typed, domain: { name: 'x', chainId: 1 } })], -32602);
    expect(e.message).toMatch(/domain\.chainId/);
    await fails(bg, 'personal_sign', ['0x00', '0x000000000000000000000000000000000000dEaD'], 4100);
    bg.user.answer = () => false;
    await fails(bg, 'personal_sign', ['0x01', account.cAddress], 4001);
    bg.user.answer = () => true;
  });

  it('sends an EVM transaction exactly as approved, and nothing when rejected', async () => {
    const to = '0x00000000000000000000000000000000000A11cE';
    const before = BigInt((await ok(bg, 'eth_getBalance', [to, 'latest'])) as string);
    const nonceBefore = (await ok(bg, 'eth_getTransactionCount', [account.cAddress, 'pending'])) as string;
    bg.user.answer = () => false;
    await fails(bg, 'eth_sendTransaction', [{ from: account.cAddress, to, value: '0x1' }], 4001);
    expect(await ok(bg, 'eth_getTransactionCount', [account.cAddress, 'pending'])).toBe(nonceBefore);

    bg.user.answer = () => true;
    // A node-side block filter, as ethers' BrowserProvider makes for its event listeners.
    const filter = (await ok(bg, 'eth_newBlockFilter', [])) as string;
    const value = 123_456_789_000_000_000n;
    const hash = (await ok(bg, 'eth_sendTransaction', [{ from: account.cAddress, to, value: `0x${value.toString(16)}` }])) as string;
    const summary = lastSummary(bg);
    expect(summary).toMatchObject({ kind: 'evm-tx', from: account.cAddress, to, valueWei: value.toString(), data: '0x', gasLimit: '21000', nonce: BigInt(nonceBefore).toString() });
    let receipt: { status: string; blockHash: string } | null = null;
    for (let i = 0; i < 100 && !receipt; i++) {
      receipt = (await ok(bg, 'eth_getTransactionReceipt', [hash])) as { status: string; blockHash: string } | null;
      if (!receipt) await new Promise((r) => setTimeout(r, 100));
    }
    expect(receipt?.status).toBe('0x1');
    expect((await ok(bg, 'eth_getFilterChanges', [filter])) as string[]).toContain(receipt?.blockHash);
    expect(await ok(bg, 'eth_uninstallFilter', [filter])).toBe(true);
    expect(BigInt((await ok(bg, 'eth_getBalance', [to, 'latest'])) as string) - before).toBe(value);
    expect((await bg.wallet.balances.activityList()).items[0]).toMatchObject({ txID: hash, chain: 'C', kind: 'send', amount: value.toString() });
    // The bytes the approval showed are the signed tx on chain, less its signature.
    if (summary.kind !== 'evm-tx') throw new Error(summary.kind);
    const { client } = await net;
    const onChain = Transaction.fromHex((await client.eth.ethCall('eth_getRawTransactionByHash', [hash])) as string);
    expect(onChain.hash).toBe(hash);
    expect(onChain.toHex({ includeSignature: false })).toBe(summary.unsignedHex);
    expect(onChain.recoverSender().address.toLowerCase()).toBe(account.cAddress.toLowerCase());

    // Helicon charges at least half the gas limit: a site's oversized limit shows as the likely charge.
    const padded = (await ok(bg, 'eth_sendTransaction', [{ from: account.cAddress, to, value: '0x1', gas: '0x186a0' }])) as string;
    expect(lastSummary(bg)).toMatchObject({ kind: 'evm-tx', gasLimit: '100000', estimatedGasUse: '21000', expectedGas: '50000' });
    const { receipt: paddedReceipt } = await client.waitForTx('C', padded);
    expect(paddedReceipt?.gasUsed).toBe(50_000n);
    // Activity lists a site's tx with the most it can cost, then, once settled, what its receipt charged.
    const paddedSummary = lastSummary(bg);
    if (paddedSummary.kind !== 'evm-tx') throw new Error(paddedSummary.kind);
    const listed = async () => (await bg.wallet.balances.activityList()).items.find((i) => i.txID === padded);
    expect((await listed())?.fee).toBe((100_000n * BigInt(paddedSummary.maxFeePerGas)).toString());
    await bg.wallet.balances.balancesRefresh();
    expect(await listed()).toMatchObject({ status: 'accepted', fee: (paddedReceipt!.gasUsed * paddedReceipt!.effectiveGasPrice!).toString() });

    // Helicon's gas-per-byte floor: a calldata-heavy call with the site's tight limit (the node's
    // own estimate) is signed with the least limit a mempool admits for its size, and runs. (Zero
    // bytes: 4 gas each to run, so even this node's smaller blocks put the floor above the estimate.)
    const heavyData = `0x${'00'.repeat(5_000)}`;
    const tight = await client.eth.estimateGas({ from: account.cAddress, to, value: '0x1', data: heavyData });
    const heavy = (await ok(bg, 'eth_sendTransaction', [{ from: account.cAddress, to, value: '0x1', data: heavyData, gas: `0x${tight.toString(16)}` }])) as string;
    const heavySummary = lastSummary(bg);
    if (heavySummary.kind !== 'evm-tx') throw new Error(heavySummary.kind);
    const { receipt: heavyReceipt } = await client.waitForTx('C', heavy);
    expect(heavyReceipt?.status).toBe(1n);
    const heavyRaw = fromHex(((await client.eth.ethCall('eth_getRawTransactionByHash', [heavy])) as string).slice(2));
    const blockGasLimit = (await client.eth.getBlockByNumber('latest'))!.gasLimit;
    expect(BigInt(heavySummary.gasLimit)).toBeGreaterThan(tight);
    expect(BigInt(heavyRaw.length) * blockGasLimit).toBeLessThanOrEqual(BigInt(heavySummary.gasLimit) * 1_572_864n);

    // Bad params name their field; unknown methods are 4200; a tx for another chain is refused.
    const bad = await fails(bg, 'eth_sendTransaction', [{ from: account.cAddress, to: '0x1234', value: '0x1' }], -32602);
    expect(bad.message).toMatch(/params\[0\]\.to/);
    expect((await fails(bg, 'eth_sendTransaction', [{ from: account.cAddress, to, value: '0x' }], -32602)).message).toMatch(/params\[0\]\.value/);
    expect((await fails(bg, 'eth_sendTransaction', [{ from: account.cAddress, to, value: `0x1${'0'.repeat(64)}` }], -32602)).message).toMatch(/params\[0\]\.value/);
    await fails(bg, 'eth_sendTransaction', [{ from: account.cAddress, to, gas: '0x010000000000000000' }], -32602);
    // Leading zeros, as some libraries' toHexString writes them (MetaMask takes them): the amount
    // approved is the amount signed and sent.
    const beforeZeros = BigInt((await ok(bg, 'eth_getBalance', [to, 'latest'])) as string);
    const zeros = (await ok(bg, 'eth_sendTransaction', [{ from: account.cAddress, to, value: '0x016345785d8a0000', gas: '0x05208' }])) as string;
    const zerosSummary = lastSummary(bg);
    expect(zerosSummary).toMatchObject({ kind: 'evm-tx', valueWei: '100000000000000000', gasLimit: '21000' });
    if (zerosSummary.kind !== 'evm-tx') throw new Error(zerosSummary.kind);
    await client.waitForTx('C', zeros);
    expect(BigInt((await ok(bg, 'eth_getBalance', [to, 'latest'])) as string) - beforeZeros).toBe(10n ** 17n);
    const zerosOnChain = Transaction.fromHex((await client.eth.ethCall('eth_getRawTransactionByHash', [zeros])) as string);
    expect(zerosOnChain.toHex({ includeSignature: false })).toBe(zerosSummary.unsignedHex);
    await fails(bg, 'eth_sendTransaction', [{ from: account.cAddress, to, chainId: '0x1' }], 4901);
    await fails(bg, 'eth_sign', [account.cAddress, '0x00'], 4200);
    await fails(bg, 'eth_chainId', ['extra'], -32602);
  });

  it('an EVM tx approved after the wallet switched networks is refused (4901) and nothing is signed, even where both networks share the EVM chain ID', async () => {
    // A second network on the same node: the same EVM chain ID, the exact case where a tx shown for
    // one network would run on the other.
    const first = (await bg.wallet.accounts.walletStatus()).network.id;
    const second = await bg.wallet.networks.networksAddCustom({ name: 'Same node again', url: inject('nodeUrl') });
    const nonceBefore = (await ok(bg, 'eth_getTransactionCount', [account.cAddress, 'pending'])) as string;
    bg.user.answer = () => 'wait';
    try {
      const answer = call(bg, 'eth_sendTransaction', [{ from: account.cAddress, to: '0x00000000000000000000000000000000000A11cE', value: '0x1' }]);
      let pending = (await bg.approvals.list())[0];
      for (let i = 0; !pending && i < 100; i++) {
        await new Promise((r) => setTimeout(r, 20));
        pending = (await bg.approvals.list())[0];
      }
      await bg.wallet.networks.networksSelect({ id: second.id });
      await bg.approvals.decide(pending!.id, true);
      const refused = await answer;
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(refused.error).toMatchObject({ code: 4901, message: expect.stringContaining('Same node again') });
      expect(await ok(bg, 'eth_getTransactionCount', [account.cAddress, 'pending'])).toBe(nonceBefore);
    } finally {
      await bg.wallet.networks.networksSelect({ id: first });
      await bg.wallet.networks.networksRemove({ id: second.id });
      bg.user.answer = () => true;
    }
  });

  it("an EVM tx approved after the wallet's own send took the nonce it was shown with is refused, and nothing is sent", async () => {
    const { client } = await net;
    const to = '0x00000000000000000000000000000000000A11cE';
    bg.user.answer = () => 'wait';
    try {
      const answer = call(bg, 'eth_sendTransaction', [{ from: account.cAddress, to, value: '0x1' }]);
      let pending = (await bg.approvals.list())[0];
      for (let i = 0; !pending && i < 100; i++) {
        await new Promise((r) => setTimeout(r, 20));
        pending = (await bg.approvals.list())[0];
      }
      // While the approval waits, a send from the popup takes the nonce it shows.
      const est = await bg.wallet.sends.sendEstimate({ chain: 'C', to, amountWei: '1' });
      await client.waitForTx('C', (await bg.wallet.sends.sendC({ to, amountWei: '1', maxFeeWei: est.fee })).txHash);
      const nonceAfter = (await ok(bg, 'eth_getTransactionCount', [account.cAddress, 'pending'])) as string;
      expect(BigInt(nonceAfter)).toBe(BigInt((pending!.summary as { nonce: string }).nonce) + 1n);
      await bg.approvals.decide(pending!.id, true);
      const refused = await answer;
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(refused.error.message).toMatch(/went out since this one was approved.*nothing was sent: ask again/);
      expect(await ok(bg, 'eth_getTransactionCount', [account.cAddress, 'pending'])).toBe(nonceAfter);
    } finally {
      bg.user.answer = () => true;
    }
  });

  it('signs and sends an X-Chain tx a site built with avalanchejs, and refuses one for another network', async () => {
    const { ctx, client } = await net;
    const ajs = avalanchejsContextOf(ctx);
    const mine = parseAddress(account.xAddress).bytes;
    const bob = keyPairFromSecret(new Uint8Array(32).fill(9));
    const { utxos } = await client.getAllUtxos('X', [account.xAddress]);
    const siteUtxos = utxos.map((u) => utils.getManagerForVM('AVM').unpack(encodeUtxo(u, 'avm'), AjsUtxo));
    const unsigned = avm.newBaseTx(ajs, [mine], siteUtxos, [AjsTransferableOutput.fromNative(ajs.avaxAssetID, 2n * AVAX, [bob.shortId])], { changeAddresses: [mine] });
    const transactionHex = `0x${toHex(unsigned.toBytes())}`;

    const sent = (await ok(bg, 'xpc_sendTransaction', [{ transactionHex, chainAlias: 'X' }])) as { txID: string };
    const summary = lastSummary(bg);
    if (summary.kind !== 'tx') throw new Error(summary.kind);
    expect(summary).toMatchObject({ chain: 'X', action: 'send', complete: true, unsignedHex: transactionHex });
    const bobX = formatAddress('X', ctx.hrp, bob.shortId);
    expect(summary.view.outputs.some((o) => o.amount === (2n * AVAX).toString() && o.owners?.addresses.includes(bobX))).toBe(true);
    expect(BigInt(summary.view.burned)).toBe(ctx.xTxFee);
    const outcome = await client.waitForTx('X', sent.txID, { timeoutMs: 30_000, pollMs: 100 });
    expect(outcome.accepted).toBe(true);
    const bobUtxos = await client.getAllUtxos('X', [bobX]);
    expect(bobUtxos.utxos.some((u) => cb58Encode(u.txID) === sent.txID)).toBe(true);

    // The same builder on network 1 (mainnet): refused before the user is asked.
    const asked = bg.user.seen.length;
    const foreign = avm.newBaseTx({ ...ajs, networkID: 1 }, [mine], siteUtxos, [AjsTransferableOutput.fromNative(ajs.avaxAssetID, 1n, [bob.shortId])], { changeAddresses: [mine] });
    const e = await fails(bg, 'xpc_sendTransaction', [{ transactionHex: `0x${toHex(foreign.toBytes())}`, chainAlias: 'X' }], 4901);
    expect(e.message).toMatch(/network ID 1/);
    expect(bg.user.seen.length).toBe(asked);
    // Malformed bytes and a wrong alias name their field.
    expect((await fails(bg, 'xpc_sendTransaction', [{ transactionHex: '0x0000dead', chainAlias: 'X' }], -32602)).message).toMatch(/./);
    expect((await fails(bg, 'xpc_sendTransaction', [{ transactionHex, chainAlias: 'Q' }], -32602)).message).toMatch(/chainAlias/);
  });

  it("takes Core's calling form: params as one bare object with Core's extra fields, for a P-Chain delegation and a sign", async () => {
    const { client } = await net;
    const transactionHex = await siteBuiltDelegation(account, 25n * AVAX);
    // As Core's own dApps call it: no array around the object, and fields the wallet has no use for.
    const coreForm = { transactionHex, chainAlias: 'P', externalIndices: [0], internalIndices: [], utxos: [], feeTolerance: 50 };
    const signed = (await ok(bg, 'avalanche_signTransaction', coreForm)) as { signedTransactionHex: string };
    expect(signed.signedTransactionHex).toMatch(/^0x[0-9a-f]+$/);
    expect(lastSummary(bg)).toMatchObject({ kind: 'tx', chain: 'P', action: 'sign' });
    const txID = (await ok(bg, 'avalanche_sendTransaction', coreForm)) as string;
    expect(lastSummary(bg)).toMatchObject({ kind: 'tx', chain: 'P', action: 'send', complete: true, unsignedHex: transactionHex });
    expect((await client.waitForTx('P', txID, { timeoutMs: 30_000, pollMs: 100 })).accepted).toBe(true);
    // Taken as a stake the wallet made: a delegation in Activity, followed in My stakes, counted as staked.
    const staked = (25n * AVAX).toString();
    expect((await bg.wallet.balances.activityList()).items.find((i) => i.txID === txID)).toMatchObject({ kind: 'delegate', nodeID: GENESIS_VALIDATOR, amount: staked });
    const mine = await bg.wallet.staking.stakingMine();
    expect(mine.stakes).toEqual([expect.objectContaining({ txID, kind: 'delegation', state: 'active', nodeID: GENESIS_VALIDATOR, amount: staked, byWallet: true, rewardOwner: expect.objectContaining({ addresses: [account.pAddress] }) })]);
    expect(mine.totals.staked).toBe(staked);
    // The wallet's own form takes the bare object too; a field of neither form is still refused by name.
    expect((await fails(bg, 'xpc_signTransaction', { transactionHex, chainAlias: 'P', extra: 1 }, -32602)).message).toMatch(/extra/);
    expect((await fails(bg, 'avalanche_sendTransaction', 'not an object', -32602)).message).toMatch(/params/);
  });

  it("a site's delegation the node refuses (no such validator) is failed in My stakes at once (the node says it dropped it), never counted as staked", async () => {
    const transactionHex = await siteBuiltDelegation(account, 25n * AVAX, formatNodeId(new Uint8Array(20).fill(5)));
    const before = (await bg.wallet.staking.stakingMine()).stakes.length;
    await fails(bg, 'avalanche_sendTransaction', { transactionHex, chainAlias: 'P' }, -32603);
    const { stakes, totals } = await bg.wallet.staking.stakingMine();
    expect(stakes).toHaveLength(before + 1);
    expect(stakes.find((s) => s.nodeID === formatNodeId(new Uint8Array(20).fill(5)))).toMatchObject({ kind: 'delegation', state: 'failed' });
    expect(totals.staked).toBe((25n * AVAX).toString());
  });

  it('returns a multisig tx partly signed, and the other signer completes it', async () => {
    const { ctx, client } = await net;
    const ajs = avalanchejsContextOf(ctx);
    const mine = parseAddress(account.xAddress).bytes;
    const cosigner = keyPairFromSecret(new Uint8Array(32).fill(11));
    const genesis = await genesisEngine();
    const shared = makeOwners([mine, cosigner.shortId], 2);
    const funded = await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 3n * AVAX, owners: shared }]));
    const { utxos } = await client.getAllUtxos('X', [account.xAddress]);
    const sharedUtxo = utxos.filter((u) => cb58Encode(u.txID) === funded.txID && u.output.kind === 'TransferOutput' && u.output.owners.threshold === 2);
    expect(sharedUtxo).toHaveLength(1);
    const unsigned = avm.newBaseTx(
      ajs,
      [mine, cosigner.shortId],
      sharedUtxo.map((u) => utils.getManagerForVM('AVM').unpack(encodeUtxo(u, 'avm'), AjsUtxo)),
      [AjsTransferableOutput.fromNative(ajs.avaxAssetID, 1n * AVAX, [cosigner.shortId])],
      { changeAddresses: [mine] },
    );
    const partial = (await ok(bg, 'xpc_sendTransaction', [{ transactionHex: `0x${toHex(unsigned.toBytes())}`, chainAlias: 'X' }])) as { signedTransactionHex: string; complete: boolean };
    expect(partial.complete).toBe(false);
    expect(lastSummary(bg)).toMatchObject({ kind: 'tx', action: 'send', complete: false });
    // The cosigner adds its signature to the wallet's and issues.
    const bytes = fromHex(partial.signedTransactionHex.slice(2));
    const decoded = decodeSignedTx(bytes, 'avm');
    const done = signExternalTx(
      { chain: 'X', tx: decoded.unsigned, unsignedBytes: bytes.slice(0, decoded.unsignedLength), existing: decoded.credentials, spent: sharedUtxo },
      keychainOf([cosigner]),
    );
    expect(done.complete).toBe(true);
    const txID = await client.avm.issueTx(done.signedBytes);
    expect((await client.waitForTx('X', txID, { timeoutMs: 30_000, pollMs: 100 })).accepted).toBe(true);
  });

  it('exports X → P through the site methods; the wallet imports what arrives', async () => {
    const { ctx, client } = await net;
    const ajs = avalanchejsContextOf(ctx);
    const mine = parseAddress(account.xAddress).bytes;
    const { utxos } = await client.getAllUtxos('X', [account.xAddress]);
    const spendable = utxos.filter((u) => u.output.kind === 'TransferOutput' && u.output.owners.threshold === 1 && cb58Encode(u.assetID) === cb58Encode(ctx.avaxAssetID));
    const exp = avm.newExportTx(
      ajs,
      ajs.pBlockchainID,
      [mine],
      spendable.map((u) => utils.getManagerForVM('AVM').unpack(encodeUtxo(u, 'avm'), AjsUtxo)),
      [AjsTransferableOutput.fromNative(ajs.avaxAssetID, 1n * AVAX, [mine])],
      { changeAddresses: [mine] },
    );
    const sent = (await ok(bg, 'xpc_sendTransaction', [{ transactionHex: `0x${toHex(exp.toBytes())}`, chainAlias: 'X' }])) as { txID: string };
    expect(lastSummary(bg)).toMatchObject({ kind: 'tx', chain: 'X', view: { kind: 'ExportTx' } });
    expect((await client.waitForTx('X', sent.txID, { timeoutMs: 30_000, pollMs: 100 })).accepted).toBe(true);
    const atomic = await client.getAllUtxos('P', [account.pAddress], { sourceChain: 'X' });
    expect(atomic.utxos.some((u) => cb58Encode(u.txID) === sent.txID)).toBe(true);
    const review = await bg.wallet.transfers.transfersEstimateImportWaiting();
    expect(review.imports).toEqual([expect.objectContaining({ from: 'X', to: 'P', amount: (1n * AVAX).toString(), fee: review.fee, otherAssets: false })]);
    const imported = await bg.wallet.transfers.transfersImportWaiting({ planID: review.planID, maxFee: review.fee });
    expect(imported).toEqual({ txIDs: [expect.any(String)], failed: 0 });
  });

  it('signs a message in the Avalanche format with the X key', async () => {
    const r = (await ok(bg, 'xpc_signMessage', [{ message: 'I own this address', chainAlias: 'X' }])) as { signature: string; address: string };
    expect(r.address).toBe(account.xAddress);
    const signer = avalancheMessageSigner(new TextEncoder().encode('I own this address'), cb58Decode(r.signature));
    expect(toHex(signer)).toBe(toHex(parseAddress(account.xAddress).bytes));
    const shown = lastSummary(bg);
    expect(shown).toMatchObject({ kind: 'sign-message', format: 'avalanche', signer: account.xAddress, bytesHex: `0x${toHex(new TextEncoder().encode('I own this address'))}` });
    if (shown.kind !== 'sign-message') throw new Error(shown.kind);
    // The hash the window showed is the one the signature covers.
    expect(toHex(recoverSigner(fromHex(shown.digestHex.slice(2)), cb58Decode(r.signature)).shortId)).toBe(toHex(signer));
    // Core's name for the same request.
    const core = (await ok(bg, 'avalanche_signMessage', ['I own this address'])) as string;
    expect(toHex(avalancheMessageSigner(new TextEncoder().encode('I own this address'), cb58Decode(core)))).toBe(toHex(signer));
  });

  it('one pending request per method and origin; a locked wallet asks for unlock first; closing the window rejects', async () => {
    bg.user.answer = () => 'wait';
    const first = call(bg, 'personal_sign', ['0x02', account.cAddress]);
    await new Promise((r) => setTimeout(r, 100));
    const second = await fails(bg, 'personal_sign', ['0x03', account.cAddress], -32002);
    expect(second.message).toMatch(/already has a personal_sign request/);
    const pending = await bg.approvals.list();
    await bg.approvals.decide(pending[0]!.id, false);
    expect(((await first) as { ok: false; error: { code: number } }).error.code).toBe(4001);

    // Locked: eth_accounts is empty; a request opens the window and goes on once unlocked.
    bg.user.answer = () => true;
    await bg.wallet.accounts.walletLock();
    expect(await ok(bg, 'eth_accounts')).toEqual([]);
    bg.user.onLockedOpen = async () => {
      await bg.wallet.accounts.walletUnlock({ password: PASSWORD });
    };
    expect(await ok(bg, 'eth_requestAccounts')).toEqual([account.cAddress]);

    // Locked again, and the user closes the window instead of unlocking: 4001. The site's next
    // request is refused at once, without a window, until the cooldown has passed.
    await bg.wallet.accounts.walletLock();
    bg.user.onLockedOpen = async () => bg.provider.cancelWaits();
    await fails(bg, 'personal_sign', ['0x04', account.cAddress], 4001);
    const windows = bg.user.windowOpened;
    await fails(bg, 'personal_sign', ['0x04', account.cAddress], 4001);
    expect(bg.user.windowOpened).toBe(windows);
    await bg.wallet.accounts.walletUnlock({ password: PASSWORD });
    clockSkewMs += 31_000;
  });

  it('a request survives a worker restart: the retry finds its approval, and a done request is not run twice', async () => {
    bg.user.answer = () => 'wait';
    const requestId = 'restart-1';
    const firstWorker = call(bg, 'personal_sign', ['0x05', account.cAddress], SITE, requestId);
    await new Promise((r) => setTimeout(r, 100));
    void firstWorker; // the old worker is gone; its answer never arrives
    const restarted = await startBackground(bg.stores, { answer: () => 'wait', seen: [], windowOpened: 0 });
    await restarted.session.resume();
    const [pending] = await restarted.approvals.list();
    // The relay's ID, as the background keeps it: scoped to the site that sent it.
    expect(pending?.requestId).toBe(requestKeyOf(SITE, requestId));
    const retry = call(restarted, 'personal_sign', ['0x05', account.cAddress], SITE, requestId);
    await new Promise((r) => setTimeout(r, 50));
    // The retried request brings the approval window back (it may have gone with the old worker).
    expect(restarted.user.windowOpened).toBe(1);
    await restarted.approvals.decide(pending!.id, true);
    const answered = await retry;
    expect(answered.ok).toBe(true);
    const again = await call(restarted, 'personal_sign', ['0x05', account.cAddress], SITE, requestId);
    expect(again).toEqual(answered);
    expect(await restarted.approvals.list()).toEqual([]);
    bg.user.answer = () => true;
  });

  it('revoking disconnects the site', async () => {
    expect(await ok(bg, 'wallet_revokePermissions', [{ eth_accounts: {} }])).toBeNull();
    expect(await ok(bg, 'eth_accounts')).toEqual([]);
    expect((await bg.wallet.sites.sitesList()).sites.map((s) => s.origin)).not.toContain(SITE.origin);
  });
});
