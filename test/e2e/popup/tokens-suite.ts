// The token screens' e2e suite both browsers run (chromium-tokens.e2e.test.ts,
// firefox-tokens.e2e.test.ts): a fresh wallet made through onboarding, the local node added in
// Settings, a test ERC-20 deployed from the genesis key with part of its supply and some AVAX given
// to the wallet's C-Chain address; then the token added, sent and seen in Activity, and an allowance
// given with the wallet's key outside the wallet revoked through the popup (steps-tokens.ts); then
// an ERC-721 minted to the wallet, added, listed and one NFT sent by its ID (steps-nfts.ts); then a
// stuck C-Chain tx sped up and another cancelled through their reviews (steps-speedup.ts).
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { formatEvmAddress } from '../../../src/core/evm-address.js';
import { deriveEvmKey, HdRoot, mnemonicToSeed } from '../../../src/core/keys.js';
import { GENESIS_KEY } from '../../integration/fixture.js';
import { artifactPath, clearArtifacts, flowSteps, launchOrSaveLog, slug, Timings } from '../artifacts.js';
import { startRpcProxy } from '../loopback.js';
import { PopupDriver } from './driver.js';
import type { BrowserUnderTest, UiRun } from './run.js';
import { addTokenByAddress, deployTestToken, revokeAllowance, sendToken, type TokenChain, tokenActivityAndAllowances } from './steps-tokens.js';
import { addAndSelectNode, createWallet } from './steps-wallet.js';
import { addAndSendNft } from './steps-nfts.js';
import { speedUpAndCancel } from './steps-speedup.js';

const TITLE = { chromium: 'Chromium', firefox: 'Firefox ESR' } as const;

/** What this suite needs of a browser: one fresh profile with the popup open. */
export type TokenBrowser = Pick<BrowserUnderTest, 'name' | 'log' | 'launch' | 'saveFailure' | 'close'>;

export function describeTokenUi(browser: TokenBrowser): void {
  describe(`${TITLE[browser.name]}: C-Chain tokens in the popup, clicked through, against the local node`, () => {
    const prefix = `${browser.name}-tokens-`;
    const timings = new Timings();
    const { log } = browser;
    const run = { browser, log, prefix } as unknown as UiRun;
    let chain: TokenChain;
    let recipient = '';

    const step = flowSteps(timings, async (failed) => {
      const name = `${prefix}FAILED-${slug(failed)}`;
      if (run.ui && !run.ui.page.isClosed()) await run.ui.page.screenshot(artifactPath(`${name}.png`)).catch(() => undefined);
      log.save(`${name}.console.log`);
      browser.saveFailure?.(name);
      console.error(`[e2e ${browser.name}-tokens] step "${failed}" failed; artifacts: ${name}*`);
    });

    beforeAll(() =>
      launchOrSaveLog(log, prefix, `${browser.name}-tokens`, async () => {
        clearArtifacts(prefix);
        run.proxy = await startRpcProxy(inject('nodeUrl'));
        const started = Date.now();
        run.ui = new PopupDriver(await browser.launch(), prefix, log);
        timings.add('launch', Date.now() - started);
      }),
    );

    afterAll(async () => {
      await browser.close();
      await run.proxy?.close();
      log.save(`${prefix}console.log`);
      console.log(timings.summary(`${browser.name}-tokens`));
    });

    step('a new wallet on the local node; a test ERC-20 deployed from the genesis key gives it tokens and AVAX for fees', async () => {
      await createWallet(run);
      await addAndSelectNode(run.ui, run.proxy.url);
      chain = await deployTestToken(inject('nodeUrl'), run.cAddress);
    });
    step('Tokens: adds the token by its address (what the contract says and the balance shown first), then lists it with its exact balance', () => addTokenByAddress(run.ui, chain));
    step('sends some of it through Send → Review → Confirm; accepted; the recipient holds it on the node, the wallet the rest', async () => {
      recipient = await sendToken(run.ui, chain, run.cAddress);
    });
    step('Activity lists both token transfers in token units with their counterparties; Allowances says none; both pass axe', () =>
      tokenActivityAndAllowances(run.ui, recipient, formatEvmAddress(GENESIS_KEY.evmAddress)),
    );
    step('an unlimited allowance to an ordinary account is listed as such and revoked through its review; the node then says 0', async () => {
      const key = deriveEvmKey(HdRoot.fromSeed(await mnemonicToSeed(run.words.join(' '))), 0);
      await revokeAllowance(run.ui, chain, run.cAddress, key.secret);
    });
    step('an ERC-721 minted to the wallet: added by its address, its NFT listed (axe), sent by token ID through Review → Confirm; accepted, and the recipient owns it on the node', () =>
      addAndSendNft(run.ui, inject('nodeUrl'), run.cAddress),
    );
    step('a stuck tx (fee cap 0) sped up, another cancelled, each through its review (same nonce, old fee against new; axe); on the node each nonce mined as the replacement, and Activity shows the stuck ones replaced', async () => {
      const key = deriveEvmKey(HdRoot.fromSeed(await mnemonicToSeed(run.words.join(' '))), 0);
      await speedUpAndCancel(run.ui, inject('nodeUrl'), run.cAddress, key.secret);
    });
  });
}
