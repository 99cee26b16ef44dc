// The protocol library as an outside user sees it: one import (src/core/index.ts). Every kind of
// tx the builders make is built, signed in one call and verified from its bytes alone.
import { describe, expect, it } from 'vitest';
import {
  buildCExport,
  buildCImport,
  buildPExport,
  buildPImport,
  buildPSend,
  buildXCreateAsset,
  buildXExport,
  buildXImport,
  buildXMint,
  buildXNftMint,
  buildXNftTransfer,
  buildXSend,
  type BuiltTx,
  type ChainContext,
  decodeSignedTx,
  deriveEvmKey,
  deriveXpKey,
  eip1559Fees,
  evmTxNonce,
  fixedCapState,
  fromHex,
  HdRoot,
  makeOwners,
  mnemonicToSeed,
  nftFamilyState,
  ownedAddressSet,
  parseId,
  PLAIN_TRANSFER_GAS,
  signBuilt,
  SigningError,
  signEvmTx,
  spendableUtxos,
  type Utxo,
  variableCapState,
  verifySignedTx,
  type Vm,
} from '../../src/core/index.js';

const id = (n: number): Uint8Array => Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? n : i));
const MNEMONIC = 'test test test test test test test test test test test junk';

describe('src/core/index.ts: build, sign, verify every kind of tx from one import', async () => {
  const root = HdRoot.fromSeed(await mnemonicToSeed(MNEMONIC));
  const key = deriveXpKey(root, 0, 0, 0);
  const stranger = deriveXpKey(root, 1, 0, 0);
  const evm = deriveEvmKey(root, 0);
  const ctx: ChainContext = {
    networkID: 1337,
    hrp: 'custom',
    xChainID: id(1),
    pChainID: new Uint8Array(32),
    cChainID: id(3),
    avaxAssetID: id(9),
    xTxFee: 1_000_000n,
    xCreateAssetTxFee: 1_000_000n,
  };
  const me = makeOwners([key.shortId]);
  const owned = ownedAddressSet([key.shortId]);
  let next = 100;
  const utxo = (amount: bigint, assetID = ctx.avaxAssetID): Utxo => ({ txID: id(next++), outputIndex: 0, assetID, output: { kind: 'TransferOutput', amount, owners: me } });
  const pool = () => spendableUtxos([utxo(50_000_000n), utxo(30_000_000n)], owned, 0n);
  const pFee = { weights: [1n, 1000n, 1000n, 4n] as const, gasPriceNavax: 1n };
  const vmOf = (b: BuiltTx): Vm => b.tx.vm;

  /** Signs in one call, verifies from the bytes, and checks a stranger's key cannot sign it. */
  function signsAndVerifies(built: BuiltTx): void {
    const signed = signBuilt(built, [key, evm]);
    expect(signed.complete).toBe(true);
    verifySignedTx(signed.signedBytes, vmOf(built), built.spent);
    expect(decodeSignedTx(signed.signedBytes, vmOf(built)).unsigned).toEqual(built.tx);
    expect(parseId(signed.txID)).toHaveLength(32);
    expect(() => signBuilt(built, [stranger])).toThrow(SigningError);
    // One signature byte changed: the bytes no longer verify.
    const tampered = signed.signedBytes.slice();
    tampered[tampered.length - 2]! ^= 0x01;
    expect(() => verifySignedTx(tampered, vmOf(built), built.spent)).toThrow();
  }

  it('X: send, create fixed-cap / variable-cap / NFT assets, mint, mint an NFT, transfer it, export, import', () => {
    signsAndVerifies(buildXSend({ ctx, pool: pool(), changeOwners: me, payments: [{ assetID: ctx.avaxAssetID, amount: 1_000n, owners: me }] }));
    for (const state of [fixedCapState([{ owners: me, amount: 10n }]), variableCapState([me]), nftFamilyState([me])]) {
      signsAndVerifies(buildXCreateAsset({ ctx, pool: pool(), changeOwners: me, name: 'Index', symbol: 'IDX', denomination: 0, initialStates: [state] }));
    }
    const asset = id(50);
    const mintRight: Utxo = { txID: id(next++), outputIndex: 1, assetID: asset, output: { kind: 'MintOutput', owners: me } };
    signsAndVerifies(buildXMint({ ctx, pool: pool(), changeOwners: me, mintUtxo: mintRight, owned, amount: 5n, to: me }));
    const nftRight: Utxo = { txID: id(next++), outputIndex: 0, assetID: asset, output: { kind: 'NftMintOutput', groupID: 0, owners: me } };
    signsAndVerifies(buildXNftMint({ ctx, pool: pool(), changeOwners: me, mintUtxo: nftRight, owned, payload: new Uint8Array([1, 2]), to: [me] }));
    const nft: Utxo = { txID: id(next++), outputIndex: 0, assetID: asset, output: { kind: 'NftTransferOutput', groupID: 0, payload: new Uint8Array([1, 2]), owners: me } };
    signsAndVerifies(buildXNftTransfer({ ctx, pool: pool(), changeOwners: me, nftUtxo: nft, owned, to: makeOwners([stranger.shortId]) }));
    signsAndVerifies(buildXExport({ ctx, pool: pool(), changeOwners: me, destination: 'P', amount: 1_000n, to: me }));
    for (const b of buildXImport({ ctx, pool: pool(), changeOwners: me, source: 'P', atomicUtxos: pool(), to: me })) signsAndVerifies(b);
  });

  it('P: send, export, import', () => {
    signsAndVerifies(buildPSend({ ctx, fee: pFee, pool: pool(), changeOwners: me, amount: 1_000n, to: me }));
    signsAndVerifies(buildPExport({ ctx, fee: pFee, pool: pool(), changeOwners: me, destination: 'X', amount: 1_000n, to: me }));
    for (const b of buildPImport({ ctx, fee: pFee, pool: [], changeOwners: me, source: 'C', atomicUtxos: pool(), to: me })) signsAndVerifies(b);
  });

  it('C: atomic export and import; an EVM transfer signs to the chain ID and nonce asked for', () => {
    const exported = buildCExport({ ctx, from: evm.evmAddress, nonce: 3n, balanceWei: 10n ** 18n, destination: 'X', amount: 1_000_000n, to: me, baseFeeWei: 25_000_000_000n });
    signsAndVerifies(exported);
    for (const b of buildCImport({ ctx, source: 'X', atomicUtxos: pool(), to: evm.evmAddress, baseFeeWei: 25_000_000_000n })) signsAndVerifies(b);
    const evmTx = signEvmTx({ chainId: 43112n, nonce: 7n, to: '0x0000000000000000000000000000000000000001', value: 5n, gasLimit: PLAIN_TRANSFER_GAS, ...eip1559Fees(25n, 1n) }, evm.secret);
    expect(evmTxNonce(fromHex(evmTx.rawTx.slice(2)))).toBe(7n);
    expect(evmTx.maxFeeWei).toBe(PLAIN_TRANSFER_GAS * 51n);
    // A chain a site added may have bigger blocks: a limit above micro-eth-signer's strict 30 M still signs.
    expect(signEvmTx({ chainId: 42n, nonce: 0n, to: '0x0000000000000000000000000000000000000001', value: 0n, gasLimit: 40_000_000n, ...eip1559Fees(25n, 1n) }, evm.secret).maxFeeWei).toBe(40_000_000n * 51n);
  });
});
