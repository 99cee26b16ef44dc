import { describe, expect, it } from 'vitest';
import { describeTx } from '../../src/core/describe.js';
import { ValidationError } from '../../src/core/errors.js';
import { formatAddress } from '../../src/core/encoding.js';
import { formatEvmAddress } from '../../src/core/evm-address.js';
import type { Utxo } from '../../src/core/codec/index.js';
import { makeOwners, type ChainContext } from '../../src/core/tx/context.js';
import { buildCExport } from '../../src/core/tx/c.js';
import { buildXImport, buildXMint, buildXNftTransfer, buildXSend } from '../../src/core/tx/x.js';
import { txImpact } from '../../src/core/tx-impact.js';
import { cb58Encode } from '../../src/core/encoding.js';
import { ownedAddressSet, spendableUtxos } from '../../src/core/tx/utxos.js';

const id = (n: number) => Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? n : 7));
const ctx: ChainContext = {
  networkID: 12345, hrp: 'local', xChainID: id(1), pChainID: new Uint8Array(32), cChainID: id(3), avaxAssetID: id(9), xTxFee: 1_000_000n, xCreateAssetTxFee: 1_000_000n,
};
const me = new Uint8Array(20).fill(1);
const bob = new Uint8Array(20).fill(2);
const utxo = (n: number, amount: bigint): Utxo => ({ txID: id(100 + n), outputIndex: n, assetID: ctx.avaxAssetID, output: { kind: 'TransferOutput', amount, owners: makeOwners([me]) } });

