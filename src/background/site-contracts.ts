// Which contracts each site had the user call: every eth_sendTransaction the user approved counts
// one call of its `to`, per site (requesterOf), chain (chainKeyOf: calls a site had approved on a
// chain of its own say nothing of the C-Chain) and address (storage.local `xpc.siteContracts`).
// An approval names a spender by this: "this site had you call it N times before" or "never" —
// the wallet cannot know which contracts are a site's own, but it knows the user's history with
// the site (docs/tokens.md).
import { isRecord } from '../core/rpc.js';
import { oneAtATime, type StorageArea } from './storage.js';

export const SITE_CONTRACTS_KEY = 'xpc.siteContracts';
const MAX_SITES = 200;
const MAX_PER_SITE = 64;

type Table = Record<string, Record<string, number>>;

const tableKey = (requester: string, chain: string): string => `${requester} ${chain}`;

export class SiteContracts {
  constructor(private readonly local: StorageArea) {}

  private async table(): Promise<Table> {
    const v = (await this.local.get([SITE_CONTRACTS_KEY]))[SITE_CONTRACTS_KEY];
    return isRecord(v) ? (v as Table) : {};
  }

  async calls(requester: string, chain: string, address: string): Promise<number> {
    return (await this.table())[tableKey(requester, chain)]?.[address.toLowerCase()] ?? 0;
  }

  /** Counts one approved call; the oldest sites and contracts make room when the table is full. */
  note(requester: string, chain: string, address: string): Promise<void> {
    const by = tableKey(requester, chain);
    return oneAtATime(SITE_CONTRACTS_KEY, async () => {
      const t = await this.table();
      const { [by]: mine = {}, ...others } = t;
      const key = address.toLowerCase();
      const { [key]: n = 0, ...rest } = mine;
      // Most recent last: what is cut is what was used longest ago.
      const site = Object.fromEntries([...Object.entries(rest), [key, n + 1]].slice(-MAX_PER_SITE));
      const next = Object.fromEntries([...Object.entries(others), [by, site]].slice(-MAX_SITES));
      await this.local.set({ [SITE_CONTRACTS_KEY]: next });
    });
  }
}
