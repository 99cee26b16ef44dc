// What the wallet-service test files share: a balance row's spendable amount, the fees a move is
// approved with, and the wait for a move to end.
import type { Wallet } from '../../src/background/services/index.js';
import type { BalancesView } from '../../src/shared/messages.js';

export function spendable(view: BalancesView, chain: 'X' | 'P' | 'C', assetID: string): bigint {
  return BigInt(view.balances.find((b) => b.chain === chain && b.assetID === assetID)?.spendable ?? '0');
}

/** What the user approves for a move: both estimated fees. */
export function approved(est: { exportFee: string; importFee: string }): string {
  return (BigInt(est.exportFee) + BigInt(est.importFee)).toString();
}

export async function waitForTransfer(wallet: Wallet, id: string) {
  for (let i = 0; i < 200; i++) {
    const t = (await wallet.transfers.transfersList()).transfers.find((x) => x.id === id)!;
    if (t.state === 'completed' || t.state === 'failed') return t;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('transfer did not finish');
}
