// How a tx a site had the wallet send is listed in Activity: an X-Chain operation by what it does,
// so a site's transfer of the user's NFT is never listed as "Minted".
import { describe, expect, it } from 'vitest';
import { activityKind } from '../../src/background/site-avalanche.js';
import type { ExternalTx } from '../../src/core/external-tx.js';

const operation = (...kinds: string[]) => ({ tx: { kind: 'OperationTx', operations: kinds.map((kind) => ({ op: { kind } })) } }) as unknown as ExternalTx;
const tx = (kind: string) => ({ tx: { kind } }) as unknown as ExternalTx;

describe('a site tx in Activity', () => {
  it('an X-Chain operation is listed by what it does: an NFT sent (whatever else it does), an NFT minted, or a mint', () => {
    expect(activityKind(operation('NftTransferOperation'))).toBe('nft-transfer');
    expect(activityKind(operation('NftMintOperation'))).toBe('nft-mint');
    expect(activityKind(operation('SecpMintOperation', 'NftTransferOperation'))).toBe('nft-transfer');
    expect(activityKind(operation('SecpMintOperation', 'NftMintOperation'))).toBe('nft-mint');
    expect(activityKind(operation('SecpMintOperation'))).toBe('mint');
    expect(activityKind(operation())).toBe('mint');
  });

  it('other txs by their kind', () => {
    expect(['ExportTx', 'ImportTx', 'CreateAssetTx', 'BaseTx', 'AddPermissionlessDelegatorTx'].map((k) => activityKind(tx(k)))).toEqual(['export', 'import', 'create-asset', 'send', 'send']);
  });
});
