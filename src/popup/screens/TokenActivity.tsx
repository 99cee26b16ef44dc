// What Activity adds for the C-Chain: above its list, the account's txs still waiting (speed up,
// cancel); below it, the account's token transfers from the chain's logs.
import { PendingEvm } from '../components/PendingEvm.js';
import { TokenTransfers } from '../components/TokenTransfers.js';
import type { Selection } from '../../shared/messages.js';

export function TokenActivity({ part, selection, listKey }: { part: 'pending' | 'transfers'; selection: Selection | undefined; listKey: string }) {
  return part === 'pending' ? <PendingEvm selection={selection} listKey={listKey} /> : <TokenTransfers listKey={listKey} />;
}
