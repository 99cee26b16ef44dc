export * from './types.js';
export {
  CODEC_VERSION,
  ID_LENGTH,
  ADDRESS_LENGTH,
  SIGNATURE_LENGTH,
  encodeUnsignedTx,
  unsignedTxLength,
  encodeSignedTx,
  appendCredentials,
  encodeUtxo,
  encodeOutput,
  decodeUnsignedTx,
  decodeSignedTx,
  decodeUtxo,
  decodeChainTx,
  type DecodedSignedTx,
} from './codec.js';
export { isPBlockTx, PVM_TX_TYPE_IDS } from './pvm.js';
export { IdTable } from './utxo-fast.js';
export * from './pvm-rules.js';
export { checkInputs, checkOutputs } from './transfer-rules.js';
export * from './ids.js';
export * from './rules.js';
