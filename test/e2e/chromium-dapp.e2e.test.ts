// A real dApp page (test/e2e/dapp/app.ts: EIP-6963 discovery, viem over `custom(provider)`) on
// http://127.0.0.1:<port>, against the built Chrome extension (dist/chrome) in Debian's Chromium
// and the run's local node. Each signing request opens the wallet's approval window (a new
// window, so a new Page in the browser context); the test reads what it shows and clicks
// Approve or Reject there, as the user would. Every answer is checked against the chain or by
// viem's own verification, in Node.
// The launch, the approval window and the first steps (wallet, funding, discovery): chromium-dapp-run.ts.
import { Transaction } from 'micro-eth-signer';
import { type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { toHex } from '../../src/core/bytes.js';
import { cb58Encode, formatAddress, parseId } from '../../src/core/encoding.js';
import { AVAX, freshKey, localNetwork } from '../integration/fixture.js';
import { expectAccessible } from './a11y.js';
import { expectDelegationApproval, expectSiteStakeKept, siteBuiltDelegation } from './staking.js';
import {
  CHAIN_ID,
  CHAIN_ID_HEX,
  DEPLOYED_BYTECODE,
  eventsInPage,
  evmAddressOf,
  expectConnectApproval,
  expectDecisionButtons,
  expectDeployApproval,
  expectDeployed,
  expectAddChainApproval,
  expectOk,
  expectPersonalSignApproval,
  expectPersonalSignature,
  expectSwitchQuestion,
  expectSwitchToAnotherSitesChain,
  expectTypedSignature,
  expectPaymentOnAddedChain,
  expectSiteNonceNamed,
  expectUserRejected,
  rawPayment,
  expectXpSignature,
  cacheStateInPage,
  expectSignatureAfterCacheReturn,
  keepInPage,
  runInPage,
  startChainRpc,
  startDapp,
  AWAY_PATH,
  CACHEABLE_PATH,
} from './dapp.js';
import { ADDED_CHAIN, PAYEE, PAYMENT_WEI, XP_MESSAGE, type Outcome } from './dapp/shared.js';
import { launchOrSaveLog } from './artifacts.js';
import { account, approvalPages, approvalWindow, call, contentScriptStorageReads, context, decide, dapp, events, expectTxApproval, extensionId, launch, log, page, PREFIX, screenshotApproval, server, setUpSteps, shutDown, siteBuiltXSend, step } from './chromium-dapp-run.js';
import { ExtensionWorkerWatch, PASSWORD } from './harness.js';
import { amountText } from './popup/amounts.js';

/** What the site's own X-Chain send pays a fresh recipient, nAVAX (odd, so only this amount matches). */
const SITE_X_SEND = 321_654_987n;

describe('Chromium: a viem dApp finds the wallet through EIP-6963 and asks through the approval window', () => {
  beforeAll(() => launchOrSaveLog(log, PREFIX, 'chromium dapp', launch));

  afterAll(shutDown);

  setUpSteps();

  step('connect → Reject in the approval window → viem rejects with 4001, nothing connected', async () => {
    const pending = dapp('connect');
    const { window, shown } = await approvalWindow('eth_requestAccounts', pending);
    expectConnectApproval(shown, server!.origin, account);
    await decide(window, 'Reject');
    expectUserRejected(await pending, 'connect');
    expect(expectOk(await dapp('accounts'), 'eth_accounts')).toEqual([]);
    expect((await events()).map((e) => e.event)).toEqual(['connect']);
  });

  step('connect again → Approve → the account’s C address, and accountsChanged', async () => {
    const pending = dapp('connect');
    const { window, shown } = await approvalWindow('eth_requestAccounts', pending);
    expectConnectApproval(shown, server!.origin, account);
    await screenshotApproval(window, 'connect');
    await decide(window, 'Approve');
    expect(expectOk(await pending, 'connect')).toEqual([evmAddressOf(account)]);
    expect(expectOk(await dapp('accounts'), 'eth_accounts')).toEqual([evmAddressOf(account)]);
    await expect
      .poll(events, { timeout: 5_000 })
      .toEqual([
        { event: 'connect', data: { chainId: CHAIN_ID_HEX } },
        { event: 'accountsChanged', data: [account.cAddress] },
      ]);
  });

  step('the chain ID is the local network’s C-Chain (0xa868)', async () => {
    expect(expectOk(await dapp('chainId'), 'chainId')).toEqual({ viem: CHAIN_ID, provider: CHAIN_ID_HEX });
    expect(CHAIN_ID_HEX).toBe('0xa868');
  });

  step("the wallet's content script, in the page's process, cannot read the extension's storage (the vault's ciphertext, the session key)", async () => {
    // Chromium's own refusal: local is open to content scripts unless the wallet closes it (sync, left open, is read).
    const refused = 'refused: Error: Access to storage is not allowed from this context.';
    expect(await contentScriptStorageReads()).toEqual({ inWorld: true, local: refused, session: refused, sync: 'read 0 entries' });
  });

  step('signMessage (personal_sign) → Approve → viem verifyMessage is true', async () => {
    const pending = dapp('signMessage');
    const { window, shown } = await approvalWindow('personal_sign', pending);
    expectPersonalSignApproval(shown, server!.origin, account);
    await screenshotApproval(window, 'sign-message');
    await decide(window, 'Approve');
    await expectPersonalSignature(expectOk(await pending, 'signMessage'), account);
  });

  step('signTypedData (EIP-712, domain on the wallet’s chain) → Approve → viem verifyTypedData is true', async () => {
    const pending = dapp('signTypedData');
    const { window, shown } = await approvalWindow('eth_signTypedData_v4', pending);
    expect(shown).toMatchObject({ title: 'Typed data to sign (EIP-712)', origin: server!.origin });
    expect(shown.testids['typed-data-summary']).toContain('Mail');
    expect(shown.testids['typed-data-summary']).toContain(account.cAddress);
    expect(shown.testids['typed-data-summary']).toContain(String(CHAIN_ID));
    // Shown as it is signed: every integer in decimal (the same digits the signature hashes).
    expect(JSON.parse(shown.testids['typed-domain']!)).toMatchObject({ name: 'XPC dApp test', version: '1', chainId: String(CHAIN_ID) });
    expect(JSON.parse(shown.testids['typed-message']!)).toMatchObject({ contents: 'Hello, Bob!', to: { name: 'Bob' } });
    // Not a permit the wallet reads, for a contract: said to be that contract's to take as an approval.
    expect(shown.testids['typed-unknown']).toMatch(/may take it as your approval/);
    expectDecisionButtons(shown);
    await screenshotApproval(window, 'typed-data');
    await decide(window, 'Approve');
    await expectTypedSignature(expectOk(await pending, 'signTypedData'), account);
  });

  step('sendTransaction → Reject → 4001, and nothing was sent', async () => {
    const nonce = expectOk(await dapp('nonce', evmAddressOf(account)), 'nonce');
    const pending = dapp('sendTransaction');
    const { window, shown } = await approvalWindow('eth_sendTransaction', pending);
    expectTxApproval(shown, nonce);
    await decide(window, 'Reject');
    expectUserRejected(await pending, 'sendTransaction');
    expect(expectOk(await dapp('nonce', evmAddressOf(account)), 'nonce')).toBe(nonce);
    // Asked at a nonce of the site's own: the approval names it beside the one the wallet takes → Reject.
    const atNonce = dapp('request', ...rawPayment(account.cAddress, nonce + 7));
    const asked = await approvalWindow('eth_sendTransaction', atNonce);
    expectSiteNonceNamed(asked.shown, server!.origin, nonce + 7, nonce);
    await decide(asked.window, 'Reject');
    expectUserRejected(await atNonce, "a send at the site's nonce (a raw request)", false);
  });

  step('sendTransaction → Approve → a hash whose receipt succeeds, paying exactly the value', async () => {
    const nonce = expectOk(await dapp('nonce', evmAddressOf(account)), 'nonce');
    const payeeBefore = BigInt(expectOk(await dapp('balance', PAYEE), 'balance'));
    const pending = dapp('sendTransaction');
    const { window, shown } = await approvalWindow('eth_sendTransaction', pending);
    expectTxApproval(shown, nonce);
    await screenshotApproval(window, 'tx');
    await decide(window, 'Approve');
    const hash = expectOk(await pending, 'sendTransaction');
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    const receipt = expectOk(await dapp('waitForReceipt', hash), 'waitForTransactionReceipt');
    expect(receipt).toMatchObject({ status: 'success', transactionHash: hash, gasUsed: '21000' });
    expect(receipt.from.toLowerCase()).toBe(account.cAddress.toLowerCase());
    expect(receipt.to?.toLowerCase()).toBe(PAYEE.toLowerCase());
    expect(BigInt(expectOk(await dapp('balance', PAYEE), 'balance')) - payeeBefore).toBe(PAYMENT_WEI);
    expect(expectOk(await dapp('nonce', evmAddressOf(account)), 'nonce')).toBe(nonce + 1);
    // The exact bytes the window showed are the tx on chain without its signature.
    const raw = (await (await localNetwork()).client.eth.ethCall('eth_getRawTransactionByHash', [hash])) as string;
    expect(Transaction.fromHex(raw).toHex({ includeSignature: false })).toBe(shown.testids['exact-bytes']);
  });

  step('a dApp deploys a contract through viem: the approval says "Deploy a contract" with its size, code hash and address, and what it does (axe) → Approve → the contract is at that address', async () => {
    const pending = dapp('deployContract', DEPLOYED_BYTECODE);
    const { window, shown } = await approvalWindow('eth_sendTransaction', pending);
    expectDeployApproval(shown, server!.origin);
    await expectAccessible(window, 'the deployment approval', (line) => log.add('test', line));
    await screenshotApproval(window, 'deploy');
    await decide(window, 'Approve');
    await expectDeployed(expectOk(await dapp('waitForReceipt', expectOk(await pending, 'deployContract')), 'waitForTransactionReceipt'), shown, account);
  });

  step('xpc_getAddresses answers the account’s X, P and C addresses', async () => {
    expect(expectOk(await dapp('xpcGetAddresses'), 'xpc_getAddresses')).toEqual({
      X: account.xAddress,
      P: account.pAddress,
      C: account.cAddress,
      CBech32: account.cBech32Address,
    });
  });

  step('xpc_signMessage → Approve → { signature, address } signed by the account’s X key', async () => {
    const pending = dapp('xpcSignMessage', XP_MESSAGE, 'X');
    const { window, shown } = await approvalWindow('xpc_signMessage', pending);
    expect(shown).toMatchObject({ title: 'Message to sign', origin: server!.origin });
    expect(shown.pre).toEqual([XP_MESSAGE]);
    expect(shown.testids['message-format']).toBe('Avalanche signed message');
    expect(shown.testids['message-summary']).toContain(account.xAddress);
    expectDecisionButtons(shown);
    await screenshotApproval(window, 'xpc-sign-message');
    await decide(window, 'Approve');
    expectXpSignature(expectOk(await pending, 'xpc_signMessage'), account);
  });

  step('xpc_sendTransaction of an X send the site built → Reject → 4001, nothing sent; → Approve → accepted, the recipient paid', async () => {
    const recipient = freshKey();
    const recipientX = formatAddress('X', 'custom', recipient.shortId);
    const transactionHex = await siteBuiltXSend(recipient, SITE_X_SEND);
    const xFee = (await localNetwork()).ctx.xTxFee;

    const rejected = dapp('xpcSendTransaction', transactionHex, 'X');
    const first = await approvalWindow('xpc_sendTransaction', rejected);
    await decide(first.window, 'Reject');
    const refusal = await rejected;
    expect(refusal.ok).toBe(false);
    if (!refusal.ok) expect(refusal.error.code).toBe(4001);
    expect((await (await localNetwork()).client.getAllUtxos('X', [recipientX])).utxos, 'nothing reached the recipient').toEqual([]);

    const pending = dapp('xpcSendTransaction', transactionHex, 'X');
    const { window, shown } = await approvalWindow('xpc_sendTransaction', pending);
    expect(shown).toMatchObject({ origin: server!.origin, method: 'xpc_sendTransaction' });
    // What is signed, decoded: it completes the tx and the wallet sends it; the recipient, the
    // amount and the fee burned; and the exact unsigned bytes the site handed over.
    expect(shown.testids['tx-action']).toBe('Your signatures complete this transaction: the wallet sends it');
    expect(shown.testids['outputs']).toContain(recipientX);
    expect(shown.testids['outputs']).toContain(`${amountText(SITE_X_SEND, 9)} AVAX`);
    expect(shown.testids['fee']).toBe(`${amountText(xFee, 9)} AVAX burned`);
    expect(shown.testids['exact-bytes']).toBe(transactionHex);
    // Before the bytes: what leaves this wallet, who gets it, and a first payment named as such.
    expect(shown.testids['tx-impact']).toContain('Leaves your wallet');
    expect(shown.testids['tx-impact']).toContain(`Goes to ${recipientX}${amountText(SITE_X_SEND, 9)} AVAX`);
    expect(shown.testids['impact-warnings']).toContain(`This wallet has never sent anything to ${recipientX} before`);
    expect(shown.testids['owner-yours']).toBe(`Yours · ${account.name}, X/P address`);
    expectDecisionButtons(shown);
    await screenshotApproval(window, 'xpc-send-transaction');
    await decide(window, 'Approve');
    const { txID } = expectOk(await pending, 'xpc_sendTransaction') as { txID: string };
    expect(parseId(txID)).toHaveLength(32);

    const { client } = await localNetwork();
    expect((await client.waitForTx('X', txID, { timeoutMs: 30_000, pollMs: 100 })).accepted).toBe(true);
    // The signed tx on the node is the site's unsigned bytes plus the wallet's credentials.
    expect(toHex(await client.avm.getTx(txID))).toMatch(new RegExp(`^${transactionHex.slice(2)}`));
    const theirs = await client.getAllUtxos('X', [recipientX]);
    expect(theirs.utxos.map((u) => ({ tx: cb58Encode(u.txID), amount: u.output.kind === 'TransferOutput' ? u.output.amount : undefined }))).toEqual([{ tx: txID, amount: SITE_X_SEND }]);
  });

  step('xpc_sendTransaction of a P-Chain delegation the site built: the window says what is staked, for which node, until when → Approve → committed', async () => {
    const { client } = await localNetwork();
    const transactionHex = await siteBuiltDelegation(account, 25n * AVAX);
    const pending = dapp('xpcSendTransaction', transactionHex, 'P');
    const { window, shown } = await approvalWindow('xpc_sendTransaction', pending);
    expectDelegationApproval(shown, account, transactionHex);
    await expectAccessible(window, 'the approval of a site-built delegation', (line) => log.add('test', line));
    expectDecisionButtons(shown);
    await screenshotApproval(window, 'xpc-send-delegation');
    await decide(window, 'Approve');
    const { txID } = expectOk(await pending, 'xpc_sendTransaction') as { txID: string };
    expect((await client.waitForTx('P', txID, { timeoutMs: 30_000, pollMs: 100 })).accepted).toBe(true);
    await expectSiteStakeKept(call, txID, 25n * AVAX);
  });

  step('the dApp saw no other provider event (no chain change, no disconnect)', async () => {
    expect((await events()).map((e) => e.event)).toEqual(['connect', 'accountsChanged']);
    // Each of the 12 requests opened its own window (the previous one had closed after its decision).
    expect(approvalPages.size).toBe(12);
    expect([...approvalPages].every((p) => p.isClosed())).toBe(true);
  });

  step('lock and unlock reach the connected dApp (accountsChanged) and not a page of another origin that is not connected', async () => {
    const otherServer = await startDapp();
    const other = await context!.newPage();
    try {
      await other.goto(otherServer.url, { waitUntil: 'load' });
      await other.waitForFunction(() => document.documentElement.dataset['dapp'] === 'ready');
      const connectOnly = [{ event: 'connect', data: { chainId: CHAIN_ID_HEX } }];
      await expect.poll(() => other.evaluate(eventsInPage), { timeout: 10_000 }).toEqual(connectOnly);
      // Any page script sees what the relay posts to its window: count the wallet's event posts.
      const countEventPosts = () => {
        const w = window as unknown as { walletEventPosts: number };
        w.walletEventPosts = 0;
        window.addEventListener('message', (e: MessageEvent<unknown>) => {
          if (typeof e.data === 'object' && e.data !== null && 'event' in e.data) w.walletEventPosts++;
        });
      };
      const eventPosts = (p: Page) => p.evaluate(() => (window as unknown as { walletEventPosts: number }).walletEventPosts);
      await other.evaluate(countEventPosts);
      await page!.evaluate(countEventPosts);

      await call('wallet.lock', {});
      await expect.poll(async () => (await events()).at(-1), { timeout: 10_000 }).toEqual({ event: 'accountsChanged', data: [] });
      await call('wallet.unlock', { password: PASSWORD });
      await expect.poll(async () => (await events()).at(-1), { timeout: 10_000 }).toEqual({ event: 'accountsChanged', data: [account.cAddress] });
      // Both changes went out in the batches that reached the dApp: the other page got neither.
      expect(await eventPosts(page!)).toBe(2);
      expect(await eventPosts(other)).toBe(0);
      expect(await other.evaluate(eventsInPage)).toEqual(connectOnly);
    } finally {
      await other.close();
      await otherServer.close();
    }
  });
  step('wallet_addEthereumChain: the add (by chain ID and RPC host) and the switch are two questions; the switch changes this site only, and Settings puts it back', async () => {
    const rpc = await startChainRpc();
    const otherServer = await startDapp();
    const other = await context!.newPage();
    const addedHex = `0x${ADDED_CHAIN.id.toString(16)}`;
    try {
      await other.goto(otherServer.url, { waitUntil: 'load' });
      await other.waitForFunction(() => document.documentElement.dataset['dapp'] === 'ready');
      const connectOnly = [{ event: 'connect', data: { chainId: CHAIN_ID_HEX } }];
      await expect.poll(() => other.evaluate(eventsInPage), { timeout: 10_000 }).toEqual(connectOnly);
      const eventsBefore = (await events()).length;

      // Add → Approve; then the switch question, on its own → Reject: added, null, still on 0xa868.
      const adding = dapp('addChain', rpc.url);
      const add = await approvalWindow('wallet_addEthereumChain', adding, (s) => s.title === 'Add a chain');
      expectAddChainApproval(add.shown, server!.origin, rpc.host);
      await expectAccessible(add.window, 'the add-chain approval', (line) => log.add('test', line));
      await screenshotApproval(add.window, 'add-chain');
      await add.window.getByRole('button', { name: 'Approve', exact: true }).click();
      const question = await approvalWindow('wallet_addEthereumChain', adding, (s) => s.title === 'Switch chain');
      expectSwitchQuestion(question.shown, server!.origin, 'wallet_addEthereumChain', rpc.host, true);
      await expectAccessible(question.window, 'the switch-chain approval', (line) => log.add('test', line));
      await screenshotApproval(question.window, 'add-chain-switch');
      await decide(question.window, 'Reject');
      expect(expectOk(await adding, 'addChain')).toBeNull();
      expect(expectOk(await dapp('chainId'), 'chainId')).toEqual({ viem: CHAIN_ID, provider: CHAIN_ID_HEX });
      const { chains } = await call('sites.list', {});
      expect(chains.map((c) => ({ chainId: c.chainId, name: c.name, usedBy: c.usedBy }))).toEqual([{ chainId: String(ADDED_CHAIN.id), name: ADDED_CHAIN.shownName, usedBy: 0 }]);

      // Switch → Approve: this site is on the added chain and hears chainChanged; the other page neither.
      const switching = dapp('switchChain', ADDED_CHAIN.id);
      const sw = await approvalWindow('wallet_switchEthereumChain', switching);
      expectSwitchQuestion(sw.shown, server!.origin, 'wallet_switchEthereumChain', rpc.host, false);
      await decide(sw.window, 'Approve');
      expect(expectOk(await switching, 'switchChain')).toBeNull();
      expect(expectOk(await dapp('chainId'), 'chainId')).toEqual({ viem: ADDED_CHAIN.id, provider: addedHex });
      expect(expectOk(await dapp('request', 'eth_blockNumber'), 'eth_blockNumber')).toBe('0x1');
      // A payment there: the approval names the chain by its ID and RPC host, the site's name only as its claim → Reject.
      const paying = dapp('request', ...rawPayment(account.cAddress));
      const payment = await approvalWindow('eth_sendTransaction', paying);
      expectPaymentOnAddedChain(payment.shown, server!.origin, rpc.host);
      await decide(payment.window, 'Reject');
      expectUserRejected(await paying, 'the payment on the added chain (a raw request)', false);
      await expect.poll(async () => (await events()).slice(eventsBefore), { timeout: 10_000 }).toEqual([{ event: 'chainChanged', data: addedHex }]);
      expect(expectOk((await other.evaluate(runInPage, ['chainId', []] as [string, unknown[]])) as Outcome<unknown>, 'other chainId')).toEqual({ viem: CHAIN_ID, provider: CHAIN_ID_HEX });
      const { sites } = await call('sites.list', {});
      expect(sites.find((x) => x.origin === server!.origin)?.chain).toEqual({ chainId: String(ADDED_CHAIN.id), name: ADDED_CHAIN.shownName });

      // The other site asks to switch to that chain: the question names the site that added it → Reject.
      const otherSwitch = other.evaluate(runInPage, ['switchChain', [ADDED_CHAIN.id]] as [string, unknown[]]) as Promise<Outcome<unknown>>;
      const foreign = await approvalWindow('wallet_switchEthereumChain', otherSwitch);
      expectSwitchToAnotherSitesChain(foreign.shown, otherServer.origin, server!.origin, rpc.host);
      await decide(foreign.window, 'Reject');
      expectUserRejected(await otherSwitch, 'the other site\'s switch');

      // Settings → Connected sites → "Use the wallet's network": back on 0xa868, told so.
      await call('sites.resetChain', { origin: server!.origin });
      await expect.poll(async () => (await events()).slice(eventsBefore), { timeout: 10_000 }).toEqual([
        { event: 'chainChanged', data: addedHex },
        { event: 'chainChanged', data: CHAIN_ID_HEX },
      ]);
      expect(await other.evaluate(eventsInPage)).toEqual(connectOnly);
    } finally {
      await other.close();
      await otherServer.close();
      await rpc.close();
    }
  });
  step('a site request waiting for its approval outlives a stopped service worker: the page script sends it again, the same approval answers it', async () => {
    const pending = dapp('signMessage');
    const { window, shown } = await approvalWindow('personal_sign', pending);
    expectPersonalSignApproval(shown, server!.origin, account);
    const worker = await ExtensionWorkerWatch.attach(context!, page!, extensionId, log);
    try {
      // The content script's message dies with the worker (Chrome rejects it: "the message channel
      // closed before a response was received"); its relay sends it again, which starts a new
      // worker that finds the request waiting. Only the resent request can carry the answer (the
      // first one's channel is gone), and the window closes on Approve only if no second approval
      // waits (decide). A worker running again alone proves little: the approval window's own poll
      // starts one too; it is waited for so that Approve reaches a live background.
      await worker.stop();
      await expect.poll(() => worker.ranAgain(), { message: 'a worker runs again (the relay or the approval window started it)', timeout: 15_000 }).toBe(true);
      await decide(window, 'Approve');
      await expectPersonalSignature(expectOk(await pending, 'signMessage'), account);
    } finally {
      await worker.detach();
    }
  });

  step("a site request waiting for its approval outlives its page's stay in the back/forward cache: sent again once the page is back, the same approval answers it", async () => {
    await page!.goto(`${server!.origin}${CACHEABLE_PATH}`, { waitUntil: 'load' });
    await page!.waitForFunction(() => document.documentElement.dataset['dapp'] === 'ready');
    // Started in the page, its outcome kept there: this test's own evaluate would die with the
    // navigation, the page itself waits in the cache.
    await page!.evaluate(keepInPage, ['cached', 'signMessage', []] as [string, string, unknown[]]);
    const answered = new Promise<Outcome<unknown>>(() => undefined);
    const { window, shown } = await approvalWindow('personal_sign', answered);
    expectPersonalSignApproval(shown, server!.origin, account);
    // Leaving puts the page in the cache, and Chrome closes its message channel: the request's
    // answer can no longer come back that way.
    await page!.goto(`${server!.origin}${AWAY_PATH}`, { waitUntil: 'load' });
    // A page restored from the cache fires pageshow, not load.
    await page!.goBack({ waitUntil: 'commit' });
    // The relay sends the request again, which joins the one waiting for this window (a second
    // approval would keep the window open: decide).
    await expectSignatureAfterCacheReturn(() => page!.evaluate(cacheStateInPage, 'cached'), () => decide(window, 'Approve'), account);
  });
});
