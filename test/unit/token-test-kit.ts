// The token tests' account, token and other address, and the tokens service over a stand-in node
// (src/background/services/tokens.ts), with a log scan already stored for it.
import type { EthApi } from '../../src/core/node/eth.js';
import { memoryStores } from '../../src/background/storage.js';
import type { ScanState } from '../../src/background/token-scan.js';
import { TokensService } from '../../src/background/services/tokens.js';

export const ME = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
export const TOKEN = '0x1CB79692389258FD0da4911A4947dF2C51DC7A47';
export const OTHER = '0x2222222222222222222222222222222222222222';

/** The tokens service over a stand-in node `eth`, for account 'acc' on network 'net', with `stored` in storage. */
export async function tokensOver(eth: Partial<EthApi>, stored: Record<string, unknown> = {}) {
  const local = memoryStores().local;
  await local.set(stored);
  const ctx = { preset: { id: 'net' }, account: { id: 'acc' }, engine: { node: { eth }, evmAddress: ME } };
  return new TokensService({ open: async () => ctx, selected: async () => ctx } as never, {} as never, local);
}
export const scanned = (s: Partial<ScanState>): Record<string, ScanState> => ({ 'xpc.tokenscan.net.acc': { fromBlock: '0', toBlock: '100', updatedAt: 1, transfers: [], approvals: [], ...s } });
