// The validators of the X-Chain asset studio's requests (assets.*: src/shared/messages-assets.ts), built from validate-fields.ts.
import { ValidationError } from '../core/errors.js';
import { MAX_NFT_PAYLOAD } from '../core/tx/context.js';
import { MAX_ASSET_NAME, MAX_ASSET_SYMBOL, validateAssetDescription } from '../core/tx/x.js';
import type { Amount, OwnerSet, RequestParams, RequestType } from './messages.js';
import {
  amount,
  array,
  cb58Id,
  child,
  fail,
  hexBytes,
  int,
  item,
  MAX_DENOMINATION,
  MAX_HOLDERS,
  MAX_MINTERS,
  MAX_NFT_RECIPIENTS,
  none,
  oneOf,
  ownerSet,
  ownerSets,
  present,
  record,
  str,
  U32_MAX,
  U64_MAX,
  utxoIdString,
} from './validate-fields.js';
import { maxFee } from './validate-fees.js';

type AssetType = Extract<RequestType, `assets.${string}`>;

type Holder = { owners: OwnerSet; amount: Amount };

function holders(value: unknown, field: string): Holder[] {
  return array(value, field, 1, MAX_HOLDERS).map((h, i) => {
    const path = item(field, i);
    const f = record(h, path, ['owners', 'amount']);
    return { owners: ownerSet(f.owners, child(path, 'owners')), amount: amount(f.amount, child(path, 'amount'), U64_MAX, true) };
  });
}

function createAsset(params: unknown): RequestParams<'assets.create'> {
  const f = record(params, '', ['name', 'symbol', 'denomination', 'kind', 'maxFee'], ['holders', 'minters']);
  const assetName = str(f.name, 'name', { min: 1, max: MAX_ASSET_NAME });
  const symbol = str(f.symbol, 'symbol', { min: 1, max: MAX_ASSET_SYMBOL });
  const denomination = int(f.denomination, 'denomination', 0, MAX_DENOMINATION);
  try {
    validateAssetDescription(assetName, symbol, denomination);
  } catch (e) {
    if (e instanceof ValidationError && e.field !== undefined) fail(e.field, e.message);
    throw e;
  }
  const kind = oneOf(f.kind, 'kind', ['fixed', 'variable', 'nft'] as const);
  const out: RequestParams<'assets.create'> = { name: assetName, symbol, denomination, kind, maxFee: maxFee(f) };
  switch (kind) {
    case 'fixed':
      if (!present(f, 'holders')) fail('holders', 'a fixed-cap asset needs at least one holder');
      if (present(f, 'minters')) fail('minters', 'a fixed-cap asset has no minters');
      out.holders = holders(f.holders, 'holders');
      break;
    case 'variable':
      if (!present(f, 'minters')) fail('minters', 'a variable-cap asset needs at least one minter set');
      out.minters = ownerSets(f.minters, 'minters', 1, MAX_MINTERS);
      if (present(f, 'holders')) out.holders = holders(f.holders, 'holders');
      break;
    case 'nft':
      if (!present(f, 'minters')) fail('minters', 'an NFT family needs at least one minter set (one per group)');
      if (present(f, 'holders')) fail('holders', 'an NFT family has no initial holders; mint NFTs instead');
      out.minters = ownerSets(f.minters, 'minters', 1, MAX_MINTERS);
      break;
  }
  return out;
}

export const ASSET_VALIDATORS: { [T in AssetType]: (params: unknown) => RequestParams<T> } = {
  'assets.fees': none,
  'assets.create': createAsset,
  'assets.mint': (params) => {
    const f = record(params, '', ['assetID', 'utxoID', 'amount', 'to', 'maxFee']);
    return {
      assetID: cb58Id(f.assetID, 'assetID'),
      utxoID: utxoIdString(f.utxoID, 'utxoID'),
      amount: amount(f.amount, 'amount', U64_MAX, true),
      to: ownerSet(f.to, 'to'),
      maxFee: maxFee(f),
    };
  },
  'assets.mintNft': (params) => {
    const f = record(params, '', ['assetID', 'utxoID', 'groupID', 'payloadHex', 'to', 'maxFee']);
    return {
      assetID: cb58Id(f.assetID, 'assetID'),
      utxoID: utxoIdString(f.utxoID, 'utxoID'),
      groupID: int(f.groupID, 'groupID', 0, U32_MAX),
      payloadHex: hexBytes(f.payloadHex, 'payloadHex', MAX_NFT_PAYLOAD),
      to: ownerSets(f.to, 'to', 1, MAX_NFT_RECIPIENTS),
      maxFee: maxFee(f),
    };
  },
  'assets.transferNft': (params) => {
    const f = record(params, '', ['utxoID', 'to', 'maxFee']);
    return { utxoID: utxoIdString(f.utxoID, 'utxoID'), to: ownerSet(f.to, 'to'), maxFee: maxFee(f) };
  },
  'assets.listNfts': none,
  'assets.mintRights': none,
};
