// C-Chain tokens on the real Helicon node, through the background as the popup and a dApp drive it:
// a dApp (viem, through the site provider) deploys an ERC-20, an ERC-721 and a contract that spends
// allowances; the wallet lists the tokens (look-alikes flagged), sends and receives them, sees each
// approval decoded and simulated before it signs, finds the allowances in its logs and revokes
// them, and moves an NFT (speed-up and cancel: evm-replace.test.ts). The contracts are the project's own
// (test/fixtures/contracts/*.sol, compiled with solc 0.8.37 into test/fixtures/contracts.json).
import { createPublicClient, createWalletClient, custom, defineChain, encodeFunctionData, getAddress, http, keccak256, type Abi, type Hex } from 'viem';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import contracts from '../fixtures/contracts.json' with { type: 'json' };
import type { PendingApproval } from '../../src/background/approvals.js';
import type { Site } from '../../src/background/provider.js';
import { memoryStores } from '../../src/background/storage.js';
import { fromHex, toHex } from '../../src/core/bytes.js';
import { encodeCall } from '../../src/core/evm-abi.js';
import { PERMIT2_ADDRESS } from '../../src/core/evm-calls.js';
import { formatEvmAddress } from '../../src/core/evm-address.js';
import { randomBytes } from 'node:crypto';
import type { AccountView, ApprovalSummary } from '../../src/shared/messages.js';
import { PROVIDER_CHANNEL } from '../../src/shared/provider-protocol.js';
import { AVAX, GENESIS_KEY, genesisEngine, localNetwork, WEI_PER_NAVAX } from './fixture.js';
import { type ProviderBackground, providerBackground } from './wallet-fixture.js';

const SITE: Site = { origin: 'https://tokens.example' };
const SUPPLY = 1_000_000_000_000n; // 1,000,000 tokens of 6 decimals
type Evm = Extract<ApprovalSummary, { kind: 'evm-tx' }>;

const seen: PendingApproval[] = [];
let bg: ProviderBackground;
let account: AccountView;
let accountKey: Uint8Array;
let nextId = 0;

async function request(method: string, params?: unknown, site: Site = SITE): Promise<unknown> {
  const r = await bg.provider.handle({ channel: PROVIDER_CHANNEL, requestId: `t-${++nextId}`, method, ...(params !== undefined ? { params } : {}) }, site);
  if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
  return r.result;
}

const last = (): ApprovalSummary => seen.at(-1)!.summary as ApprovalSummary;
const lastEvm = (): Evm => {
  const s = last();
  if (s.kind !== 'evm-tx') throw new Error(`expected an EVM tx approval, got ${s.kind}`);
  return s;
};

const chain = defineChain({ id: 43112, name: 'Test C-Chain', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [] } } });
let dapp: ReturnType<typeof createWalletClient>;
let reader: ReturnType<typeof createPublicClient>;

/** Waits for the tx's receipt and for the node's latest executed state to hold its block (Helicon executes a moment later). */
async function executed(hash: string): Promise<{ status: string; contractAddress?: string | null }> {
  const receipt = await reader.waitForTransactionReceipt({ hash: hash as Hex });
  for (let i = 0; i < 100 && (await reader.getBlockNumber({ cacheTime: 0 })) < receipt.blockNumber; i++) await new Promise((r) => setTimeout(r, 50));
  return receipt;
}

async function deploy(name: keyof typeof contracts.contracts, args: unknown[] = []): Promise<`0x${string}`> {
  const c = contracts.contracts[name];
  const hash = await dapp.deployContract({ abi: c.abi as Abi, bytecode: c.bytecode as Hex, args, account: account.cAddress as Hex, chain });
  const receipt = await executed(hash);
  expect(receipt.status).toBe('success');
  return getAddress(receipt.contractAddress!);
}

async function write(address: `0x${string}`, name: keyof typeof contracts.contracts, functionName: string, args: unknown[], value = 0n): Promise<Hex> {
  const hash = await dapp.writeContract({ address, abi: contracts.contracts[name].abi as Abi, functionName, args, account: account.cAddress as Hex, chain, value });
  expect((await executed(hash)).status).toBe('success');
  return hash;
}

/** The genesis key's own tx (a counterparty on chain), followed until accepted. */
async function genesisCall(to: string, data: string): Promise<void> {
  await executed((await (await genesisEngine()).sendC(to, 0n, data)).hash);
}

