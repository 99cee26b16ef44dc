// The count an approval shows ("this site had you call this address N times before"): per site,
// per chain and per address, so calls a site had approved on a chain of its own never vouch for
// the same address on the C-Chain.
import { describe, expect, it } from 'vitest';
import { SiteContracts } from '../../src/background/site-contracts.js';
import { memoryStores } from '../../src/background/storage.js';

const SITE = 'https://dapp.example';
const ADDRESS = '0x52C84043CD9c865236f11d9Fc9F56aa003c1f922';
const C_CHAIN = 'avalanche:local';
const SITE_CHAIN = 'evm:1:https://rpc.evil.example';

describe('calls a site had the user make', () => {
  it('are counted per chain: three on a chain the site added leave the C-Chain at none', async () => {
    const contracts = new SiteContracts(memoryStores().local);
    for (let i = 0; i < 3; i++) await contracts.note(SITE, SITE_CHAIN, ADDRESS);
    expect(await contracts.calls(SITE, SITE_CHAIN, ADDRESS.toLowerCase())).toBe(3);
    expect(await contracts.calls(SITE, C_CHAIN, ADDRESS)).toBe(0);
    await contracts.note(SITE, C_CHAIN, ADDRESS);
    expect(await contracts.calls(SITE, C_CHAIN, ADDRESS)).toBe(1);
    expect(await contracts.calls('https://other.example', C_CHAIN, ADDRESS)).toBe(0);
  });
});
