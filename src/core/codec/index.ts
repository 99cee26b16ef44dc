export * from './types.js';
export {
  CODEC_VERSION,
  ID_LENGTH,
  ADDRESS_LENGTH,
  SIGNATURE_LENGTH,
  encodeUnsignedTx,
  encodeSignedTx,
  appendCredentials,
  encodeUtxo,
  encodeOutput,
  decodeUnsignedTx,
  decodeSignedTx,
  decodeUtxo,
  type DecodedSignedTx,
} from './codec.js';
export * from './ids.js';
export * from './rules.js';