async function balanceOf(token: string, owner: string): Promise<bigint> {
  return (await reader.readContract({ address: token as Hex, abi: contracts.contracts.TestToken.abi as Abi, functionName: 'balanceOf', args: [owner] })) as bigint;
}

/** Helicon executes an accepted block a moment after its receipts are out: state reads wait for it. */
async function eventually<T>(read: () => Promise<T>, expected: T): Promise<void> {
  for (let i = 0; i < 100 && (await read()) !== expected; i++) await new Promise((r) => setTimeout(r, 50));
  expect(await read()).toBe(expected);
}

describe('C-Chain tokens on the node', () => {
  let token: `0x${string}`;
  let nft: `0x${string}`;
  let puller: `0x${string}`;
  const genesisAddress = formatEvmAddress(GENESIS_KEY.evmAddress);

  beforeAll(async () => {
    const stores = memoryStores();
    bg = await providerBackground(stores, {
      openApprovalWindow: (b) =>
        void setTimeout(async () => {
          for (const p of await b.approvals.list()) {
            if (seen.some((s) => s.id === p.id)) continue;
            seen.push(p);
            await b.approvals.decide(p.id, true);
          }
        }, 5),
    });
    // An account from an imported key.
    accountKey = new Uint8Array(randomBytes(32));
    await bg.wallet.accounts.walletCreateFromKey({ password: 'token test password', privateKey: `0x${toHex(accountKey)}`, name: 'Tokens' });
    const network = await bg.wallet.networks.networksAddCustom({ name: 'Test node', url: inject('nodeUrl') });
    account = (await bg.wallet.networks.networksSelect({ id: network.id })).account!;
    await (await genesisEngine()).sendC(account.cAddress, 50n * AVAX * WEI_PER_NAVAX);
    const rpc = `${inject('nodeUrl')}/ext/bc/C/rpc`;
    reader = createPublicClient({ chain, transport: http(rpc) });
    dapp = createWalletClient({ chain, transport: custom({ request: ({ method, params }) => request(method, params) }) });
    await request('eth_requestAccounts', []);
  }, 120_000);

  it('a dApp deploys contracts through viem: the approval names the deployment, its size, code hash and address, and Activity lists it', async () => {
    token = await deploy('TestToken', ['Test Dollar', 'TUSD', SUPPLY]);
    const s = lastEvm();
    expect(s.to).toBe('');
    expect(s.deploy!.contractAddress).toBe(token);
    expect(s.data.startsWith(contracts.contracts.TestToken.bytecode)).toBe(true);
    expect(s.deploy!.codeBytes).toBe((s.data.length - 2) / 2);
    expect(s.deploy!.codeHash).toBe(keccak256(s.data as Hex));
    // The node traced the deployment: the contract is the one touched, and its constructor gives the account the supply.
    expect(s.simulation).toEqual({ method: 'trace', changes: [{ asset: token, standard: 'erc20', symbol: '', decimals: 0, delta: SUPPLY.toString() }], touched: [token] });
    const items = (await bg.wallet.balances.activityList()).items;
    expect(items.find((i) => i.kind === 'deploy')).toMatchObject({ contract: token, chain: 'C' });

    nft = await deploy('TestNft');
    puller = await deploy('TestPuller');
  }, 120_000);

  it('lists a token by address with what its contract says, and flags look-alikes of AVAX and of a listed token', async () => {
    const inspected = await bg.wallet.tokens.tokensInspect({ address: token });
    expect(inspected).toMatchObject({ listed: false, token: { standard: 'erc20', name: 'Test Dollar', symbol: 'TUSD', decimals: 6, balance: SUPPLY.toString(), checks: { altered: false, posesAsNative: false } } });
    await bg.wallet.tokens.tokensAdd({ address: token });
    // A token calling itself "AVAX" in Cyrillic look-alikes, and one whose symbol reads as TUSD with a hidden character.
    const fakeAvax = await deploy('TestToken', ['Аvalanche', 'АVAХ', 1n]);
    expect((await bg.wallet.tokens.tokensInspect({ address: fakeAvax })).token.checks).toMatchObject({ posesAsNative: true });
    const twin = await deploy('TestToken', ['Test Dollar', 'T\u200bUSD', 1n]);
    const twinView = (await bg.wallet.tokens.tokensInspect({ address: twin })).token;
    expect(twinView.symbol).toBe('TUSD');
    expect(twinView.checks).toEqual({ altered: true, posesAsNative: false, looksLike: { address: token, symbol: 'TUSD' } });
    // Not a token: an account without code.
    await expect(bg.wallet.tokens.tokensInspect({ address: genesisAddress })).rejects.toMatchObject({ code: 'not-a-token' });
  }, 120_000);

  it('sends tokens (estimate with a simulation, then the send at the reviewed fee) and sees both directions in its transfers', async () => {
    const estimate = await bg.wallet.tokens.tokensEstimateSend({ address: token, to: genesisAddress, amount: '2500000' });
    expect(estimate.simulation).toMatchObject({ method: 'trace', changes: [{ asset: token, symbol: 'TUSD', decimals: 6, delta: '-2500000' }], touched: [token] });
    expect(BigInt(estimate.maxFee)).toBe(BigInt(estimate.gasLimit) * BigInt(estimate.maxFeePerGas));
    expect(estimate).not.toHaveProperty('arrives');
    await expect(bg.wallet.tokens.tokensSend({ address: token, to: genesisAddress, amount: '2500000', maxFeeWei: '1' })).rejects.toMatchObject({ code: 'fee-above-approved' });
    // To the token's own contract (in any letter case): refused in words, nothing signed.
    for (const to of [token, token.toLowerCase()]) {
      await expect(bg.wallet.tokens.tokensEstimateSend({ address: token, to, amount: '1' })).rejects.toMatchObject({ code: 'validation', field: 'to', message: expect.stringMatching(/lost for good/) });
      await expect(bg.wallet.tokens.tokensSend({ address: token, to, amount: '1', maxFeeWei: estimate.maxFee })).rejects.toMatchObject({ code: 'validation', field: 'to' });
    }
    const sent = await bg.wallet.tokens.tokensSend({ address: token, to: genesisAddress, amount: '2500000', maxFeeWei: estimate.maxFee });
    expect(BigInt(sent.fee)).toBeLessThanOrEqual(BigInt(estimate.maxFee));
    await eventually(() => balanceOf(token, account.cAddress), SUPPLY - 2_500_000n);
    expect(await balanceOf(token, genesisAddress)).toBe(2_500_000n);
    expect((await bg.wallet.tokens.tokensList()).tokens.find((t) => t.address === token)).toMatchObject({ balance: (SUPPLY - 2_500_000n).toString() });
    // The genesis key sends some back.
    await genesisCall(token, encodeCall('transfer(address,uint256)', account.cAddress, 1_000_000n));
    const { items, scan } = await bg.wallet.tokens.tokensActivity({ refresh: true });
    expect(scan.complete).toBe(true);
    const mine = items.filter((i) => i.token === token);
    expect(mine.find((i) => i.txHash === sent.txHash)).toMatchObject({ direction: 'out', amount: '2500000', to: genesisAddress, symbol: 'TUSD', listed: true });
    expect(mine.find((i) => i.direction === 'in' && i.from === genesisAddress)).toMatchObject({ amount: '1000000' });
    // Each dated by its block (the node's block time, not when the wallet looked): within this test's run.
    for (const i of mine) expect(i.time).toBeGreaterThan(Date.now() - 600_000);
    for (const i of mine) expect(i.time).toBeLessThanOrEqual(Date.now());
    await bg.wallet.balances.balancesRefresh();
    const activity = (await bg.wallet.balances.activityList()).items.find((i) => i.txID === sent.txHash);
    expect(activity).toMatchObject({ kind: 'send', status: 'accepted', amount: '2500000', token: { address: token, symbol: 'TUSD', decimals: 6 } });
    expect(activity).not.toHaveProperty('toSelf');
    // One to the account's own address reads "Sent to yourself".
    const selfQuote = await bg.wallet.tokens.tokensEstimateSend({ address: token, to: account.cAddress, amount: '1' });
    const self = await bg.wallet.tokens.tokensSend({ address: token, to: account.cAddress, amount: '1', maxFeeWei: selfQuote.maxFee });
    expect((await bg.wallet.balances.activityList()).items.find((i) => i.txID === self.txHash)).toMatchObject({ kind: 'send', toSelf: true });
  }, 120_000);

  it('a token that keeps a cut of each transfer: the estimate says what reaches the recipient, and that is what the send delivers', async () => {
    const fee = await deploy('TestFeeToken', [1_000n]);
    await bg.wallet.tokens.tokensAdd({ address: fee });
    const estimate = await bg.wallet.tokens.tokensEstimateSend({ address: fee, to: genesisAddress, amount: '100' });
    expect(estimate.arrives).toBe('90');
    expect(estimate.simulation.changes).toMatchObject([{ asset: fee, symbol: 'FEE', delta: '-100' }]);
    await bg.wallet.tokens.tokensSend({ address: fee, to: genesisAddress, amount: '100', maxFeeWei: estimate.maxFee });
    await eventually(() => balanceOf(fee, genesisAddress), 90n);
  }, 120_000);

  it('an approval is decoded (unlimited flagged, spender named) and simulated; a spend of it shows what leaves', async () => {
    const max = (1n << 256n) - 1n;
    await write(token, 'TestToken', 'approve', [puller, max]);
    const approve = lastEvm();
    expect(approve.call).toMatchObject({ kind: 'approve', amount: max.toString(), unlimited: true, token: { address: token, symbol: 'TUSD', listed: true }, spender: { address: puller, isContract: true, siteCalls: 0 } });
    expect(approve.simulation).toMatchObject({ method: 'trace', changes: [], touched: [token] });
    // An approval to an account without code is named as such.
    await write(token, 'TestToken', 'increaseAllowance', [genesisAddress, 5n]);
    expect(lastEvm().call).toMatchObject({ kind: 'increaseAllowance', amount: '5', unlimited: false, spender: { address: genesisAddress, isContract: false } });
    // An allowance of the token's whole supply is unlimited in effect, however far below "max" it is; one unit less is not.
    await write(token, 'TestToken', 'approve', [puller, SUPPLY]);
    expect(lastEvm().call).toMatchObject({ kind: 'approve', amount: SUPPLY.toString(), unlimited: true });
    await write(token, 'TestToken', 'approve', [puller, SUPPLY - 1n]);
    expect(lastEvm().call).toMatchObject({ kind: 'approve', amount: (SUPPLY - 1n).toString(), unlimited: false });

    await write(puller, 'TestPuller', 'pull', [token, 700_000n], 3n * WEI_PER_NAVAX);
    const pull = lastEvm();
    expect(pull.call).toBeUndefined();
    expect(pull.simulation!.method).toBe('trace');
    expect(pull.simulation!.changes).toEqual(
      expect.arrayContaining([
        { asset: 'native', symbol: 'AVAX', decimals: 18, delta: (-3n * WEI_PER_NAVAX).toString() },
        { asset: token, standard: 'erc20', symbol: 'TUSD', decimals: 6, delta: '-700000' },
      ]),
    );
    expect(pull.simulation!.touched).toEqual([puller, token]);
    // The site has now had the user call the puller: a later approval to it says so.
    await write(token, 'TestToken', 'approve', [puller, 10n]);
    expect(lastEvm().call!.spender).toMatchObject({ siteCalls: 1 });
    await write(token, 'TestToken', 'approve', [puller, max]);
    // A call that would revert is said to, with the contract's reason (the user approved it anyway here).
    const calldata = encodeFunctionData({ abi: contracts.contracts.TestPuller.abi as Abi, functionName: 'pull', args: [token, SUPPLY * 10n] });
    await executed((await request('eth_sendTransaction', [{ from: account.cAddress, to: puller, data: calldata, gas: '0x30000' }])) as string);
    expect(lastEvm().simulation).toMatchObject({ method: 'trace', reverted: 'balance too low', changes: [] });
  }, 180_000);

  it('an EIP-2612 permit to sign is decoded, and the signature is one the token takes', async () => {
    const deadline = BigInt(Math.floor(Date.now() / 1000) + 3600);
    const typed = {
      types: {
        EIP712Domain: [{ name: 'name', type: 'string' }, { name: 'version', type: 'string' }, { name: 'chainId', type: 'uint256' }, { name: 'verifyingContract', type: 'address' }],
        Permit: [{ name: 'owner', type: 'address' }, { name: 'spender', type: 'address' }, { name: 'value', type: 'uint256' }, { name: 'nonce', type: 'uint256' }, { name: 'deadline', type: 'uint256' }],
      },
      primaryType: 'Permit',
      domain: { name: 'Test Dollar', version: '1', chainId: 43112, verifyingContract: token },
      message: { owner: account.cAddress, spender: genesisAddress, value: '4000000', nonce: '0', deadline: deadline.toString() },
    };
    const sig = (await request('eth_signTypedData_v4', [account.cAddress, JSON.stringify(typed)])) as string;
    const s = last();
    if (s.kind !== 'sign-typed-data') throw new Error(s.kind);
    expect(s.permit).toMatchObject({ kind: 'eip2612', deadline: deadline.toString(), verifier: token, spender: { address: genesisAddress, isContract: false }, grants: [{ token, amount: '4000000', unlimited: false, tokenView: { symbol: 'TUSD', decimals: 6 } }] });
    const raw = fromHex(sig);
    const v = BigInt(raw[64]!);
    const data = encodeCall('permit(address,address,uint256,uint256,uint8,bytes32,bytes32)', account.cAddress, genesisAddress, 4_000_000n, deadline, v, BigInt(`0x${toHex(raw.subarray(0, 32))}`), BigInt(`0x${toHex(raw.subarray(32, 64))}`));
    await genesisCall(token, data);
    await eventually(() => reader.readContract({ address: token, abi: contracts.contracts.TestToken.abi as Abi, functionName: 'allowance', args: [account.cAddress, genesisAddress] }), 4_000_000n);
  }, 120_000);

  it('finds the live allowances in its logs, confirmed on chain, and revokes one (estimate, then the reviewed fee)', async () => {
    const { allowances, scan } = await bg.wallet.tokens.tokensAllowances({ refresh: true });
    expect(scan).toMatchObject({ complete: true });
    expect(scan.error).toBeUndefined();
    const toPuller = allowances.find((a) => a.spender === puller && a.token === token)!;
    expect(toPuller).toMatchObject({ kind: 'allowance', unlimited: true, spenderIsContract: true, symbol: 'TUSD' });
    expect(allowances.find((a) => a.spender === genesisAddress)).toMatchObject({ amount: '4000000', spenderIsContract: false });
    const quote = await bg.wallet.tokens.tokensEstimateRevoke({ address: token, spender: puller, kind: 'allowance' });
    const done = await bg.wallet.tokens.tokensRevoke({ address: token, spender: puller, kind: 'allowance', maxFeeWei: quote.maxFee });
    await executed(done.txHash);
    expect((await bg.wallet.balances.activityList()).items.find((i) => i.txID === done.txHash)).toMatchObject({ kind: 'revoke', status: 'accepted', to: puller });
    const after = await bg.wallet.tokens.tokensAllowances({ refresh: true });
    expect(after.allowances.some((a) => a.spender === puller)).toBe(false);
  }, 120_000);

  it('ERC-721: mint, operator approval decoded and revoked, the NFT listed, its metadata read only when asked, and sent', async () => {
    await write(nft, 'TestNft', 'mint', [account.cAddress, 7n]);
    await write(nft, 'TestNft', 'mint', [account.cAddress, 8n]);
    const granted = await write(nft, 'TestNft', 'setApprovalForAll', [puller, true]);
    expect(lastEvm().call).toMatchObject({ kind: 'setApprovalForAll', approved: true, token: { standard: 'erc721', symbol: 'TPIC' }, spender: { address: puller, isContract: true } });
    // Activity keeps it as the grant over every NFT it is: no amount (the AVAX value "0" read as 0 NFTs, a revoke).
    const grant = (await bg.wallet.balances.activityList()).items.find((i) => i.txID === granted);
    expect(grant).toMatchObject({ kind: 'approve', to: puller, token: { standard: 'erc721' } });
    expect(grant).not.toHaveProperty('amount');
    const added = await bg.wallet.tokens.tokensAdd({ address: nft });
    expect(added.token).toMatchObject({ standard: 'erc721', symbol: 'TPIC', decimals: 0, balance: '2' });
    expect((await bg.wallet.tokens.tokensNfts({ address: nft })).items).toEqual(expect.arrayContaining([{ tokenId: '7', amount: '1' }, { tokenId: '8', amount: '1' }]));
    expect(await bg.wallet.tokens.tokensNftMetadata({ address: nft, tokenId: '7' })).toMatchObject({
      uri: expect.stringMatching(/^data:application\/json,/),
      fetched: { name: 'Test picture', description: 'made for the tests' },
    });

    const operator = (await bg.wallet.tokens.tokensAllowances({ refresh: true })).allowances.find((a) => a.token === nft)!;
    expect(operator).toMatchObject({ kind: 'operator', spender: puller, unlimited: true, standard: 'erc721' });
    const q = await bg.wallet.tokens.tokensEstimateRevoke({ address: nft, spender: puller, kind: 'operator' });
    await executed((await bg.wallet.tokens.tokensRevoke({ address: nft, spender: puller, kind: 'operator', maxFeeWei: q.maxFee })).txHash);
    expect((await bg.wallet.tokens.tokensAllowances({ refresh: true })).allowances.some((a) => a.token === nft)).toBe(false);

    const est = await bg.wallet.tokens.tokensEstimateSend({ address: nft, to: genesisAddress, tokenId: '7' });
    expect(est.simulation.changes).toEqual([{ asset: nft, standard: 'erc721', symbol: 'TPIC', decimals: 0, delta: '-1', tokenId: '7' }]);
    await bg.wallet.tokens.tokensSend({ address: nft, to: genesisAddress, tokenId: '7', maxFeeWei: est.maxFee });
    await eventually(() => reader.readContract({ address: nft, abi: contracts.contracts.TestNft.abi as Abi, functionName: 'ownerOf', args: [7n] }), genesisAddress);
    expect((await bg.wallet.tokens.tokensNfts({ address: nft })).items).toEqual([{ tokenId: '8', amount: '1' }]);
  }, 180_000);

  it('AVAX sent to a contract: its code gets gas (the node\'s estimate, in the estimate and the fee), and a contract that refuses AVAX is said before anything is signed', async () => {
    // Runtime code that keeps what it was sent (CALLVALUE, PUSH1 0, SSTORE, STOP): a storage write,
    // far more than the 21,000 gas of a plain transfer, which would leave it none and fail.
    const runtime = '3460005500';
    const init = `0x6005600c60003960056000f3${runtime}` as Hex;
    const keeper = getAddress((await executed(await dapp.deployContract({ abi: [], bytecode: init, account: account.cAddress as Hex, chain }))).contractAddress!);
    const estimate = await bg.wallet.sends.sendEstimate({ chain: 'C', to: keeper, amountWei: '1000' });
    expect(BigInt(estimate.gasLimit!)).toBeGreaterThan(21_000n);
    expect(BigInt(estimate.fee) % BigInt(estimate.gasLimit!)).toBe(0n);
    const sent = await bg.wallet.sends.sendC({ to: keeper, amountWei: '1000', maxFeeWei: estimate.fee });
    expect((await executed(sent.txHash)).status).toBe('success');
    expect(BigInt((await reader.getStorageAt({ address: keeper, slot: '0x0' }))!)).toBe(1000n);
    // A plain account still gets 21,000.
    expect((await bg.wallet.sends.sendEstimate({ chain: 'C', to: genesisAddress, amountWei: '1000' })).gasLimit).toBe('21000');
    // The ERC-20 has no way to take AVAX: the estimate and the send say so, and no nonce is used.
    const { client } = await localNetwork();
    const nonce = await client.eth.getTransactionCount(account.cAddress, 'pending');
    await expect(bg.wallet.sends.sendEstimate({ chain: 'C', to: token, amountWei: '1000' })).rejects.toMatchObject({ code: 'recipient-refuses' });
    await expect(bg.wallet.sends.sendC({ to: token, amountWei: '1000', maxFeeWei: estimate.fee })).rejects.toMatchObject({ code: 'recipient-refuses' });
    expect(await client.eth.getTransactionCount(account.cAddress, 'pending')).toBe(nonce);
  });

  it('wallet_watchAsset lists a token after approval, named by its contract, the site\'s own words shown apart', async () => {
    const other = await deploy('TestToken', ['Other Coin', 'OTH', 5n]);
    expect(await request('wallet_watchAsset', { type: 'ERC20', options: { address: other, symbol: 'USDC', decimals: 18, image: 'https://tracker.example/x.png' } })).toBe(true);
    expect(last()).toMatchObject({ kind: 'watch-asset', token: { address: other, symbol: 'OTH', decimals: 6, listed: false }, siteSymbol: 'USDC', siteDecimals: 18, imageIgnored: true });
    expect((await bg.wallet.tokens.tokensList()).tokens.find((t) => t.address === other)).toMatchObject({ addedBy: SITE.origin, symbol: 'OTH', balance: '5' });
    await expect(request('wallet_watchAsset', { type: 'ERC721', options: { address: other } })).rejects.toMatchObject({ code: -32602 });
    // A token a site had listed does not vouch for itself in that site's approvals: not listed there, its trial run by address.
    await write(other, 'TestToken', 'transfer', [genesisAddress, 1n]);
    expect(lastEvm().call).toMatchObject({ kind: 'transfer', amount: '1', token: { address: other, symbol: 'OTH', listed: false } });
    expect(lastEvm().simulation!.changes).toEqual([{ asset: other, standard: 'erc20', symbol: '', decimals: 0, delta: '-1' }]);
    // The user's own Add of it makes it theirs: offered (not "already in your list"), then listed as the user's, vouching in approvals.
    expect(await bg.wallet.tokens.tokensInspect({ address: other })).toMatchObject({ listed: false });
    await bg.wallet.tokens.tokensAdd({ address: other });
    expect((await bg.wallet.tokens.tokensList()).tokens.find((t) => t.address === other)).toMatchObject({ addedBy: 'wallet', symbol: 'OTH' });
    await write(other, 'TestToken', 'transfer', [genesisAddress, 1n]);
    expect(lastEvm().call).toMatchObject({ token: { address: other, listed: true } });
    // Asked by a frame of another origin in the page: credited to the frame its approval named.
    const widget: Site = { ...SITE, frameOrigin: 'https://widget.example' };
    await request('eth_requestAccounts', [], widget);
    const third = await deploy('TestToken', ['Third Coin', 'THR', 5n]);
    expect(await request('wallet_watchAsset', { type: 'ERC20', options: { address: third } }, widget)).toBe(true);
    expect((await bg.wallet.tokens.tokensList()).tokens.find((t) => t.address === third)).toMatchObject({ addedBy: 'https://widget.example' });
  }, 120_000);

  it("Permit2's own approve, called on chain, reads as the allowance it gives (token, spender, expiry; unlimited flagged), in the trial run too; the spender can then take the token", async () => {
    const permit2 = getAddress(PERMIT2_ADDRESS);
    // The standing allowance a Permit2 user gives it once; then a site asks for Permit2's own approve.
    await write(token, 'TestToken', 'approve', [permit2, (1n << 256n) - 1n]);
    const expiration = BigInt(Math.floor(Date.now() / 1000) + 3_600);
    const max160 = (1n << 160n) - 1n;
    const hash = await write(permit2, 'TestPermit2', 'approve', [token, genesisAddress, max160, expiration]);
    const s = lastEvm();
    expect(s.call).toMatchObject({ kind: 'approve', token: { address: token, symbol: 'TUSD' }, spender: { address: genesisAddress, isContract: false }, amount: max160.toString(), unlimited: true, expiration: expiration.toString() });
    expect(s.simulation).toMatchObject({ method: 'trace', changes: [], approvals: [{ token, symbol: 'TUSD', spender: genesisAddress, amount: max160.toString(), unlimited: true }] });
    await bg.wallet.balances.balancesRefresh();
    expect((await bg.wallet.balances.activityList()).items.find((i) => i.txID === hash)).toMatchObject({ kind: 'approve', token: { address: token, symbol: 'TUSD' }, to: genesisAddress, unlimited: true });
    // What it gives is real: the spender takes the token through Permit2.
    const before = await balanceOf(token, genesisAddress);
    const take = encodeFunctionData({ abi: contracts.contracts.TestPermit2.abi as Abi, functionName: 'transferFrom', args: [account.cAddress, genesisAddress, 1_000n, token] });
    await genesisCall(permit2, take);
    await eventually(() => balanceOf(token, genesisAddress), before + 1_000n);
    // Allowances lists the right Permit2 keeps (its end too), and revokes it through Permit2: the spender can take no more.
    const listed = (await bg.wallet.tokens.tokensAllowances({ refresh: true })).allowances.find((a) => a.kind === 'permit2');
    expect(listed).toMatchObject({ token, spender: genesisAddress, amount: max160.toString(), unlimited: true, expiration: expiration.toString() });
    const quote = await bg.wallet.tokens.tokensEstimateRevoke({ address: token, spender: genesisAddress, kind: 'permit2' });
    await executed((await bg.wallet.tokens.tokensRevoke({ address: token, spender: genesisAddress, kind: 'permit2', maxFeeWei: quote.maxFee })).txHash);
    await eventually(async () => (await bg.wallet.tokens.tokensAllowances({ refresh: true })).allowances.some((a) => a.kind === 'permit2'), false);
    await expect(genesisCall(permit2, take)).rejects.toThrow();
    expect(await balanceOf(token, genesisAddress)).toBe(before + 1_000n);
  }, 120_000);
});
