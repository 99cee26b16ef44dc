// Sign-In with Ethereum (EIP-4361) by personal_sign: a sign-in message for another domain than the
// site asking is said so in its approval (the site would get a signature that signs the user in there).
import { describe, expect, it } from 'vitest';
import { ApprovalQueue } from '../../src/background/approvals.js';
import { ProviderService, type Site, type SiteWallet } from '../../src/background/provider.js';
import { signInElsewhere } from '../../src/background/site-evm.js';
import { SiteStore } from '../../src/background/sites.js';
import { memoryStores } from '../../src/background/storage.js';
import { PROVIDER_CHANNEL } from '../../src/shared/provider-protocol.js';
import { ACCOUNT } from './site-account.js';

const siwe = (domain: string) =>
  `${domain} wants you to sign in with your Ethereum account:\n${ACCOUNT.cAddress}\n\nSign in.\n\nURI: https://${domain}\nVersion: 1\nChain ID: 43114\nNonce: 32891756\nIssued At: 2026-01-02T03:04:05Z`;
const hex = (text: string) => `0x${Buffer.from(text, 'utf8').toString('hex')}`;

describe('a sign-in message for another site', () => {
  it('is told from one for the site itself (its host and port), found wherever in the text it starts', () => {
    const site = 'https://app.example';
    expect(signInElsewhere(siwe('app.example'), site)).toBe(false);
    expect(signInElsewhere(siwe('https://app.example'), site)).toBe(false);
    expect(signInElsewhere(siwe('APP.example:443'), site)).toBe(false);
    expect(signInElsewhere('Log in to app.example', site)).toBe(false);
    expect(signInElsewhere(siwe('not a host'), site)).toBe(true);
    expect(signInElsewhere(siwe('bank.example'), site)).toBe(true);
    expect(signInElsewhere(siwe('app.example.evil.example'), site)).toBe(true);
    expect(signInElsewhere(siwe('app.example:8443'), site)).toBe(true);
    // The host is what counts (a scheme it names aside): another port is another site.
    expect(signInElsewhere(siwe('http://app.example'), site)).toBe(false);
    expect(signInElsewhere(siwe('app.example@bank.example'), site)).toBe(true);
    expect(signInElsewhere(`Welcome!\n${siwe('bank.example')}`, site)).toBe(true);
    expect(signInElsewhere(siwe('localhost:3000'), 'http://localhost:3000')).toBe(false);
    // A domain that parses to the site's host but that a loose check could read as another's.
    expect(signInElsewhere(siwe('bank.example@app.example'), site)).toBe(true);
    expect(signInElsewhere(siwe('app.example\\bank.example'), site)).toBe(true);
    expect(signInElsewhere(siwe('app.example/bank.example'), site)).toBe(true);
    // Every sign-in in the text counts, not only the first.
    expect(signInElsewhere(`${siwe('app.example')}\n\n${siwe('bank.example')}`, site)).toBe(true);
  });

  it("is flagged in personal_sign's approval, sent as text or as hex, and for the frame that asks, not the page around it", async () => {
    const stores = memoryStores();
    const approvals = new ApprovalQueue(stores.session);
    const sites = new SiteStore(stores.local);
    const wallet = { accountsList: async () => ({ accounts: [ACCOUNT], selectedId: ACCOUNT.id }) } as unknown as SiteWallet;
    // Each ask a minute after the last "no": a test asking again is no page asking in a loop.
    let clock = 0;
    const provider = new ProviderService({ now: () => (clock += 60_000), wallet, session: { isUnlocked: () => true, idleMaybeDue: () => false, checkIdle: async () => false } as never, approvals, sites, sessionArea: stores.session, openApprovalWindow: async () => undefined, notifyPages: () => undefined });
    let n = 0;
    const summaryOf = async (message: string, site: Site) => {
      await sites.grant(site.frameOrigin ?? site.origin, [ACCOUNT.id]);
      const answer = provider.handle({ channel: PROVIDER_CHANNEL, requestId: `r${++n}`, method: 'personal_sign', params: [message, ACCOUNT.cAddress] }, site);
      await expect.poll(async () => (await approvals.list()).length).toBe(1);
      const [pending] = await approvals.list();
      await approvals.decide(pending!.id, false);
      await answer;
      return pending!.summary as { signInElsewhere?: true; message: string };
    };
    const top: Site = { origin: 'https://app.example' };
    expect((await summaryOf(siwe('app.example'), top)).signInElsewhere).toBeUndefined();
    expect((await summaryOf(siwe('bank.example'), top)).signInElsewhere).toBe(true);
    expect((await summaryOf(hex(siwe('bank.example')), top)).signInElsewhere).toBe(true);
    // Hidden characters make the message show as hex; the sign-in is still read from its bytes.
    expect(await summaryOf(hex(`\u200b${siwe('bank.example')}`), top)).toMatchObject({ signInElsewhere: true, message: expect.stringMatching(/^0x/) });
    // A frame of another origin inside app.example gets the signature: app.example's sign-in is not its own.
    expect((await summaryOf(siwe('app.example'), { origin: 'https://app.example', frameOrigin: 'https://widget.example' })).signInElsewhere).toBe(true);
  });
});