describe('describing the exact tx for an approval', () => {
  it('an X send: inputs with their owners, outputs with addresses, burned fee and memo text', () => {
    const spent = [utxo(1, 5_000_000n)];
    const built = buildXSend({
      ctx, pool: spendableUtxos(spent, ownedAddressSet([me]), 0n), changeOwners: makeOwners([me]),
      payments: [{ assetID: ctx.avaxAssetID, amount: 2_000_000n, owners: makeOwners([bob]) }], memo: new TextEncoder().encode('invoice 7'),
    });
    const view = describeTx(built.tx, ctx, built.spent);
    expect(view).toMatchObject({ chain: 'X', kind: 'BaseTx', burned: '1000000', memoText: 'invoice 7', networkID: 12345 });
    expect(view.inputs).toEqual([
      expect.objectContaining({ amount: '5000000', owners: { addresses: [formatAddress('X', 'local', me)], threshold: 1, locktime: '0' } }),
    ]);
    expect(view.outputs.map((o) => [o.owners!.addresses[0], o.amount]).sort()).toEqual(
      [[formatAddress('X', 'local', bob), '2000000'], [formatAddress('X', 'local', me), '2000000']].sort(),
    );
  });

  it("an NFT transfer: the NFT the operation spends is an input with its owner, so it shows as leaving the wallet", () => {
    const nftAsset = id(60);
    const nft: Utxo = { txID: id(120), outputIndex: 2, assetID: nftAsset, output: { kind: 'NftTransferOutput', groupID: 0, payload: new Uint8Array([1]), owners: makeOwners([me]) } };
    const built = buildXNftTransfer({ ctx, pool: spendableUtxos([utxo(1, 5_000_000n)], ownedAddressSet([me]), 0n), changeOwners: makeOwners([me]), nftUtxo: nft, owned: ownedAddressSet([me]), to: makeOwners([bob]) });
    const view = describeTx(built.tx, ctx, built.spent);
    const meX = formatAddress('X', 'local', me);
    expect(view.inputs).toContainEqual(expect.objectContaining({ assetID: cb58Encode(nftAsset), kind: 'NftTransferOutput', operation: true, owners: { addresses: [meX], threshold: 1, locktime: '0' } }));
    const impact = txImpact(view, { own: new Map([[meX.slice(2), { account: 'A', role: 'X/P address', address: meX }]]), paidBefore: new Set(), avaxAssetID: cb58Encode(ctx.avaxAssetID), nowSeconds: 0n });
    expect(impact.assets.find((a) => a.assetID === cb58Encode(nftAsset))).toMatchObject({ nonFungible: 'items', leaves: '1', burned: '0' });
  });

  it("a mint's right the wallet cannot see is still a right to mint (the kind its operation spends), so nothing reads as destroyed or coming back that was not", () => {
    const asset = id(61);
    const right: Utxo = { txID: id(121), outputIndex: 0, assetID: asset, output: { kind: 'MintOutput', owners: makeOwners([me]) } };
    const built = buildXMint({ ctx, pool: spendableUtxos([utxo(1, 5_000_000n)], ownedAddressSet([me]), 0n), changeOwners: makeOwners([me]), mintUtxo: right, owned: ownedAddressSet([me]), amount: 5n, to: makeOwners([me]) });
    // Described without the right's UTXO (a site's tx spending one the wallet does not hold).
    const view = describeTx(built.tx, ctx, built.spent.filter((u) => u !== right));
    expect(view.inputs).toContainEqual(expect.objectContaining({ assetID: cb58Encode(asset), kind: 'MintOutput', unknownUtxo: true, operation: true }));
    const impact = txImpact(view, { own: new Map(), paidBefore: new Set(), avaxAssetID: cb58Encode(ctx.avaxAssetID), nowSeconds: 0n });
    expect(impact.warnings.map((w) => w.kind)).not.toContain('burn');
    expect(impact.assets.filter((a) => a.nonFungible)).toEqual([expect.objectContaining({ nonFungible: 'rights', fromOthers: '1', burned: '0' })]);
  });

  it('a memo that could hide or reorder what it says (a right-to-left override) is shown as hex, not as text', () => {
    const memo = new TextEncoder().encode('refund \u202Efdp.exe');
    const built = buildXSend({ ctx, pool: spendableUtxos([utxo(1, 5_000_000n)], ownedAddressSet([me]), 0n), changeOwners: makeOwners([me]), payments: [{ assetID: ctx.avaxAssetID, amount: 1n, owners: makeOwners([bob]) }], memo });
    const view = describeTx(built.tx, ctx, built.spent);
    expect(view.memoText).toBeUndefined();
    expect(view.memoHex).toBe(Buffer.from(memo).toString('hex'));
  });

  it('an input whose UTXO is unknown is flagged, not hidden', () => {
    const built = buildXSend({
      ctx, pool: spendableUtxos([utxo(1, 5_000_000n)], ownedAddressSet([me]), 0n), changeOwners: makeOwners([me]),
      payments: [{ assetID: ctx.avaxAssetID, amount: 1n, owners: makeOwners([bob]) }],
    });
    expect(describeTx(built.tx, ctx, []).inputs[0]).toMatchObject({ unknownUtxo: true });
  });

  it('cross-chain legs name the other chain: a C export and an X import from C', () => {
    const exp = buildCExport({ ctx, from: bob, nonce: 0n, balanceWei: 10n ** 18n, destination: 'X', amount: 3n, to: makeOwners([me]), baseFeeWei: 1n });
    const ev = describeTx(exp.tx, ctx, []);
    expect(ev.inputs[0]).toMatchObject({ chain: 'C', kind: 'EvmAccount', evmAddress: formatEvmAddress(bob), amount: (3n + exp.fee).toString() });
    expect(ev.outputs[0]).toMatchObject({ chain: 'X', amount: '3' });
    expect(ev.burned).toBe(exp.fee.toString());
    const atomic = [utxo(2, 4_000_000n)];
    const [imp] = buildXImport({ ctx, pool: [], changeOwners: makeOwners([me]), source: 'C', atomicUtxos: spendableUtxos(atomic, ownedAddressSet([me]), 0n), to: makeOwners([me]) });
    const iv = describeTx(imp!.tx, ctx, imp!.spent);
    expect(iv.inputs[0]).toMatchObject({ chain: 'C', amount: '4000000' });
    expect(iv.outputs[0]).toMatchObject({ chain: 'X', amount: '3000000' });
    // A chain none of X, P and C is never read as one of them: describing it is refused.
    const elsewhere = { ...imp!.tx, sourceChain: id(4) };
    expect(() => describeTx(elsewhere, ctx, imp!.spent)).toThrow(/a chain this wallet does not know/);
    expect(() => describeTx({ ...exp.tx, destinationChain: id(4) }, ctx, [])).toThrow(ValidationError);
  });
});

describe('owners as the approval names them', () => {
  it('an owner with no addresses (threshold 0, which the node allows) is anyone, not nobody: no signature is needed to act as it', () => {
    const nobody = { locktime: 0n, threshold: 0, addresses: [] };
    const tx = {
      vm: 'pvm' as const, networkID: 12345, blockchainID: ctx.pChainID, outputs: [], inputs: [], memo: new Uint8Array(),
      kind: 'AddAutoRenewedValidatorTx' as const, nodeID: new Uint8Array(20).fill(5), signer: { kind: 'EmptySigner' as const },
      stake: [{ assetID: ctx.avaxAssetID, output: { kind: 'TransferOutput' as const, amount: 1n, owners: makeOwners([me]) } }],
      validationRewardsOwner: makeOwners([me]), delegationRewardsOwner: makeOwners([me]), validatorAuthority: nobody,
      delegationShares: 20_000, autoCompoundRewardShares: 0, period: 3_600n,
    };
    const view = describeTx(tx, ctx, []);
    expect(view.details!.find((d) => d.label === 'Can change or stop it')!.value).toBe('anyone (no signature needed)');
  });
});
